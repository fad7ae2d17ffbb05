#!/usr/bin/env python3
"""End-to-end cases of the network half, with real processes on loopback:
tally collect (the real collector, into a real SQLite file), synth_board (the
real board link fed known intervals), relay.py (a lossy network) and tally
config. The stored data is read back with Python's own sqlite3, not through
tally's code, and compared with the totals the synthetic board printed.

    net_cases.py CASE --tally PATH --synth PATH --relay PATH --work DIR
"""
import json
import os
import re
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # keep the source tree clean
import harness  # noqa: E402
from harness import Collector, Relay, check, signed64  # noqa: E402

ARGS = None


def synth(collector, *extra, control=False):
    cmd = [ARGS.synth, "--collector", collector] + [str(x) for x in extra]
    if control:
        return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=90)
    check(r.returncode == 0, "synth_board exited %d: %s" % (r.returncode, r.stderr))
    return parse_synth(r.stdout)


def parse_synth(out):
    info = {}
    for line in out.splitlines():
        k, _, v = line.partition("=")
        if k == "totals":
            info["totals"] = [int(x) for x in v.split(",")]
        elif k == "run_id":
            info["run_id"] = int(v, 16)
        elif k == "intervals":
            for kv in line.split():
                a, b = kv.split("=")
                info[a] = int(b)
        else:
            info.setdefault(k, []).append(v)
    return info


def stored(db, run_id):
    """Per-counter sums and value counts, the status and the note, by plain SQL."""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    rid = signed64(run_id)
    sums = dict((c, (s, n)) for c, s, n in con.execute(
        "SELECT counter, SUM(value), COUNT(*) FROM interval_values WHERE run_id = ? GROUP BY counter", (rid,)))
    row = con.execute("SELECT status, note FROM runs WHERE run_id = ?", (rid,)).fetchone()
    con.close()
    return sums, (row[0] if row else None), (row[1] if row else None)


def check_stored(db, info, counters, intervals, what):
    sums, status, note = stored(db, info["run_id"])
    check(status == "complete", "%s: run stored as %s (%s)" % (what, status, note))
    for c in range(counters):
        s, n = sums.get(c, (None, 0))
        check(s == info["totals"][c], "%s: counter %d stored sum %s, board total %d" % (what, c, s, info["totals"][c]))
        check(n == intervals, "%s: counter %d has %d values for %d intervals" % (what, c, n, intervals))


def case_relay_lossy():
    """A fifth of the packets dropped, duplicated and reordered, both ways:
    the same totals as a clean run, marked complete."""
    db = os.path.join(ARGS.work, "relay_lossy.db")
    # Not --runs 2: a collector that exits on closing the second run cannot
    # acknowledge again when the relay drops its first FINAL_ACK. The idle
    # time covers starting the relay between the runs on a loaded machine.
    col = Collector(ARGS.tally, db, "--idle-timeout", "6")
    params = ["--counters", 40, "--width", 32, "--intervals", 400, "--seed", 11, "--linger-ms", 8000]
    clean = synth(col.addr, *params)
    check(clean.get("acked") == 1 and clean.get("verdict") == 1, "clean run not acknowledged complete: %s" % clean)
    # --each-first: the down direction carries only a few dozen packets
    # (resend requests, final acknowledgements), too few for a fifth at
    # random to be sure to hit all three ways; its first three meet one
    # each, and both directions are random after that.
    relay = Relay(ARGS.relay, col.addr, 0.2, 0.2, 0.2, seed=5, each_first=True)
    # Paced, so the collector asks for resends many times during the run.
    lossy = synth(relay.addr, *params, "--pace-us", 2000)
    code, out, err = col.finish()
    counts = relay.stop()
    check(lossy.get("acked") == 1 and lossy.get("verdict") == 1, "lossy run not acknowledged complete: %s" % lossy)
    check(code == 0, "tally collect exited %d: %s" % (code, err))
    lines = [l for l in out.splitlines()[1:] if l.strip()]
    check(len(lines) == 2 and all(" complete" in l for l in lines), "collect printed: %r" % out)
    for name in ("up", "down"):
        c = counts.get(name, {})
        check(all(c.get(k, 0) > 0 for k in ("dropped", "duplicated", "reordered")),
              "relay %s did not do all three to some packets: %s" % (name, c))
    check(lossy.get("resent", 0) > 0, "the board resent nothing over a lossy relay")
    check_stored(db, clean, 40, 400, "clean run")
    check_stored(db, lossy, 40, 400, "lossy run")
    check(lossy["totals"] == clean["totals"], "the same seed gave other totals")
    print("relay: %s" % counts)


def case_relay_small_ring():
    """The board keeps 4 packets: losses cannot all be repaired, and the run
    must be stored as incomplete, never complete."""
    db = os.path.join(ARGS.work, "relay_small_ring.db")
    col = Collector(ARGS.tally, db, "--runs", "1", "--quiet")
    relay = Relay(ARGS.relay, col.addr, 0.2, 0.2, 0.2, seed=6)
    info = synth(relay.addr, "--counters", 40, "--intervals", 300, "--seed", 12, "--ring", 4, "--linger-ms", 8000)
    code, out, err = col.finish()
    relay.stop()
    check(code == 1, "tally collect exited %d for an incomplete run (expected 1)" % code)
    lines = [l for l in out.splitlines()[1:] if l.strip()]
    check(len(lines) == 1 and "incomplete" in lines[0] and "missing" in lines[0], "collect printed: %r" % out)
    check(info.get("gone", 0) > 0, "the board reported nothing gone with a ring of 4")
    _, status, note = stored(db, info["run_id"])
    check(status == "incomplete", "run stored as %s" % status)
    check(note and "missing" in note, "note does not say what is missing: %r" % note)
    if info.get("acked"):
        check(info.get("verdict") == 2, "the board was told complete")


def start_collect(db, listen, *extra):
    """tally collect on LISTEN into DB (kept if it exists); returns (process, address)."""
    p = subprocess.Popen([ARGS.tally, "collect", "--listen", listen, "--db", db] + list(extra),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stderr.readline()
    m = re.search(r"listening on (\S+)", line)
    if not m:
        p.kill()
        raise SystemExit("tally collect did not start: " + line + p.stderr.read())
    return p, m.group(1)


def stored_chunks(db):
    """DATA packets in the store so far, read with Python's sqlite3 (0 until the table exists)."""
    try:
        con = sqlite3.connect("file:%s?mode=ro" % db, uri=True, timeout=5)
        n = con.execute("SELECT count(*) FROM intervals").fetchone()[0]
        con.close()
        return n
    except sqlite3.Error:
        return 0


def case_collector_restart():
    """tally collect killed (SIGKILL) mid-run and started again on the same
    port and store: the packets the first process stored are in the store,
    so the run must close complete with the board's totals, without a
    'missing' note for them. The board's ring (1,024 packets) covers the
    outage but not the whole run (4,000 DATA packets), so the restarted
    collector cannot get the early packets again: only the store has them."""
    db = os.path.join(ARGS.work, "collector_restart.db")
    if os.path.exists(db):
        os.unlink(db)
    first, addr = start_collect(db, "127.0.0.1:0", "--quiet")
    params = ["--counters", 8, "--intervals", 4000, "--seed", 21, "--ring", 1024, "--pace-us", 1000,
              "--linger-ms", 15000]
    board = synth(addr, *params, control=True)
    deadline = time.monotonic() + 60
    while stored_chunks(db) < 1500 and time.monotonic() < deadline and board.poll() is None:
        time.sleep(0.05)
    check(board.poll() is None, "the board ended before the collector was killed")
    first.kill()
    first.communicate()
    second, _ = start_collect(db, addr, "--runs", "1")
    out, err = board.communicate(timeout=90)
    info = parse_synth(out)
    try:
        code, cout, cerr = second.wait(timeout=30), second.stdout.read(), second.stderr.read()
    except subprocess.TimeoutExpired:
        second.kill()
        code, cout, cerr = -1, "", "did not end"
    check(board.returncode == 0, "synth_board exited %d: %s" % (board.returncode, err))
    check(info.get("acked") == 1 and info.get("verdict") == 1, "board not acknowledged complete: %s" % info)
    check(code == 0 and " complete" in cout, "restarted collect: %d %r %r" % (code, cout, cerr))
    check_stored(db, info, 8, 4000, "restarted collector")
    _, status, note = stored(db, info["run_id"])
    check(not note or "missing" not in note, "a false missing note: %r" % note)


def run_tally(*args, timeout=30):
    return subprocess.run([ARGS.tally] + [str(a) for a in args], capture_output=True, text=True, timeout=timeout)


def case_collect_cli():
    r = run_tally("collect", "--help")
    check(r.returncode == 0 and "--listen" in r.stdout and "--db" in r.stdout, "collect --help")
    r = run_tally("collect", "--listen", "127.0.0.1", "--db", os.path.join(ARGS.work, "x.db"))
    check(r.returncode == 64 and "has no port" in r.stderr, "collect --listen without port: %s" % r.stderr)
    r = run_tally("collect", "--listen", "[::1", "--db", os.path.join(ARGS.work, "x.db"))
    check(r.returncode == 64 and "[ADDR]:PORT" in r.stderr, "collect --listen '[::1': %s" % r.stderr)
    r = run_tally("collect", "--listen", "127.0.0.1:70000")
    check(r.returncode == 64 and "70000" in r.stderr and "0 to 65535" in r.stderr, "port 70000: %s" % r.stderr)
    r = run_tally("collect", "--db", "/nonexistent/dir/x.db", "--listen", "127.0.0.1:0")
    check(r.returncode == 70 and "/nonexistent/dir/x.db" in r.stderr, "store in a missing folder: %s" % r.stderr)
    r = run_tally("collect", "--runs", "0")
    check(r.returncode == 64, "--runs 0 accepted")
    # --idle-timeout ends a collector that hears nothing, with status 0.
    t0 = time.monotonic()
    r = run_tally("collect", "--listen", "127.0.0.1:0", "--db", os.path.join(ARGS.work, "idle.db"),
                  "--idle-timeout", "0.5")
    check(r.returncode == 0 and "no packet for 0.5 s" in r.stderr and time.monotonic() - t0 < 10,
          "idle timeout: %d %s" % (r.returncode, r.stderr))
    # One run: one line with its id, intervals and verdict.
    db = os.path.join(ARGS.work, "collect_cli.db")
    col = Collector(ARGS.tally, db, "--runs", "1")
    info = synth(col.addr, "--counters", 8, "--intervals", 1234, "--seed", 3)
    code, out, err = col.finish()
    check(code == 0, "collect exited %d" % code)
    rows = out.splitlines()
    check(rows[0].split()[:5] == ["run", "program", "intervals", "packets", "verdict"], "header: %r" % rows[0])
    want = "0x%016x" % info["run_id"]
    check(len(rows) == 2 and rows[1].startswith(want) and "1,234" in rows[1] and rows[1].endswith("complete"),
          "run line: %r" % rows[1:])
    check("1 runs (1 complete, 0 incomplete)" in err, "summary: %r" % err)


def signal_id(name):
    r = run_tally("signals", "--json")
    return next(s["id"] for s in json.loads(r.stdout) if s["name"] == name)


def case_config_cli():
    key = os.path.join(ARGS.work, "board.key")
    with open(key, "wb") as f:
        f.write(bytes(range(32)))
    other = os.path.join(ARGS.work, "other.key")
    with open(other, "wb") as f:
        f.write(bytes(range(1, 33)))
    r = run_tally("config", "--help")
    check(r.returncode == 0 and "--counter" in r.stdout and "--start" in r.stdout, "config --help")
    r = run_tally("config", "--counter", "3=no.such.signal", "--start")
    check(r.returncode == 64 and "unknown signal 'no.such.signal'" in r.stderr, "unknown signal: %s" % r.stderr)
    r = run_tally("config", "--arr", "0=0x200-0x100", "--start")
    check(r.returncode == 64 and "LO <= HI" in r.stderr, "backwards ARR: %s" % r.stderr)
    r = run_tally("config", "--board", "127.0.0.1:9", "--timeout", "0.2", "--retries", "2", "--query")
    check(r.returncode == 69 and "no answer" in r.stderr, "nobody there: %d %s" % (r.returncode, r.stderr))
    r = run_tally("config", "--key", os.path.join(ARGS.work, "missing.key"), "--query")
    check(r.returncode == 66 and "missing.key" in r.stderr, "missing key file: %s" % r.stderr)

    db = os.path.join(ARGS.work, "config_cli.db")
    # one key for the board: its control packets and its stream (the collector checks the stream's tags)
    col = Collector(ARGS.tally, db, "--runs", "1", "--key", key)
    board = synth(col.addr, "--control", "127.0.0.1:0", "--key", key, "--counters", 8, "--intervals", 50,
                  "--wait-ms", 30000, control=True)
    ctl = board.stdout.readline().strip().split("=", 1)[1]
    r = run_tally("config", "--board", ctl, "--timer", "5000")
    check(r.returncode == 1 and "--key" in r.stderr, "no key against a keyed board: %d %s" % (r.returncode, r.stderr))
    r = run_tally("config", "--board", ctl, "--key", other, "--timer", "5000")
    check(r.returncode == 1 and "keys differ" in r.stderr, "wrong key: %d %s" % (r.returncode, r.stderr))
    r = run_tally("config", "--board", ctl, "--key", key, "--counter", "99=cycle")
    check(r.returncode == 1 and "counter 99 does not exist" in r.stderr, "counter 99: %s" % r.stderr)
    r = run_tally("config", "--board", ctl, "--key", key, "--query")
    check(r.returncode == 0 and re.search(r"state\s+configuring", r.stdout) and
          re.search(r"refused\s+2 bad tags, 0 stale, 0 malformed", r.stdout), "query: %s %s" % (r.stdout, r.stderr))
    r = run_tally("config", "--board", ctl, "--key", key, "--timer", "5k",
                  "--arr", "0=0x80000100-0x80000180,MixColumns", "--counter", "0=cycle@0",
                  "--counter", "3=instret", "--start")
    check(r.returncode == 0 and r.stdout.count(" ok") == 5, "configure and start: %s %s" % (r.stdout, r.stderr))
    out, err = board.communicate(timeout=60)
    info = parse_synth(out)
    check(info.get("timer") == ["5000"], "board got timer %s" % info.get("timer"))
    check(info.get("arr") == ["0 0x80000100-0x80000180 MixColumns"], "board got ARRs %s" % info.get("arr"))
    cyc, ins = signal_id("cycle"), signal_id("instret")
    check(info.get("counter") == ["0 signal %d arr 0x0" % cyc, "3 signal %d arr 0xffff" % ins],
          "board got counters %s" % info.get("counter"))
    code, out, err = col.finish()
    check(code == 0 and "complete" in out, "collector: %s %s" % (out, err))
    con = sqlite3.connect(db)
    rid = signed64(info["run_id"])
    label = con.execute("SELECT label FROM counters WHERE run_id = ? AND counter = 0", (rid,)).fetchone()
    check(label and "MixColumns" in label[0], "counter 0's label: %s" % label)
    spans = con.execute("SELECT DISTINCT cycle_end - cycle_begin FROM intervals WHERE run_id = ?", (rid,)).fetchall()
    check(spans == [(5000,)], "interval lengths %s, expected 5,000 cycles" % spans)
    disabled = con.execute("SELECT SUM(value) FROM interval_values WHERE run_id = ? AND counter = 1", (rid,)).fetchone()
    check(disabled == (0,), "a counter nobody configured counted %s" % disabled)
    con.close()


def main():
    global ARGS
    ARGS = harness.parse_args("tally", "synth", "relay", "work")
    return harness.run_case(ARGS.case, globals()["case_" + ARGS.case])


if __name__ == "__main__":
    sys.exit(main())
