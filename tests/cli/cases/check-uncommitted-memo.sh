# check of HEAD in a working tree keeps a memo of its look for uncommitted
# ledger changes in the persistent cache (where the index holds the ledger
# entries, each ledger folder's file count): the next check of an unchanged
# working tree reads less, and a change to a ledger folder or the index is
# still seen. --no-cache neither reads nor writes it.
git init -q -b main r && cp -r "$FIXTURES/ledgers/example/." r/ && quietgit -C r add -A && quietgit -C r commit -m base
sleep 3.2  # the ledger folders settle (git::k_folder_settled): their file counts are kept
run check --repo r --no-cache
echo "memo entries after --no-cache: $(find r/.git/ledgergate/cache -path '*/worktree/*' -type f 2>/dev/null | wc -l)" >>"$actual"
run check --repo r
memo=$(find r/.git/ledgergate/cache/worktree -type f)
echo "memo: $(grep -ac '^index ' "$memo") index span, $(grep -ac '^folder ' "$memo") folder count" >>"$actual"
run check --repo r
printf 'new\n' >r/projects/new.md
run check --repo r
rm r/projects/new.md
run check --repo r
printf '\n' >>r/projects/example.md
run check --repo r
quietgit -C r add projects/example.md
run check --repo r
quietgit -C r commit -m edit
run check --repo r
