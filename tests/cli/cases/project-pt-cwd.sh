# Era T verbs with no --root, run in a subdirectory of the repository: a
# FILE argument is relative to the current directory (as git takes a
# pathspec) and must lie under the repository's top level.
T="$DATA/corpus/cortex-fixtures/tasks-skeleton"
cp -r "$T" r
(cd r && quietgit init -q -b main && quietgit add -A && quietgit commit -q -m base)
show() { { echo "--- $1"; grep '^State:' "$tmp/r/$1"; } >>"$actual"; }
cd r/tasks/example || exit 1
run project move 01_scope.md ready --format cortex --today 2026-09-02
show tasks/example/01_scope.md
run project move ./03_ready_cleared.md submitted --run 350000 --format cortex --today 2026-09-02
show tasks/example/03_ready_cleared.md
# Bad: a path from the top level is not one from here; one that leaves the tree.
run project move tasks/example/10_dropped.md ready --format cortex --today 2026-09-02
run project move ../../../elsewhere.md ready --format cortex --today 2026-09-02
# From the top level the repository path is the right one.
cd "$tmp/r" || exit 1
run project move tasks/example/05_running_array.md pulled --partial --format cortex --today 2026-09-02
show tasks/example/05_running_array.md
cd "$tmp/r/tasks" || exit 1
# --commit from a subdirectory: the same resolution, the branch tip edited.
run project move example/02_gated_on_dev.md ready --commit -m "ready" --format cortex --today 2026-09-02
git -C "$tmp/r" show --format= --stat HEAD >>"$actual"
