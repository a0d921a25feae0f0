# project --commit on a branch that is checked out: what `git commit` does —
# the commit, then the index and the file brought up to date — so `git
# status` is clean and the next `git commit` keeps the entry. A path with
# uncommitted changes (in the file or staged) is refused, naming it, and
# nothing is written. The same from and into a linked worktree; a branch
# checked out nowhere is written from objects alone, as before.
git init -q -b main repo && cp -r "$DATA/corpus/pyautocortex/newest/tests/fixtures/skeleton/." repo/
quietgit -C repo add -A && quietgit -C repo commit -m skeleton
run project log example "from a job" --today 2026-09-03 --commit --repo repo --format cortex
echo "status after --commit:" >>"$actual"
git -C repo status --porcelain >>"$actual"
git -C repo log -p -1 --format=%s main | grep -v '^index ' >>"$actual"
# The next commit keeps the entry.
echo "extra" >repo/notes.txt && quietgit -C repo add notes.txt && quietgit -C repo commit -m notes
git -C repo show HEAD:projects/example.md | grep -c "from a job" | sed 's/^/entries at HEAD: /' >>"$actual"

# An unstaged change to the path: refused, nothing written.
echo "my edit" >>repo/projects/example.md
before="$(git -C repo rev-parse main)"
run project log example "refused" --today 2026-09-03 --commit --repo repo --format cortex
[ "$(git -C repo rev-parse main)" = "$before" ] && echo "main unchanged" >>"$actual"
tail -1 repo/projects/example.md >>"$actual"
git -C repo status --porcelain >>"$actual"
# Staged: refused too.
quietgit -C repo add projects/example.md
run project log example "refused" --today 2026-09-03 --commit --repo repo
git -C repo status --porcelain >>"$actual"
quietgit -C repo reset -q --hard

# A path the edit does not touch may be dirty.
echo "draft" >>repo/projects/single.md
run project log example "beside a draft" --today 2026-09-03 --commit --repo repo --format cortex
git -C repo status --porcelain >>"$actual"
quietgit -C repo checkout -- projects/single.md

# A linked worktree on its own branch: --commit from the main one moves it
# and updates the linked tree; from the linked one, main's tree is updated.
quietgit -C repo worktree add -b topic ../linked
run project log example "into the linked tree" --today 2026-09-04 --commit --branch topic --repo repo --format cortex
git -C linked status --porcelain >>"$actual"
grep -c "into the linked tree" linked/projects/example.md | sed 's/^/linked entries: /' >>"$actual"
run project log example "from the linked tree" --today 2026-09-04 --commit --branch main --repo linked --format cortex
git -C repo status --porcelain >>"$actual"
grep -c "from the linked tree" repo/projects/example.md | sed 's/^/main entries: /' >>"$actual"
echo "my edit" >>linked/projects/example.md
run project log example "refused" --today 2026-09-04 --commit --branch topic --repo repo --format cortex
git -C linked status --porcelain >>"$actual"
quietgit -C linked checkout -- projects/example.md

# A branch checked out nowhere: objects alone, no working tree touched.
quietgit -C repo branch side main
run project log example "on a side branch" --today 2026-09-05 --commit --branch side --repo repo --format cortex
git -C repo status --porcelain >>"$actual"
git -C repo show side:projects/example.md | grep -c "on a side branch" | sed 's/^/side entries: /' >>"$actual"
ls repo/.git/index.lock "$(git -C linked rev-parse --absolute-git-dir)/index.lock" 2>/dev/null | wc -l |
  sed 's/^/index.lock left: /' >>"$actual"
find repo/.git/ledgergate/write "$(git -C linked rev-parse --absolute-git-dir)/ledgergate/write" -mindepth 1 | wc -l |
  sed 's/^/staged files left: /' >>"$actual"
