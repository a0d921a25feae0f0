# NUL and other C0 control characters in ledger text: a located warning
# (input-control-char) by default, an error when the policy raises it; tab
# is not one; --format cortex stays the reference's (it does not report them).
git init -q -b main r && cp -r "$FIXTURES/ledgers/example/." r/
sed -i 's/^Wave 2 is on the cluster: /Wave 2 is on the cluster:\t/' r/projects/example.md
grep -c "$(printf '\t')" r/projects/example.md >>"$actual"
quietgit -C r add -A && quietgit -C r commit -m tab
run check --repo r
python3 - r/projects/example.md r/projects/wound_down.md <<'PY'
import sys
p = sys.argv[1]
text = open(p, "rb").read().replace(b"Next: pull wave 2", b"Next: pull\x00 wave 2", 1)
open(p, "wb").write(text)
q = sys.argv[2]
text = open(q, "rb").read()
open(q, "wb").write(text.replace(b"\n## ", b"\n\x1b[8m hidden\x1b[0m\n## ", 1))
PY
quietgit -C r add -A && quietgit -C r commit -m control-chars
git -C r diff --stat HEAD~1 HEAD | sed 's/^ *//' >>"$actual"
run check --repo r
run check --repo r --format cortex
run check --repo r --format json
printf 'severities:\n  input-control-char: error\n' > r/.ledgergate.yaml
quietgit -C r add -A && quietgit -C r commit -m policy
run check --repo r
