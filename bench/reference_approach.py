#!/usr/bin/env python3
"""The reference checker's approach, as a cost model for scripts/bench.

PyAutoCortex's `cortex.py check` reads the working tree: PyYAML `safe_load`
of projects.yaml, then every projects/*.md read as text and matched line by
line with `re`. This script does the same reads and the same kind of work
(not the peer's code, which we do not ship) so its time can be compared with
`ledgergate check` in one run. Usage: reference_approach.py ROOT
"""
import pathlib
import re
import sys

import yaml

RUN = re.compile(r"^- (\d+(?:_\d+|_\[[\d,\-]+\])?) — (open|running) — ([a-z][a-z0-9_-]*) — (\d{4}-\d{2}-\d{2}) — (\S.*)$")
LOG = re.compile(r"^- (\d{4}-\d{2}-\d{2}) — (run|result|lesson|note) — (\S.*)$")
HEAD = re.compile(r"^([A-Z][A-Za-z0-9-]*):(?:[ \t]+(.*?))?[ \t]*$")


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
    sys.exit(main(sys.argv[1]))
