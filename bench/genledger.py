#!/usr/bin/env python3
# The team's synthetic-ledger generator, kept in the repository so the
# benchmarks (scripts/bench, bench-hooks, bench-audit) and the tests that need
# a generated history (tests/cli/merge-agreement,
# tests/cli/cases/merge-driver.sh, tests/unit/cache/differential_test.cpp)
# run from a bare clone. Its options,
# output and the repositories it builds are the original tool's, byte for
# byte (same flags and seed, same commit ids), so figures measured with
# either stay comparable. docs/performance.md names the shapes the benchmarks
# build with it.
"""genledger.py -- build a synthetic PyAutoCortex-style ledger repository.

Deterministic (seeded), Python 3 stdlib only, and fast: the whole history is
streamed into ``git fast-import`` in one pass, so nothing is checked out and
no per-commit ``git`` process is spawned.

Layout of the tree it builds (the "newest era" ledger of PyAutoCortex):

    projects.yaml                       mapping: project key -> 12 string fields
    projects/<key>.md                   one ledger per project, in the grammar of the
                                        newest-era scripts/cortex.py `check`:
                                          '# <key> — <summary of <= 15 words>'
                                          'Project: <key>' / 'Issue: <url>'
                                          '## Now'  (1-4 lines)
                                          '## Runs' (live runs only, open|running:
                                                     '- 342091_[0-8,10] — running — gpu —
                                                      2026-08-30 — <what>')
                                          '## Log'  (dated, newest first, kinds
                                                     run|result|lesson|note:
                                                     '- 2026-09-12 — run — 342091 done: ...')
                                        
    checkin.yaml                        small, refreshed now and then
    dashboard.md                        one table row per project, regenerated now and then
    archive/rulings/YYYY/MM/R-YYYYMMDD-nn.md
    archive/tasks/<project>/<slug>.md
    scripts/*.py, tests/*.py, .github/workflows/*.yml, README.md, AGENTS.md, REFERENCE.md

History.  Commit 1 ("migration import") holds the whole starting ledger:
N projects with L log lines each, the archived rulings and tasks.  Then come
H-1 ordinary commits on ``main``; each one does one to three ledger edits:
prepend a log line, step a run (open -> running, or running -> finished,
which moves it from ## Runs into the log), submit a new run (+ log line), add
a ruling (new archive file + a log line), add an archived
task; with occasional checkin.yaml refreshes, dashboard.md regenerations,
projects.yaml status flips and code edits.  Every ``--merge-every`` commits a
side branch is forked, edits a project ledger that main also edits (side:
run state; main: log line), and is merged back with ``--no-ff``-style merge
commits (the merged tree is the union of both edits, as a ledger-aware merge
would write it).  The rulings added during history count towards R (the
import holds R minus the expected history share), so main holds N projects and
about R rulings -- exactly R at the documented scales; the trial branches add
two more.

Trial branches (for trial-merge benchmarks), made after the history:

    trial/base          = main~F (F = --fork-back), the fork point
    trial/clean-a       = main + 2 commits  (run-state change in project S,
                          log line in another project, a new ruling)
    trial/clean-b       = trial/base + 2 commits  (edits the '## Now' section
                          of the same project S, a log line + new run in
                          another project, another ruling)      -> merges clean
    trial/conflict-a    = main + 1 commit   (prepends a log line to project S)
    trial/conflict-b    = trial/base + 1 commit (prepends a different log line
                          to project S)  -> a textual conflict in git's merge
                          (a ledger-aware union merge resolves it)

The repository is created bare by default (``--checkout`` makes a normal one
and checks ``main`` out).  A JSON summary (paths, counts, timing) is printed
on stdout and written to ``<out>/genledger.json``.

Usage:
    genledger.py --out DIR [--projects N] [--rulings R] [--log-lines L]
                 [--commits H] [--tasks T] [--seed S] [--merge-every K]
                 [--fork-back F] [--no-trial] [--dashboard-every D]
                 [--checkout] [--gc] [--force]

Flags:
    --out DIR            repository to create (must not exist unless --force)
    --projects N         number of projects (default 20)
    --rulings R          archived rulings at HEAD, total (default 50)
    --log-lines L        log lines per project in the initial import (default 20);
                         history then prepends about 1.3*H/N more per project
    --commits H          commits on main's first-parent line, including the
                         initial import and merge commits (default 200)
    --tasks T            archived task files in the import (default R/4)
    --seed S             RNG seed (default 1); same flags + seed => same repo,
                         byte for byte (commit ids included)
    --merge-every K      fork-and-merge a side branch every K main commits
                         (default 0 = linear history)
    --fork-back F        trial/base = main~F (default 10)
    --no-trial           do not make the trial/* branches
    --dashboard-every D  regenerate dashboard.md every D commits (default 100)
    --archive-years Y    spread the imported rulings/tasks over the Y years
                         before the import (default 4)
    --checkout           non-bare repo with main checked out (slow for big N)
    --gc                 afterwards: 'git repack -a -d -f' (deltas recomputed, so
                         the newest versions are stored whole, as in a clone or
                         a gc'd repo), pack-refs, commit-graph.  Without it the
                         repo keeps fast-import's pack, where each version is a
                         delta of its predecessor (HEAD blobs at the end of
                         chains up to 50 deep: reads are 2x slower or worse)
    --force              delete DIR first if it exists

Example scales used by research/perf/BASELINE.md:
    small : --projects 20    --rulings 50     --commits 200    --merge-every 25
    medium: --projects 2000  --rulings 20000  --commits 20000  --merge-every 50
    large : --projects 20000 --rulings 200000 --commits 100000 --merge-every 100
"""

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time

EM = "\u2014"  # the em dash the real ledgers use

WORDS = (
    "lens source mass light sersic mge pixel delaunay rectangular adapt split "
    "subhalo euclid dr1 prelim hst jwst cluster slope hierarchy nautilus prodigy "
    "gradient positions reference baseline rerun parity recovery robustness "
    "magnification inference programme catalogue bundle tile array shear "
    "solver contour likelihood evidence prior posterior fit search queue mesh "
    "kernel psf noise mask grid model sample chain walker batch review gate "
    "witness ruling task epic phase budget wall cpu gpu ral mirror sync pull"
).split()
VERBS = ("submitted", "completed", "failed", "cancelled", "pulled", "resubmitted",
         "checked", "queued", "verified", "reviewed", "archived")
# newest-era grammar (scripts/cortex.py of the one-ledger-per-project era):
# a run line is live only -- `open` or `running`; a finished run leaves
# ## Runs and becomes a `run` log entry.  Log kinds: run|result|lesson|note.
STATES = ("open", "running")
FINISH = ("done", "failed", "timeout", "cancelled")
PARTS = ("gpu", "ral", "both")
RULINGS = ("accept", "reject", "rework", "defer")
STATUS = ("active", "dormant", "planned", "retired")
STATUS_W = ("active",) * 6 + ("dormant", "dormant", "planned", "retired")
KINDS = ("note", "run", "result", "lesson", "note", "note")

# days since 1970-01-01 -> (y, m, d) without datetime (keeps it fast and exact)
def civil(days):
    z = days + 719468
    era = (z if z >= 0 else z - 146096) // 146097
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = mp + 3 if mp < 10 else mp - 9
    return (y + (m <= 2), m, d)


def ymd(days):
    y, m, d = civil(days)
    return "%04d-%02d-%02d" % (y, m, d)


class Gen:
    def __init__(self, a):
        self.a = a
        self.rng = random.Random(a.seed)
        self.runid = 340000
        self.t0 = 1767225600  # 2026-01-01T00:00:00Z: first history commit
        self.now = self.t0
        self.ruling_seq = {}  # day -> next nn
        self.nrulings = 0
        self.ntasks = 0
        self.mark = 0
        self.out = None
        self.stats = {"blobs_written": 0, "bytes_written": 0, "commits": 0,
                      "merges": 0}

    # ---------------------------------------------------------------- text
    def words(self, n):
        r = self.rng
        return " ".join(r.choice(WORDS) for _ in range(n))

    def sentence(self, lo, hi):
        r = self.rng
        s = self.words(r.randint(lo, hi))
        return s[0].upper() + s[1:] + "."

    def new_runid(self):
        self.runid += self.rng.randint(1, 9)
        return self.runid

    def array_spec(self):
        r = self.rng
        k = r.random()
        if k < 0.3:
            return ""
        if k < 0.7:
            return "_[0-%d]" % r.randint(1, 99)
        a = r.randint(1, 12)
        return "_[0-%d,%d]" % (a, a + r.randint(2, 9))

    def log_line(self, day, kind=None, rid=None, what=None):
        r = self.rng
        kind = kind or r.choice(KINDS)
        if kind == "run":
            rid = rid or self.runid
            what = what or r.choice(VERBS)
            body = "%s %s: %s" % (rid, what, self.words(r.randint(6, 30)))
        elif kind == "result":
            body = what or ("%s: %s" % (r.choice(RULINGS), self.words(r.randint(5, 20))))
        else:
            n = r.randint(8, 40) if r.random() < 0.85 else r.randint(120, 300)
            body = self.sentence(n, n)
        return "- %s %s %s %s %s" % (ymd(day), EM, kind, EM, body)

    # ---------------------------------------------------------------- state
    def new_project(self, i, day0):
        r = self.rng
        while True:
            key = "%s_%s" % (r.choice(WORDS), r.choice(WORDS))
            if key not in self.keys_seen:
                break
            key = "%s_%d" % (key, i)
            if key not in self.keys_seen:
                break
        self.keys_seen.add(key)
        p = {
            "key": key,
            "title": key.replace("_", " ").capitalize(),
            "summary": self.sentence(5, 14)[:-1],
            "issue": "https://github.com/PyAutoLabs/%s/issues/%d" % (key, r.randint(1, 400)),
            "now": [self.sentence(10, 30) for _ in range(r.randint(1, 4))],
            "runs": [],
            "log": [],
            "status": r.choice(STATUS_W),
            "partition": r.choice(PARTS),
        }
        nl = self.a.log_lines
        # log lines newest first, spread over the days before the import
        days = sorted((day0 - r.randint(1, 400) for _ in range(nl)), reverse=True)
        for d in days:
            p["log"].append(self.log_line(d))
        for _ in range(0 if p["status"] == "retired" else r.randint(0, 4)):
            rid = self.new_runid()
            p["runs"].append([rid, self.array_spec(), r.choice(STATES),
                              p["partition"], day0 - r.randint(1, 60), self.words(r.randint(4, 16))])
        return p

    def render_project(self, p):
        out = ["# %s %s %s" % (p["key"], EM, p["summary"]), "",
               "Project: %s" % p["key"], "Issue: %s" % p["issue"], "", "## Now", ""]
        out += p["now"]
        out += ["", "## Runs", ""]
        for rid, arr, st, part, day, what in p["runs"]:
            out.append("- %d%s %s %s %s %s %s %s %s %s" % (
                rid, arr, EM, st, EM, part, EM, ymd(day), EM, what))
        out += ["", "## Log", ""]
        out += p["log"]
        return ("\n".join(out) + "\n").encode()

    def yaml_row(self, p):
        k = p["key"]
        return (
            "%s:\n"
            "  remote: PyAutoLabs/%s\n"
            "  local_path: /mnt/c/Users/Jammy/Science/%s\n"
            "  ral_root: /mnt/ral/jnightin/%s\n"
            "  mirror: none\n"
            "  sync_cli: hpc/sync\n"
            "  sync_verbs: [push, pull, sync, status]\n"
            "  ledger: wiki/project/state.md\n"
            "  assistant: autolens_assistant\n"
            "  witness_file: results/**/*.json\n"
            "  partition: %s\n"
            "  status: %s\n"
            "  note: \"%s\"\n\n" % (k, k, k, k, p["partition"], p["status"],
                                  p["summary"].lower()))

    def render_yaml(self):
        head = ("# projects.yaml " + EM + " the science body map (synthetic).\n"
                "# One row per science project; restricted YAML subset.\n\n")
        return (head + "".join(self.yaml_rows)).encode()

    def render_dashboard(self, day):
        out = ["# Dashboard", "", "Refreshed: %s" % ymd(day), "",
               "| project | status | open runs | last log |", "|---|---|---|---|"]
        for p in self.projects:
            nopen = len(p["runs"])
            last = p["log"][0][2:12] if p["log"] else "-"
            out.append("| %s | %s | %d | %s |" % (p["key"], p["status"], nopen, last))
        return ("\n".join(out) + "\n").encode()

    def render_checkin(self):
        y, m, d = civil(self.now // 86400)
        s = self.now % 86400
        return ("refreshed: %04d-%02d-%02dT%02d:%02dZ\n" % (
            y, m, d, s // 3600, (s // 60) % 60)).encode()

    def ruling(self, day, proj):
        r = self.rng
        nn = self.ruling_seq.get(day, 0) + 1
        self.ruling_seq[day] = nn
        y, m, d = civil(day)
        rid = "R-%04d%02d%02d-%02d" % (y, m, d, nn)
        path = "archive/rulings/%04d/%02d/%s.md" % (y, m, rid)
        verdict = r.choice(RULINGS)
        body = ["# %s %s %s %s %s" % (rid, EM, verdict, proj["key"], self.words(r.randint(2, 5))),
                "", "Project: %s" % proj["key"],
                "Task: tasks/%s/%s.md" % (proj["key"], "_".join(self.words(3).split())),
                "Runs: %d" % (proj["runs"][-1][0] if proj["runs"] else self.runid),
                "Ruling: %s" % verdict, "Batch: %s-pm" % ymd(day),
                "Reviewed-at: %sT%02d:%02dZ" % (ymd(day), r.randint(0, 23), r.randint(0, 59)),
                "", "## Ruling", ""]
        body += [self.sentence(10, 25) for _ in range(r.randint(2, 6))]
        body += ["", "## Evidence", ""]
        body += ["- `%s`" % self.words(r.randint(3, 9)) for _ in range(r.randint(1, 4))]
        self.nrulings += 1
        return rid, verdict, path, ("\n".join(body) + "\n").encode()

    def task(self, proj, day):
        r = self.rng
        self.ntasks += 1
        slug = "%s_%d" % ("_".join(self.words(r.randint(2, 4)).split()), self.ntasks)
        path = "archive/tasks/%s/%s.md" % (proj["key"], slug)
        body = ["# %s %s %s" % (proj["title"], EM, self.sentence(4, 12)[:-1]), "",
                "Project: %s" % proj["key"], "Summary: %s" % self.words(8),
                "State: %s" % r.choice(("planned", "done", "abandoned")),
                "Witness: %s" % self.sentence(10, 30), "Budget: %d:00" % r.randint(1, 48),
                "Filed: %s" % ymd(day), "", "## Question", ""]
        body += [self.sentence(10, 30) for _ in range(r.randint(3, 10))]
        body += ["", "## Witness", ""] + ["- " + self.sentence(6, 20) for _ in range(r.randint(1, 4))]
        body += ["", "## Runs", "", "## Ruling", "", "(none)"]
        return path, ("\n".join(body) + "\n").encode()

    def code_files(self):
        r = self.rng
        files = {}
        for name in ("cortex", "ledger_merge", "dashboard", "checkin", "yaml_subset"):
            lines = ["#!/usr/bin/env python3", '"""%s (synthetic stand-in)."""' % name, ""]
            for j in range(r.randint(40, 120)):
                lines.append("def f_%d_%s(x):" % (j, r.choice(WORDS)))
                lines.append("    return x  # %s" % self.words(6))
                lines.append("")
            files["scripts/%s.py" % name] = "\n".join(lines) + "\n"
        for name in ("cortex", "ledger_merge", "yaml_subset"):
            files["tests/test_%s.py" % name] = "\n".join(
                "def test_%d():\n    assert True  # %s\n" % (j, self.words(5))
                for j in range(r.randint(20, 60)))
        for name in ("cortex_check", "ledger_merge", "dashboard_refresh"):
            files[".github/workflows/%s.yml" % name] = (
                "name: %s\non: [push, pull_request]\njobs:\n  run:\n    runs-on: ubuntu-latest\n"
                "    steps:\n      - uses: actions/checkout@v4\n      - run: python3 scripts/%s.py check\n"
                % (name, name.split("_")[0]))
        for name in ("README.md", "AGENTS.md", "REFERENCE.md"):
            files[name] = "\n\n".join(self.sentence(20, 60) for _ in range(r.randint(10, 40))) + "\n"
        return {k: v.encode() for k, v in files.items()}

    # ---------------------------------------------------------------- stream
    def w(self, b):
        self.out.write(b)

    def data(self, b):
        self.w(b"data %d\n" % len(b))
        self.w(b)
        self.w(b"\n")

    def m(self, path, blob):
        self.w(b"M 100644 inline " + path.encode() + b"\n")
        self.data(blob)
        self.stats["blobs_written"] += 1
        self.stats["bytes_written"] += len(blob)

    def commit(self, ref, msg, changes, parent=None, merge=None, tick=True):
        if tick:
            self.now += self.rng.randint(60, 1200)
        self.mark += 1
        mk = self.mark
        self.w(b"commit %s\nmark :%d\n" % (ref.encode(), mk))
        sig = b"Cortex Bot <cortex@example.invalid> %d +0000\n" % self.now
        self.w(b"author " + sig + b"committer " + sig)
        self.data(msg.encode())
        if parent is not None:
            self.w(b"from :%d\n" % parent)
        if merge is not None:
            self.w(b"merge :%d\n" % merge)
        for path, blob in changes:
            self.m(path, blob)
        self.w(b"\n")
        self.stats["commits"] += 1
        return mk

    # ---------------------------------------------------------------- edits
    def pick(self):
        """A random project that main may still edit (after the trial fork the
        trial/clean-b project is frozen on main so that the clean pair stays clean)."""
        while True:
            p = self.rng.choice(self.projects)
            if p["idx"] not in self.frozen:
                return p

    def edit_log(self, p, day, changes, kind=None, rid=None, what=None):
        p["log"].insert(0, self.log_line(day, kind, rid, what))
        changes[p["key"]] = p

    def run_step(self, p, j):
        """open -> running (stays under ## Runs); running -> finished (leaves
        ## Runs; the caller logs it).  Returns (rid, verb)."""
        run = p["runs"][j]
        if run[2] == "open":
            run[2] = "running"
            return run[0], "running"
        del p["runs"][j]
        return run[0], self.rng.choice(FINISH)

    def edit_run_state(self, p, day, changes):
        r = self.rng
        if not p["runs"]:
            return self.edit_new_run(p, day, changes)
        rid, verb = self.run_step(p, r.randrange(len(p["runs"])))
        self.edit_log(p, day, changes, "run", rid, verb)

    def edit_new_run(self, p, day, changes):
        if p["status"] == "retired":  # a retired project lists no runs
            return self.edit_log(p, day, changes, "note")
        rid = self.new_runid()
        p["runs"].append([rid, self.array_spec(), "open", p["partition"], day,
                          self.words(self.rng.randint(4, 16))])
        if len(p["runs"]) > 8:
            p["runs"].pop(0)
        self.edit_log(p, day, changes, "run", rid, "submitted")

    def history_step(self, i, extra):
        """One ordinary main commit: returns (msg, [(path, blob)])."""
        r = self.rng
        day = (self.now + 1200) // 86400
        changed = {}
        files = []
        msg = []
        for _ in range(r.choice((1, 1, 1, 2, 2, 3))):
            p = self.pick()
            k = r.random()
            if k < 0.45:
                self.edit_log(p, day, changed)
                msg.append("log %s" % p["key"])
            elif k < 0.70:
                self.edit_run_state(p, day, changed)
                msg.append("run state %s" % p["key"])
            elif k < 0.85:
                self.edit_new_run(p, day, changed)
                msg.append("run submitted %s" % p["key"])
            elif k < 0.97:
                if self.nrulings < self.a.rulings:
                    rid, verdict, path, blob = self.ruling(day, p)
                    files.append((path, blob))
                    self.edit_log(p, day, changed, "result", what="%s %s" % (rid, verdict))
                    msg.append("ruling %s" % rid)
                else:
                    self.edit_log(p, day, changed)
                    msg.append("log %s" % p["key"])
            else:
                path, blob = self.task(p, day)
                files.append((path, blob))
                msg.append("archive task %s" % path)
        if r.random() < 0.10:
            files.append(("checkin.yaml", self.render_checkin()))
        if self.a.dashboard_every and i % self.a.dashboard_every == 0:
            extra.append("dashboard")
        if i % 997 == 0:
            p = r.choice([q for q in r.sample(self.projects, 8) if q["runs"] == []] or
                         [self.projects[0]])
            p["status"] = r.choice(STATUS)
            if p["runs"]:
                p["status"] = "active"
            self.yaml_rows[p["idx"]] = self.yaml_row(p)
            files.append(("projects.yaml", self.render_yaml()))
            msg.append("projects.yaml status %s" % p["key"])
        if i % 389 == 0:
            files.append(("scripts/cortex.py", self.code["scripts/cortex.py"] +
                          ("# rev %d\n" % i).encode()))
            msg.append("code tweak")
        for p in changed.values():
            files.append(("projects/%s.md" % p["key"], self.render_project(p)))
        if "dashboard" in extra:
            files.append(("dashboard.md", self.render_dashboard(day)))
            extra.remove("dashboard")
            msg.append("dashboard refresh")
        return "; ".join(msg) or "touch", files

    # ---------------------------------------------------------------- main
    def run(self, out):
        a = self.a
        r = self.rng
        self.out = out
        self.keys_seen = set()
        self.frozen = set()
        day0 = self.t0 // 86400
        self.w(b"feature done\n")
        # ---- initial import
        t = time.time()
        self.projects = []
        for i in range(a.projects):
            p = self.new_project(i, day0)
            p["idx"] = i
            self.projects.append(p)
        self.yaml_rows = [self.yaml_row(p) for p in self.projects]
        self.code = self.code_files()
        # how many rulings the history will add (each commit step adds one with
        # prob. 0.12 per action, ~1.67 actions per commit) -> import the rest
        hist_rulings = int(round((a.commits - 1) * 1.67 * 0.12 * 0.97))
        r0 = max(0, a.rulings - hist_rulings)
        files = []
        for pth, blob in sorted(self.code.items()):
            files.append((pth, blob))
        files.append(("projects.yaml", self.render_yaml()))
        files.append(("checkin.yaml", self.render_checkin()))
        files.append(("dashboard.md", self.render_dashboard(day0)))
        for p in self.projects:
            files.append(("projects/%s.md" % p["key"], self.render_project(p)))
        span = max(1, a.archive_years * 365)
        per_day = max(1, -(-r0 // span))
        ndays = -(-r0 // per_day) if r0 else 0
        k = 0
        for dd in range(ndays, 0, -1):
            for _ in range(per_day):
                if k >= r0:
                    break
                rid, verdict, path, blob = self.ruling(day0 - dd, r.choice(self.projects))
                files.append((path, blob))
                k += 1
        for _ in range(a.tasks):
            path, blob = self.task(r.choice(self.projects), day0 - r.randint(1, span))
            files.append((path, blob))
        self.now = self.t0 - 3600
        head = self.commit("refs/heads/main", "migration import: %d projects, %d rulings, %d tasks"
                           % (a.projects, r0, a.tasks), files, tick=False)
        self.stats["import_files"] = len(files)
        self.stats["import_gen_s"] = round(time.time() - t, 2)
        # ---- history
        t = time.time()
        extra = []
        fork_at = a.commits - a.fork_back if not a.no_trial else -1
        trial_snap = None
        i = 1
        while i < a.commits:
            if i == fork_at:
                trial_snap = self.snapshot_trial(head)
            if a.merge_every and i % a.merge_every == 0 and i + 2 <= a.commits - 1 \
                    and not (i < fork_at <= i + 1):
                head = self.side_merge(head, i)
                i += 2  # a main commit + the merge commit on the first-parent line
                continue
            msg, files = self.history_step(i, extra)
            head = self.commit("refs/heads/main", msg, files, parent=head if i == 1 else None)
            i += 1
        if fork_at == a.commits:  # fork-back 0
            trial_snap = self.snapshot_trial(head)
        self.stats["history_gen_s"] = round(time.time() - t, 2)
        if trial_snap is not None:
            self.trials(head, trial_snap)
        self.w(b"done\n")
        return head

    def side_merge(self, head, i):
        """main gets a log line on P, a side branch changes a run state of P,
        then main merges side (the union)."""
        r = self.rng
        day = (self.now + 1200) // 86400
        p = self.pick()
        while p["status"] == "retired":
            p = self.pick()
        if not p["runs"]:
            p["runs"].append([self.new_runid(), "", "open", p["partition"], day, "side run"])
        j = r.randrange(len(p["runs"]))
        main_line = self.log_line(day, "note")
        # side: base + run step (running, or finished -> log) + its log line, maybe a ruling
        import copy
        side = copy.deepcopy(p)
        rid, verb = self.run_step(side, j)
        side_line = self.log_line(day, "run", rid, verb)
        side["log"].insert(0, side_line)
        sfiles = [("projects/%s.md" % p["key"], self.render_project(side))]
        if self.nrulings < self.a.rulings and r.random() < 0.5:
            rid, verdict, rpath, rblob = self.ruling(day, p)
            sfiles.append((rpath, rblob))
        else:
            rpath = None
        self.w(b"reset refs/heads/side\nfrom :%d\n\n" % head)
        s1 = self.commit("refs/heads/side", "side: run state %s" % p["key"], sfiles)
        # main: base + a note line on top
        mainp = copy.deepcopy(p)
        mainp["log"].insert(0, main_line)
        m1 = self.commit("refs/heads/main", "log %s" % p["key"],
                         [("projects/%s.md" % p["key"], self.render_project(mainp))],
                         parent=head)
        # merged: main's line first (newer commit), then side's, run state from side
        self.run_step(p, j)
        p["log"].insert(0, side_line)
        p["log"].insert(0, main_line)
        mfiles = [("projects/%s.md" % p["key"], self.render_project(p))]
        if rpath:
            mfiles.append((rpath, rblob))
        mk = self.commit("refs/heads/main", "Merge branch 'side' (ledger %s)" % p["key"],
                         mfiles, parent=m1, merge=s1)
        self.stats["merges"] += 1
        return mk

    def snapshot_trial(self, head):
        import copy
        r = self.rng
        ps = r.sample([p for p in self.projects if p["status"] != "retired"], 4)
        # S (shared), A-other, B-other, C-shared-conflict
        self.frozen.add(ps[2]["idx"])
        return {"base": head, "projects": [copy.deepcopy(p) for p in ps],
                "idx": [p["idx"] for p in ps]}

    def trials(self, head, snap):
        r = self.rng
        day = (self.now + 3600) // 86400
        S, Aother, Bother = [self.projects[i] for i in snap["idx"][:3]]
        sS, sA, sB = snap["projects"][:3]
        base = snap["base"]
        self.w(b"reset refs/heads/trial/base\nfrom :%d\n\n" % base)
        # clean-a: on main: run state of S, log line on A-other, a ruling
        if not S["runs"]:
            S["runs"].append([self.new_runid(), "", "open", S["partition"], day, "trial run"])
        S["runs"][0][2] = "running" if S["runs"][0][2] == "open" else "open"
        a1 = self.commit("refs/heads/trial/clean-a", "trial A: run state %s" % S["key"],
                         [("projects/%s.md" % S["key"], self.render_project(S))], parent=head)
        Aother["log"].insert(0, self.log_line(day, "note"))
        rid, v, rpath, rblob = self.ruling(day, Aother)
        self.commit("refs/heads/trial/clean-a", "trial A: log %s + %s" % (Aother["key"], rid),
                    [("projects/%s.md" % Aother["key"], self.render_project(Aother)),
                     (rpath, rblob)], parent=a1)
        # clean-b: from the fork, Now of S (as it was at the fork), B-other log + run, ruling
        sS["now"][0] = self.sentence(10, 30)
        b1 = self.commit("refs/heads/trial/clean-b", "trial B: now %s" % S["key"],
                         [("projects/%s.md" % S["key"], self.render_project(sS))], parent=base)
        rid2 = self.new_runid()
        sB["runs"].append([rid2, self.array_spec(), "open", sB["partition"], day, "trial submission"])
        sB["log"].insert(0, self.log_line(day, "run", rid2, "submitted"))
        rid, v, rpath, rblob = self.ruling(day + 1, sB)
        self.commit("refs/heads/trial/clean-b", "trial B: run %d %s + %s" % (rid2, sB["key"], rid),
                    [("projects/%s.md" % sB["key"], self.render_project(sB)),
                     (rpath, rblob)], parent=b1)
        # conflict pair: both prepend a log line to the same ledger
        C = self.projects[snap["idx"][3]]
        sC = snap["projects"][3]
        c = dict(C, log=[self.log_line(day, "note")] + C["log"])
        self.commit("refs/heads/trial/conflict-a", "trial A': log %s" % C["key"],
                    [("projects/%s.md" % C["key"], self.render_project(c))], parent=head)
        c2 = dict(sC, log=[self.log_line(day, "run", what="checked")] + sC["log"])
        self.commit("refs/heads/trial/conflict-b", "trial B': log %s" % C["key"],
                    [("projects/%s.md" % C["key"], self.render_project(c2))], parent=base)
        self.stats["trial"] = {"shared_project": S["key"], "conflict_project": C["key"],
                               "a_other": Aother["key"], "b_other": Bother["key"]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--projects", type=int, default=20)
    ap.add_argument("--rulings", type=int, default=50)
    ap.add_argument("--log-lines", type=int, default=20)
    ap.add_argument("--commits", type=int, default=200)
    ap.add_argument("--tasks", type=int, default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--merge-every", type=int, default=0)
    ap.add_argument("--fork-back", type=int, default=10)
    ap.add_argument("--no-trial", action="store_true")
    ap.add_argument("--dashboard-every", type=int, default=100)
    ap.add_argument("--archive-years", type=int, default=4)
    ap.add_argument("--checkout", action="store_true")
    ap.add_argument("--gc", action="store_true")
    ap.add_argument("--force", action="store_true")
    a = ap.parse_args(argv)
    if a.tasks is None:
        a.tasks = a.rulings // 4
    if a.commits < 1 or a.projects < 4:
        ap.error("need --commits >= 1 and --projects >= 4")
    if a.fork_back >= a.commits:
        a.fork_back = max(0, a.commits - 1)
    if os.path.exists(a.out):
        if not a.force:
            ap.error("%s exists (use --force)" % a.out)
        shutil.rmtree(a.out)
    t0 = time.time()
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1")
    subprocess.run(["git", "init", "-q"] + ([] if a.checkout else ["--bare"]) +
                   ["-b", "main", a.out], check=True, env=env)
    gitdir = a.out if not a.checkout else os.path.join(a.out, ".git")
    fi = subprocess.Popen(["git", "--git-dir", gitdir, "fast-import", "--quiet", "--done",
                           "--active-branches=8"],
                          stdin=subprocess.PIPE, env=env)
    g = Gen(a)
    buf = open(fi.stdin.fileno(), "wb", buffering=1 << 20, closefd=False)
    g.run(buf)
    buf.flush()
    fi.stdin.close()
    if fi.wait() != 0:
        sys.exit("git fast-import failed")
    t_import = time.time() - t0
    subprocess.run(["git", "--git-dir", gitdir, "update-ref", "-d", "refs/heads/side"],
                   env=env, stderr=subprocess.DEVNULL)
    if a.checkout:
        subprocess.run(["git", "-C", a.out, "checkout", "-q", "-f", "main"], check=True, env=env)
    t_gc = None
    if a.gc:
        t = time.time()
        # full repack that recomputes deltas (as a server pack / a clone / an
        # aggressive gc gives): fast-import's own pack stores each version as a
        # delta of its predecessor, so HEAD's blobs would sit at the end of
        # chains up to 50 deep -- unlike any real working repository.
        subprocess.run(["git", "--git-dir", gitdir, "repack", "-a", "-d", "-f", "-q",
                        "--window=10", "--depth=50"], check=True, env=env)
        subprocess.run(["git", "--git-dir", gitdir, "pack-refs", "--all"], check=True, env=env)
        subprocess.run(["git", "--git-dir", gitdir, "prune-packed"], check=True, env=env)
        subprocess.run(["git", "--git-dir", gitdir, "commit-graph", "write", "--reachable"],
                       check=True, env=env, stdout=subprocess.DEVNULL)
        t_gc = round(time.time() - t, 1)
    du = subprocess.run(["du", "-sb", gitdir], capture_output=True, text=True).stdout.split()[0]
    summary = {
        "out": os.path.abspath(a.out), "gitdir": os.path.abspath(gitdir),
        "args": vars(a), "projects": a.projects,
        "rulings_written": g.nrulings, "tasks_written": g.ntasks,  # main + side + trial
        "stats": g.stats,
        "import_s": round(t_import, 1), "gc_s": t_gc, "repo_bytes": int(du),
    }
    with open(os.path.join(gitdir, "genledger.json"), "w") as f:
        json.dump(summary, f, indent=1)
    json.dump(summary, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
