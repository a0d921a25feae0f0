# A damaged repository names the damage (which object, which file, what
# libgit2 said), never `unknown revision 'HEAD'`; exit 2 stays. Each case
# starts from a fresh copy of one small repository, packed or loose.
git init -q -b main base && cp -r "$FIXTURES/ledgers/example/." base/ && quietgit -C base add -A
quietgit -C base commit -m one
echo "- a second line" >> base/projects/single.md && quietgit -C base commit -am two
fresh() { rm -rf repo && cp -r base repo; }
loose() { local id; id="$(git -C repo rev-parse "$1")"; printf '%s' "repo/.git/objects/${id:0:2}/${id:2}"; }
# A name that does not resolve is still an unknown revision.
fresh && run check no-such-rev --repo repo
# A corrupt commit: HEAD's loose object replaced by bytes that are not zlib.
fresh && f="$(loose HEAD)" && chmod u+w "$f" && printf 'not zlib at all' > "$f" && run check --repo repo
# HEAD's commit object deleted: the name resolves, the object does not.
fresh && rm -f "$(loose HEAD)" && run check --repo repo
# HEAD~1's commit missing: the walk to it names the object.
fresh && rm -f "$(loose HEAD~1)" && run check HEAD~1 --repo repo
# Packed: a truncated pack, a broken .idx, a deleted .pack.
packed() { fresh && quietgit -C repo gc -q --prune=now && pack="$(ls repo/.git/objects/pack/*.pack)"; }
packed && truncate -s 200 "$pack" && run check --repo repo
packed && idx="${pack%.pack}.idx" && chmod u+w "$idx" && printf 'broken index' | dd of="$idx" bs=1 seek=0 conv=notrunc 2>/dev/null && run check --repo repo
packed && rm -f "$pack" && run check --repo repo
# The objects folder replaced by a file: nothing can be read.
fresh && rm -rf repo/.git/objects && printf 'x' > repo/.git/objects && run check --repo repo
