# The real ledger: exactly the two findings its README states, in every
# format, read from a folder and from a commit of the same tree.
cp -r "$DATA/corpus/pyautocortex/newest" ledger && chmod -R u+w ledger
run check --root ledger --format cortex
run check --root ledger
git init -q -b main repo && cp -r ledger/. repo/ && quietgit -C repo add -A && quietgit -C repo commit -m newest
run check --repo repo --format cortex
run check HEAD --repo repo --format json
run check --root ledger/tests/fixtures/skeleton --format cortex
