# The command line's rough edges: a mistyped command or option is named with
# the nearest real one, `help CMD` is `CMD --help`, --color and NO_COLOR
# (no-color.org: only a non-empty value turns colour off), a pinned profile
# that the tree does not hold is exit 2, and the exit code follows the
# verdict in every format when the policy lowers a rule.
run frobnicate
run chek
run chek --repo somewhere
run check --formt json
run hooks instal
run help nosuch
git init -q -b main r && cp -r "$FIXTURES/ledgers/example/." r/ && quietgit -C r add -A && quietgit -C r commit -m one
# help CMD [SUB] prints exactly what CMD [SUB] --help prints.
for words in "check" "hooks install" "" "req append"; do
  # shellcheck disable=SC2086
  "$LG" help $words >"$tmp/help" 2>&1; h=$?
  # shellcheck disable=SC2086
  "$LG" $words --help >"$tmp/dash" 2>&1; d=$?
  if cmp -s "$tmp/help" "$tmp/dash" && [ "$h" = "$d" ]; then echo "help ${words:-(none)}: same as --help, exit $h" >>"$actual"
  else echo "help ${words:-(none)}: DIFFERS" >>"$actual"; fi
done
# Colour: a finding in the text format, on a terminal (script(1) gives one).
sed -i 's/^- 3003 — open/- 3002_1 — open/' r/projects/example.md
quietgit -C r add -A && quietgit -C r commit -m overlap
colour() {  # colour ENV... -- ARGS: whether the first finding line carries an ANSI escape
  local envs=() ; while [ "$1" != -- ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" script -qec "$(printf '%q ' "$LG" "$@")" /dev/null </dev/null >"$tmp/tty" 2>&1
  if grep -q $'\033\\[' "$tmp/tty"; then echo "colour: ${envs[*]} $*: yes" >>"$actual"
  else echo "colour: ${envs[*]} $*: no" >>"$actual"; fi
}
colour NO_COLOR= -- check --repo r
colour NO_COLOR=1 -- check --repo r
colour NO_COLOR=1 -- check --repo r --color always
colour NO_COLOR= -- check --repo r --color never
colour NO_COLOR= -- --color never check --repo r
run check --repo r --color sometimes
# A pinned profile must be one the tree holds.
run check --repo r --profile cortex-tasks
run check --repo r --profile cortex-phases@p2
run check --repo r --profile cortex-projects
# A reference rule lowered to info: every format passes, and cortex says OK.
git init -q -b main low && cp -r "$FIXTURES/ledgers/example/." low/
sed -i '/^Issue: /d' low/projects/example.md
printf 'severities:\n  ledger-header-required: info\n' >low/.ledgergate.yaml
quietgit -C low add -A && quietgit -C low commit -m lowered
for format in text cortex json github; do run check --repo low --format "$format"; done
printf 'severities:\n  ledger-header-required: error\n' >low/.ledgergate.yaml
quietgit -C low add -A && quietgit -C low commit -m raised
for format in text cortex json github; do run check --repo low --format "$format"; done
# req init into a missing folder names the folder, not a temporary file.
run req init no/such/folder/open-requirements.ledger.yml
