"""What net_cases.py and run_cases.py share: checks that record failures
instead of stopping (so one case reports everything wrong with it), a
`tally collect` in the background, relay.py as a lossy network, and the
command line and exit status of a case.
"""
import argparse
import os
import re
import subprocess
import sys

FAILURES = []


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what, file=sys.stderr)
    return cond


def signed64(v):
    """SQLite keeps run ids as signed 64-bit integers."""
    return v - (1 << 64) if v >= 1 << 63 else v


class Collector:
    """tally collect in the background; .addr is where it listens."""

    def __init__(self, tally, db, *extra):
        if os.path.exists(db):
            os.unlink(db)
        self.db = db
        self.p = subprocess.Popen([tally, "collect", "--listen", "127.0.0.1:0", "--db", db] + list(extra),
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.p.stderr.readline()
        m = re.search(r"listening on (\S+)", line)
        if not m:
            raise SystemExit("tally collect did not start: " + line + self.p.stderr.read())
        self.addr = m.group(1)

    def finish(self, timeout=60):
        try:
            out, err = self.p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.p.terminate()
            out, err = self.p.communicate()
            check(False, "tally collect did not end by itself")
        return self.p.returncode, out, err


class Relay:
    """relay.py between a sender and `to`; .addr is where senders send."""

    def __init__(self, relay, to, drop, dup, reorder, seed, each_first=False):
        self.p = subprocess.Popen([sys.executable, relay, "--listen", "127.0.0.1:0", "--to", to,
                                   "--drop", str(drop), "--dup", str(dup), "--reorder", str(reorder),
                                   "--seed", str(seed)] + (["--each-first"] if each_first else []),
                                  stdout=subprocess.PIPE, text=True)
        line = self.p.stdout.readline()
        self.addr = line.strip().split("=", 1)[1]

    def stop(self):
        """What it did to each direction: {"up": {"dropped": n, ...}, "down": ...}."""
        self.p.terminate()
        out, _ = self.p.communicate(timeout=10)
        counts = {}
        for line in out.splitlines():
            name, *kv = line.split()
            counts[name] = {k: int(v) for k, v in (x.split("=") for x in kv)}
        return counts


def parse_args(*options):
    """CASE and a required --OPTION PATH for each of options; --work is
    created here, before any case writes in it."""
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    for o in options:
        ap.add_argument("--" + o, required=True)
    args = ap.parse_args()
    os.makedirs(args.work, exist_ok=True)
    return args


def run_case(name, case):
    """Runs case() and returns the exit status CTest sees: 1 if any check failed."""
    case()
    print("%s: %s" % (name, "%d failures" % len(FAILURES) if FAILURES else "passed"))
    return 1 if FAILURES else 0
