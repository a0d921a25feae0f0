# classify: the reference's path rule and output, paths from arguments, stdin
# or the three-dot diff, and the projects.yaml birth exception.
run classify projects/a.md checkin.yaml --format cortex
run classify projects/a.md scripts/cortex.py --format cortex
run classify archive/rulings/2026/09/R-20260901-01.md projects/../scripts/evil.py projects/.hidden projects/test_x.py
printf 'projects/a.md\nREADME.md\n' > paths.txt && run classify --format cortex < paths.txt
printf '\n' > empty.txt && run classify --format cortex < empty.txt
"$FIXTURES/repos/merge-scenarios.sh" repo >/dev/null
for b in ledger-edit code-edit archive-edit birth; do run classify --base main --head "$b" --repo repo --format cortex; done
run classify --base main --head birth --repo repo --format json
run classify --base main --head main --repo repo --format cortex < paths.txt
git -C repo checkout -q -b rename ledger-edit && git -C repo mv projects/single.md renamed.md
GIT_COMMITTER_DATE="2026-09-02T00:00:00Z" GIT_AUTHOR_DATE="2026-09-02T00:00:00Z" quietgit -C repo commit -m rename
run classify --base main --head rename --repo repo
printf 'ledger_dirs: [projects/, notes/]\n' > repo/.ledgergate.yaml && quietgit -C repo add .ledgergate.yaml
GIT_COMMITTER_DATE="2026-09-02T00:00:00Z" GIT_AUTHOR_DATE="2026-09-02T00:00:00Z" quietgit -C repo commit -m "policy on the branch"
run classify --base main --head rename --repo repo --format cortex
# A folder whose mode is spelled "40755" (git fsck only warns of it) is a
# folder to git: its files are the branch's paths, not one ledger file.
blob=$(printf '#!/bin/sh\necho owned\n' | git -C repo hash-object -w --stdin)
sub=$(printf '100755 blob %s\tpayload.sh\n' "$blob" | git -C repo mktree)
odd=$( (git -C repo ls-tree main:projects; printf '40755 tree %s\tevil.md\n' "$sub") | git -C repo mktree)
root=$( (git -C repo ls-tree main | grep -v "	projects$"; printf '40000 tree %s\tprojects\n' "$odd") | git -C repo mktree)
commit=$(GIT_COMMITTER_DATE="2026-09-02T00:00:00Z" GIT_AUTHOR_DATE="2026-09-02T00:00:00Z" git -C repo commit-tree "$root" -p main -m "odd folder")
git -C repo branch odd-folder "$commit"
run classify --base main --head odd-folder --repo repo --format cortex
