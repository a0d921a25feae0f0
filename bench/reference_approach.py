#!/usr/bin/env python3
"""The reference checker's approach, as a cost model for scripts/bench.

PyAutoCortex's `cortex.py check` reads the working tree: PyYAML `safe_load`
of projects.yaml, then every projects/*.md read as text and matched line by
line with `re`. Its writer verb `log` imports the same module (PyYAML
included), reads one ledger, matches its lines, prepends the entry, writes
the file back and reads it again to parse it (spec §8.4, §8.5.2). This
script does the same reads and the same kind of work (not the peer's code,
which we do not ship) so its time can be compared with `ledgergate check`
and `ledgergate project log` in one run.
Usage: reference_approach.py ROOT | reference_approach.py log ROOT KEY TEXT
"""
import pathlib
import re
import sys

import yaml

RUN = re.compile(r"^- (\d+(?:_\d+|_\[[\d,\-]+\])?) — (open|running) — ([a-z][a-z0-9_-]*) — (\d{4}-\d{2}-\d{2}) — (\S.*)$")
LOG = re.compile(r"^- (\d{4}-\d{2}-\d{2}) — (run|result|lesson|note) — (\S.*)$")
HEAD = re.compile(r"^([A-Z][A-Za-z0-9-]*):(?:[ \t]+(.*?))?[ \t]*$")


def parse_ledger(text: str) -> int:
    problems = 0
    for n, line in enumerate(text.split("\n")):
        line = line.replace(" -- ", " — ")
        if n < 12 and HEAD.match(line):
            continue
        if line.startswith("- ") and not (RUN.match(line) or LOG.match(line)):
            problems += 1
    return problems


def log(root: str, key: str, text: str) -> int:
    path = pathlib.Path(root) / "projects" / f"{key}.md"
    lines = path.read_text(encoding="utf-8").split("\n")
    parse_ledger("\n".join(lines))
    head = lines.index("## Log")
    body = lines[head + 1:]
    while body and not body[0].strip():
        body.pop(0)
    while body and not body[-1].strip():
        body.pop()
    entry = f"- 2099-01-01 — note — {text}"
    path.write_text("\n".join(lines[:head + 1] + ["", entry] + body + [""]), encoding="utf-8")
    if parse_ledger(path.read_text(encoding="utf-8")):
        return 1
    print(f"projects/{key}.md: note — {text}")
    return 0


def main(root: str) -> int:
    base = pathlib.Path(root)
    rows = yaml.safe_load((base / "projects.yaml").read_text(encoding="utf-8")) or {}
    problems = 0
    for path in sorted((base / "projects").glob("*.md")):
        if path.name in ("AGENTS.md", "TEMPLATE.md"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").split("\n")):
            line = line.replace(" -- ", " — ")
            if n < 12 and HEAD.match(line):
                continue
            if line.startswith("- ") and not (RUN.match(line) or LOG.match(line)):
                problems += 1
    print(f"{len(rows)} rows, {problems} unparsed lines")
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "log":
        sys.exit(log(sys.argv[2], sys.argv[3], sys.argv[4]))
    sys.exit(main(sys.argv[1]))
