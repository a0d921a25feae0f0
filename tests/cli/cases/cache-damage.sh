# A cached verdict needs its objects: with a warm cache, a repository that
# lost a tree or holds a damaged blob cannot be judged (exit 2), never
# passed from the cache. Each case starts from a fresh copy of one
# repository whose cache a clean run has filled (objects loose, as
# commits leave them).
skeleton="$DATA/corpus/pyautocortex/newest/tests/fixtures/skeleton"
git init -q -b main base && cp -r "$skeleton/." base/ && quietgit -C base add -A && quietgit -C base commit -m skeleton
git -C base checkout -q -b feature
echo "- 2026-08-31 — note — an older note" >> base/projects/single.md && quietgit -C base commit -qam "feature: log"
git -C base checkout -q main
echo "# a note on main" >> base/checkin.yaml && quietgit -C base commit -qam "main: note"
fresh() { rm -rf repo && cp -r base repo; }
loose() { local id; id="$(git -C repo rev-parse "$1")"; printf '%s' "repo/.git/objects/${id:0:2}/${id:2}"; }
# The damage: a loose object's file replaced by another object's (a valid
# stream of other bytes), or removed.
spoil() { local f; f="$(loose "$1")"; chmod u+w "$f" && cp "$(loose "$2")" "$f"; }
warm() { "$LG" check --repo repo >/dev/null 2>&1; "$LG" check feature --repo repo >/dev/null 2>&1
  "$LG" trial-merge main feature --repo repo >/dev/null 2>&1; true; }
# The controls: warm, every verdict passes from the cache.
fresh && warm && run check --repo repo && run trial-merge main feature --repo repo
# main's root tree removed: the cached trial merge stands for it.
fresh && warm && rm -f "$(loose 'main^{tree}')" && run trial-merge main feature --repo repo
# The base's tree removed: the cached report stands for the merge base too.
fresh && warm && rm -f "$(loose 'main~1^{tree}')" && run trial-merge main feature --repo repo
# A ledger blob the cached verdict read is damaged (HEAD's tree verdict).
fresh && warm && spoil main:projects/example.md main:projects/single.md && run check --repo repo
# ... or removed.
fresh && warm && rm -f "$(loose main:projects/example.md)" && run check --repo repo
# A tree the cache has not seen, whose unchanged ledger the facts answer
# for: a new commit on feature, projects/example.md damaged.
fresh && warm && git -C repo checkout -q feature && echo "- 2026-08-30 — note — an older one" >> repo/projects/single.md &&
  quietgit -C repo commit -qam "feature: more" && git -C repo checkout -q main &&
  spoil main:projects/example.md main:projects/single.md && run check feature --repo repo
# The index (the pre-commit hook's check) with projects.yaml damaged.
fresh && warm && { "$LG" check --index --repo repo >/dev/null 2>&1; true; } && spoil main:projects.yaml main:checkin.yaml &&
  run check --index --repo repo
# The history audit's cached per-commit results: a commit's tree removed.
fresh && { "$LG" audit --repo repo >/dev/null 2>&1; true; } && rm -f "$(loose 'main~1^{tree}')" && run audit --repo repo
