#!/usr/bin/env python3
"""Co-simulation of rtl/statmod.v with tally's own C statistics module.

  cosim_tally.py [--no-totals] TALLY TB S P N R [TALLY RUN OPTIONS...] PROGRAM

runs `TALLY run --collector 127.0.0.1:PORT --cycle-trace FIFO OPTIONS
PROGRAM`: the C module counts the run and tally's board link sends its
packets over UDP to this script, which holds them as a collector would
(asking again for what is missing, acknowledging the end so that the board
stops waiting). The Verilator testbench TB (rtl/build_tb.sh with the same
S, P, N, R) is configured through its register interface as the C module
was (the counters, ARRs and period the C board described in its RUN_START
and COUNTER_INFO packets, the run id, the sequence number of the first
DATA packet) and driven with the cycle trace as tally writes it: the trace
goes through a named pipe, each record becomes testbench input at once
(one observed cycle per traced core cycle), so a run of any length needs
no file. A configuration change the C module made in the middle of the run
(`--at CYCLE:CHANGE`, or a control packet) is in the trace at the cycle it
took effect, and becomes the same register writes between the same two
cycles. Then STOP and the timer's run-down. Every DATA and FINAL packet of
the RTL must equal, byte for byte, the one tally sent.

--no-totals: TB is a small build without run totals (TOTALS = 0,
docs/rtl-area.md): its FINAL packet must be tally's without the totals
(n = 0, 40 bytes of payload: docs/protocol.md, "A board without totals");
every DATA packet is unchanged.

S must be tally's signal count (the trace's), P, N and R the --arrs,
--counters and --width of the run. A counted signal that is 2 or more on
one cycle cannot be given to the RTL (one bit per signal): that is an error
(65), not a difference.

Exit 0: identical; 1: a difference (the first is printed); 64 usage;
65 bad data; 70 a tool failed; 77 skipped (no verilator, no testbench).
"""
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cycletrace import Reader, TraceError  # noqa: E402

T_RUN_START, T_COUNTER_INFO, T_DATA, T_FINAL, T_RESEND, T_FINAL_ACK = 0x21, 0x22, 0x23, 0x24, 0x31, 0x32
HEADER = struct.Struct("<4sBBHQIHH")


class Capture(threading.Thread):
    """Holds the board's stream packets by sequence number, as a collector
    does: once the FINAL packet is in, asks for what is missing (RESEND,
    docs/protocol.md) until it has everything, then acknowledges the end
    (FINAL_ACK) so the board stops waiting."""

    def __init__(self):
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.packets = {}
        self.stop = False
        self.error = None

    def missing(self):
        """Ranges (first, count) of the sequence numbers not yet in, up to FINAL."""
        ranges, s = [], 0
        while s <= self.final_seq and len(ranges) < 171:
            if s in self.packets:
                s += 1
                continue
            first = s
            while s <= self.final_seq and s not in self.packets:
                s += 1
            ranges.append((first, s - first))
        return ranges

    def ask(self):
        ranges = self.missing()
        if not ranges:
            ack = HEADER.pack(b"TALY", 1, T_FINAL_ACK, 0, self.run_id, self.final_seq + 1, 8, 0) + \
                struct.pack("<B3xI", 1, self.final_seq + 1)
            self.sock.sendto(ack, self.board)
            return
        body = struct.pack("<HH", len(ranges), 0) + b"".join(struct.pack("<II", f, c) for f, c in ranges)
        self.sock.sendto(HEADER.pack(b"TALY", 1, T_RESEND, 0, self.run_id, 0, len(body), 0) + body, self.board)

    def run(self):
        self.final_seq, self.board = None, None
        while not self.stop:
            try:
                data, addr = self.sock.recvfrom(2048)
            except socket.timeout:
                if self.final_seq is not None:
                    self.ask()
                continue
            if len(data) < HEADER.size or data[:4] != b"TALY":
                self.error = f"a datagram that is not a tally packet ({len(data)} bytes)"
                continue
            _, _, ptype, _, run_id, seq, _, _ = HEADER.unpack_from(data)
            if seq in self.packets and self.packets[seq] != data:
                self.error = f"seq {seq} arrived twice with different bytes"
            self.packets[seq] = data
            self.board, self.run_id = addr, run_id
            if ptype == T_FINAL:
                self.final_seq = seq
            if self.final_seq is not None:
                self.ask()


def describe(packets):
    """The C board's description of the run: RUN_START's parameters and
    period, COUNTER_INFO's counters (signal, arr, lo, hi, enabled)."""
    start = packets[0]
    _, _, ptype, _, run_id, _, _, _ = HEADER.unpack_from(start)
    if ptype != T_RUN_START:
        raise ValueError("seq 0 is not RUN_START")
    counters, width, arrs, info, period = struct.unpack_from("<HHHHQ", start, HEADER.size)
    cfg = []
    for seq in range(1, 1 + info):
        p = packets[seq]
        first, n = struct.unpack_from("<HH", p, HEADER.size)
        off = HEADER.size + 4
        for _ in range(n):
            sig, arr, lo, hi, en, ln, lw, ll = struct.unpack_from("<HHIIBBBB", p, off)
            cfg.append((sig, arr, lo, hi, en))
            off += 16 + ln + lw + ll
    return run_id, counters, width, arrs, info, period, cfg


class TbInput:
    """Testbench input (rtl/README.md, "Trace format") made from the C
    board's description and the cycle trace's records as they come:
    register writes, START, one `c` line per run of identical cycles, the
    changes of the run between them, STOP, `end`."""

    def __init__(self, send, P, N):
        self.send, self.P, self.N = send, P, N
        self.cfg = {}            # counter -> (signal, arr, enabled): what is counted now
        self.names = None
        self.period_due = None   # a period change waiting for the next observed cycle
        self.stopped = False
        self.changes = 0

    def configure(self, run_id, info, period, cfg):
        w = [f"w 10 {run_id & 0xFFFFFFFF:x}", f"w 14 {run_id >> 32:x}", f"w 18 {1 + info:x}", f"w 4 {period:x}"]
        arr_range = {}
        for sig, arr, lo, hi, en in cfg:
            if en and arr != 0xFFFF:
                if arr >= self.P:
                    raise ValueError(f"the C module uses ARR {arr}, the RTL has {self.P}")
                arr_range[arr] = (lo, hi)
        for a, (lo, hi) in sorted(arr_range.items()):
            w += [f"w {0x1000 + 8 * a:x} {lo:x}", f"w {0x1004 + 8 * a:x} {hi:x}"]
        for i, (sig, arr, lo, hi, en) in enumerate(cfg):
            w += [f"w {0x2000 + 8 * i:x} {(arr << 16) | sig:x}", f"w {0x2004 + 8 * i:x} {en:x}"]
            self.cfg[i] = (sig, arr, en)
        w.append("w 0 1")
        self.send(w)

    def change(self, c):
        """A CONFIG record: the writes go between the cycle before c['cycle']
        and that cycle, as the C module counts the cycles from it under the
        new configuration. A new period is used from the timer's first
        reload after that cycle in the C module; the RTL reloads on the
        dispatch cycle itself, after the writes before it: so the period is
        written after the next observed cycle (the same reload, when that
        cycle is a dispatch; no reload is missed otherwise)."""
        self.changes += 1
        k = c["kind"]
        if k == "period":
            self.period_due = c["period"]
        elif k == "arr":
            if c["index"] >= self.P:
                raise ValueError(f"cycle {c['cycle']}: ARR {c['index']} changes; the RTL has {self.P}")
            self.send([f"w {0x1000 + 8 * c['index']:x} {c['lo']:x}", f"w {0x1004 + 8 * c['index']:x} {c['hi']:x}"])
        elif k == "counter":
            i = c["index"]
            if i >= self.N:
                raise ValueError(f"cycle {c['cycle']}: counter {i} changes; the RTL has {self.N}")
            self.cfg[i] = (c["signal"], c["arr"], c["enabled"])
            self.send([f"w {0x2000 + 8 * i:x} {(c['arr'] << 16) | c['signal']:x}", f"w {0x2004 + 8 * i:x} {c['enabled']:x}"])
        elif k == "stop":
            self.stopped = True
            self.send(["w 0 2"])
        else:
            raise ValueError(f"cycle {c['cycle']}: the run was {k}ed again in the middle; not co-simulated")

    def cycles(self, cycle, rep, pc, mask, vals):
        if vals is not None:  # some signal above 1: not one the RTL counts
            counted = {sig for sig, arr, en in self.cfg.values() if en}
            big = [s for s in counted if vals.get(s, 0) > 1]
            if big:
                s = big[0]
                raise ValueError(f"cycle {cycle}: {self.names[s]} is {vals[s]} on one cycle; "
                                 "the RTL takes one bit per signal")
        if self.period_due is not None:
            self.send([f"c {pc:x} 1 {mask:x} 1", f"w 4 {self.period_due:x}"])
            self.period_due, rep = None, rep - 1
            if not rep:
                return
        self.send([f"c {pc:x} 1 {mask:x} {rep}"])

    def finish(self, cut_short):
        w = [] if self.period_due is None else [f"w 4 {self.period_due:x}"]
        # cut_short is read when FINAL goes out: after the trace, before STOP
        w += [] if self.stopped else [f"w 1c {cut_short:x}", "w 0 2"]
        self.send(w + ["end"])


class Testbench:
    """The Verilator testbench as a process fed line by line; its packets
    are read by a thread (so neither side waits on a full pipe)."""

    def __init__(self, tb):
        self.p = subprocess.Popen([tb], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, bufsize=1 << 16)
        self.out, self.err = [], []
        self.readers = [threading.Thread(target=self._drain, args=(self.p.stdout, self.out), daemon=True),
                        threading.Thread(target=self._drain, args=(self.p.stderr, self.err), daemon=True)]
        for t in self.readers:
            t.start()
        self.buf = []

    @staticmethod
    def _drain(f, into):
        for line in f:
            into.append(line)

    def send(self, lines):
        self.buf += lines
        if len(self.buf) >= 4096:
            self.flush()

    def flush(self):
        """Writes what is gathered; buf stays the same list (stream() appends to it)."""
        if self.buf:
            self.p.stdin.write("\n".join(self.buf) + "\n")
            del self.buf[:]

    def close(self):
        try:
            self.flush()
            self.p.stdin.close()
        except BrokenPipeError:
            pass
        rc = self.p.wait()
        for t in self.readers:
            t.join()
        return rc, [bytes.fromhex(x) for x in "".join(self.out).split()], "".join(self.err).strip()


def open_fifo(path, proc):
    """Opens the trace's named pipe for reading; if tally ends without ever
    opening it (an error before the run), opens it for writing itself so
    that the open returns (the reader then sees an empty trace)."""
    opened = threading.Event()

    def unblock():
        while not opened.is_set():
            if proc.poll() is not None and not opened.is_set():
                try:
                    os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
                except OSError:
                    pass
                return
            opened.wait(0.05)

    threading.Thread(target=unblock, daemon=True).start()
    f = open(path, "rb", buffering=1 << 16)
    opened.set()
    return f


def wait_description(cap, proc, timeout=60.0):
    """RUN_START and every COUNTER_INFO: the board sends them before the
    program starts."""
    waited = 0.0
    while True:
        if 0 in cap.packets:
            info = struct.unpack_from("<HHHH", cap.packets[0], HEADER.size)[3]
            if all(s in cap.packets for s in range(1, 1 + info)):
                return
        if proc.poll() is not None or waited > timeout:
            raise ValueError("the board's RUN_START and COUNTER_INFO packets did not all come")
        time.sleep(0.01)
        waited += 0.01


def stream(tally, tb_path, S, P, N, R, run_args, cap, tmp):
    """Runs tally with its trace into a named pipe and the testbench on it
    as it comes. Returns (tally's exit status and stderr, the board's
    description, the RTL's packets, cycles, changes) or raises."""
    fifo = os.path.join(tmp, "trace.fifo")
    os.mkfifo(fifo)
    errf = tempfile.TemporaryFile(mode="w+")
    cmd = [tally, "run", "--collector", f"127.0.0.1:{cap.port}", "--cycle-trace", fifo] + run_args
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=errf)
    tb = None
    try:
        f = open_fifo(fifo, proc)
        with f:
            r = Reader(f)
            if r.first != 0:
                raise ValueError(f"the trace starts at cycle {r.first}: the co-simulation needs the whole run")
            if len(r.names) != S:
                raise ValueError(f"tally has {len(r.names)} signals, the testbench S={S}")
            wait_description(cap, proc)
            desc = describe(cap.packets)
            run_id, counters, width, arrs, info, period, cfg = desc
            if (counters, width, arrs) != (N, R, P):
                raise ValueError(f"the C module has N={counters} R={width} P={arrs}, the testbench N={N} R={R} P={P}")
            tb = Testbench(tb_path)
            feed = TbInput(tb.send, P, N)
            feed.names = r.names
            feed.configure(run_id, info, period, cfg)
            buf = tb.buf
            for cycle, rep, pc, mask, vals in r.raw_records(on_config=feed.change):
                if vals is None and feed.period_due is None:  # the common record, inline
                    buf.append(f"c {pc:x} 1 {mask:x} {rep}")
                    if len(buf) >= 4096:
                        tb.flush()
                else:
                    feed.cycles(cycle, rep, pc, mask, vals)
            cycles = (r.end, r.nbytes)
        rc = proc.wait(timeout=3600)
        feed.finish(1 if rc == 124 else 0)  # 124: --max-insns (the FINAL packet says cut_short)
        tbrc, got, tberr = tb.close()
        tb = None
        if tbrc != 0:
            raise RuntimeError(f"{tb_path} failed ({tbrc}): {tberr}")
        errf.seek(0)
        return rc, errf.read(), cmd, desc, got, cycles, feed.changes
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if tb is not None:
            tb.p.kill()
            tb.close()


def main(argv):
    if len(argv) >= 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    no_totals = len(argv) >= 2 and argv[1] == "--no-totals"
    if no_totals:
        argv = argv[:1] + argv[2:]
    if len(argv) < 8:
        print(__doc__.strip(), file=sys.stderr)
        return 64
    tally, tb = argv[1], argv[2]
    if not os.path.exists(tb) and not shutil.which("verilator"):
        print("cosim_tally: verilator is not installed (scripts/install-deps.sh): skipped")
        return 77
    S, P, N, R = (int(x) for x in argv[3:7])
    run_args = argv[7:]
    cap = Capture()
    cap.start()
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            rc, err, cmd, desc, got, cycles, changes = stream(tally, tb, S, P, N, R, run_args, cap, tmp)
        except (ValueError, TraceError, struct.error, KeyError) as e:
            cap.stop = True
            print(f"cosim_tally: {e}", file=sys.stderr)
            return 65
        except RuntimeError as e:
            cap.stop = True
            print(f"cosim_tally: {e}", file=sys.stderr)
            return 70
    cap.stop = True
    cap.join()
    secs = time.monotonic() - t0
    # 0: ran to its end; 124: --max-insns
    if rc not in (0, 124):
        print(f"cosim_tally: {' '.join(cmd)} exited {rc}:\n{err}", file=sys.stderr)
        return 70
    if cap.error:
        print(f"cosim_tally: {cap.error}", file=sys.stderr)
        return 65
    pk = cap.packets
    if not pk or sorted(pk) != list(range(len(pk))):
        print(f"cosim_tally: the board's packets are not all in (seq {sorted(pk)[:5]}...)", file=sys.stderr)
        return 65
    want = [pk[s] for s in sorted(pk) if pk[s][5] in (T_DATA, T_FINAL)]
    if no_totals:  # docs/protocol.md: a FINAL without totals says n = 0 and ends after cut_short
        want = [w if w[5] != T_FINAL else
                w[:20] + struct.pack("<H", 40) + w[22:24 + 36] + struct.pack("<H", 0) + w[24 + 38:24 + 40]
                for w in want]
    period = desc[5]
    cycles, nbytes = cycles
    what = (f"{os.path.basename(run_args[-1])}, {cycles} cycles ({nbytes / 1e6:.1f} MB of trace) streamed in "
            f"{secs:.1f} s ({cycles / secs / 1e6:.2f} M cycles/s), period {period}, {changes} changes mid-run, "
            f"N={N} R={R} P={P}")
    if got == want:
        print(f"cosim_tally: {what}: {len(want)} DATA/FINAL packets identical to tally's")
        return 0
    print(f"cosim_tally: {what}: the RTL sent {len(got)} packets, tally {len(want)}")
    for k, (g, w) in enumerate(zip(got, want)):
        if g != w:
            print(f"  packet {k} differs:\n  rtl   {g.hex()}\n  tally {w.hex()}")
            break
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
