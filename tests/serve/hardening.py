#!/usr/bin/env python3
"""tally serve against hostile or careless use: tokens that guard nothing,
memory that grows with a run's events, numbers in the API that do not
parse, lines larger than any fixed buffer, output that is not UTF-8, and a
guest that sleeps forever. One case per CTest entry:

usage: hardening.py CASE TALLY SERVE_PROGRAMS_DIR WORKLOADS_DIR WORK_DIR
"""
import json
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_harness import Server, check, done, event, fresh_dir  # noqa: E402

CASE, TALLY, PROGS, WL, WORK = sys.argv[1:6]


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


# bytes.c writes these, in this order (the cut sequences joined)
BYTES = (b"plain ascii\n" b"bad \xff\xfe lone \xc3( surrogate \xed\xa0\x80 overlong \xc0\xaf end\n"
         b"euro cut \xe2\x82" b"\xac whole \xc3\xa9\n" b"tail cut \xf0\x9f\x98")


def case_utf8():
    """Program output that is not valid UTF-8 reaches the page whole, each ill-formed part as one U+FFFD as
    Python's decoder makes it (Unicode's maximal subparts), a sequence cut between two writes joined."""
    s = Server(TALLY, fresh_dir(WORK))
    try:
        st, p = s.upload({"kind": "elf", "elf": read(os.path.join(PROGS, "bytes.elf"))})
        check(st == 201, "upload bytes.elf: %d %s" % (st, p))
        st, j = s.json("POST", "/api/jobs", {"program": p["id"]})
        final, events = s.wait_job(j["job"], timeout=60)
        out = "".join(e["s"] for e in events if e.get("t") == "out")
        want = BYTES.decode("utf-8", errors="replace")
        check(out == want, "the page's output %r, Python's decoder says %r" % (out, want))
        outs = [e["s"] for e in events if e.get("t") == "out"]
        check(any(o.endswith("euro cut ") for o in outs), "the cut sequence came in two writes: %r" % outs)
        check(not [e for e in events if e.get("t") == "error"], "no error events: %s"
              % [e for e in events if e.get("t") == "error"])
        end = event(events, "end")
        check(end and end.get("stop") == "exit" and end.get("exit_code") == 0, "ran to its end: %s" % end)
        direct = subprocess.run([TALLY, "run", os.path.join(PROGS, "bytes.elf")], capture_output=True).stdout
        check(direct == BYTES, "tally run writes the bytes as they are: %r" % direct)
    finally:
        s.stop()


def case_wide():
    """256 pairs: interval lines of more than 1 MiB (the server's reader once had a fixed 1 MiB buffer and
    dropped them as "not JSON"). Every one of the first 100,000 intervals reaches the page, in order, each
    with its 256 values, and each obeys a law: 255 counters of cycles in 16-byte ranges that tile the
    program's code (readelf's executable segment) sum to the 256th, cycles anywhere."""
    elf = os.path.join(WL, "hanoi.elf")
    seg = [l.split() for l in subprocess.run(["riscv64-unknown-elf-readelf", "-lW", elf], capture_output=True,
                                             text=True, check=True).stdout.splitlines()]
    lo, size = [(int(f[2], 16), int(f[5], 16)) for f in seg if f and f[0] == "LOAD" and "E" in f[6:]][0]
    step = 16
    check(255 * step >= size, "255 ranges of %d bytes cover the code's %d bytes" % (step, size))
    pairs = ["cycle@%#x-%#x" % (lo + i * step, lo + (i + 1) * step) for i in range(255)] + ["cycle"]
    s = Server(TALLY, fresh_dir(WORK), "--wall-limit", "100")
    try:
        st, p = s.upload({"kind": "elf", "elf": read(elf)})
        check(st == 201, "upload hanoi.elf: %d %s" % (st, p))
        st, j = s.json("POST", "/api/jobs", {"program": p["id"], "core": "tally5", "pairs": pairs, "counters": 256,
                                              "arrs": 256, "interval": 200})
        check(st == 200, "a run with 256 pairs: %d %s" % (st, j))
        final, events = s.wait_job(j["job"], timeout=100)
        errors = [e for e in events if e.get("t") in ("error", "warning")]
        check(not errors, "no error events: %s" % errors[:3])
        ivs = [e for e in events if e.get("t") == "iv"]
        big = max((len(json.dumps(e, separators=(",", ":"))) for e in ivs), default=0)
        check(big > 1 << 20, "an interval line of more than 1 MiB: the largest has %d bytes" % big)
        rows = [r for e in ivs for r in e["rows"]]
        end = event(events, "end")
        want = min(100000, -(-end["cycles"] // 200)) if end else -1
        check(len(rows) == want, "%d rows reached the page; min(100,000, ceil(cycles / 200)) = %d" % (len(rows), want))
        check([r[0] for r in rows] == list(range(len(rows))), "each interval once, in order")
        check(all(len(r) == 258 for r in rows), "every row has its index, its end and 256 values")
        bad = [r[0] for r in rows if sum(r[2:257]) != r[257]]
        check(not bad, "the ranges' cycles sum to all cycles in every interval; not in %d, first %s"
              % (len(bad), bad[:5]))
    finally:
        s.stop()


POLL_BYTES = 4 << 20  # SERVE_POLL_BYTES (serve.h, docs/tally-serve.md)


def rss(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def case_memory():
    """Runs of 100 pairs at interval 1 (about 21 MB of events each, the page's first 100,000 intervals) under
    --keep-run 2Mi --keep-all 4Mi: the server's memory does not follow the events. Laws, not tuned sizes:
    keeping the events costs at least their bytes, so a server that kept them would grow by at least what it
    received; this one grows by less than a quarter of that over three runs, and the last two runs (which
    would add twice one run's bytes) add less than half of one run's bytes. A poll answers at most ?limit= events and SERVE_POLL_BYTES plus one
    event; one that asks from 0 after the oldest were let go hears how many ("dropped")."""
    keep_run, keep_all = 2 << 20, 4 << 20
    s = Server(TALLY, fresh_dir(WORK), "--keep-run", "2Mi", "--keep-all", "4Mi")
    try:
        st, p = s.upload({"kind": "elf", "elf": read(os.path.join(PROGS, "spin.elf"))})
        check(st == 201, "upload spin.elf: %d %s" % (st, p))
        pairs = ["cycle@%#x-%#x" % (0x80000000 + 4 * i, 0x80000004 + 4 * i) for i in range(99)] + ["cycle"]
        base = rss(s.p.pid)
        after, received = [], []
        for k in range(3):
            st, j = s.json("POST", "/api/jobs", {"program": p["id"], "core": "tally5", "pairs": pairs,
                                                  "counters": 100, "arrs": 100, "interval": 1, "max_insns": 60000})
            check(st == 200, "run %d: %d %s" % (k, st, j))
            while True:  # a page that has gone away: nobody polls the events while the run goes on
                time.sleep(0.3)
                st, r = s.json("GET", "/api/jobs/%d?since=4294967295" % j["job"])
                if st != 200 or r["state"] != "running":
                    break
            check(r.get("state") == "done", "run %d: %s" % (k, r))
            after.append(rss(s.p.pid))
            received.append(r["received"])
            st, h, body = s.request("GET", "/api/jobs/%d" % j["job"])
            r = json.loads(body)
            largest = max((len(json.dumps(e, separators=(",", ":"))) for e in r["events"]), default=0)
            check(len(body) <= POLL_BYTES + largest + 1024, "poll from 0: %d bytes, at most %d + %d"
                  % (len(body), POLL_BYTES, largest))
            check(r["dropped"] > 0 and r["events"][0]["t"] == "start",
                  "poll from 0: the start event, then %d events let go, more to come" % r["dropped"])
            kept = len(body)
            check(kept <= keep_run + largest + 1024, "at most --keep-run kept")
            st, r = s.json("GET", "/api/jobs/%d?limit=3" % j["job"])
            check(st == 200 and len(r["events"]) == 3, "?limit=3: %d events" % len(r.get("events", [])))
        print("received %s bytes; RSS %d before, %s after each run" % (received, base, after))
        check(received[0] > 4 * keep_all, "a run sends far more than --keep-all: %d bytes" % received[0])
        check(after[2] - base < sum(received) / 4, "RSS grew %d bytes over runs that sent %d"
              % (after[2] - base, sum(received)))
        check(after[2] - after[0] < received[0] / 2, "the last two runs added %d bytes of RSS; one run sends %d"
              % (after[2] - after[0], received[0]))
        st, r = s.json("GET", "/api/jobs/1?limit=-1")
        check(st == 400 and "?limit='-1'" in r.get("error", ""), "?limit=-1: %d %s" % (st, r))
        st, r = s.json("GET", "/api/jobs/1?limit=10001")
        check(st == 400 and "10000" in r.get("error", ""), "?limit over the most: %d %s" % (st, r))
    finally:
        s.stop()
    for bad in (["--keep-run", "1000"], ["--keep-run", "8Mi", "--keep-all", "4Mi"], ["--keep-all", "lots"]):
        out = subprocess.run([TALLY, "serve", "--dir", os.path.join(WORK, "x")] + bad, capture_output=True, text=True)
        check(out.returncode == 64 and "--keep" in out.stderr, "%s: %d %s" % (bad, out.returncode, out.stderr))


def case_wfi():
    """A guest asleep in wfi forever (no instruction retires): the cycle budget ends it, the server's
    default or the request's, at the first instruction boundary at or past it (tally5's slowest instruction
    takes far fewer than 100 cycles), the run stored with every interval up to there; with --max-intervals
    the budget is at most that many intervals. Expected intervals: ceil(cycles / interval)."""
    s = Server(TALLY, fresh_dir(WORK), "--max-cycles", "3M", "--max-intervals", "500")
    try:
        st, info = s.json("GET", "/api/info")
        check(info.get("limits", {}).get("max_cycles") == 3000000 and info["limits"].get("max_intervals") == 500,
              "/api/info's limits: %s" % info.get("limits"))
        st, p = s.upload({"kind": "elf", "elf": read(os.path.join(PROGS, "wfi_sleep.elf"))})
        check(st == 201, "upload wfi_sleep.elf: %d %s" % (st, p))
        runs = [({"program": p["id"], "core": "tally5"}, 3000000, None),
                ({"program": p["id"], "core": "tally5", "max_cycles": 1000000}, 1000000, None),
                ({"program": p["id"], "core": "tally5", "pairs": ["cycle"], "interval": 10000}, 3000000, 10000),
                ({"program": p["id"], "core": "tally5", "pairs": ["cycle"], "interval": 1000}, 500 * 1000, 1000),
                ({"program": p["id"], "pairs": ["cycle"], "interval": 1000, "max_cycles": 200000}, 200000, 1000)]
        for req, budget, interval in runs:
            st, j = s.json("POST", "/api/jobs", req)
            check(st == 200, "%s: %d %s" % (req, st, j))
            final, events = s.wait_job(j["job"], timeout=60)
            end = event(events, "end") or {}
            cycles = end.get("cycles", -1)
            check(final.get("state") == "done" and end.get("stop") == "cycles", "%s: %s, %s" % (req, final, end))
            check(budget <= cycles < budget + 100, "%s: %d cycles, the budget %d" % (req, cycles, budget))
            check(event(events, "start").get("max_cycles") == budget, "%s: the start event's max_cycles" % req)
            if interval:
                rep = subprocess.run([TALLY, "report", end.get("run_id", "?"), "--db", s.db, "--json"],
                                     capture_output=True, text=True)
                run = json.loads(rep.stdout)["run"] if rep.returncode in (0, 2) else {}
                want = -(-cycles // interval)
                check(run.get("intervals_stored") == want and run.get("status") == "incomplete",
                      "%s: stored %s, want %d intervals, incomplete" % (req, run, want))
        st, r = s.json("POST", "/api/jobs", {"program": p["id"], "max_cycles": 3000001})
        check(st == 400 and "max_cycles" in r.get("error", ""), "max_cycles over the server's: %d %s" % (st, r))
    finally:
        s.stop()
    for bad in (["--max-cycles", "0"], ["--max-cycles", "-1"], ["--max-intervals", "x"]):
        out = subprocess.run([TALLY, "serve", "--dir", os.path.join(WORK, "x")] + bad, capture_output=True, text=True)
        check(out.returncode == 64 and bad[0] in out.stderr, "%s: %d %s" % (bad, out.returncode, out.stderr))


CASES = {"wfi": case_wfi, "token": case_token, "numbers": case_numbers, "utf8": case_utf8, "wide": case_wide, "memory": case_memory}

if __name__ == "__main__":
    CASES[CASE]()
    done()
