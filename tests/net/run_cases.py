#!/usr/bin/env python3
"""tally run's network half, end to end, with the real simulator on a real
program: the board link inside `tally run`, the embedded collector and its
SQLite file, a remote `tally collect`, relay.py as a lossy network, `tally
config` and a control client written here from docs/protocol.md alone.

What is compared: the totals `tally run` prints (its table's "total" row),
what SQLite holds (read with Python's sqlite3, not tally's code), what
`tally report` prints, and the same measurement taken another way (a clean
run, --count instead of control packets).

    run_cases.py CASE --tally PATH --relay PATH --elf PROGRAM --work DIR
"""
import hashlib
import hmac
import os
import re
import shutil
import socket
import sqlite3
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True   # keep the source tree clean
import harness  # noqa: E402
from harness import Collector, Relay, check, signed64  # noqa: E402

ARGS = None
# Three events: one in a function, two anywhere (dhrystone's main, as
# `tally symbols` lists it, is looked up at run time by the --count form).
COUNTS = ["cycle@main", "instret", "dcache.read_miss"]


def num(s):
    return int(s.replace(",", "").rstrip("*"))


def tally(*args, timeout=60, cwd=None, env=None):
    return subprocess.run([ARGS.tally] + [str(a) for a in args], capture_output=True, text=True, timeout=timeout,
                          cwd=cwd, env=env)


def count_args(interval):
    out = []
    for c in COUNTS:
        out += ["--count", c]
    return out + ["--interval", str(interval), "--show-intervals", "0"]


def printed_totals(err):
    """The table's total row: [value of column 0, 1, ...]."""
    m = re.search(r"^\s+total\s+([\d,]+)\s+([\d,]+)((?:\s+[\d,]+\*?)+)\s*$", err, re.M)
    if not check(m, "no total row in tally run's table:\n" + err[-1500:]):
        return None
    return [num(v) for v in m.group(3).split()]


def run_id_of(err):
    m = re.search(r"run 0x([0-9a-f]{16})", err)
    check(m, "tally run did not print a run id:\n" + err[-800:])
    return int(m.group(1), 16) if m else None


def stored(db, run_id):
    """(status, note, {counter: sum}, {(index, counter): value}, interval spans) by plain SQL."""
    con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    rid = signed64(run_id)
    row = con.execute("SELECT status, note FROM runs WHERE run_id = ?", (rid,)).fetchone()
    sums = dict(con.execute("SELECT counter, SUM(value) FROM interval_values WHERE run_id = ? GROUP BY counter",
                            (rid,)))
    values = {(i, c): v for i, c, v in con.execute(
        "SELECT interval, counter, value FROM interval_values WHERE run_id = ?", (rid,))}
    spans = [r[0] for r in con.execute("SELECT DISTINCT cycle_end - cycle_begin FROM intervals WHERE run_id = ?",
                                       (rid,))]
    con.close()
    return (row[0] if row else None), (row[1] if row else None), sums, values, spans


def sums_as_list(sums, n):
    return [sums.get(i) for i in range(n)]


# ---------------------------------------------------------------------------

def case_relay():
    """(a) The real simulator through a relay that drops, duplicates and
    reorders a fifth of the packets, to a real tally collect: the stored
    totals and every interval equal a clean run's and the printed totals."""
    db = os.path.join(ARGS.work, "run_relay.db")
    # Not --runs 2: the collector must outlive the board's lingering, to
    # acknowledge again when the relay drops its first FINAL_ACK.
    # 4 s: a loaded machine can leave the collector a second and more
    # without a packet between the runs below.
    col = Collector(ARGS.tally, db, "--idle-timeout", "4")
    clean = tally("run", *count_args(10000), "--collector", col.addr, ARGS.elf)
    check(clean.returncode == 0, "clean run exited %d: %s" % (clean.returncode, clean.stderr[-800:]))
    relay = Relay(ARGS.relay, col.addr, 0.2, 0.2, 0.2, seed=7)
    lossy = tally("run", *count_args(10000), "--collector", relay.addr, ARGS.elf)
    # A program stopped before its end: the final packets say so, and the
    # remote collector stores the run incomplete, never whole.
    cut = tally("run", *count_args(10000), "--max-insns", "1000000", "--collector", col.addr, ARGS.elf)
    code, out, err = col.finish()
    counts = relay.stop()
    check(lossy.returncode == 0, "lossy run exited %d: %s" % (lossy.returncode, lossy.stderr[-800:]))
    check(code == 1, "tally collect exited %d (1: one run incomplete): %s" % (code, err))
    up = counts.get("up", {})
    check(all(up.get(k, 0) > 0 for k in ("dropped", "duplicated", "reordered")),
          "the relay did not drop, duplicate and reorder: %s" % counts)
    m = re.search(r"\(([\d,]+) packets, ([\d,]+) sent again on request\): it has it complete", lossy.stderr)
    check(m and num(m.group(2)) > 0, "the lossy run was not repaired by resends and acknowledged complete: %s"
          % lossy.stderr[-400:])
    tc, tl = printed_totals(clean.stderr), printed_totals(lossy.stderr)
    check(tc and tc == tl, "printed totals differ: clean %s, lossy %s" % (tc, tl))
    rc, rl = run_id_of(clean.stderr), run_id_of(lossy.stderr)
    sc, sl = stored(db, rc), stored(db, rl)
    for what, s, t in (("clean", sc, tc), ("lossy", sl, tl)):
        check(s[0] == "complete", "%s run stored as %s (%s)" % (what, s[0], s[1]))
        check(t and sums_as_list(s[2], len(COUNTS)) == t, "%s run: stored sums %s, printed totals %s" %
              (what, sums_as_list(s[2], len(COUNTS)), t))
        # the timer runs down after the end: every interval is a whole period
        check(s[4] == [10000], "%s run: interval lengths %s" % (what, s[4]))
    status, note, sums, _, _ = stored(db, run_id_of(cut.stderr))
    check(cut.returncode == 124 and "it has it incomplete" in cut.stderr, "stopped run: %d %s" %
          (cut.returncode, cut.stderr[-300:]))
    check(status == "incomplete" and note and "did not run to its end" in note, "stopped run stored as %s (%s)" %
          (status, note))
    check(sums_as_list(sums, len(COUNTS)) == printed_totals(cut.stderr), "stopped run: every count kept")
    check(sc[3] is not None and sc[3] == sl[3], "the lossy run's stored intervals differ from the clean run's")
    check(sc[3] and len(sc[3]) >= 1000 * 16, "fewer intervals than a 14-million-cycle run at 10,000 has")
    print("relay: %s; totals %s" % (counts, tc))


def report_totals(text):
    """tally report's totals block: {counter: (board total, stored sum)}."""
    got = {}
    for m in re.finditer(r"^\s+#(\d+)\s+.*?\s([\d,]+)\s+([\d,]+)\s*$", text, re.M):
        got[int(m.group(1))] = (num(m.group(2)), num(m.group(3)))
    return got


def case_embedded():
    """(b) tally run --count ... --db F, then tally report F: the same totals;
    the default path; a run stopped early stored as incomplete."""
    db = os.path.join(ARGS.work, "run_embedded.db")
    if os.path.exists(db):
        os.unlink(db)
    r = tally("run", *count_args(100000), "--db", db, ARGS.elf)
    check(r.returncode == 0, "run exited %d: %s" % (r.returncode, r.stderr[-800:]))
    check(("stored in %s: complete" % db) in r.stderr, "no 'stored in ... complete': %s" % r.stderr[-400:])
    totals, rid = printed_totals(r.stderr), run_id_of(r.stderr)
    rep = tally("report", "--db", db, "0x%016x" % rid)
    check(rep.returncode == 0, "report exited %d: %s" % (rep.returncode, rep.stderr))
    got = report_totals(rep.stdout)
    check(totals and [got.get(i, (None, None))[0] for i in range(len(COUNTS))] == totals and
          [got.get(i, (None, None))[1] for i in range(len(COUNTS))] == totals,
          "report shows %s, the run printed %s:\n%s" % (got, totals, rep.stdout))
    check("complete" in rep.stdout and "INCOMPLETE" not in rep.stdout, "report's verdict:\n" + rep.stdout)
    status, _, sums, _, _ = stored(db, rid)
    check(status == "complete" and sums_as_list(sums, len(COUNTS)) == totals, "SQL: %s %s" % (status, sums))

    # Without --db: $TALLY_DB, else ./tally.db in the working directory.
    wd = os.path.join(ARGS.work, "run_default")
    os.makedirs(wd, exist_ok=True)
    for f in ("tally.db", "env.db"):
        if os.path.exists(os.path.join(wd, f)):
            os.unlink(os.path.join(wd, f))
    env = dict(os.environ)
    env.pop("TALLY_DB", None)
    r = tally("run", *count_args(1000000), ARGS.elf, cwd=wd, env=env)
    check(r.returncode == 0 and os.path.exists(os.path.join(wd, "tally.db")) and "stored in tally.db" in r.stderr,
          "default store: %d %s" % (r.returncode, r.stderr[-300:]))
    rep = tally("report", "latest", cwd=wd, env=env)
    check(rep.returncode == 0 and report_totals(rep.stdout).get(1, (0,))[0] == printed_totals(r.stderr)[1],
          "tally report latest in the same folder: %s" % rep.stdout[-500:])
    env["TALLY_DB"] = os.path.join(wd, "env.db")
    r = tally("run", *count_args(1000000), ARGS.elf, cwd=wd, env=env)
    check(r.returncode == 0 and os.path.exists(env["TALLY_DB"]), "$TALLY_DB not used: %s" % r.stderr[-300:])

    # Stopped before the program's end: every count kept, never called whole.
    r = tally("run", *count_args(100000), "--max-insns", "2000000", "--db", db, ARGS.elf)
    check(r.returncode == 124, "--max-insns run exited %d" % r.returncode)
    totals, rid = printed_totals(r.stderr), run_id_of(r.stderr)
    status, note, sums, _, _ = stored(db, rid)
    check(status == "incomplete" and note and "did not run to its end" in note and "--max-insns" in note,
          "a stopped run stored as %s (%s)" % (status, note))
    check(totals and sums_as_list(sums, len(COUNTS)) == totals, "stopped run: stored %s, printed %s" % (sums, totals))
    rep = tally("report", "--db", db, "0x%016x" % rid)
    check(rep.returncode == 2 and "INCOMPLETE" in rep.stdout, "report of a stopped run: %d\n%s" %
          (rep.returncode, rep.stdout[:600]))
    # --no-store: nothing written
    before = os.path.getsize(db)
    r = tally("run", *count_args(100000), "--no-store", ARGS.elf)
    check(r.returncode == 0 and "stored" not in r.stderr and os.path.getsize(db) == before, "--no-store")


# ---- a control client from docs/protocol.md ----

SET_TIMER, SET_ARR, SET_COUNTER, START, QUERY = 0x01, 0x02, 0x03, 0x04, 0x06
ACK, ERROR, STATUS = 0x11, 0x12, 0x13


def packet(ptype, run_id, seq, payload, key=None, bad_tag=False):
    flags = 1 if key else 0
    head = b"TALY" + struct.pack("<BBHQIHH", 1, ptype, flags, run_id, seq, len(payload), 0)
    pkt = head + payload
    if key:
        tag = bytearray(hmac.new(key, pkt, hashlib.sha256).digest()[:16])
        if bad_tag:
            tag[0] ^= 1
        pkt += bytes(tag)
    return pkt


def ask(sock, board, pkt):
    sock.sendto(pkt, board)
    data, _ = sock.recvfrom(2048)
    ptype, = struct.unpack_from("<B", data, 5)
    run_id, seq = struct.unpack_from("<QI", data, 8)
    code = data[24 + 1] if ptype == ERROR else None
    return ptype, run_id, code, data


def start_control(db, *extra):
    if os.path.exists(db):
        os.unlink(db)
    p = subprocess.Popen([ARGS.tally, "run", "--control", "127.0.0.1:0", "--db", db, "--show-intervals", "0"] +
                         [str(x) for x in extra] + [ARGS.elf], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    line = p.stderr.readline()
    m = re.search(r"waiting for the configuration on (\S+?),? ", line)
    if not m:
        p.kill()
        raise SystemExit("tally run --control did not wait: " + line + p.stderr.read())
    return p, m.group(1)


def function_range(name):
    r = tally("symbols", ARGS.elf)
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) >= 4 and f[-1] == name:
            return f[0], f[1]
    raise SystemExit("no %s in tally symbols" % name)


def config_args(period):
    lo, hi = function_range("main")
    return ["--timer", period, "--arr", "0=%s-%s,main" % (lo, hi), "--counter", "0=cycle@0", "--counter", "1=instret",
            "--counter", "2=dcache.read_miss"]


def case_control():
    """(c) tally run --control + tally config: the same totals as --count;
    with --key, unauthenticated, bad-MAC and replayed packets refused and
    counted, and none of them applied."""
    ref = tally("run", *count_args(100000), "--no-store", ARGS.elf)
    want = printed_totals(ref.stderr)

    db = os.path.join(ARGS.work, "run_control.db")
    p, board = start_control(db)
    c = tally("config", "--board", board, *config_args(100000), "--start")
    check(c.returncode == 0 and c.stdout.count(" ok") == 6, "tally config: %d %s %s" % (c.returncode, c.stdout,
                                                                                        c.stderr))
    out, err = p.communicate(timeout=60)
    check(p.returncode == 0, "control run exited %d: %s" % (p.returncode, err[-600:]))
    got = printed_totals(err)
    check(want and got == want, "control run printed %s, the --count run %s" % (got, want))
    rid = run_id_of(err)
    status, _, sums, _, spans = stored(db, rid)
    check(status == "complete" and sums_as_list(sums, 3) == want, "stored %s %s" % (status, sums))
    check("cycles in main's own code" in err, "the label does not name main:\n" + err[:800])
    check("control: 0 packets refused" in err, "refusals without a key: " + err[-300:])

    # With a key.
    key = os.urandom(32)
    keyfile = os.path.join(ARGS.work, "run_control.key")
    with open(keyfile, "wb") as f:
        f.write(key)
    p, board = start_control(db, "--key", keyfile)
    host, port = board.rsplit(":", 1)
    addr = (host, int(port))
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(5)
    t, run_id, _, st = ask(s, addr, packet(QUERY, 0, 12345, b"", key))
    check(t == STATUS, "hello: reply type 0x%02x" % t)
    seq = struct.unpack_from("<I", st, 24 + 8)[0]
    timer = lambda period: struct.pack("<Q", period)
    first = packet(SET_TIMER, run_id, seq, timer(100000), key)
    t, _, _, _ = ask(s, addr, first)
    check(t == ACK, "a good SET_TIMER: 0x%02x" % t)
    t, _, _, _ = ask(s, addr, packet(SET_COUNTER, run_id, seq + 1, struct.pack("<HHHBB", 5, 0, 0xFFFF, 1, 0), key))
    check(t == ACK, "a good SET_COUNTER: 0x%02x" % t)
    # refused: no tag, a wrong tag, and the first packet again (replayed)
    t, _, code, _ = ask(s, addr, packet(SET_TIMER, run_id, seq + 2, timer(7)))
    check(t == ERROR and code == 2, "unauthenticated SET_TIMER: 0x%02x code %s" % (t, code))
    t, _, code, _ = ask(s, addr, packet(SET_TIMER, run_id, seq + 3, timer(7), key, bad_tag=True))
    check(t == ERROR and code == 2, "SET_TIMER with a bad tag: 0x%02x code %s" % (t, code))
    t, _, code, _ = ask(s, addr, first)
    check(t == ERROR and code == 3, "replayed SET_TIMER: 0x%02x code %s" % (t, code))
    s.close()
    c = tally("config", "--board", board, "--key", keyfile, *config_args(100000)[2:], "--disable", "5", "--start")
    check(c.returncode == 0, "tally config --key: %d %s" % (c.returncode, c.stderr))
    out, err = p.communicate(timeout=60)
    check(p.returncode == 0, "keyed control run exited %d: %s" % (p.returncode, err[-600:]))
    check(printed_totals(err) == want, "keyed control run printed %s, expected %s" % (printed_totals(err), want))
    check("control: 3 packets refused (2 bad tags, 1 stale, 0 malformed)" in err, "refusals: " + err[-300:])
    status, _, sums, _, spans = stored(db, run_id_of(err))
    check(status == "complete" and spans == [100000], "a refused timer was applied: interval lengths %s" % spans)

    # With function names, as tally run --count takes them: main's ARR is
    # chosen and set from the program's symbols, the same totals come out.
    p, board = start_control(db)
    c = tally("config", "--board", board, "--program", ARGS.elf, "--timer", 100000, "--counter", "0=cycle@main",
              "--counter", "1=instret", "--counter", "2=dcache.read_miss", "--start")
    lo, hi = function_range("main")
    check(c.returncode == 0 and re.search(r"^ARR 0 = %s-%s main\s+ok$" % (lo, hi), c.stdout, re.M),
          "tally config with a function name: %d %s %s" % (c.returncode, c.stdout, c.stderr))
    out, err = p.communicate(timeout=60)
    check(p.returncode == 0 and printed_totals(err) == want,
          "named control run printed %s, expected %s" % (printed_totals(err), want))


def case_errors():
    """(d) bad ADDR:PORT, unreadable key, a store in a missing folder: a
    clear message naming what, the CLI's exit statuses, nothing run."""
    missing_key = os.path.join(ARGS.work, "no-such.key")
    cases = [
        (["--count", "cycle", "--interval", "1000", "--collector", "127.0.0.1"], 64, "127.0.0.1"),
        (["--count", "cycle", "--interval", "1000", "--collector", "127.0.0.1:0"], 64, "port other than 0"),
        (["--count", "cycle", "--interval", "1000", "--collector", "host:99999"], 64, "99999"),
        (["--control", "[::1"], 64, "[::1"),
        (["--control", "127.0.0.1:0", "--key", missing_key], 66, missing_key),
        (["--count", "cycle", "--interval", "1000", "--db", "/nonexistent/dir/x.db"], 73, "/nonexistent/dir/x.db"),
        (["--count", "cycle", "--interval", "1000", "--key", missing_key], 64, "--key FILE goes with --collector ADDR:PORT"),
        (["--control", "0", "--count", "cycle"], 64, "do not go with --control"),
        (["--count", "cycle", "--interval", "1000", "--collector", "127.0.0.1:9", "--db", "x.db"], 64, "--db"),
        (["--db", "x.db"], 64, "go with --count or --control"),
    ]
    for argv, status, text in cases:
        t0 = time.monotonic()
        r = tally("run", *argv, ARGS.elf, timeout=30)
        check(r.returncode == status and text in r.stderr and r.stdout == "" and time.monotonic() - t0 < 10,
              "%s: exit %d (expected %d), stdout %r, stderr %r" % (" ".join(argv), r.returncode, status,
                                                                   r.stdout[:80], r.stderr.strip()[-300:]))
    # A control address already taken: named, usage error, nothing run.
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    taken = "127.0.0.1:%d" % s.getsockname()[1]
    r = tally("run", "--control", taken, "--db", os.path.join(ARGS.work, "taken.db"), ARGS.elf)
    check(r.returncode == 64 and taken in r.stderr and r.stdout == "", "address in use: %d %s" %
          (r.returncode, r.stderr))
    s.close()
    # A collector that is not there: the run and its table are whole here,
    # and tally run says nobody acknowledged, so the run is not known to be
    # stored: status 69 (EX_UNAVAILABLE), never 0.
    r = tally("run", *count_args(1000000), "--collector", "127.0.0.1:9", ARGS.elf, timeout=60,
              env=dict(os.environ, TMPDIR=ARGS.work))   # its spool file stays in the build tree
    check(r.returncode == 69 and printed_totals(r.stderr) and "did not acknowledge" in r.stderr and
          "NOT known to be stored" in r.stderr,
          "no collector: %d %s" % (r.returncode, r.stderr[-400:]))
    r = tally("run", "--help")
    check(r.returncode == 0 and all(o in r.stdout for o in ("--db", "--no-store", "--collector", "--control", "--key")),
          "tally run --help does not list the network options")
    # tally config: function names are checked before any packet goes out
    # (no board listens on port 9: asking it would end in 69, not 64)
    for argv, status, text in [
            (["--program", ARGS.elf, "--counter", "0=cycle@mian"], 64, "did you mean main"),
            (["--program", ARGS.elf, "--arr", "2=mian"], 64, "--arr '2=mian': no function named 'mian'"),
            (["--counter", "0=cycle@main"], 64, "--program ELF, or --map FILE"),
            (["--program", missing_key, "--counter", "0=cycle@main"], 66, missing_key)]:
        r = tally("config", "--board", "127.0.0.1:9", *argv, "--start", timeout=30)
        check(r.returncode == status and text in r.stderr and r.stdout == "",
              "tally config %s: exit %d (expected %d), stderr %r" % (" ".join(argv), r.returncode, status,
                                                                     r.stderr.strip()[-300:]))


def case_spool():
    """(e) A run sent to a collector that never started: tally run exits 69
    and names the spool file that keeps its packets; `tally collect
    --import` stores it later, complete, with the totals tally run printed
    (read back by plain SQL). Importing twice adds nothing; a spool cut
    inside a record is stored incomplete; a file that is not a spool is
    refused (65). A run the collector acknowledges complete leaves no spool."""
    spool_dir = os.path.join(ARGS.work, "spool")
    shutil.rmtree(spool_dir, ignore_errors=True)
    os.makedirs(spool_dir)
    env = dict(os.environ, TMPDIR=spool_dir)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    nobody = "127.0.0.1:%d" % s.getsockname()[1]
    s.close()   # a port nothing listens on
    r = tally("run", *count_args(100000), "--collector", nobody, ARGS.elf, env=env)
    totals = printed_totals(r.stderr)
    files = os.listdir(spool_dir)
    check(r.returncode == 69 and len(files) == 1, "no collector: %d, spool dir %s: %s" %
          (r.returncode, files, r.stderr[-400:]))
    if not files:
        return
    path = os.path.join(spool_dir, files[0])
    rid = run_id_of(r.stderr)
    check(files[0] == "tally-%016x.spool" % rid and path in r.stderr and "--import" in r.stderr,
          "tally run names the spool: %s" % r.stderr[-400:])
    db = os.path.join(ARGS.work, "spool.db")
    for f in (db, db + "-wal", db + "-shm"):
        if os.path.exists(f):
            os.unlink(f)
    imp = tally("collect", "--import", path, "--db", db)
    check(imp.returncode == 0 and "complete" in imp.stdout, "import: %d %r %r" % (imp.returncode, imp.stdout,
                                                                             imp.stderr))
    status, note, sums, _, spans = stored(db, rid)
    check(status == "complete", "imported run stored as %s (%s)" % (status, note))
    check(totals and sums_as_list(sums, len(COUNTS)) == totals, "imported sums %s, printed totals %s" %
          (sums_as_list(sums, len(COUNTS)), totals))
    again = tally("collect", "--import", path, "--db", db)
    check(again.returncode == 0 and "already stored complete" in again.stderr, "import twice: %d %r" %
          (again.returncode, again.stderr))
    cut = os.path.join(ARGS.work, "cut.spool")
    with open(path, "rb") as f, open(cut, "wb") as g:
        g.write(f.read()[:3001])
    db2 = os.path.join(ARGS.work, "spool_cut.db")
    for f in (db2, db2 + "-wal", db2 + "-shm"):
        if os.path.exists(f):
            os.unlink(f)
    part = tally("collect", "--import", cut, "--db", db2)
    status, note, _, _, _ = stored(db2, rid)
    check(part.returncode == 1 and status == "incomplete" and note and "spool file ends" in note,
          "cut spool: %d, stored %s (%s)" % (part.returncode, status, note))
    junk = os.path.join(ARGS.work, "junk.spool")
    with open(junk, "wb") as f:
        f.write(b"not a spool file at all\n")
    bad = tally("collect", "--import", junk, "--db", db2)
    check(bad.returncode == 65 and junk in bad.stderr, "junk: %d %r" % (bad.returncode, bad.stderr))
    missing = tally("collect", "--import", os.path.join(ARGS.work, "none.spool"), "--db", db2)
    check(missing.returncode == 66 and "none.spool" in missing.stderr, "missing: %d" % missing.returncode)
    # acknowledged complete: nothing left behind
    os.unlink(path)
    col = Collector(ARGS.tally, os.path.join(ARGS.work, "spool_live.db"), "--runs", "1")
    live = tally("run", *count_args(100000), "--collector", col.addr, ARGS.elf, env=env)
    col.finish()
    check(live.returncode == 0 and os.listdir(spool_dir) == [] and ".spool" not in live.stderr,
          "acknowledged run: %d, spool dir %s" % (live.returncode, os.listdir(spool_dir)))


def case_keyed():
    """(f) One key on both sides (tally run --collector --key, tally collect
    --key): stored complete with the totals tally run printed, the summary
    saying nothing was refused for its tag. The key from an environment
    variable (--key-env) holding the same bytes is the same key. A board with
    another key is never acknowledged (exit 69, its packets refused and
    counted by the collector, the spool kept), and its spool imports only
    with its own key."""
    spool_dir = os.path.join(ARGS.work, "keyed_spool")
    shutil.rmtree(spool_dir, ignore_errors=True)
    os.makedirs(spool_dir)
    key = os.path.join(ARGS.work, "run.key")
    other = os.path.join(ARGS.work, "other.key")
    with open(key, "wb") as f:   # printable bytes, so that a variable can hold them too
        f.write(b"0123456789abcdefghijklmnopqrstuv")
    with open(other, "wb") as f:
        f.write(b"vutsrqponmlkjihgfedcba9876543210")
    env = dict(os.environ, TMPDIR=spool_dir, TALLY_TEST_KEY="0123456789abcdefghijklmnopqrstuv")
    db = os.path.join(ARGS.work, "keyed.db")
    col = Collector(ARGS.tally, db, "--runs", "2", "--key", key)
    good = tally("run", *count_args(100000), "--collector", col.addr, "--key", key, ARGS.elf, env=env)
    bad = tally("run", *count_args(100000), "--collector", col.addr, "--key", other, ARGS.elf, env=env)
    from_env = tally("run", *count_args(100000), "--collector", col.addr, "--key-env", "TALLY_TEST_KEY", ARGS.elf,
                     env=env)
    code, out, err = col.finish()
    check(good.returncode == 0 and "it has it complete" in good.stderr, "keyed run: %d %s" %
          (good.returncode, good.stderr[-300:]))
    check(from_env.returncode == 0 and "it has it complete" in from_env.stderr, "--key-env run: %d %s" %
          (from_env.returncode, from_env.stderr[-300:]))
    for r in (good, from_env):
        status, note, sums, _, _ = stored(db, run_id_of(r.stderr))
        check(status == "complete" and sums_as_list(sums, len(COUNTS)) == printed_totals(r.stderr),
              "stored %s (%s), sums %s, printed %s" % (status, note, sums_as_list(sums, len(COUNTS)),
                                                       printed_totals(r.stderr)))
    check(bad.returncode == 69 and "with the same key" in bad.stderr, "another key: %d %s" %
          (bad.returncode, bad.stderr[-400:]))
    m = re.search(r"([\d,]+) refused for their authentication tag", err)
    check(m and num(m.group(1)) > 0 and "tag does not match" in err, "collector summary: %s" % err[-500:])
    rid = run_id_of(bad.stderr)
    status, _, _, _, _ = stored(db, rid)
    check(status is None, "the other key's run was stored (%s)" % status)
    path = os.path.join(spool_dir, "tally-%016x.spool" % rid)
    check(os.path.exists(path), "no spool kept for the refused run: %s" % os.listdir(spool_dir))
    if not os.path.exists(path):
        return
    db2 = os.path.join(ARGS.work, "keyed_import.db")
    for f in (db2, db2 + "-wal", db2 + "-shm"):
        if os.path.exists(f):
            os.unlink(f)
    plain = tally("collect", "--import", path, "--db", db2)
    check(plain.returncode == 1 and "give its --key" in plain.stderr, "import without the key: %d %s" %
          (plain.returncode, plain.stderr))
    right = tally("collect", "--import", path, "--db", db2, "--key", other)
    status, note, sums, _, _ = stored(db2, rid)
    check(right.returncode == 0 and status == "complete" and
          sums_as_list(sums, len(COUNTS)) == printed_totals(bad.stderr),
          "import with its key: %d, %s (%s) %s" % (right.returncode, status, note, right.stderr))


def main():
    global ARGS
    ARGS = harness.parse_args("tally", "relay", "elf", "work")
    return harness.run_case(ARGS.case, globals()["case_" + ARGS.case])


if __name__ == "__main__":
    sys.exit(main())
