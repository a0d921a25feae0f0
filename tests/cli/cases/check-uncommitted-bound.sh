# Past git::k_uncommitted_max_files (4,000) ledger files in the index, check
# of HEAD does not look for uncommitted ledger changes (one lstat per file
# would cost more than the check) and says so in one line; at the bound it
# still looks. The entries are staged only: HEAD stays the small example.
git init -q -b main r && cp -r "$FIXTURES/ledgers/example/." r/ && quietgit -C r add -A && quietgit -C r commit -m base
blob=$(echo x | git -C r hash-object -w --stdin)
have=$(git -C r ls-files -- projects.yaml projects/ checkin.yaml tasks/ phases/ rulings/ batches/ | wc -l)
seq $((4000 - have)) | sed "s|^|100644 $blob 0\tprojects/staged/p|; s|$|.md|" | git -C r update-index --index-info
run check --repo r
echo "100644 $blob 0	projects/staged/one-more.md" | git -C r update-index --index-info
run check --repo r
run check --repo r --format json
