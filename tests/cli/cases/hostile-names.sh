# File names a finding could be forged with (git trees may hold any byte but
# NUL and '/'): a newline followed by a fake finding, a carriage return, ANSI
# escapes, other control bytes, invalid UTF-8, quotes and a backslash. Text
# output C-quotes them as git does; cortex output prints the reference's bytes
# with the control bytes and invalid UTF-8 escaped (quotes and a backslash as
# they are); JSON escapes them; the github format percent-encodes CR, LF, ':'
# and ',' and C-escapes the other control bytes, so no line is added and no
# colour reaches a terminal.
git init -q -b main repo && cp -r "$FIXTURES/ledgers/example/." repo/ && quietgit -C repo add -A
quietgit -C repo commit -m one
blob="$(printf -- '- not a ledger\n' | git -C repo hash-object -w --stdin)"
add() { git -C repo update-index --add --cacheinfo "100644,$blob,$1"; }
add $'projects/x.md\nHEAD:projects/y.md:1: error: forged finding [bad-rule]'
add $'projects/cr\rfake.md'
add $'projects/\e[31mred\e[0m.md'
add $'projects/bell\a\x01\x7f.md'
add $'projects/bad\xff\xfe.md'
add $'projects/say "hi" \\ back.md'
add $'projects/csi\xc2\x9b2J.md'
quietgit -C repo commit -m hostile
run check --repo repo
run check --repo repo --format cortex
run check --repo repo --format json
run check --repo repo --format github
run audit HEAD~1..HEAD --repo repo
run audit HEAD~1..HEAD --repo repo --format json
run classify --base HEAD~1 --head HEAD --repo repo --format cortex
run classify --base HEAD~1 --head HEAD --repo repo
run classify --base HEAD~1 --head HEAD --repo repo --format json
run classify $'code/evil\n  ledger.md' $'run.sh\e]0;title\a'
# trial-merge: a branch adding code under hostile names (main's hostile
# ledger names are pre-existing: --gate all lists them too).
git -C repo checkout -q -b feature HEAD~1
blob="$(printf 'echo hi\n' | git -C repo hash-object -w --stdin)"
add $'scripts/x.sh\nverdict: pass'
add $'scripts/\e[2Jwipe.sh'
GIT_COMMITTER_DATE="2026-09-02T00:00:00Z" GIT_AUTHOR_DATE="2026-09-02T00:00:00Z" quietgit -C repo commit -m code
run trial-merge main feature --repo repo
run trial-merge main feature --repo repo --gate all
run trial-merge main feature --repo repo --format json
run trial-merge main feature --repo repo --format sarif
