# The hook shims find ledgergate robustly: the binary recorded at install
# time while it is there, else the first ledgergate on PATH, else a refusal
# naming the fix (never the shell's "exec: ...: not found"); `hooks status`
# says when the recorded binary is gone. Through real `git commit`.
g() {
  git "$@" >"$tmp/go" 2>&1; local rc=$?
  { printf '$ git'; printf ' %q' "$@"; printf '\nexit: %s\n' "$rc"
    sed "s|$tmp|<tmp>|g; s/ *$//" "$tmp/go" | sed 's/^/  | /'; } >>"$actual"
}
note() { echo "# $*" >>"$actual"; }
# lg ARGS...: runs the installed copy (at $tmp/opt/ledgergate), as `run` does $LG.
lg() {
  "$tmp/opt/ledgergate" "$@" >"$tmp/o" 2>&1; local rc=$?
  { printf '$ ledgergate'; printf ' %q' "$@"; printf '\nexit: %s\n' "$rc"
    sed "s|$tmp|<tmp>|g" "$tmp/o" | sed 's/^/  | /'; } >>"$actual"
}
mkdir opt onpath
cp "$LG" opt/ledgergate
git init -q -b main repo
cp -r "$FIXTURES/ledgers/example/." repo/
quietgit -C repo add -A && quietgit -C repo commit -m "the example ledger"
lg hooks install --repo repo --hook pre-commit
sed "s|$tmp|<tmp>|g" repo/.git/hooks/pre-commit >>"$actual"
cd repo
# PATH without any ledgergate: only the recorded binary can run.
export PATH=/usr/bin:/bin
echo "a" > notes.md && quietgit add notes.md
note "--- the recorded binary is there: it runs"
g commit -qm "first note"
mv ../opt/ledgergate ../opt/ledgergate.moved
note "--- the recorded binary is gone, none on PATH: refused, naming the fix"
echo "b" >> notes.md && quietgit add notes.md
g commit -qm "second note"
g log --oneline -1 --format=%s
"$tmp/opt/ledgergate.moved" hooks status --repo . 2>&1 | sed "s|$tmp|<tmp>|g" | grep pre-commit >>"$actual"
note "--- a ledgergate on PATH: the shim falls back to it"
cp ../opt/ledgergate.moved ../onpath/ledgergate
export PATH="$tmp/onpath:/usr/bin:/bin"
g commit -qm "second note"
g log --oneline -1 --format=%s
ledgergate hooks status --repo . 2>&1 | sed "s|$tmp|<tmp>|g" | grep pre-commit >>"$actual"
note "--- installing again records the binary that ran it"
ledgergate hooks install --repo . --hook pre-commit 2>&1 | sed "s|$tmp|<tmp>|g" >>"$actual"
ledgergate hooks status --repo . 2>&1 | sed "s|$tmp|<tmp>|g" | grep pre-commit >>"$actual"
