# check of HEAD in a working tree says in one line when the ledger paths
# hold uncommitted changes, and says so too when it could not tell (a split
# index, which libgit2 does not read): never silence in place of an answer.
git init -q -b main r && cp -r "$FIXTURES/ledgers/example/." r/ && quietgit -C r add -A && quietgit -C r commit -m base
run check --repo r
printf '\n' >> r/projects/example.md
run check --repo r
quietgit -C r update-index --split-index
run check --repo r
