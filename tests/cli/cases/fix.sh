# fix on a copy of the real ledger (the corpus's newest, tests/ left out) in a
# fresh git repository, with two findings planted: ic50_workspace's log with
# its oldest entry moved to the top (out of order), and a log line of
# autolens_inference with its separators typed as hyphens. --diff shows the
# change and writes nothing; fix writes it, and the check after it finds only
# the two findings the corpus carries, which have no fix (retired projects
# that still list runs). A fix that would add a finding (an entry dated 30
# February) is refused and its file left as it was; --rule applies a
# suggested fix and refuses a rule whose fix is a human's; --commit commits
# the fixes (the checked-out branch's files follow); --index stages them.
mkdir repo && (cd "$DATA/corpus/pyautocortex/newest" && tar -c --exclude=./tests .) | tar -x -C repo
quietgit -C repo init -b main && quietgit -C repo add -A && quietgit -C repo commit -m corpus
python3 - repo/projects <<'PY'
import sys
d = sys.argv[1]
p = d + "/ic50_workspace.md"
lines = open(p, encoding="utf-8").read().split("\n")
oldest = max(i for i, l in enumerate(lines) if l.startswith("- 2026-08-19"))
entry = lines.pop(oldest)
lines.insert(lines.index("## Log") + 2, entry)
open(p, "w", encoding="utf-8").write("\n".join(lines))
p = d + "/autolens_inference.md"
t = open(p, encoding="utf-8").read()
open(p, "w", encoding="utf-8").write(t.replace("## Log\n\n", "## Log\n\n- 2026-09-24 - note - the separators typed as hyphens\n", 1))
PY
cd repo
run check --worktree --format cortex
run fix --diff
git status --porcelain >>"$actual"
run fix
git status --porcelain >>"$actual"
run check --worktree --format cortex
quietgit commit -am fixed
# Refused: the dashes fixed, the entry's date would be a finding of its own.
sed -i 's/^## Log$/## Log\n\n- 2026-02-30 - note - no such day/' projects/euclid.md
run fix
git status --porcelain >>"$actual"
git checkout -q projects/euclid.md
# A suggested fix only by name; a rule whose fix is a human's call.
sed -i 's/^Issue: none$/Issue: none\nIssue: PyAutoCortex#1/' projects/euclid.md
run fix
run fix --rule ledger-header-duplicate-key
git diff --stat >>"$actual"
run fix --rule ledger-summary-word-cap
git checkout -q projects/euclid.md
# --commit: the branch's tip fixed in a commit; as the branch is checked
# out here, its index entry and file follow (git status stays clean).
sed -i 's/^Project: euclid$/Project: euclidx/' projects/euclid.md
quietgit commit -am "a wrong key"
"$LG" fix --commit -m "fix: Project: of euclid" 2>>"$actual" | sed -E 's/^[0-9a-f]{40}$/<commit id>/' >>"$actual"
git log --format=%s -3 >>"$actual"
git show HEAD:projects/euclid.md | sed -n 3p >>"$actual"
sed -n 3p projects/euclid.md >>"$actual"
git status --porcelain >>"$actual"
# --index: the staged tree fixed; the fix staged, and written to the working
# file that held what the index held; a file with unstaged changes keeps them.
sed -i 's/^Project: euclid$/Project: euclidx/' projects/euclid.md
sed -i 's/^Project: ic50_workspace$/Project: ic50x/' projects/ic50_workspace.md
git add projects/euclid.md projects/ic50_workspace.md
echo "unstaged line" >>projects/ic50_workspace.md
run fix --index
git status --porcelain >>"$actual"
git diff | grep '^[-+][^-+]' >>"$actual"
