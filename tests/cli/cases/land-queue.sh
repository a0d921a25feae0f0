# `land --mode merge` and the queue's lease on the remote
# (refs/ledgergate/land-lock, docs/land.md): a live lease held by another
# lander is waited on until the budget runs out (exit 2, nothing written);
# an expired lease, or a ref that is not a lease, is taken over; the lease
# is released after the push; --no-queue leaves the ref alone; a remote that
# refuses the ref lands without a queue; durations are checked.
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
for b in a b c d; do
  quietgit -C src checkout -q -b "note-$b" main
  prepend_log src/projects/example.md "- 2026-09-0$([ $b = a ] && echo 2 || echo 3) — note — branch $b"
  quietgit -C src commit -qam "ledger: note $b"
  quietgit -C src checkout -q main
  prepend_log src/projects/single.md "- 2026-09-02 — note — main before $b"
  quietgit -C src commit -qam "ledger: main before $b"
done
quietgit clone --bare src remote.git
quietgit clone remote.git work
show() { echo "--- $*" >> "$actual"; "$@" >> "$actual" 2>&1; }
# A lease commit on the remote: HOLDER BRANCH EXPIRES-MS
put_lease() {
  local tree id
  tree=$(git -C remote.git mktree </dev/null)
  id=$(printf 'ledgergate land lease\n\nholder: %s\nbranch: %s\nexpires-ms: %s\n' "$1" "$2" "$3" |
    git -C remote.git commit-tree "$tree")
  git -C remote.git update-ref refs/ledgergate/land-lock "$id"
}
refs() { git -C remote.git for-each-ref --format='%(refname) %(objectname:short=12)' refs/heads/main refs/ledgergate; }

# A live lease (another lander's, far from expiring) and no budget: gave up, exit 2, nothing written.
put_lease "another lander" claude/other 99999999999999
show refs
run land note-a --into main --repo work --mode merge --retry-for 0
show refs
# The same lease, expired (a lander that died): taken over, then released.
put_lease "a dead lander" claude/gone 1
run land note-a --into main --repo work --mode merge
show refs
# A ref there that is not a lease: replaced, then released.
git -C remote.git update-ref refs/ledgergate/land-lock main
run land note-b --into main --repo work --mode merge --format json
show refs
# --no-queue: the live lease is not looked at, and stays.
put_lease "another lander" claude/other 99999999999999
run land note-c --into main --repo work --mode merge --no-queue
show refs
git -C remote.git update-ref -d refs/ledgergate/land-lock
# A remote that refuses refs/ledgergate/*: lands without a queue.
cat > remote.git/hooks/pre-receive <<'SH'
#!/bin/sh
while read -r old new ref; do
  case "$ref" in refs/ledgergate/*) echo "only branches here" >&2; exit 1 ;; esac
done
SH
chmod +x remote.git/hooks/pre-receive
run land note-d --into main --repo work --mode merge
show refs
rm remote.git/hooks/pre-receive
# Durations and counts are checked.
run land note-a --into main --repo work --mode merge --retry-for 5x
run land note-a --into main --repo work --mode merge --max-attempts -1
quietgit clone remote.git final
run check --repo final
