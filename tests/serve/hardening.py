#!/usr/bin/env python3
"""tally serve against hostile or careless use: tokens that guard nothing,
memory that grows with a run's events, numbers in the API that do not
parse, lines larger than any fixed buffer, output that is not UTF-8, and a
guest that sleeps forever. One case per CTest entry:

usage: hardening.py CASE TALLY SERVE_PROGRAMS_DIR WORK_DIR
"""
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_harness import Server, check, done, event, fresh_dir  # noqa: E402

CASE, TALLY, PROGS, WORK = sys.argv[1:5]


def read(path):
    with open(path, "rb") as f:
        return f.read()


def start_line(*args):
    """tally serve's first line (the address to open) and the process, or the status when it refused."""
    p = subprocess.Popen([TALLY, "serve", "--db", os.path.join(WORK, "runs.db"), "--dir", os.path.join(WORK, "srv")]
                         + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    if not line:
        p.wait(10)
        return None, p.returncode, p.stderr.read()
    return line, p, None


def stop(p):
    """Stops it; what it printed after its first line."""
    p.terminate()
    out, _ = p.communicate(timeout=10)
    return out


def get(url, path, headers=None):
    import urllib.error
    import urllib.request
    h = re.match(r"http://([^/?]+)", url).group(1)
    req = urllib.request.Request(url.split("?")[0].rstrip("/") + path, headers=dict(headers or {}, Host=h))
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def case_token():
    """An empty or short token is refused, naming the minimum; --token auto and an address that is not
    loopback get a random one, printed once in the address line and required on every API request."""
    fresh_dir(WORK)
    for bad in ["", "short", "x" * 15]:
        line, rc, err = start_line("--listen", "127.0.0.1:0", "--token", bad)
        check(line is None and rc == 64 and "16" in err, "--token %r: status %s, %r" % (bad, rc, err))
    line, rc, err = start_line("--listen", "127.0.0.1:0", "--token", "abcdefgh ijklmnop")
    check(line is None and rc == 64 and "character 9" in err, "a token with a space: %s %r" % (rc, err))
    line, rc, err = start_line("--listen", "127.0.0.1:0", "--token", "0123456789abcdef")
    check(line is not None, "a 16-character token is taken: %s" % err)
    if line:
        url = re.search(r"open (http://\S+)", line).group(1)
        check(url.endswith("?token=0123456789abcdef"), "the address carries the token: %s" % line)
        check(get(url, "/api/info") == 401, "no token: refused")
        check(get(url, "/api/info", {"X-Tally-Token": "0123456789abcdef"}) == 200, "the token: taken")
        stop(rc)
    for args in (["--listen", "127.0.0.1:0", "--token", "auto"], ["--listen", "0.0.0.0:0"]):
        line, p, err = start_line(*args)
        check(line is not None, "%s: started: %s" % (args, err))
        if not line:
            continue
        m = re.search(r"open (http://\S+)\?token=([0-9a-f]+)\s*$", line)
        check(m and len(m.group(2)) == 32, "%s: a random token of 128 bits in the address: %r" % (args, line))
        if m:
            url, tok = m.group(1), m.group(2)
            check(get(url, "/api/info") == 401, "%s: no token: refused" % args)
            check(get(url, "/api/info", {"X-Tally-Token": "0" * 32}) == 401, "%s: a wrong token: refused" % args)
            check(get(url, "/api/info", {"X-Tally-Token": tok}) == 200, "%s: its token: taken" % args)
            check(get(url, "/api/info?token=" + tok) == 200, "%s: its token in the address: taken" % args)
        rest = stop(p)
        check(not m or m.group(2) not in rest, "%s: the token is printed once" % args)
    # two starts with auto: two different tokens
    toks = []
    for _ in range(2):
        line, p, _ = start_line("--listen", "127.0.0.1:0", "--token", "auto")
        if line:
            toks.append(line.split("?token=")[-1].strip())
            stop(p)
    check(len(toks) == 2 and toks[0] != toks[1], "each start draws its own token: %s" % toks)


def case_numbers():
    """Every number the API takes from a path or a query is parsed strictly: a sign, a suffix, a space, a
    number past its range or no number at all is 400 with a message naming the number, never taken as
    another one (strtoull takes "-1" as 2^64 - 1). The well-formed ones still work."""
    s = Server(TALLY, fresh_dir(WORK))
    try:
        st, p = s.upload({"kind": "elf", "elf": read(os.path.join(PROGS, "spin.elf"))})
        check(st == 201, "upload spin.elf: %d %s" % (st, p))
        st, j = s.json("POST", "/api/jobs", {"program": p["id"], "max_insns": 1000})
        check(st == 200, "a run: %d %s" % (st, j))
        s.wait_job(j["job"], timeout=30)
        bad = [("GET", "/api/runs/-1", "run id '-1'"), ("GET", "/api/runs/0x", "run id '0x'"),
               ("GET", "/api/runs/0x00000000000000001", "run id"), ("GET", "/api/runs/18446744073709551616", "run id"),
               ("GET", "/api/runs/12abc", "run id '12abc'"), ("GET", "/api/runs/+5", "run id '+5'"),
               ("GET", "/api/runs/%2012", "run id"), ("DELETE", "/api/runs/-1", "run id '-1'"),
               ("GET", "/api/runs/-1/export?format=csv", "run id '-1'"),
               ("GET", "/api/jobs/-1", "run number '-1'"), ("GET", "/api/jobs/4294967296", "from 0 to 4294967295"),
               ("GET", "/api/jobs/1x", "run number '1x'"), ("POST", "/api/jobs/-1/stop", "run number '-1'"),
               ("GET", "/api/jobs/0x1", "run number '0x1'"),
               ("GET", "/api/jobs/%d?since=-1" % j["job"], "?since='-1'"),
               ("GET", "/api/jobs/%d?since=1e3" % j["job"], "?since='1e3'"),
               ("GET", "/api/jobs/%d?since=" % j["job"], "?since=''"),
               ("GET", "/api/programs/-1", "program number '-1'"), ("GET", "/api/programs/1.0", "program number"),
               ("GET", "/api/sweeps/-1", "sweep id '-1'"), ("GET", "/api/sweeps/9223372036854775808", "sweep id")]
        for method, path, says in bad:
            st, r = s.json(method, path)
            check(st == 400 and says in r.get("error", ""), "%s %s: %d %s (want 400 naming %r)"
                  % (method, path, st, r, says))
        st, runs = s.json("GET", "/api/runs")
        good = [("GET", "/api/programs/%d" % p["id"], 200), ("GET", "/api/programs/0%d" % p["id"], 200),
                ("GET", "/api/jobs/%d?since=0" % j["job"], 200), ("GET", "/api/jobs/%d?since=99999" % j["job"], 200),
                ("GET", "/api/runs/0x0123456789abcdef", 404), ("GET", "/api/runs/0", 404),
                ("GET", "/api/runs/18446744073709551615", 404), ("GET", "/api/jobs/4294967295", 404)]
        for method, path, want in good:
            st, r = s.json(method, path)
            check(st == want, "%s %s: %d %s (want %d)" % (method, path, st, r, want))
    finally:
        s.stop()


CASES = {"token": case_token, "numbers": case_numbers}

if __name__ == "__main__":
    CASES[CASE]()
    done()
