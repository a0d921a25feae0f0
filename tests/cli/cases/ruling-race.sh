# The ruling-id race (fixtures/repos/ruling-race.sh, tasks era): rule-06 and
# the already-landed rule-07 both file R-20260901-03. The trial merge names
# the id, both titles and the next free id; renumber's refusals write nothing
# (the repository is byte-identical: objects, refs, index, working tree);
# `renumber --to next --rev rule-06` writes one commit moving only that ref,
# and the trial merge then passes; rerun-08 is a chain fork.
"$FIXTURES/repos/ruling-race.sh" repo "$DATA" >/dev/null
snapshot() { (cd repo && find . -path ./.git/ledgergate -prune -o -type f -print0 | sort -z | xargs -0 sha1sum); }
refs() { git -C repo for-each-ref --format='%(refname) %(objectname)' >> "$actual"; }
snapshot > before.txt
refs
run check main --repo repo
run classify --base main --head rule-06 --repo repo
run trial-merge main rule-06 --repo repo
run trial-merge main rule-06 --repo repo --format json
run trial-merge main rerun-08 --repo repo
# Refusals (exit 1) and errors (exit 2): nothing is written.
run renumber R-20260901-02 --to next --rev rule-06 --repo repo
run renumber R-20260902-01 --to R-20260831-09 --rev rerun-08 --repo repo
run renumber R-20260901-03 --to R-20260901-01 --rev rule-06 --repo repo
run renumber R-20260901-03 --rev main --repo repo
run renumber R-20260901-03 --repo repo
run renumber R-2026091-03 --rev rule-06 --repo repo
snapshot > after.txt
cmp -s before.txt after.txt && echo "repository unchanged" >> "$actual" || echo "REPOSITORY CHANGED" >> "$actual"
# The renumber: one commit on rule-06, its ref moved, nothing else.
run renumber R-20260901-03 --to next --rev rule-06 --repo repo
refs
git -C repo log --format='%s (parent %p)' -1 rule-06 >> "$actual"
git -C repo diff --name-status -M rule-06~1 rule-06 >> "$actual"
git -C repo status --porcelain >> "$actual"
run trial-merge main rule-06 --repo repo
# --worktree in a linked working tree of the pre-renumber branch.
git -C repo branch rule-06-wt rule-06~1 && quietgit -C repo worktree add ../wt rule-06-wt
run renumber R-20260901-03 --rev rule-06-wt --repo repo
run renumber R-20260901-03 --worktree --repo wt
git -C wt status --porcelain >> "$actual"
run check --worktree --repo wt
# The classifier follows the profile: LM-T from the layout (paths judged by
# HEAD's tree), a pinned sub-era, and rulings/ append-only in git mode.
run classify rulings/2026/09/R-20260901-03.md tasks/example/06_pulled.md checkin.yaml epics.md --repo repo --format json
run classify phases/example/01_scope.md epics.md checkin.yaml --repo repo --profile cortex-phases@p2 --format cortex
run classify projects/a.md --repo repo --profile cortex-phases@p9
quietgit -C wt add -A && quietgit -C wt commit -m "renumber in the working tree"
quietgit -C wt mv rulings/2026/09/R-20260901-02.md rulings/2026/09/R-20260901-09.md && quietgit -C wt commit -m "move a ruling"
run classify --base main --head rule-06-wt --repo repo
# A criss-cross history: x1 files R-20260903-01, x2 adds another file;
# each merges the other, so the branch and its upstream have two merge
# bases and only one of them holds the id. It is public: refused, whichever
# base comes first.
git -C repo checkout -q -b x1 main
sed 's/R-20260901-02/R-20260903-01/g' repo/rulings/2026/09/R-20260901-02.md > repo/rulings/2026/09/R-20260903-01.md
quietgit -C repo add -A && quietgit -C repo commit -m "x1: file R-20260903-01"
git -C repo checkout -q -b x2 main && echo x2 > repo/x2.txt && quietgit -C repo add -A && quietgit -C repo commit -m "x2"
git -C repo checkout -q -b up x1 && quietgit -C repo merge --no-edit x2
git -C repo checkout -q -b br x2 && quietgit -C repo merge --no-edit x1
git -C repo checkout -q up && echo up > repo/up.txt && quietgit -C repo add -A && quietgit -C repo commit -m "up"
git -C repo checkout -q br && echo br > repo/br.txt && quietgit -C repo add -A && quietgit -C repo commit -m "br"
git -C repo checkout -q main
git -C repo merge-base --all br up | wc -l | sed 's/^/merge bases of br and up: /' >> "$actual"
run renumber R-20260903-01 --to next --rev br --onto up --repo repo
