# The record merge where it is used: trial-merge resolves the generated
# repository's conflicting ledger branches (git's merge and `--merge git`
# conflict), `merge-driver install` registers `ledgergate merge-file` so
# that `git merge` gives the same file, status/idempotence, a linked
# worktree and a bare repository, a foreign driver kept (or, with --force,
# replaced and put back), the committed .gitattributes only when asked, and
# uninstall leaving every byte of the config and attributes as it was.
python3 "$GENLEDGER" --out repo --projects 6 --commits 12 --seed 3 --checkout >/dev/null
f=projects/$(git -C repo diff --name-only trial/base trial/conflict-b -- projects | head -1 | sed 's|projects/||')
run trial-merge trial/conflict-a trial/conflict-b --repo repo
run trial-merge trial/conflict-a trial/conflict-b --repo repo --merge git
run trial-merge trial/conflict-a trial/conflict-b --repo repo --format json
run trial-merge trial/conflict-a trial/conflict-b --repo repo --commit -m "trial"
git -C repo show "$(tail -1 "$tmp/o"):$f" > trial.md
# git's own merge, without and with the driver.
git -C repo checkout -q -b plain trial/conflict-a
git -C repo merge -q --no-edit trial/conflict-b >/dev/null 2>&1; echo "git merge without the driver: exit $?" >> "$actual"
git -C repo merge --abort
printf '*.bin binary' > repo/.git/info/attributes  # a foreign line, no final newline
cp repo/.git/info/attributes attributes.before
cp repo/.git/config config.before
run merge-driver status --repo repo
run merge-driver install --repo repo
run merge-driver install --repo repo
run merge-driver status --repo repo
cat repo/.git/info/attributes | sed 's/^/  attributes: /' >> "$actual"
git -C repo config --local --get merge.ledgergate.driver | sed "s|$LG|<ledgergate>|; s/^/  config: /" >> "$actual"
git -C repo checkout -q -b driven trial/conflict-a
git -C repo merge -q --no-edit trial/conflict-b >/dev/null 2>&1; echo "git merge with the driver: exit $?" >> "$actual"
cmp -s trial.md "repo/$f" && echo "git merge gives trial-merge's file" >> "$actual" || echo "THE FILES DIFFER" >> "$actual"
run check --repo repo
# A linked worktree shares the common dir's config and attributes.
git -C repo worktree add -q ../linked trial/base 2>/dev/null
run merge-driver status --repo linked
# uninstall: the attributes file byte for byte, the keys gone.
run merge-driver uninstall --repo repo
cmp -s attributes.before repo/.git/info/attributes && echo "attributes byte-identical" >> "$actual" || echo "ATTRIBUTES CHANGED" >> "$actual"
cmp -s config.before repo/.git/config && echo "config byte-identical" >> "$actual" || echo "CONFIG CHANGED" >> "$actual"
git -C repo config --local --get merge.ledgergate.driver >/dev/null || echo "no merge.ledgergate.driver" >> "$actual"
run merge-driver uninstall --repo repo
# A driver that is not ours is neither replaced nor removed without --force.
git -C repo config merge.ledgergate.driver "cat %A"
run merge-driver install --repo repo
run merge-driver uninstall --repo repo
git -C repo config --get merge.ledgergate.driver >> "$actual"
# --force replaces it, from a linked worktree too; uninstall puts it back.
git -C repo config merge.ledgergate.name "someone's driver"
cp repo/.git/config config.foreign
run merge-driver install --repo linked --force
run merge-driver status --repo linked
run merge-driver uninstall --repo linked
cmp -s config.foreign repo/.git/config && echo "config byte-identical, the foreign driver put back" >> "$actual" ||
  echo "CONFIG CHANGED" >> "$actual"
git -C repo config --remove-section merge.ledgergate
# The committed .gitattributes, only when asked.
run merge-driver install --repo repo --attributes-file committed
sed 's/^/  .gitattributes: /' repo/.gitattributes >> "$actual"
run merge-driver uninstall --repo repo --attributes-file committed
[ -e repo/.gitattributes ] && echo ".gitattributes LEFT" >> "$actual" || echo "no .gitattributes" >> "$actual"
# hooks install offers the driver, and installs it with --merge-driver.
run hooks install --repo repo --hook pre-commit
run hooks install --repo repo --hook pre-commit --merge-driver
run hooks install --repo repo --hook pre-commit
# A bare repository: its own info/attributes; no hint from hooks install.
git clone -q --bare repo bare.git
cp bare.git/config bare-config.before
run merge-driver install --repo bare.git
run merge-driver install --repo bare.git --attributes-file committed
run hooks install --repo bare.git --hook update
run merge-driver uninstall --repo bare.git
cmp -s bare-config.before bare.git/config && echo "bare config byte-identical" >> "$actual" || echo "BARE CONFIG CHANGED" >> "$actual"
[ -e bare.git/info/attributes ] && echo "bare info/attributes LEFT" >> "$actual" || echo "no bare info/attributes" >> "$actual"
sed -i "s|$LG|<ledgergate>|g" "$actual"
