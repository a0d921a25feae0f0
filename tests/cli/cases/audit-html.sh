# `audit --format html`: the replay of the real ledger across its eras (the
# migrations phases → tasks → projects, the ruling edited on its way into
# archive/) and the scripted history (drift introduced and fixed, merges
# re-verified) as timeline pages; the banner's time from SOURCE_DATE_EPOCH.
export SOURCE_DATE_EPOCH=1788393600
git clone -q -b main "$DATA/corpus/pyautocortex/replay.bundle" replay
run audit --repo replay --format html --no-progress
"$FIXTURES/repos/audit-history.sh" history >/dev/null
run audit --repo history --format html --no-progress
