# check reads a commit, the index (what `git commit` would record) or the
# working tree; a submodule or an oversized blob is never a silent pass.
git init -q -b main r && cp -r "$FIXTURES/ledgers/example/." r/ && quietgit -C r add -A && quietgit -C r commit -m base
sed -i 's/^Issue: example#7/Issue: nonsense/' r/projects/example.md
run check --repo r --format cortex
run check --worktree --repo r --format cortex
quietgit -C r add projects/example.md
run check --index --repo r --format cortex
git -C r checkout -q -- . 2>/dev/null; quietgit -C r reset -q --hard
git -C r update-index --add --cacheinfo 160000,1111111111111111111111111111111111111111,projects/sub.md
quietgit -C r commit -m submodule
run check --repo r
quietgit -C r reset -q --hard HEAD~1
head -c 50000000 /dev/zero | tr '\0' 'x' > r/projects/single.md
quietgit -C r add -A && quietgit -C r commit -m huge
run check --repo r --format json
