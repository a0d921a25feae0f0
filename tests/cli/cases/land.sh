# `land` against a local bare repository as the remote: the merge-scenario
# branches (fixtures/repos/merge-scenarios.sh) pushed to remote.git, landed
# from a clone. Audit mode writes nothing; a ledger-only branch lands and is
# deleted; code, a conflict and a semantic failure are left alone; a push
# that loses the race to another writer of main is retried on the new tip.
"$FIXTURES/repos/merge-scenarios.sh" src >/dev/null
quietgit clone --bare src remote.git
quietgit clone remote.git work
remote_state() { git -C remote.git for-each-ref --format='%(refname) %(objectname:short=12)' refs/heads; \
                 git -C remote.git count-objects | cut -d, -f1; }
show() { echo "--- $*" >> "$actual"; "$@" >> "$actual" 2>&1; }

# Audit mode: every check, no write (the remote's refs and objects unchanged).
remote_state > before.txt
run land ledger-edit --into main --repo work
run land ledger-edit --into main --repo work --format json
remote_state > after.txt
cmp -s before.txt after.txt && echo "audit: remote unchanged" >> "$actual" || echo "audit: REMOTE CHANGED" >> "$actual"
clone_state() { (cd work/.git && find objects refs packed-refs -type f 2>/dev/null | sort | xargs sha1sum); }
clone_state > before.txt
"$LG" land ledger-edit --into main --repo work >/dev/null
clone_state > after.txt
cmp -s before.txt after.txt && echo "audit again: clone's objects and refs unchanged" >> "$actual" \
  || echo "audit again: CLONE CHANGED" >> "$actual"

# Merge mode: lands, the branch is deleted, main is the merge commit.
run land ledger-edit --into main --repo work --mode merge
show git -C remote.git log --format='%h %p %s' -2 main
git -C remote.git rev-parse -q --verify refs/heads/ledger-edit >/dev/null || echo "ledger-edit: deleted on the remote" >> "$actual"
# Left for a human: code, frozen archive/, a conflict, a semantic failure; branches kept.
run land code-edit --into main --repo work --mode merge
run land archive-edit --into main --repo work --mode merge
run land conflict --into main --repo work --mode merge
run land retire-vs-run --into main --repo work --mode merge
show git -C remote.git for-each-ref --format='%(refname:short)' refs/heads
# Already in main: stops successfully, nothing written.
run land contained --into main --repo work --mode merge
# A birth lands with --keep-branch (the branch stays).
run land birth --into main --repo work --mode merge --keep-branch
show git -C remote.git rev-parse --short=12 birth
# Refusals and errors.
run land main --into main --repo work
run land archive/condemned/old --into main --repo work
run land "" --into main --repo work
run land no-such-branch --into main --repo work
run land ledger-edit --into main --repo work --remote nowhere

# The race: a `git` wrapper moves the remote main (another writer's ledger
# note on projects/single.md) just before the first push of main, so the
# compare-and-swap is refused and land retries on the new tip.
prepend_log() {  # FILE LINE: LINE becomes the newest log entry of FILE
  python3 - "$1" "$2" <<'PY'
import sys
path, line = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
open(path, "w", encoding="utf-8").write(text.replace("## Log\n\n", "## Log\n\n" + line + "\n", 1))
PY
}
quietgit -C work fetch origin
quietgit -C work checkout -q -b mover origin/main
prepend_log work/projects/single.md "- 2026-09-02 — note — another writer"
quietgit -C work commit -qam "another writer: a note on single"
quietgit -C work checkout -q -b note origin/main
prepend_log work/projects/example.md "- 2026-09-04 — note — the branch being landed"
quietgit -C work commit -qam "ledger: a note on example"
quietgit -C work push origin note
mkdir bin
real_git="$(command -v git)"
cat > bin/git <<SH
#!/bin/sh
case "\$*" in
  *push*refs/heads/main*)
    if [ ! -e "$tmp/moved" ]; then
      touch "$tmp/moved"
      "$real_git" -C "$tmp/work" push -q origin mover:refs/heads/main
    fi ;;
esac
exec "$real_git" "\$@"
SH
chmod +x bin/git
PATH="$tmp/bin:$PATH" run land note --into main --repo work --mode merge --retry-delay 0
show git -C remote.git log --format='%h %s' -3 main

run land run-twice --into main --repo work --mode merge --keep-branch

# A branch whose tip has drift (single's Project: header removed): left alone.
quietgit -C work fetch origin
quietgit -C work checkout -q -b drift origin/main
sed -i '/^Project: single$/d' work/projects/single.md
quietgit -C work commit -qam "ledger: single loses its header"
quietgit -C work push origin drift
run land drift --into main --repo work --mode merge

# A remote that refuses the push (its pre-receive hook declines): exit 2,
# no retry, the branch kept.
quietgit -C work checkout -q -b late origin/main
prepend_log work/projects/single.md "- 2026-09-05 — note — late"
quietgit -C work commit -qam "ledger: a late note on single"
quietgit -C work push origin late
# Another writer moves main before every push: 4 attempts lost
# (--max-attempts 4; without it, the --retry-for budget), exit 2, the
# branch kept.
cat > bin/git <<SH
#!/bin/sh
case "\$*" in
  *push*refs/heads/main*)
    "$real_git" -C "$tmp/work" fetch -q origin main
    bump=\$("$real_git" -C "$tmp/work" commit-tree -p FETCH_HEAD -m "another writer" "FETCH_HEAD^{tree}")
    "$real_git" -C "$tmp/work" push -q origin "\$bump:refs/heads/main" ;;
esac
exec "$real_git" "\$@"
SH
PATH="$tmp/bin:$PATH" run land late --into main --repo work --mode merge --retry-delay 0 --max-attempts 4
show git -C remote.git for-each-ref --format='%(refname:short) %(objectname:short=12)' refs/heads/late
printf '#!/bin/sh\necho "main is frozen today" >&2\nexit 1\n' > remote.git/hooks/pre-receive
chmod +x remote.git/hooks/pre-receive
run land late --into main --repo work --mode merge
show git -C remote.git for-each-ref --format='%(refname:short) %(objectname:short=12)' refs/heads/main refs/heads/late

# --format github: annotations on stdout, the markdown summary appended to
# $GITHUB_STEP_SUMMARY (check on the drifted branch tip; land on a conflict).
quietgit -C work checkout -q drift
GITHUB_STEP_SUMMARY="$tmp/summary.md" run check --repo work --format github
GITHUB_STEP_SUMMARY="$tmp/summary.md" run land conflict --into main --repo work --format github
show cat summary.md

# --scope change (audit mode): check-branch and trial-merge judge only what
# the branch changes: the same verdicts, the unchanged findings not counted.
run land late --into main --repo work --scope change
run land late --into main --repo work --scope change --format json
run land drift --into main --repo work --scope change
run land retire-vs-run --into main --repo work --scope change
