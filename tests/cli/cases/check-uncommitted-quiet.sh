# check --quiet prints nothing when HEAD passes and only the summary when it
# fails: never the uncommitted-ledger notice (whose scan is not started).
git init -q -b main r && cp -r "$FIXTURES/ledgers/example/." r/ && quietgit -C r add -A && quietgit -C r commit -m base
printf '\n' >> r/projects/example.md
run check --quiet --repo r
quietgit -C r checkout -- projects/example.md
printf 'projects: [\n' > r/projects.yaml
quietgit -C r commit -am broken
printf '\n' >> r/projects/example.md
run check --quiet --repo r
