#!/usr/bin/env python3
"""Co-simulation of rtl/statmod.v with tally's own C statistics module.

  cosim_tally.py TALLY TB S P N R [TALLY RUN OPTIONS...] PROGRAM

runs `TALLY run --collector 127.0.0.1:PORT --cycle-trace FILE OPTIONS
PROGRAM`: the C module counts the run and tally's board link sends its
packets over UDP to this script, which holds them as a collector would
(asking again for what is missing, acknowledging the end so that the board
stops waiting). Then the Verilator
testbench TB (rtl/build_tb.sh with the same S, P, N, R) is configured
through its register interface as the C module was (the counters, ARRs and
period the C board described in its RUN_START and COUNTER_INFO packets, the
run id, the sequence number of the first DATA packet) and driven with the
recorded trace, one observed cycle per traced core cycle, then STOP and the
timer's run-down. Every DATA and FINAL packet of the RTL must equal, byte
for byte, the one tally sent.

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


def tb_input(trace, run_id, info, period, cfg, P, cut_short):
    """The testbench's input (rtl/README.md, "Trace format"): registers,
    START, one `c` line per traced run of cycles, STOP, end."""
    w = [f"w 10 {run_id & 0xFFFFFFFF:x}", f"w 14 {run_id >> 32:x}", f"w 18 {1 + info:x}",
         f"w 1c {cut_short:x}", f"w 4 {period:x}"]
    arr_range = {}
    for sig, arr, lo, hi, en in cfg:
        if en and arr != 0xFFFF:
            if arr >= P:
                raise ValueError(f"the C module uses ARR {arr}, the RTL has {P}")
            arr_range[arr] = (lo, hi)
    for a, (lo, hi) in sorted(arr_range.items()):
        w += [f"w {0x1000 + 8 * a:x} {lo:x}", f"w {0x1004 + 8 * a:x} {hi:x}"]
    counted = set()
    for i, (sig, arr, lo, hi, en) in enumerate(cfg):
        w += [f"w {0x2000 + 8 * i:x} {(arr << 16) | sig:x}", f"w {0x2004 + 8 * i:x} {en:x}"]
        if en:
            counted.add(sig)
    w.append("w 0 1")
    with open(trace, "rb") as f:
        r = Reader(f)
        if r.first != 0:
            raise ValueError(f"the trace starts at cycle {r.first}: the co-simulation needs the whole run")
        for cycle, rep, pc, vals in r.records():
            big = [s for s in counted if vals.get(s, 0) > 1]
            if big:
                s = big[0]
                raise ValueError(f"cycle {cycle}: {r.names[s]} is {vals[s]} on one cycle; "
                                 "the RTL takes one bit per signal")
            mask = sum(1 << s for s in vals)
            w.append(f"c {pc:x} 1 {mask:x} {rep}")
        cycles = r.end
    w += ["w 0 2", "end"]
    return w, cycles


def main(argv):
    if len(argv) >= 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
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
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "run.ct")
        cmd = [tally, "run", "--collector", f"127.0.0.1:{cap.port}", "--cycle-trace", trace] + run_args
        run = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=300)
        cap.stop = True
        cap.join()
        # 0: ran to its end; 124: --max-insns (the FINAL packet says cut_short)
        if run.returncode not in (0, 124):
            print(f"cosim_tally: {' '.join(cmd)} exited {run.returncode}:\n{run.stderr}", file=sys.stderr)
            return 70
        if cap.error:
            print(f"cosim_tally: {cap.error}", file=sys.stderr)
            return 65
        pk = cap.packets
        if not pk or sorted(pk) != list(range(len(pk))):
            print(f"cosim_tally: the board's packets are not all in (seq {sorted(pk)[:5]}...)", file=sys.stderr)
            return 65
        try:
            run_id, counters, width, arrs, info, period, cfg = describe(pk)
            if (counters, width, arrs) != (N, R, P):
                raise ValueError(f"the C module has N={counters} R={width} P={arrs}, the testbench N={N} R={R} P={P}")
            with open(trace, "rb") as f:
                if len(Reader(f).names) != S:
                    raise ValueError(f"tally has {len(Reader(open(trace, 'rb')).names)} signals, the testbench S={S}")
            lines, cycles = tb_input(trace, run_id, info, period, cfg, P, 1 if run.returncode == 124 else 0)
        except (ValueError, TraceError, struct.error, KeyError) as e:
            print(f"cosim_tally: {e}", file=sys.stderr)
            return 65
    want = [pk[s] for s in sorted(pk) if pk[s][5] in (T_DATA, T_FINAL)]
    out = subprocess.run([tb], input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        print(f"cosim_tally: {tb} failed ({out.returncode}): {out.stderr.strip()}", file=sys.stderr)
        return 70
    got = [bytes.fromhex(x) for x in out.stdout.split()]
    what = f"{os.path.basename(run_args[-1])}, {cycles} cycles, period {period}, N={N} R={R} P={P}"
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
