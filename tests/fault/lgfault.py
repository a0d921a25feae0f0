"""Shared helpers of the fault-injection and no-write tests: a pinned git
environment, runs of the binary, and snapshots of a .git folder."""
import hashlib
import json
import os
import shutil
import stat
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
FIXTURES = os.path.join(SOURCE, "fixtures")

ENV = dict(os.environ)
ENV.update({
    "GIT_AUTHOR_NAME": "Ledger Test", "GIT_AUTHOR_EMAIL": "test@ledgergate.invalid",
    "GIT_COMMITTER_NAME": "Ledger Test", "GIT_COMMITTER_EMAIL": "test@ledgergate.invalid",
    "GIT_AUTHOR_DATE": "2026-09-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-09-01T00:00:00Z",
    "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "HOME": "/nonexistent-home",
    "NO_COLOR": "1", "LC_ALL": "C.UTF-8",
})
for k in ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY"):
    ENV.pop(k, None)

# The one folder a read path may write: the fact cache's (docs/cache.md),
# .git/ledgergate/cache, created with its parent on first use.
CACHE_DIR = "ledgergate"

# 2020-01-01T00:00:00Z: every file's mtime is set to it before a snapshot, so
# a touch (same bytes, new mtime) cannot hide within the clock's resolution.
OLD_TIME = 1577836800


def git(cwd, *args, stdin=None, check=True):
    p = subprocess.run(["git", *args], cwd=cwd, env=ENV, input=stdin, capture_output=True)
    if check and p.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} in {cwd}: {p.stderr.decode(errors='replace')}")
    return p.stdout.decode().strip()


class Run:
    def __init__(self, args, rc, out, err):
        self.args, self.rc, self.out, self.err = args, rc, out, err

    def __str__(self):
        return f"ledgergate {' '.join(self.args)} → exit {self.rc}\n  stdout: {self.out[:600]!r}\n  stderr: {self.err[:600]!r}"


def run(lg, args, cwd, stdin=b"", timeout=300):
    """Runs the binary; a run past `timeout` seconds is killed and reported
    as exit "hang" (which no check accepts)."""
    try:
        p = subprocess.run([lg, *args], cwd=cwd, env=ENV, input=stdin, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return Run(args, "hang", "", f"killed after {timeout} s")
    return Run(args, p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"))


def one_json_value(text):
    """Whether `text` is exactly one JSON value (whitespace around it allowed)."""
    try:
        json.loads(text)
        return True
    except ValueError:
        return False


def pin_mtimes(root):
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            if not os.path.islink(p):
                os.utime(p, (OLD_TIME, OLD_TIME))
    os.utime(root, (OLD_TIME, OLD_TIME))


def snapshot(gitdir):
    """{relative path: (mode, size, mtime_ns, sha1 of the content)} of every
    entry below `gitdir` (the fact cache's folder excluded)."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(gitdir):
        rel_dir = os.path.relpath(dirpath, gitdir)
        if rel_dir == CACHE_DIR or rel_dir.startswith(CACHE_DIR + os.sep):
            dirnames[:] = []
            continue
        for name in [""] + dirnames + filenames:
            p = os.path.join(dirpath, name) if name else dirpath
            rel = os.path.relpath(p, gitdir)
            if rel == CACHE_DIR:
                continue
            st = os.lstat(p)
            if rel == ".":
                # .git's own size and mtime change when the cache's folder is
                # created; any other entry added or removed is listed by name.
                out[rel] = (st.st_mode, None, None, "")
                continue
            digest = ""
            if stat.S_ISREG(st.st_mode):
                try:
                    with open(p, "rb") as f:
                        digest = hashlib.sha1(f.read()).hexdigest()
                except PermissionError:
                    digest = "unreadable"
            elif stat.S_ISLNK(st.st_mode):
                digest = os.readlink(p)
            # A directory's size and mtime change when an entry is added or removed.
            out[rel] = (st.st_mode, st.st_size, st.st_mtime_ns, digest)
    return out


def snapshot_diff(before, after):
    lines = []
    for k in sorted(set(before) | set(after)):
        if k not in after:
            lines.append(f"removed {k}")
        elif k not in before:
            lines.append(f"added {k}")
        elif before[k] != after[k]:
            b, a = before[k], after[k]
            what = [n for n, x, y in zip(("mode", "size", "mtime", "content"), b, a) if x != y]
            lines.append(f"changed {k} ({', '.join(what)})")
    return lines


class Failures:
    def __init__(self):
        self.items = []
        self.passed = 0

    def check(self, ok, what):
        if ok:
            self.passed += 1
        else:
            self.items.append(what)

    def finish(self, name):
        for f in self.items:
            print(f"FAIL {f}\n")
        print(f"{name}: {self.passed} passed, {len(self.items)} failed")
        return 1 if self.items else 0


def tempdir():
    return tempfile.mkdtemp(prefix="lg-fault-")


def cleanup(d):
    def onerror(func, path, exc):
        os.chmod(os.path.dirname(path), 0o700)
        os.chmod(path, 0o700)
        func(path)
    shutil.rmtree(d, onerror=onerror)
