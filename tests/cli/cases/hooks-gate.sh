# The hooks with real git, where the policy and the original hook come from.
# A push to a URL (no remote name, so no refs/remotes/<remote>/main): a
# branch whose own .ledgergate.yaml says `protected: []` cannot push code
# into main (the policy is read from the remote's tip); the first push to an
# empty remote is judged against the empty tree. Hooks kept as relative
# links to one another (pre-merge-commit -> pre-push): after `hooks install`
# a merge still runs the original script, not ledgergate's pre-push.

# g ARGS...: runs git and records the call, its exit code and its output.
g() {
  git "$@" >"$tmp/go" 2>&1; local rc=$?
  { printf '$ git'; printf ' %q' "$@" | sed "s|$tmp|<tmp>|g"; printf '\nexit: %s\n' "$rc"
    sed "s|$tmp|<tmp>|g; s/ *$//" "$tmp/go" | sed 's/^/  | /'; } >>"$actual"
}
note() { echo "# $*" >>"$actual"; }

git init -q -b main repo
cp -r "$FIXTURES/ledgers/example/." repo/
quietgit -C repo add -A && quietgit -C repo commit -m "the example ledger"
quietgit clone -q --bare repo server.git
cd repo
"$LG" hooks install --hook pre-push >/dev/null

note "--- a branch that unprotects main and adds code, pushed to the server's URL"
git checkout -q -b sneak
printf 'protected: []\n' > .ledgergate.yaml && echo "echo build" > build.sh
quietgit add -A && quietgit commit -m "unprotect main, add a script"
g push "file://$tmp/server.git" sneak:main
g -C ../server.git log --oneline -1 main
note "--- the same to a path, and to a new branch there (not protected: checked only)"
g push "$tmp/server.git" sneak:main
g push "$tmp/server.git" sneak:feature

note "--- the first push to an empty remote: judged against the empty tree"
git checkout -q main
git init -q --bare ../empty.git
g push ../empty.git main
git checkout -q -b drift main
sed -i 's/^Issue: example#7/Issue: nonsense/' projects/example.md
quietgit commit -qam "a bad issue"
git init -q --bare ../empty2.git
g push ../empty2.git drift

note "--- hooks kept as relative links: pre-merge-commit -> pre-push"
git checkout -q main
"$LG" hooks uninstall >/dev/null
printf '#!/bin/sh\necho "the team hook ran as $(basename "$0")" >&2\nexit 0\n' > .git/hooks/pre-push
chmod +x .git/hooks/pre-push
ln -s pre-push .git/hooks/pre-merge-commit
run hooks install
git checkout -q -b side main
python3 - projects/single.md <<'PY'
import sys
p = sys.argv[1]
t = open(p, encoding="utf-8").read()
open(p, "w", encoding="utf-8").write(t.replace("## Log\n\n", "## Log\n\n- 2026-09-05 — note — on the side\n", 1))
PY
quietgit commit --no-verify -qam "a note on the side"
git checkout -q main
python3 - projects/example.md <<'PY'
import sys
p = sys.argv[1]
t = open(p, encoding="utf-8").read()
open(p, "w", encoding="utf-8").write(t.replace("## Log\n\n", "## Log\n\n- 2026-09-05 — note — on main\n", 1))
PY
quietgit commit --no-verify -qam "a note on main"
g merge --no-edit side
g log --oneline -1
run hooks uninstall
(cd .git/hooks && stat -c '%A %N' pre-push pre-merge-commit) >>"$actual"
