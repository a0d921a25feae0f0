# --format cortex prints the reference's bytes: a tab, a backslash and a
# quote as they are, no quotes around a name; only what could forge or hide
# a line is escaped (LF, CR, ESC and the other C0 controls but TAB, DEL, the
# C1 controls). The text format keeps git's quoting. Each command with the
# cortex format: check, classify, the writer verbs.
git init -q -b main repo && cp -r "$FIXTURES/ledgers/example/." repo/
printf '%s\n' '# tabbed — x' >$'repo/projects/tab\tbed.md'
printf '%s\n' '# x — y' >'repo/projects/back\slash.md'
printf '%s\n' '# x — y' >$'repo/projects/new\nline.md'
printf '%s\n' '# x — y' >$'repo/projects/\e[31mred.md'
sed -i 's/^- 3003 — open — gpu/- 3003 —\topen\\ — gpu/' repo/projects/example.md
quietgit -C repo add -A && quietgit -C repo commit -m names
echo "## check" >>"$actual"
run check --repo repo --format cortex
run check --repo repo
echo "## classify" >>"$actual"
run classify 'projects\x.md' $'projects/a\tb.md' $'projects/a\nb.md' $'projects/\e[2Jx.md' 'projects/"q".md' --format cortex
run classify 'projects\x.md' $'projects/a\tb.md' $'projects/a\nb.md' $'projects/\e[2Jx.md' 'projects/"q".md'
run classify $'code\\x.sh' $'code/a\tb.sh' --format cortex
echo "## the writer verbs" >>"$actual"
cp -r "$FIXTURES/ledgers/example" r
run project log example $'a\ttab and a back\\slash' --today 2026-09-03 --root r --format cortex
run project log example $'a\ttab and a back\\slash' --today 2026-09-03 --root r
grep -c $'a\ttab and a back\\\\slash' r/projects/example.md >>"$actual"
run project log example $'an \e[31mescape' --today 2026-09-03 --root r --format cortex
run project log example $'an \e[31mescape' --today 2026-09-03 --root r
run project log $'example\n' x --today 2026-09-03 --root r --format cortex
run project log $'example\n' x --today 2026-09-03 --root r
run project done example $'30\t03' --today 2026-09-03 --root r --format cortex
run project running example $'\e[2J' --root r --format cortex
run project now example $'tab\there\nback\\slash' --root r --format cortex
