# The change gate on the real ledger, which already carries two errors
# (ledger-retired-has-no-runs on projects/euclid_dr1_prelim.md and
# projects/euclid_sersics.md): copied into a fresh repository (its tests/
# left out) with the hooks installed, a correct `project log` commit goes
# through and counts the two; a commit that adds an error is refused naming
# only that one; `--gate all` refuses both. Then, against a bare remote,
# trial-merge and land (audit mode) of a ledger-only branch pass with the
# two as unchanged, a branch that fixes one says `fixes 1`, a branch that
# adds one fails on it alone; and `check REV --against REV2` says the same.

# g ARGS...: runs git and records the call, its exit code and its output.
g() {
  git "$@" >"$tmp/go" 2>&1; local rc=$?
  { printf '$ git'; printf ' %q' "$@"; printf '\nexit: %s\n' "$rc"
    sed "s|$tmp|<tmp>|g; s/ *$//" "$tmp/go" | sed 's/^/  | /'; } >>"$actual"
}
note() { echo "# $*" >>"$actual"; }

cp -r "$DATA/corpus/pyautocortex/newest" ledger && chmod -R u+w ledger && rm -rf ledger/tests
git init -q -b main repo && cp -r ledger/. repo/ && quietgit -C repo add -A && quietgit -C repo commit -m "the real ledger"
run check --repo repo
run hooks install --repo repo --hook pre-commit
cd repo

note "--- a correct project log commit: exit 0, the two old errors counted"
run project log analytic_gaussian "the gate judges the change" --today 2026-12-01
g commit -qam "log: the gate"

note "--- a commit that adds an error: refused, naming only that error"
sed -i 's/^Issue: .*/Issue: nonsense/' projects/analytic_gaussian.md
g commit -qam "a bad issue"
note "--- --gate all refuses both: the new error's commit, and a correct one"
git add -A
run hooks run pre-commit --gate all
git checkout -q HEAD -- projects/analytic_gaussian.md
"$LG" project log analytic_gaussian "another correct entry" --today 2026-12-02 >/dev/null && git add -A
run hooks run pre-commit --gate all
run hooks run pre-commit
git reset -q --hard

note "--- trial-merge and land against the remote's main"
cd ..
quietgit clone --bare repo remote.git
quietgit clone remote.git work
cd work
git checkout -q -b ledger-only origin/main
"$LG" project log analytic_gaussian "a ledger-only branch" --today 2026-12-03 >/dev/null
quietgit commit -qam "ledger-only"
git checkout -q -b fixes-one origin/main
sed -i '/^- 343043_\[0-99\] — open/d' projects/euclid_sersics.md
quietgit commit -qam "euclid_sersics: no run line left on a retired project"
git checkout -q -b adds-one origin/main
sed -i 's/^Issue: .*/Issue: nonsense/' projects/analytic_gaussian.md
quietgit commit -qam "a bad issue"
quietgit push origin ledger-only fixes-one adds-one
cd ..
for branch in ledger-only fixes-one adds-one; do
  run trial-merge origin/main "origin/$branch" --repo work
  run land "$branch" --into main --repo work
done
run trial-merge origin/main origin/ledger-only --repo work --gate all
run trial-merge origin/main origin/fixes-one --repo work --format json
run land adds-one --into main --repo work --format json
run check origin/fixes-one --against origin/main --repo work
run check origin/adds-one --against origin/main --repo work
run check origin/adds-one --against origin/main --repo work --gate all
run check origin/adds-one --against origin/main --repo work --format cortex
