#!/usr/bin/env python3
"""The check that closes the loop (docs/rtl-soc.md): the same program and
configuration, run by tally's `picorv32` core model and by the RTL SoC
(PicoRV32 + adapter + tally_statmod, rtl/soc), stored by tally's collector:
the two stored runs must be identical, packet for packet.

  check.py TALLY TB WORKDIR [--core VEX [--wait W]] [--trace] --interval N --count SPEC... PROGRAM

--core VEX (vexriscv, vexriscv-imac or vexriscv-min): TB is that VexRiscv
variant's SoC (build.sh --core VEX) and tally's run is `--core VEX --board
litex` (default: picorv32); --wait
W: TB was built with `--wait W`, and tally's board is litex with its
wait_states set to W (written to WORKDIR/board.ini).

TB: the SoC's testbench (rtl/soc/build.sh), whose module size (counters,
width, ARRs: `tally config --query`) tally's run takes. SPEC: SIGNAL or
SIGNAL@FUNCTION (at most the module's counters; the signals the adapter
provides, docs/rtl-soc.md).

1. `TALLY run --core picorv32 --count SPEC... --interval N --counters C
   --width R --arrs P --db WORKDIR/model.db PROGRAM`: tally's model, its
   packets stored by the embedded collector.
2. The paper's flow with the hardware on the board side: `TALLY collect
   --db WORKDIR/rtl.db`, the testbench on PROGRAM listening for control
   packets and relaying the module's packets to the collector over UDP,
   and `TALLY config --program PROGRAM --timer N --counter i=SPEC...
   --start` configuring the module in the RTL through its registers.
3. Both stores: every DATA packet (sequence number, interval, cycle span,
   every counter's value, saturation), the FINAL packet's figures (intervals
   and packets the board counted, each counter's total; for a board without
   totals, TOTALS = 0, the collector stores its sums as the totals), the counters'
   descriptions and the run's status must be the same.
4. With --trace, cycle by cycle as well: tally's per-cycle trace of the run
   (--cycle-trace) against what the adapter presented to the module (tb
   --dump), every PC and signal (cmptrace.py).

Exit 0 identical, 1 a difference (printed), 64 usage, 70 a tool failed."""
import os
import re
import sqlite3
import subprocess
import sys
import time


def fail(msg, code=70):
    print(f"check: {msg}", file=sys.stderr)
    sys.exit(code)


def stored(db):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    runs = con.execute("SELECT run_id, counters, width, arrs, period, status, note, intervals_sent, received "
                       "FROM runs").fetchall()
    if len(runs) != 1:
        fail(f"{db}: {len(runs)} runs stored, expected 1", 1)
    rid = runs[0][0]
    run = dict(zip(("counters", "width", "arrs", "period", "status", "note", "intervals_sent", "received"),
                   runs[0][1:]))
    counters = con.execute("SELECT counter, signal, anywhere, lo, hi, location, label, enabled FROM counters "
                           "WHERE run_id = ? ORDER BY counter", (rid,)).fetchall()
    data = con.execute("SELECT seq, interval, cycle_begin, cycle_end, first_counter, n, vals, saturated "
                       "FROM intervals WHERE run_id = ? ORDER BY seq", (rid,)).fetchall()
    totals = con.execute("SELECT counter, board_total, stored_sum FROM totals WHERE run_id = ? ORDER BY counter",
                         (rid,)).fetchall()
    con.close()
    return run, counters, data, totals


# LiteX's VexRiscv variants, each tally's core model of the same name
# (build.sh --core NAME builds its SoC; the same adapter watches all three)
VEX = ("vexriscv", "vexriscv-imac", "vexriscv-min")


def board_with_wait(tally, wait, work):
    """boards/litex.ini with every wait_states set to wait, written to work
    (as tests/cores/vexriscv/compare.py does)."""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "boards", "litex.ini")
    if not wait.isdigit():
        fail(f"--wait {wait}: a number", 64)
    with open(src) as f:
        text = re.sub(r"(?m)^(wait_states\s*=\s*)\d+", lambda m: m.group(1) + wait, f.read())
    os.makedirs(work, exist_ok=True)
    path = os.path.join(work, "board.ini")
    with open(path, "w") as f:
        f.write(text)
    return path


def main(a):
    if len(a) < 4 or a[0] in ("-h", "--help"):
        print(__doc__, file=sys.stderr if len(a) < 4 else sys.stdout)
        return 64
    tally, tb, work = a[0], a[1], a[2]
    rest = a[3:]
    interval, specs, trace, core = None, [], False, ["picorv32"]
    if rest[:1] == ["--core"] and len(rest) > 1:
        if rest[1] not in ("picorv32",) + VEX:
            print(f"check: --core {rest[1]}: picorv32, {', '.join(VEX)}", file=sys.stderr)
            return 64
        core = [rest[1]] + (["--board", "litex"] if rest[1] in VEX else [])
        rest = rest[2:]
        if core[0] in VEX and rest[:1] == ["--wait"] and len(rest) > 1:
            core[2] = board_with_wait(tally, rest[1], work)
            rest = rest[2:]
    if rest[:1] == ["--trace"]:
        trace, rest = True, rest[1:]
    i = 0
    while i < len(rest) - 1:
        if rest[i] == "--interval":
            interval = rest[i + 1]
        elif rest[i] == "--count":
            specs.append(rest[i + 1])
        else:
            print(f"check: unknown option {rest[i]}", file=sys.stderr)
            return 64
        i += 2
    if i != len(rest) - 1 or interval is None or not specs:
        print("check: want --interval N, --count SPEC..., then PROGRAM", file=sys.stderr)
        return 64
    program = rest[-1]
    os.makedirs(work, exist_ok=True)
    model_db, rtl_db = os.path.join(work, "model.db"), os.path.join(work, "rtl.db")
    model_ct, rtl_dump = os.path.join(work, "model.ct"), os.path.join(work, "rtl.dump")
    for f in (model_db, rtl_db):
        if os.path.exists(f):
            os.unlink(f)

    # the RTL SoC waiting for its configuration, tally collect listening
    t_start = time.time()
    col = subprocess.Popen([tally, "collect", "--listen", "127.0.0.1:0", "--db", rtl_db, "--runs", "1",
                            "--idle-timeout", "60"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = col.stderr.readline()
    m = re.search(r"listening on (\S+):(\d+)", line)
    if not m:
        col.kill()
        fail(f"tally collect did not start: {line}")
    board = subprocess.Popen([tb, program, "--control", "127.0.0.1:0", "--collector", f"{m.group(1)}:{m.group(2)}",
                              "--program", program] + (["--dump", rtl_dump] if trace else []), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    line = board.stderr.readline()
    m2 = re.search(r"waiting for the configuration on (\S+):(\d+)", line)
    if not m2:
        board.kill()
        col.kill()
        fail(f"the testbench did not start: {line}{board.stderr.read()[-800:]}")
    # the module's size, as the board tells it (STATUS)
    r = subprocess.run([tally, "config", "--board", f"{m2.group(1)}:{m2.group(2)}", "--query"],
                       capture_output=True, text=True)
    mq = re.search(r"module\s+([\d,]+) counters of (\d+) bits, ([\d,]+) ARRs", r.stdout)
    if r.returncode != 0 or not mq:
        board.kill()
        col.kill()
        fail(f"tally config --query: {r.stdout}{r.stderr}")
    n_ctr, width, n_arr = (x.replace(",", "") for x in mq.groups())
    if len(specs) > int(n_ctr):
        board.kill()
        col.kill()
        fail(f"{len(specs)} --count for a module of {n_ctr} counters", 64)

    # 1. tally's model, the same size
    cmd = [tally, "run", "--core"] + core + ["--quiet", "--interval", interval, "--counters", n_ctr, "--width", width,
           "--arrs", n_arr, "--db", model_db]
    for s in specs:
        cmd += ["--count", s]
    if trace:
        cmd += ["--cycle-trace", model_ct]
    t0 = time.time()
    r = subprocess.run(cmd + [program], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    # below 64: the program's own exit status (any, with the run stored: a
    # program that exits with a checksum, tests/cores/vexriscv)
    if not 0 <= r.returncode < 64 and not (core[0] in VEX and os.path.exists(model_db)):
        board.kill()
        col.kill()
        fail(f"tally run failed ({r.returncode}): {r.stderr[-800:]}")
    t_model = time.time() - t0

    # 2. the RTL SoC, configured by tally config, stored by tally collect
    cfg = [tally, "config", "--board", f"{m2.group(1)}:{m2.group(2)}", "--program", program, "--timer", interval]
    for k, s in enumerate(specs):
        cfg += ["--counter", f"{k}={s}"]
    r = subprocess.run(cfg + ["--start"], capture_output=True, text=True)
    if r.returncode != 0:
        board.kill()
        col.kill()
        fail(f"tally config failed ({r.returncode}): {r.stdout}{r.stderr}")
    try:
        _, berr = board.communicate(timeout=3600)
        _, cerr = col.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        board.kill()
        col.kill()
        fail("the testbench or the collector did not finish")
    t_rtl = time.time() - t_start - t_model
    if board.returncode != 0:
        fail(f"the testbench failed ({board.returncode}): {berr[-800:]}", 1)

    # 3. the two stores
    mrun, mcnt, mdata, mtot = stored(model_db)
    rrun, rcnt, rdata, rtot = stored(rtl_db)
    ok = True

    def diff(what, x, y):
        nonlocal ok
        if x != y:
            ok = False
            print(f"check: {what}: tally's model {x}, the RTL SoC {y}")

    for k in mrun:
        diff(f"run {k}", mrun[k], rrun[k])
    diff("counters", mcnt, rcnt)
    diff("DATA packets stored", len(mdata), len(rdata))
    shown = 0
    for x, y in zip(mdata, rdata):
        if x != y and shown < 5:
            diff(f"DATA seq {x[0]}", x, y)
            shown += 1
        elif x != y:
            ok = False
    # (a board without totals, TOTALS = 0: the collector stores its sums as the totals)
    diff("totals (board's, stored sum)", mtot, rtot)
    cycles = mdata[-1][3] if mdata else 0
    if trace:
        r = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "cmptrace.py")]
                           + (["--core", core[0]] if core[0] in VEX else []) + [model_ct, rtl_dump], capture_output=True, text=True)
        print(r.stdout.strip() + r.stderr.strip())
        if r.returncode != 0:
            ok = False
    mh = re.search(r" held (\d+)", berr)  # the clocks the adapter held the core (not its cycles)
    if ok:
        print(f"check: {os.path.basename(program)}: {len(mdata)} DATA packets and FINAL identical, "
              f"{cycles} cycles, period {interval}, {len(specs)} counters "
              f"({', '.join(specs)}); run {mrun['status']} in both "
              f"(model {t_model:.1f} s, RTL {t_rtl:.1f} s{f', the core held {mh.group(1)} clocks' if mh else ''})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
