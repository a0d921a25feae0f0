# Bad bytes and odd file kinds give a finding with a location, never a crash.
git init -q -b main r && cp -r "$FIXTURES/ledgers/example/." r/
printf '\xef\xbb\xbf' | cat - r/projects/single.md > t && mv t r/projects/single.md
sed -i 's/$/\r/' r/projects/wound_down.md
quietgit -C r add -A && quietgit -C r commit -m bom-and-crlf
run check --repo r --format cortex
run check --repo r
cp -r "$FIXTURES/ledgers/example/." r/ && printf 'Project: example\n\xff\xfe broken\n' >> r/projects/example.md
quietgit -C r add -A && quietgit -C r commit -m invalid-utf8
run check --repo r
git -C r checkout -q HEAD~1 -- projects/example.md && mkdir -p r/projects/dir.md && echo x > r/projects/dir.md/inner.md
ln -s example.md r/projects/linked.md && echo note > r/projects/notes.txt
quietgit -C r add -A && quietgit -C r commit -m odd-kinds
run check --repo r
run check --repo r --format cortex
