# explain RULE: summary, rationale, a bad and a good example (an edit of the
# profile's skeleton ledger, verified by tests/unit/diag/rule_examples_test.cpp)
# and the fix; a history rule's pair reads before → after; a whole-file
# example says the good tree has no such file; by spec label too.
run explain ledger-issue-grammar
run explain R-F07
run explain audit-log-entry-edited
run explain ledger-has-row
run explain input-line-endings
