# A committed directory symlink (projects -> ../victim/projects): a writer
# never follows it out of the repository, and the working tree is judged as
# the commit is (the folder tree source reads no symlink through).
git init -q -b main repo && cp -r "$DATA/corpus/pyautocortex/newest/tests/fixtures/skeleton/." repo/
mkdir victim && mv repo/projects victim/projects && ln -s ../victim/projects repo/projects
quietgit -C repo add -A && quietgit -C repo commit -m "projects as a symlink"
cp -r victim/projects victim.before
run project log example "through the link" --today 2026-09-03 --repo repo --format cortex
run project log example "through the link" --today 2026-09-03 --root repo --format cortex
diff -r victim.before victim/projects && echo "victim unchanged" >>"$actual"
git -C repo status --porcelain >>"$actual"
run check HEAD --repo repo --format cortex
run check --worktree --repo repo --format cortex
run check HEAD --repo repo
run check --worktree --repo repo
# A verb that would create the file below the link: an error naming it, nothing written.
run project new example --summary "a new ledger" --today 2026-09-03 --repo repo --format cortex
diff -r victim.before victim/projects && echo "victim still unchanged" >>"$actual"
