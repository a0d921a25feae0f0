# project: a CRLF ledger keeps its CR line ends (new lines get them too) and
# every byte it does not touch; a BOM ledger has no title for the reference,
# so every verb refuses it and nothing is rewritten.
cp -r "$FIXTURES/ledgers/example" r
sed -i 's/$/\r/' r/projects/single.md
cp r/projects/single.md single.before
run project log single "pulled the dataset" --kind result --today 2026-09-03 --root r --format cortex
run project run single 77 "first run" --today 2026-09-03 --root r --format cortex
diff single.before r/projects/single.md | cat -A >>"$actual"
printf '\xef\xbb\xbf' | cat - r/projects/wound_down.md > t && mv t r/projects/wound_down.md
cp r/projects/wound_down.md wound.before
run project log wound_down x --today 2026-09-03 --root r --format cortex
cmp wound.before r/projects/wound_down.md && echo "wound_down.md unchanged" >>"$actual"
