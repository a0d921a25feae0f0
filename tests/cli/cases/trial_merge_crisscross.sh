# A criss-cross history (two merge bases) is refused with exit 2, never
# merged over a guessed base.
git init -q -b main r && cp -r "$FIXTURES/ledgers/example/." r/ && quietgit -C r add -A && quietgit -C r commit -m base
git -C r checkout -q -b side
echo "side" > r/projects/notes-side.txt && quietgit -C r add -A && quietgit -C r commit -m side-1
git -C r checkout -q main
echo "main" > r/projects/notes-main.txt && quietgit -C r add -A && quietgit -C r commit -m main-1
git -C r checkout -q -b cross main && quietgit -C r merge -q --no-edit side
git -C r checkout -q side && quietgit -C r merge -q --no-edit main
echo "more" >> r/projects/notes-side.txt && quietgit -C r commit -qam side-2
git -C r checkout -q cross && echo "more" >> r/projects/notes-main.txt && quietgit -C r commit -qam cross-2
git -C r merge-base --all cross side | wc -l >> "$actual"
run trial-merge cross side --repo r
run classify --base cross --head side --repo r
