# The change gate over histories: a criss-cross history (two merge bases,
# merged over git's virtual base) whose main holds an old error, and files
# moved and renamed by the branch. The merged tree is judged against BASE:
# the old error is unchanged wherever the branch took it, a second copy of
# an old finding is new, a finding a moved file carries moves with it.
prepend_log() {  # FILE LINE: LINE becomes the newest log entry of FILE
  python3 - "$1" "$2" <<'PY'
import sys
path, line = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
open(path, "w", encoding="utf-8").write(text.replace("## Log\n\n", "## Log\n\n" + line + "\n", 1))
PY
}
bad="- 2026-09-05 — bogus — a log line that does not parse"

# Criss-cross: main and side merge each other, then each goes on.
git init -q -b main r && cp -r "$FIXTURES/ledgers/example/." r/
prepend_log r/projects/example.md "$bad"
quietgit -C r add -A && quietgit -C r commit -m "base, with an old error"
git -C r checkout -q -b side
prepend_log r/projects/single.md "- 2026-09-06 — note — side one" && quietgit -C r commit -qam side-1
git -C r checkout -q main
prepend_log r/projects/example.md "- 2026-09-06 — note — main one" && quietgit -C r commit -qam main-1
git -C r checkout -q -b cross main && quietgit -C r merge --no-edit side
git -C r checkout -q side && quietgit -C r merge --no-edit main
prepend_log r/projects/single.md "- 2026-09-07 — note — side two" && quietgit -C r commit -qam side-2
git -C r checkout -q -b doubled side
prepend_log r/projects/example.md "$bad" && quietgit -C r commit -qam "the old error again"
git -C r checkout -q cross
# (cross edits the Now section, away from the log the doubled branch adds to.)
sed -i 's/^Next: pull wave 2 .*/Next: compare wave 2 with wave 1./' r/projects/example.md
quietgit -C r commit -qam cross-2
git -C r merge-base --all cross side | wc -l | sed 's/^/merge bases: /' >> "$actual"
run trial-merge cross side --repo r
run trial-merge cross doubled --repo r
run trial-merge cross doubled --repo r --format json

# Moves and renames: an open-requirements file with an old error (a bad
# status) moved to another folder, and renamed under a policy glob that
# takes any *.ledger.yml (run/ and later/ are ledger dirs, so the move
# itself is ledger-only).
git init -q -b main m && cp -r "$FIXTURES/ledgers/example/." m/
mkdir -p m/run && sed 's/^    status: open$/    status: bogus/' \
  "$FIXTURES/ledgers/open-requirements/run/open-requirements.ledger.yml" > m/run/open-requirements.ledger.yml
printf 'open_requirements_glob: "**/*.ledger.yml"\nledger_dirs: [projects/, run/, later/]\n' > m/.ledgergate.yaml
quietgit -C m add -A && quietgit -C m commit -m "base, with an old error"
git -C m checkout -q -b moved
mkdir -p m/later && git -C m mv run/open-requirements.ledger.yml later/open-requirements.ledger.yml
quietgit -C m commit -m moved
git -C m checkout -q -b renamed main
git -C m mv run/open-requirements.ledger.yml run/renamed.ledger.yml && quietgit -C m commit -m renamed
git -C m checkout -q main
run trial-merge main moved --repo m
run trial-merge main renamed --repo m
run check renamed --against main --repo m --format json
