# project: spec §8.5, fact by fact, in the reference's format — each verb's
# check order, each label, the values accepted empty, --today's forms, the
# ledger lookup, the bytes of a rewritten section, argument parsing, and the
# G-02 places ledgergate refuses. `fresh` restores the R-skeleton fixture;
# `same` records whether a command left every byte as it was.
fresh() { rm -rf r && cp -r "$FIXTURES/ledgers/example" r; }
same() { rm -rf before && cp -r r before; "$@"; diff -r before r >/dev/null && echo "unchanged" >>"$actual" || echo "CHANGED" >>"$actual"; }
show() { echo "--- $1" >>"$actual"; cat "r/$1" >>"$actual"; }
fresh
echo "## labels: … must say something / … is one line" >>"$actual"
same run project run example 3005 "" --partition gpu --today 2026-09-03 --root r --format cortex
same run project run example 3005 $'two\nlines' --partition gpu --today 2026-09-03 --root r --format cortex
same run project log example "   " --today 2026-09-03 --root r --format cortex
same run project log example $'two\nlines' --today 2026-09-03 --root r --format cortex
same run project done example 3003 --note "  " --today 2026-09-03 --root r --format cortex
same run project done example 3003 --note $'two\nlines' --today 2026-09-03 --root r --format cortex
same run project new sleeping --summary "" --today 2026-09-03 --root r --format cortex
same run project new sleeping --summary $'two\nlines' --today 2026-09-03 --root r --format cortex
same run project now example " " --root r --format cortex
same run project retire single --why "  " --today 2026-09-03 --root r --format cortex
same run project retire single --why $'two\nlines' --today 2026-09-03 --root r --format cortex
echo "## the ledger lookup: L1 key grammar, L2 no ledger, L3 parse findings without {rel}: (a key with one trailing LF passes L1)" >>"$actual"
same run project log Bad-Key x --today 2026-09-03 --root r --format cortex
same run project log nosuch x --today 2026-09-03 --root r --format cortex
same run project log $'example\n' x --today 2026-09-03 --root r --format cortex
sed -i 's/- 3003 — open — gpu/- 3003 — opne — gpu/' r/projects/example.md
same run project log example x --today 2026-09-03 --root r --format cortex
same run project issue example --root r --format cortex
fresh
echo "## new: projects.yaml, the row, summary, word cap, issue, then 'already exists'" >>"$actual"
same run project new Bad-Key --summary x --today 2026-09-03 --root r --format cortex
same run project new example --summary "w w w w w w w w w w w w w w w w" --today 2026-09-03 --root r --format cortex
same run project new example --summary "a b c d e f g h i j k l m n -- o" --today 2026-09-03 --root r --format cortex
same run project new example --summary "ok" --issue "o/r#1" --today 2026-09-03 --root r --format cortex
same run project new example --summary "ok" --issue "  " --today 2026-09-03 --root r --format cortex
same run project new example --summary "ok" --today 2026-09-03 --root r --format cortex
same run project new sleeping --summary "ok" --now $'## Notes\nx' --today 2026-09-03 --root r --format cortex
cp r/projects.yaml keep.yaml && printf 'broken: [\n' >>r/projects.yaml
same run project new sleeping --summary x --today 2026-09-03 --root r --format cortex
cp keep.yaml r/projects.yaml
run project new sleeping --summary "  a b c d e f g h i j k l m n-- o  " --issue "" --now $'  two -- here\n\n  lines  ' --today 2026-09-03 --root r --format cortex
show projects/sleeping.md
rm r/projects/sleeping.md
run project new sleeping --summary "quiet" --issue " sleeping#2 " --now "   " --today 2026-09-03 --root r --format cortex
show projects/sleeping.md
echo "## run: --today, job id, what, the ledger, 'already listed', then the partition" >>"$actual"
fresh
same run project run Bad-Key 4100_7 $'two\nlines' --root r --format cortex
same run project run Bad-Key 12ab "" --root r --format cortex
same run project run nosuch 3004 ok --partition "Bad Part" --today 2026-09-03 --root r --format cortex
same run project run example 3003 ok --partition "Bad Part" --today 2026-09-03 --root r --format cortex
same run project run example 3005 ok --partition "Bad Part" --today 2026-09-03 --root r --format cortex
same run project run example 3005 ok --partition "" --today 2026-09-03 --root r --format cortex
same run project run example $'3005\n' ok --partition gpu --today 2026-09-03 --root r --format cortex
same run project run example 3005 ok --partition $'gpu\n' --today 2026-09-03 --root r --format cortex
run project run single 3005 "  first -- try  " --partition "" --today 2026-09-03 --root r --format cortex
run project run example "5000_[3-1]" "ranges unordered" --partition gpu --today 2026-09-03 --root r --format cortex
show projects/single.md
echo "## running: the id as typed, 'already running' writes nothing" >>"$actual"
same run project running example "" --root r --format cortex
same run project running example 3002_[0-3] --root r --format cortex
run project running example 3003 --root r --format cortex
same run project running example 3003 --today 2026-09-03 --root r --format cortex
echo "## done: the wall before the key, the note after the run's lookup; empty values accepted" >>"$actual"
same run project done Bad-Key 3003 --wall 1:5 --root r --format cortex
same run project done wound_down "5000_[3-1]" --note $'two\nlines' --today 2026-09-03 --root r --format cortex
same run project done nosuch 3003 --note "  " --today 2026-09-03 --root r --format cortex
same run project done example 3003 --wall "  " --today 2026-09-03 --root r --format cortex
same run project done example 3003 --wall $'1:05\n' --today 2026-09-03 --root r --format cortex
run project done single 3005 --note "" --wall "" --today 2026-09-03 --root r --format cortex
run project done example 3003 --failed --wall 0:40 --note " out -- of memory " --today 2026-09-03 --root r --format cortex
echo "## done left ## Runs empty: two empty lines" >>"$actual"
show projects/single.md
show projects/example.md
echo "## log: the text before the key; the head's date compared as written" >>"$actual"
same run project log Bad-Key "" --root r --format cortex
same run project log example backdated --today 2026-09-02 --root r --format cortex
sed -i '0,/^- 2026-09-03 — run/s//- 2026-13-02 — run/' r/projects/example.md
same run project log example x --today 2026-09-04 --root r --format cortex
fresh
echo "## now: the text before the key; cut at LF; the first line at any line break" >>"$actual"
same run project now Bad-Key '' --root r --format cortex
same run project now Bad-Key 'x' --root r --format cortex
same run project now example $'Pulled.\n## Foo\nx' --root r --format cortex
run project now example $'  line one\nline two -- next\n\n  indented  ' --root r --format cortex
run project now single $'a\vb' --root r --format cortex
show projects/example.md
grep -c $'a\vb' r/projects/single.md >>"$actual"
echo "## issue: -n as Python's int, the texts trimmed" >>"$actual"
fresh
sed -i 's/^  chained after 3002 with afterok$/  chained after 3002 with afterok   /; s/four seeds$/four seeds    /' r/projects/example.md
run project issue example -n 0 --root r --format cortex
run project issue example -n -5 --root r --format cortex
run project issue example -n ' 1_0 ' --root r --format cortex
run project issue example -n2 --root r --format cortex
run project issue example -n x --root r --format cortex
run project issue sleeping --root r --format cortex
echo "## retire: --why first, the raw key, the note as typed and the entry dash-normalised" >>"$actual"
same run project retire Bad-Key --why "" --today 2026-09-03 --root r --format cortex
same run project retire Bad-Key --why fit --today 2026-09-03 --root r --format cortex
same run project retire example --why 'a "quoted" why' --today 2026-09-03 --root r --format cortex
same run project retire example --why "fit" --today 2026-09-03 --root r --format cortex
run project retire single --why "  it's done -- for now  " --today 2026-09-03 --root r --format cortex
run project retire sleeping --why "never woke" --today 2026-09-03 --root r --format cortex
show projects/single.md
diff "$FIXTURES/ledgers/example/projects.yaml" r/projects.yaml >>"$actual"
echo "## --today: before every check, Python's ISO forms, written YYYY-MM-DD" >>"$actual"
fresh
same run project log Bad-Key "" --today bad --root r --format cortex
same run project log example x --today " 2026-09-03" --root r --format cortex
same run project log example x --today 2026-02-30 --root r --format cortex
run project log example "week date" --today 2026-W41-1 --root r --format cortex
run project log example "basic" --today 20261006 --root r --format cortex
run project log example "week, no day" --today 2026W42 --root r --format cortex
same run project log example "53 weeks?" --today 2025-W53 --root r --format cortex
same run project log example "53 weeks" --today 2020-W53-1 --root r --format cortex
grep -E '^- 2026-10-(0[56]|12) ' r/projects/example.md >>"$actual"
echo "## --root: not a directory, printed normalised (exit 2)" >>"$actual"
run project log example x --root /nonexistent//x/./y/ --format cortex
run project log example x --root ./nonexistent --format cortex
echo "## argument parsing: prefixes, --opt=value, last value wins, -5 as a positional" >>"$actual"
run project log example "abbreviated" --tod 2026-10-20 --ki result --root r --format cortex
run project log example "twice" --today 2026-10-21 --today=2026-10-22 --root r --format cortex
run project log example -5 --today 2026-10-22 --root r --format cortex
run project run example 3006 "prefixed" --part=gpu --tod 2026-10-22 --root r --format cortex
run project done example 3006 --fail --w 0:01 --n "cut short" --tod 2026-10-22 --root r --format cortex
run project log example x --kind verdict --root r --format cortex
same run project now example x --today 2026-10-22 --root r --format cortex
echo "## G-02: what the reference writes and check then fails, refused" >>"$actual"
same run project run example 3007 backdated --partition gpu --today 2026-08-01 --root r --format cortex
same run project run single 3007 "wrong partition" --partition gpu --today 2026-10-22 --root r --format cortex
same run project done example 3003 --today 2026-08-01 --root r --format cortex
same run project log example $'a\rb' --today 2026-10-22 --root r --format cortex
run project retire single --why done --today 2026-10-22 --root r --format cortex
same run project run single 3008 "after retiring" --partition ral --today 2026-10-22 --root r --format cortex
echo "## CRLF files stay CRLF (a documented deviation)" >>"$actual"
fresh
sed -i 's/$/\r/' r/projects/example.md
run project log example "crlf kept" --today 2026-09-03 --root r --format cortex
run project running example 3003 --root r --format cortex
grep -c $'\r$' r/projects/example.md >>"$actual"
grep -vc $'\r$' r/projects/example.md >>"$actual"
