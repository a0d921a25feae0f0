# The git hooks, driven by real git: install/uninstall keep a foreign hook
# byte for byte; `git commit` refuses staged drift (not unstaged drift);
# `git merge` refuses a drifting merge result; `git push` to main refuses a
# branch whose trial merge into origin/main fails, while a push to another
# branch is only checked (code there goes through); a bare server refuses a bad push
# to main (check, frozen paths); refused hooks leave status, refs, objects
# and the index as they were; the hooks folder is the one git uses.

# g ARGS...: runs git and records the call, its exit code and its output.
g() {
  git "$@" >"$tmp/go" 2>&1; local rc=$?
  { printf '$ git'; printf ' %q' "$@"; printf '\nexit: %s\n' "$rc"
    sed "s|$tmp|<tmp>|g; s|$LG|<ledgergate>|g; s/ *$//" "$tmp/go" | sed 's/^/  | /'; } >>"$actual"
}
note() { echo "# $*" >>"$actual"; }
# What a hook must never change (the index by its entries: git refreshes stat data).
refs() { git status --porcelain; git for-each-ref; git rev-parse HEAD; git ls-files -s; }
state() { refs; find "$(git rev-parse --git-dir)/objects" -type f | sort | xargs sha1sum; }
same() { cmp -s "$1" "$2" && note "$3: unchanged" || note "$3: CHANGED"; }

note "--- install beside a foreign pre-commit hook"
git init -q -b main repo
cp -r "$FIXTURES/ledgers/example/." repo/
quietgit -C repo add -A && quietgit -C repo commit -m "the example ledger"
printf '#!/bin/sh\n# a hook that was here first\necho "foreign pre-commit: ok"\n' > repo/.git/hooks/pre-commit
chmod 750 repo/.git/hooks/pre-commit
cp -p repo/.git/hooks/pre-commit foreign
run hooks install --repo repo
(cd repo/.git/hooks && ls -l | awk 'NR>1 && $NF !~ /sample$/ {print $1, $NF}') >>"$actual"
cmp -s repo/.git/hooks/pre-commit.ledgergate-orig foreign && note "the foreign hook is kept beside, byte for byte"
sed "s|$LG|<ledgergate>|" repo/.git/hooks/pre-commit >>"$actual"
sha1sum repo/.git/hooks/* > hooks-1
run hooks install --repo repo
sha1sum repo/.git/hooks/* > hooks-2
same hooks-1 hooks-2 "installing twice: the hooks folder"
run hooks status --repo repo

note "--- pre-commit: staged drift is refused, unstaged drift does not matter"
cd repo
sed -i 's/^Issue: example#7/Issue: nonsense/' projects/example.md
quietgit add projects/example.md
refs > ../before
g commit -m "drift"
refs > ../after
# (git itself writes the staged trees before it runs pre-commit, whatever the hook)
same ../before ../after "after the refused commit: status, refs, index"
find .git -path .git/ledgergate -prune -o -type f ! -name index -print | sort | xargs sha1sum > ../git-before
run hooks run pre-commit
find .git -path .git/ledgergate -prune -o -type f ! -name index -print | sort | xargs sha1sum > ../git-after
same ../git-before ../git-after "ledgergate hooks run pre-commit: every file under .git"
quietgit checkout HEAD -- projects/example.md
echo "notes" > notes.md && quietgit add notes.md
sed -i 's/^Issue: example#7/Issue: nonsense/' projects/example.md
g commit -m "a clean staged tree, drift left unstaged"
g status --short
g commit -a -m "the drift, through git's temporary index"
quietgit checkout -- projects/example.md

note "--- the chained hook's refusal stands"
printf '#!/bin/sh\necho "foreign pre-commit: no" >&2\nexit 3\n' > .git/hooks/pre-commit.ledgergate-orig
echo "more" >> notes.md && quietgit add notes.md
g commit -m "refused by the foreign hook"
cp -p ../foreign .git/hooks/pre-commit.ledgergate-orig
cd ..

note "--- uninstall restores exactly what was there"
run hooks uninstall --repo repo
cmp -s repo/.git/hooks/pre-commit foreign && note "pre-commit is the foreign hook again, byte for byte"
stat -c '%a %n' repo/.git/hooks/pre-commit | sed "s|$tmp|<tmp>|" >>"$actual"
(cd repo/.git/hooks && ls | grep -v 'sample$') >>"$actual"
run hooks uninstall --repo repo

note "--- the hooks folder is the one git uses"
git -C repo config core.hooksPath .githooks
run hooks install --repo repo --hook pre-commit
note "git: $(cd repo && realpath "$(git rev-parse --git-path hooks)" | sed "s|$tmp|<tmp>|")"
quietgit -C repo worktree add ../wt
run hooks status --repo wt
git -C repo config --unset core.hooksPath
run hooks status --repo wt
note "git: $(cd wt && realpath "$(git rev-parse --git-path hooks)" | sed "s|$tmp|<tmp>|")"

note "--- pre-merge-commit and pre-push against a bare remote"
"$FIXTURES/repos/merge-scenarios.sh" src >/dev/null
git init -q --bare -b main server.git
quietgit -C src push ../server.git main
quietgit clone server.git clone
for b in ledger-edit retire-vs-run conflict; do quietgit -C clone fetch ../src "$b:$b"; done
run hooks install --repo clone
cd clone
g merge --no-edit retire-vs-run
quietgit merge --abort
note "main holding a merge whose result fails check: its push to main is refused"
quietgit merge --no-verify --no-edit retire-vs-run
state > ../before
g push origin main
state > ../after
same ../before ../after "after the refused push: status, refs, index, objects"
quietgit reset -q --hard origin/main
note "feature branches are not gated: their trees pass check, so they go (conflict would conflict with main)"
g push origin retire-vs-run conflict
g push origin ledger-edit
g push origin main:refs/heads/copy
g push origin :ledger-edit
note "a code-only push: to a feature branch it goes, to main it is refused"
quietgit checkout -q -b tooling main
echo "echo build" > build.sh && quietgit add build.sh && quietgit commit -qm "a build script"
g push origin tooling
g push origin tooling:main
quietgit checkout -q main
g ls-remote origin
cd ..

note "--- the server refuses a bad push to main"
run hooks install --repo server.git
g -C clone merge --no-verify --no-edit retire-vs-run
g -C clone push --no-verify origin main
g -C server.git rev-parse main
run hooks uninstall --repo server.git --hook pre-receive
g -C clone push --no-verify origin main
quietgit -C clone reset --hard origin/main
echo "rewritten" > clone/archive/README.md
quietgit -C clone commit --no-verify -am "rewrite the archive"
run hooks install --repo server.git
g -C clone push --no-verify origin main
quietgit -C clone reset --hard origin/main
g -C clone merge --no-edit ledger-edit
g -C clone push origin main
g -C server.git rev-parse main
sed -i "s|$LG|<ledgergate>|g" "$actual"
