# A criss-cross history (two merge bases) is merged as git merges it: the
# merge bases are merged into a virtual base (merge-ort's recursive merge;
# their conflict on notes.txt stays in it, with markers) and the final merge
# runs over that. The merged tree equals git's own `git merge-tree
# --write-tree`; the branch is classified from every merge base (the first
# alone, the one `git diff cross...side` uses, can miss what the merge
# brings in: see the second history); the repository is left byte-identical.
# `classify --base` classifies from every merge base the same way.
git init -q -b main r && cp -r "$FIXTURES/ledgers/example/." r/ && seq 1 12 > r/projects/notes.txt
quietgit -C r add -A && quietgit -C r commit -m base
git -C r checkout -q -b side
echo "side" > r/projects/notes-side.txt && sed -i '1s/.*/side/' r/projects/notes.txt
quietgit -C r add -A && quietgit -C r commit -m side-1
git -C r checkout -q main
echo "main" > r/projects/notes-main.txt && sed -i '1s/.*/main/' r/projects/notes.txt
quietgit -C r add -A && quietgit -C r commit -m main-1
resolve() { sed -i '/^[<=>]\{7\}/d; /^side$/d; s/^main$/main and side/' r/projects/notes.txt; quietgit -C r add -A; quietgit -C r commit --no-edit; }
git -C r checkout -q -b cross main && { quietgit -C r merge --no-edit side || resolve; }
git -C r checkout -q side && { quietgit -C r merge --no-edit main || resolve; }
echo "more" >> r/projects/notes-side.txt && quietgit -C r commit -qam side-2
git -C r checkout -q cross && echo "more" >> r/projects/notes-main.txt && quietgit -C r commit -qam cross-2
git -C r merge-base --all cross side | sed 's/^/merge base: /' >> "$actual"
git -C r diff --name-only cross...side 2>&1 | sed 's/^/git diff cross...side: /' >> "$actual"
snapshot() { (cd r/.git && find . -path ./ledgergate -prune -o -type f -print0 | sort -z | xargs -0 sha1sum); }
snapshot > before.txt
run trial-merge cross side --repo r
run trial-merge cross side --repo r --format json
snapshot > after.txt
cmp -s before.txt after.txt && echo "repository unchanged" >> "$actual" || echo "REPOSITORY CHANGED" >> "$actual"
run trial-merge cross side --repo r --no-check --write-tree  # writes the merged tree's objects, as git does
git -C r cat-file -t "$(tail -1 "$tmp/o")" >> "$actual" 2>&1
git -C r merge-tree --write-tree cross side | sed 's/^/git merge-tree: /' >> "$actual"  # git's own answer (git writes objects)
run classify --base cross --head side --repo r

# A code change only the second merge base shows: a1 (the newer base, git's
# first) keeps tool.sh at v0, b1 changes it to v1, both merges take v1, and
# the branch then reverts it to v0 — the merge brings v0 into main, a code
# change, though `git diff main...side` (from a1) lists no tool.sh.
git init -q -b main r2 && cp -r "$FIXTURES/ledgers/example/." r2/ && echo v0 > r2/tool.sh
quietgit -C r2 add -A && quietgit -C r2 commit -m base
git -C r2 checkout -q -b side
echo v1 > r2/tool.sh && GIT_COMMITTER_DATE="2026-09-02T00:00:00Z" quietgit -C r2 commit -qam b1
git -C r2 checkout -q main
echo a > r2/projects/notes-a.txt && quietgit -C r2 add -A && GIT_COMMITTER_DATE="2026-09-03T00:00:00Z" quietgit -C r2 commit -m a1
GIT_COMMITTER_DATE="2026-09-04T00:00:00Z" quietgit -C r2 merge --no-edit side~0
git -C r2 checkout -q side && GIT_COMMITTER_DATE="2026-09-04T00:00:00Z" quietgit -C r2 merge --no-edit main~1
echo v0 > r2/tool.sh && GIT_COMMITTER_DATE="2026-09-05T00:00:00Z" quietgit -C r2 commit -qam "revert tool.sh"
git -C r2 checkout -q main
git -C r2 merge-base --all main side | sed 's/^/merge base: /' >> "$actual"
git -C r2 diff --name-only main...side 2>&1 | sed 's/^/git diff main...side: /' >> "$actual"
run trial-merge main side --repo r2
run classify --base main --head side --repo r2
