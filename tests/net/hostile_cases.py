#!/usr/bin/env python3
"""Hostile packets against a real `tally collect` over loopback UDP
(tests/net, "hostile"). The packets are built here with Python's struct
from docs/protocol.md's tables (no code of tally's); after them a real run
(synth_board through the real board link) must still be stored complete,
its sums read back with Python's sqlite3.

    hostile_cases.py CASE --tally PATH --synth PATH --work DIR --elf FOREVER

seq_wrap     sequence number 0xFFFFFFFF (and its neighbours) for a new run
             id, after a RUN_START, in FINAL and GONE: refused, the
             collector lives on and stores the real run.
junk_slots   more junk runs than the collector's 64 run slots (DATA only,
             no RUN_START; then RUN_STARTs without DATA, left quiet), then a
             real run: stored complete. 64 runs that look alive (RUN_START
             and DATA, fresh) make a further run be refused; refusals are
             warned about (at most every 10 s) and counted at exit.
final_no_totals  a board that keeps no totals (FINAL with n = 0, a small
             hardware build): stored complete, the intervals' sums as its
             totals; one that lost a DATA packet (GONE): incomplete.
compact      a compact stream (DATA_COMPACT, docs/protocol.md "Compact
             stream"): stored complete with the stamps derived from the
             period, a packet before its RUN_START deferred then taken when
             sent again; malformed compact packets (lengths, reserved byte,
             saturation, counters or width not RUN_START's, cycles past 2^64,
             a module's raw frame without a header, unknown types) refused
             with a reason naming it, the collector lives on and stores a
             real run complete.
"""
import os
import random
import re
import socket
import struct
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Collector, check, parse_args, run_case  # noqa: E402
import net_cases  # noqa: E402

ARGS = None


def packet(ptype, run, seq, payload):
    """The 24-byte header (docs/protocol.md, "Header") and the payload."""
    return b"TALY" + struct.pack("<BBHQIHH", 1, ptype, 0, run, seq, len(payload), 0) + payload


def run_start(run, seq=0, counters=1, width=32, program=b"junk.elf", core=b"tally5"):
    body = struct.pack("<HBBHHQIHH", counters, width, 0, 0, 0, 1000, 0, len(program), len(core))
    return packet(0x21, run, seq, body + program + core)


def data(run, seq, index=0, value=7):
    """One interval of counter 0 at 32 bits: index, cycles, first 0, n 1,
    width 32, the saturation bitmap (1 byte), the value (4 bytes)."""
    body = struct.pack("<QQQHHB3x", index, index * 1000, index * 1000 + 1000, 0, 1, 32) + b"\x00"
    return packet(0x23, run, seq, body + struct.pack("<I", value))


def final(run, seq, total_packets, totals=(7,)):
    body = struct.pack("<QQQIIHHHBB", 1, 0, 1000, 1, total_packets, len(totals), 0, len(totals), 0, 0)
    return packet(0x24, run, seq, body + b"".join(struct.pack("<Q", t) for t in totals))


def gone(run, first, count):
    return packet(0x25, run, 0, struct.pack("<HH", 1, 0) + struct.pack("<II", first, count))


def sender(addr):
    host, port = addr.rsplit(":", 1)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.connect((host, int(port)))
    return s


def real_run(col, what, seed):
    info = net_cases.synth(col.addr, "--counters", 8, "--intervals", 200, "--seed", seed, "--linger-ms", 8000)
    check(info.get("acked") == 1 and info.get("verdict") == 1, "%s: real run not acknowledged complete: %s" %
          (what, info))
    if "run_id" in info and "totals" in info:
        net_cases.check_stored(col.db, info, 8, 200, what)


def alive(col, what):
    time.sleep(0.5)
    return check(col.p.poll() is None, "%s: tally collect died (status %s): %s" %
                 (what, col.p.returncode, col.p.stderr.read() if col.p.poll() is not None else ""))


def case_seq_wrap():
    db = os.path.join(ARGS.work, "seq_wrap.db")
    col = Collector(ARGS.tally, db, "--idle-timeout", "4")
    s = sender(col.addr)
    rng = random.Random(25)
    new_id = lambda: rng.getrandbits(63) | 1  # noqa: E731
    # a new run id, its first packet at the last sequence number
    s.send(data(new_id(), 0xFFFFFFFF))
    alive(col, "DATA seq 0xFFFFFFFF for a new run")
    # after a RUN_START (the run's maps exist, 1,024 bits)
    a = new_id()
    s.send(run_start(a))
    for seq in (0xFFFFFFFF, 0xFFFFFFFE, 0x80000000, (1 << 20) + 2):
        s.send(data(a, seq))
    s.send(final(a, 0xFFFFFFFF, 0xFFFFFFFF))
    s.send(gone(a, 0xFFFFFFFF, 1))
    alive(col, "seq near 2^32 after a RUN_START")
    # a FINAL at the last seq for a new run, and one claiming 2^32 - 1 packets
    s.send(final(new_id(), 0xFFFFFFFF, 0xFFFFFFFF))
    b = new_id()
    s.send(run_start(b))
    s.send(final(b, 1, 0xFFFFFFFF))
    s.send(gone(b, 0xFFFFFFFF, 1))
    s.send(data(b, 0xFFFFFFFF))
    alive(col, "FINAL and GONE at 2^32 - 1")
    if col.p.poll() is None:
        real_run(col, "after seq 0xFFFFFFFF", 31)
    code, out, err = col.finish()
    check("sequence number 4294967295 out of range" in err, "no refusal named: %r" % err[-2000:])
    check(code in (0, 1), "tally collect exited %s: %s" % (code, err[-2000:]))


def case_junk_slots():
    db = os.path.join(ARGS.work, "junk_slots.db")
    col = Collector(ARGS.tally, db, "--idle-timeout", "5")
    s = sender(col.addr)
    rng = random.Random(7)
    new_id = lambda: rng.getrandbits(63) | 1  # noqa: E731
    # 100 runs with a DATA packet each and never a RUN_START: no evidence,
    # so the real run that follows takes a slot from them
    for _ in range(100):
        s.send(data(new_id(), 5))
    alive(col, "100 DATA-only runs")
    real_run(col, "after 100 DATA-only runs", 41)
    # 70 RUN_STARTs without DATA, then quiet for longer than such a run is
    # kept when the slots are wanted (2 s)
    for _ in range(70):
        s.send(run_start(new_id()))
    time.sleep(2.5)
    real_run(col, "after 70 quiet RUN_START-only runs", 42)
    # 64 runs that look alive (RUN_START and DATA, just now): a 65th is
    # refused, and the collector says so
    live = [new_id() for _ in range(64)]
    for r in live:
        s.send(run_start(r))
        s.send(data(r, 1))
    time.sleep(0.3)
    refused = new_id()
    s.send(run_start(refused, program=b"refused.elf"))
    time.sleep(0.5)
    s.close()
    code, out, err = col.finish()
    # warned once (the first refusal: 6 of the 70 RUN_START-only runs found
    # the 64 slots held by the others, just started), the rest counted
    warned = re.findall(r"warning: refused (\d+) new runs? \(the last [0-9a-f]{16}\): all 64 run slots are held", err)
    check(1 <= len(warned) <= 2, "warnings for refused runs (one, then at most every 10 s): %r" % err[-3000:])
    # at exit: those 6 and the 65th live-looking run refused; 100 DATA-only
    # and 70 RUN_START-only runs and two real ones through 64 slots: at
    # least 100 + 70 + 2 - 6 - 64 evictions
    m = re.search(r"; (\d+) new runs refused \(every run slot held\), (\d+) runs evicted", err)
    check(m and int(m.group(1)) == 7 and int(m.group(2)) >= 102, "summary's refused and evicted runs: %r" % err[-600:])
    con = net_cases.sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    n = con.execute("SELECT COUNT(*) FROM runs WHERE program = 'refused.elf'").fetchone()[0]
    con.close()
    check(n == 0, "the refused run is in the store")


def case_final_no_totals():
    db = os.path.join(ARGS.work, "final_no_totals.db")
    col = Collector(ARGS.tally, db, "--runs", "2", "--idle-timeout", "20")
    s = sender(col.addr)
    good, lossy = 0x5A11B0A2D0000001, 0x5A11B0A2D0000003
    values = [7, 0, 123456, 4294967294, 1]
    for run in (good, lossy):
        s.send(run_start(run, program=b"small.elf"))
        for k, v in enumerate(values):
            if run == lossy and k == 2:
                continue   # lost, and the board says so (GONE)
            s.send(data(run, 1 + k, index=k, value=v))
        body = struct.pack("<QQQIIHHHBB", len(values), 0, 1000 * len(values), len(values), len(values) + 2, 1, 0,
                           0, 0, 0)
        s.send(packet(0x24, run, len(values) + 1, body))
        if run == lossy:
            s.send(gone(run, 3, 1))
    s.close()
    code, out, err = col.finish()
    check(code in (0, 1), "tally collect exited %s: %s" % (code, err[-2000:]))
    sums, status, note = net_cases.stored(db, good)
    check(status == "complete", "run without totals stored as %s (%s): %s" % (status, note, err[-1000:]))
    check(sums.get(0) == (sum(values), len(values)), "its stored sum and values: %s" % sums)
    sums, status, note = net_cases.stored(db, lossy)
    check(status == "incomplete" and note and "missing" in note, "run without totals and a GONE packet: %s (%s)" %
          (status, note))


def compact(run, seq, index, values, width=16, n=None, sat=0, reserved=0, extra=b""):
    """DATA_COMPACT: index (4), n (2), width (1), reserved (1), the
    saturation bitmap, the values (ceil(width / 8) bytes each)."""
    n = len(values) if n is None else n
    b = (width + 7) // 8
    body = struct.pack("<IHBB", index, n, width, reserved) + sat.to_bytes((n + 7) // 8, "little")
    return packet(0x26, run, seq, body + b"".join(v.to_bytes(b, "little") for v in values) + extra)


def case_compact():
    db = os.path.join(ARGS.work, "compact.db")
    # two runs close: the compact one and the real one (the malformed runs stay open)
    col = Collector(ARGS.tally, db, "--runs", "2", "--idle-timeout", "10")
    s = sender(col.addr)
    good, bad, wide = 0xC0A1C0A100000001, 0xC0A1C0A100000003, 0xC0A1C0A100000005
    period = 700
    ivs = [[3, 0, 65535], [1, 2, 3], [0, 65535, 9], [12, 13, 14]]   # 3 counters of 16 bits, 4 intervals
    sats = [4, 0, 2, 0]

    def start(run, counters=3, width=16, period=period):
        body = struct.pack("<HBBHHQIHH", counters, width, 0, 0, 0, period, 0, 9, 3)
        return packet(0x21, run, 0, body + b"small.elf" + b"rtl")

    # interval 1 before the RUN_START: deferred (not held), then sent again
    s.send(compact(good, 2, 1, ivs[1], sat=sats[1]))
    time.sleep(0.2)
    s.send(start(good))
    for k, v in enumerate(ivs):
        s.send(compact(good, 1 + k, k, v, sat=sats[k]))
    s.send(packet(0x24, good, 5, struct.pack("<QQQIIHHHBB", 4, 0, 4 * period, 4, 6, 3, 0, 0, 0, 0)))
    # malformed ones, for a run described as 3 counters of 16 bits
    s.send(start(bad))
    hostile = [
        ("short", compact(bad, 1, 0, [1, 2])[:-1]),
        ("long", compact(bad, 1, 0, [1, 2, 3], extra=b"\0")),
        ("reserved", compact(bad, 1, 0, [1, 2, 3], reserved=1)),
        ("saturated but not 2^16-1", compact(bad, 1, 0, [1, 2, 3], sat=1)),
        ("bitmap past n", compact(bad, 1, 0, [1, 2, 3], sat=8)),
        ("width 0", compact(bad, 1, 0, [0, 0, 0], width=0)),
        ("n 0", packet(0x26, bad, 1, struct.pack("<IHBB", 0, 0, 16, 0))),
        ("counters not RUN_START's", compact(bad, 1, 0, [1, 2])),
        ("width not RUN_START's", compact(bad, 1, 0, [1, 2, 3], width=32)),
        ("module frame without header", bytes([0x26, 0, 0]) + b"\1\0\2\0\3\0"),
        ("FINAL frame without header", bytes([0x27, 4])),
        ("unknown type 0x27", packet(0x27, bad, 1, bytes([4]))),
        ("unknown type 0x28", packet(0x28, bad, 1, b"")),
    ]
    for _, p in hostile:
        s.send(p)
    # a run whose period makes interval 2^32 - 1 end past 2^64 cycles
    s.send(start(wide, period=1 << 40))
    s.send(compact(wide, 1, 0xFFFFFFFF, [1, 2, 3]))
    alive(col, "malformed compact packets")
    if col.p.poll() is None:
        real_run(col, "after malformed compact packets", 43)
    s.close()
    code, out, err = col.finish()
    check(code in (0, 1), "tally collect exited %s: %s" % (code, err[-2000:]))
    sums, status, note = net_cases.stored(db, good)
    check(status == "complete", "compact run stored as %s (%s): %s" % (status, note, err[-1500:]))
    for c in range(3):
        check(sums.get(c) == (sum(v[c] for v in ivs), 4), "compact run's counter %d: %s" % (c, sums.get(c)))
    con = net_cases.sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    rows = con.execute("SELECT seq, interval, cycle_begin, cycle_end, first_counter, n, saturated FROM intervals "
                       "WHERE run_id = ? ORDER BY seq", (net_cases.signed64(good),)).fetchall()
    bad_rows = con.execute("SELECT COUNT(*) FROM intervals WHERE run_id IN (?, ?)",
                           (net_cases.signed64(bad), net_cases.signed64(wide))).fetchone()[0]
    con.close()
    want = [(1 + k, k, k * period, (k + 1) * period, 0, 3) for k in range(4)]
    check([r[:6] for r in rows] == want, "compact run's intervals and derived stamps: %s" % rows)
    check([r[6] for r in rows] == ["[2]", None, "[1]", None], "compact run's saturated counters: %s" % rows)
    check(bad_rows == 0, "%d intervals stored from malformed compact packets" % bad_rows)
    check("1 compact DATA packet before their run's RUN_START" in err, "deferral not reported: %r" % err[-1500:])
    for what in ("DATA_COMPACT for 3 counters of 16 bits needs", "reserved bytes not zero",
                 "marked saturated but its value", "saturation bitmap has bits set past",
                 "counter width 0", "unknown packet type 0x27", "unknown packet type 0x28",
                 "its counters do not match RUN_START's (3 counters of 16 bits",
                 "do not fit in 64 bits at RUN_START's period"):
        check(what in err, "no refusal saying %r: %r" % (what, err[-3000:]))


def sockets_of(pid):
    """The sockets a process holds (its /proc/PID/fd links to socket:[...])."""
    out = []
    for fd in os.listdir("/proc/%d/fd" % pid):
        try:
            if os.readlink("/proc/%d/fd/%s" % (pid, fd)).startswith("socket:"):
                out.append(fd)
        except OSError:
            pass
    return out


def case_run_no_socket():
    """tally run --count with its own store: the collector is in the
    process, with no socket, so no packet from outside can reach it."""
    db = os.path.join(ARGS.work, "run_no_socket.db")
    if os.path.exists(db):
        os.unlink(db)
    p = subprocess.Popen([ARGS.tally, "run", "--count", "instret", "--interval", "10000", "--show-intervals", "0",
                          "--timeout", "2", "--db", db, ARGS.elf], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    seen, looks = [], 0
    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline and p.poll() is None:
        try:
            seen += sockets_of(p.pid)
            looks += 1
        except OSError:
            break
        time.sleep(0.05)
    out, err = p.communicate(timeout=60)
    check(looks >= 5, "the run ended before it could be looked at (%d looks): %s" % (looks, err[-500:]))
    check(not seen, "tally run --count held sockets: fds %s" % sorted(set(seen)))
    check(p.returncode == 124 and "stored in %s" % db in err, "run: %d %s" % (p.returncode, err[-500:]))


def main():
    global ARGS
    ARGS = parse_args("tally", "synth", "work", "elf")
    net_cases.ARGS = ARGS
    return run_case(ARGS.case, globals()["case_" + ARGS.case])


if __name__ == "__main__":
    sys.exit(main())
