# Could-not-run cases exit 2 with one clear line, never a pass.
run check --root nowhere --format cortex
run check --root nowhere
mkdir plain && run check --repo plain
git init -q -b main empty && run check --repo empty
git init -q -b main one && cp -r "$FIXTURES/ledgers/example/." one/ && quietgit -C one add -A && quietgit -C one commit -m one
run check no-such-rev --repo one
run check --repo one --format yaml
run check --repo one --bogus
run check HEAD --index --repo one
run explain NO-SUCH-RULE
