# req: a scripted run of the open-requirements protocol — init, appends by two
# steps, a drop, a resolve, a supersede that reopens the drop, three
# escalations that converge with a surrender at the cap — where every refused
# step leaves the file byte-identical and every version checks clean.
F=run/open-requirements.ledger.yml
mkdir run
same() { cp "$F" before.yml; "$@"; cmp -s "$F" before.yml && echo "unchanged" >>"$actual" || echo "CHANGED" >>"$actual"; }
run req init $F
run req init $F
run req append $F --id sccmec-evidence-missing --raised-by implement-galaxy-tool-step --unmet "SCCmec-region output" --missing "no wired input carries SCCmec evidence" --step classify_context --blocking
run req append $F --id ref-genome-unpinned --raised-by interface-step --unmet "reference genome" --missing "the source pins none" --blocking
run req append $F --id third-blocker --raised-by interface-step --unmet "x" --missing "y" --blocking
run req append $F --id fourth-blocker --raised-by template-step --unmet "x" --missing "y" --blocking
run req drop $F --id annotation-planes-not-built --raised-by data-flow --units "25 of 31 designed nodes" --because "no wrapper reads seq-submit" --unmet "an annotated genome" --missing "the spine masks an assembly"
same run req append $F --id Bad_Id --raised-by s --unmet u --missing m
same run req append $F --id third-blocker --raised-by s --unmet u --missing m
run req resolve $F ref-genome-unpinned --by template-step --note "pinned GRCh38"
same run req resolve $F ref-genome-unpinned --by template-step --note "again"
run req supersede $F --id wrapper-found --by discover-step --refutes annotation-planes-not-built --quote "the Tool Shed has it wrapped at the pinned version"
run req escalate $F --baseline 4 --cap 3
run req resolve $F third-blocker --by repair --note "wired a producer"
run req escalate $F
same run req escalate $F
run req append $F --id late-blocker --raised-by repair --unmet "u" --missing "m" --blocking
same run req escalate $F
run req resolve $F late-blocker --by repair --note "wired"
run req resolve $F fourth-blocker --by repair --note "wired"
run req escalate $F
run check --root . --format json
cat $F >>"$actual"
same run req escalate $F
same run req resolve $F sccmec-evidence-missing --by late --note "too late"
run req surrender $F --all
run check --root . --format json
run req summary $F
run req summary $F --format json
run req summary missing.yml --format json
run req init capped.yml --cap 3
cat capped.yml >>"$actual"
run req escalate fresh.yml
cat fresh.yml >>"$actual"
run req escalate capped.yml --cap 4
