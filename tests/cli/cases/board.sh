# `board`: read from a commit (no checkout), --out writes the page, --check
# sets aside the banner (a re-render at another time: exit 0) but not a
# changed card (exit 1) or a hand edit (exit 1); a missing page is stale;
# the home comes from README.md, else the remote; errors exit 2. The golden
# pages themselves are tests/board/golden (ctest board_golden_pages).
cp -r "$DATA/corpus/pyautocortex/newest/tests/fixtures/skeleton" repo && chmod -R u+w repo
git init -q -b main repo && quietgit -C repo add -A && quietgit -C repo commit -m skeleton
export SOURCE_DATE_EPOCH=1788393600
run board --repo repo --out dashboard.md
run board --repo repo --out dashboard.html
head -4 dashboard.md | sed 's/ledgergate [0-9][0-9.]* from/ledgergate VERSION from/' >>"$actual"
export SOURCE_DATE_EPOCH=1790000000
run board --repo repo --check dashboard.md
run board --repo repo --check dashboard.html
# A card changes: the committed page is stale.
sed -i 's/^Nothing submitted yet.*/The dataset is on RAL; first run next./' repo/projects/single.md
quietgit -C repo commit -am "single: now"
run board --repo repo --check dashboard.md
run board --repo repo --check dashboard.html
run board HEAD~1 --repo repo --check dashboard.md
# A hand edit of the page is stale too; a page that is not there is stale.
sed -i 's/wave 2, four seeds/wave 9, four seeds/' dashboard.md
run board HEAD~1 --repo repo --check dashboard.md
run board --repo repo --check nowhere.md
# The working tree is not read: an uncommitted edit changes nothing.
run board --repo repo --out dashboard.md
echo "- 2026-09-09 — note — uncommitted" >> repo/projects/example.md
run board --repo repo --format md --check dashboard.md
# The home: README.md's link first, else the remote.
quietgit -C repo remote add origin git@github.com:Fork/Cortex.git
run board --repo repo
printf 'The ledger of https://github.com/Own/Ledger.\n' > repo/README.md
quietgit -C repo add README.md && quietgit -C repo commit -m readme
run board --repo repo
# Errors: an unknown revision, an older era, a bad --root, --out with --check.
run board no-such-rev --repo repo
mkdir -p old/tasks/example && printf '# x\n' > old/tasks/example/01_scope.md
run board --root old
run board --root missing-dir
run board --repo repo --out a.md --check b.md
