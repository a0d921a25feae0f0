# `land` of two branches that each prepend a log entry to one ledger: the
# second one's merge onto the moved main conflicts for git and is resolved
# by the record merge; both land, the remote main checks clean and holds
# each entry exactly once, newest first. With `merge: git` on main, the
# same second branch is left for a human.
git init -q -b main src
cp -r "$FIXTURES/ledgers/example/." src/
quietgit -C src add -A && quietgit -C src commit -m "the ledger"
prepend_log() {  # FILE LINE: LINE becomes the newest log entry of FILE
  python3 - "$1" "$2" <<'PY'
import sys
path, line = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
open(path, "w", encoding="utf-8").write(text.replace("## Log\n\n", "## Log\n\n" + line + "\n", 1))
PY
}
for b in a b c; do
  quietgit -C src checkout -q -b "note-$b" main
  prepend_log src/projects/single.md "- 2026-09-0$([ $b = a ] && echo 3 || echo 2) — note — branch $b"
  quietgit -C src commit -qam "ledger: note $b"
done
quietgit -C src checkout -q main
quietgit clone --bare src remote.git
quietgit clone remote.git work
run land note-a --into main --repo work --mode merge
run land note-b --into main --repo work --mode merge
git -C remote.git show main:projects/single.md | sed -n '/^## Log/,$p' | sed 's/^/  single.md: /' >> "$actual"
quietgit clone remote.git final
run check --repo final
# merge: git on main: the third branch's conflict stays a conflict.
printf 'merge: git\n' > final/.ledgergate.yaml
quietgit -C final add -A && quietgit -C final commit -m "policy: merge: git"
quietgit -C final push -q origin main
quietgit -C work fetch -q origin
run land note-c --into main --repo work --mode merge
