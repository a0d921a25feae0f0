# merge-file as git's merge driver: the layout detected from the repository
# git runs it in; two branches each prepending a log entry merge clean; a
# path that is not a ledger gets git's textual merge (conflict markers, exit 1);
# a ledger side that does not parse falls back to the textual merge too.
source "$here/cases/merge-file-ledger.inc"
git init -q -b main repo && cd repo || exit 1
mkdir projects && printf 'projects: {}\n' > projects.yaml && printf 'one\ntwo\n' > notes.txt
ledger 'doing a' none "$RUN1" "$E1" > projects/demo.md
quietgit add -A && quietgit commit -m base
quietgit checkout -b a && ledger 'doing a' none "$RUN1" "2026-09-03 — note — from a|$E1" > projects/demo.md
printf 'one\ntwo from a\n' > notes.txt && quietgit commit -am a
quietgit checkout -b b main && ledger 'doing a' none "$RUN1" "2026-09-04 — note — from b|$E1" > projects/demo.md
printf 'one\ntwo from b\n' > notes.txt && quietgit commit -am b
quietgit checkout a
git config merge.ledgergate.driver "$LG merge-file %O %A %B --path %P --marker-size %L"
printf '* merge=ledgergate\n' > .git/info/attributes
git merge -q b -m merged >/dev/null 2>&1; echo "git merge: exit $?" >>"$actual"
show projects/demo.md
show notes.txt
git show main:notes.txt > o && git show a:notes.txt > x && git show b:notes.txt > y
run merge-file o x y --path notes.txt
show x
git show main:projects/demo.md > o && git show a:projects/demo.md > x && git show b:projects/demo.md > y
sed -i "s/^- $RUN1\$/&\nnot a run line/" y
run merge-file o x y --path projects/demo.md -L a -L base -L b
show x
# A policy that does not read (say, itself mid-merge) does not leave OURS unmerged: text merge, a warning.
printf 'profile: [\n' > .ledgergate.yaml
git show main:projects/demo.md > o && git show a:projects/demo.md > x && git show b:projects/demo.md > y
run merge-file o x y --path projects/demo.md
show x
