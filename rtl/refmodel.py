"""A reference model of rtl/statmod.v written from docs/rtl.md and
docs/protocol.md alone: it reads the same trace as the Verilator testbench
(rtl/README.md, "Trace format") and returns the packets the hardware must
send, as bytes. Kept deliberately plain: one Python step per observed cycle.

A small build (docs/rtl-area.md) is described by `totals` and `snap`: without
totals the FINAL packet carries none (n = 0, docs/protocol.md); without the
snapshot the packets are the same (the core waits instead)."""
import struct

IDLE, RUN, DRAIN, DONE = 0, 1, 2, 4


class RefStatmod:
    def __init__(self, S, P, N, R, totals=1, snap=1):
        self.S, self.P, self.N, self.R = S, P, N, R
        self.totals = totals
        self.maxv = (1 << R) - 1
        self.period = 0
        self.run_id = 0
        self.seq_base = 0
        self.cut_short = 0
        self.arr = [[0, 0] for _ in range(P)]
        self.csig = [0] * N
        self.carr = [0xFFFF] * N
        self.cen = [0] * N
        self.state = IDLE
        self.cycle = 0
        self.packets = []

    # ---- packets, from docs/protocol.md's tables -------------------------
    def _header(self, ptype, payload):
        return struct.pack("<4sBBHQIHH", b"TALY", 1, ptype, 0, self.run_id, self.seq, len(payload), 0) + payload

    def _data(self, end):
        b = (self.R + 7) // 8
        bitmap = bytearray((self.N + 7) // 8)
        for i, s in enumerate(self.sat):
            if s:
                bitmap[i // 8] |= 1 << (i % 8)
        vals = b"".join(v.to_bytes(b, "little") for v in self.cnt)
        payload = struct.pack("<QQQHHB3x", self.index, self.iv_begin, end, 0, self.N, self.R) + bytes(bitmap) + vals
        self.packets.append(self._header(0x23, payload))
        self.seq += 1
        self.data_packets += 1

    def _final(self):
        payload = struct.pack("<QQQIIHHHBx", self.index, self.run_begin, self.iv_begin, self.data_packets,
                              self.seq + 1, self.N, 0, self.N if self.totals else 0, self.cut_short)
        if self.totals:
            payload += b"".join(struct.pack("<Q", t) for t in self.total)
        self.packets.append(self._header(0x24, payload))
        self.seq += 1
        self.state = DONE

    # ---- the trace's operations -------------------------------------------
    def write(self, addr, v):
        if addr == 0x0004:
            self.period = v
        elif addr == 0x0010:
            self.run_id = (self.run_id & ~0xFFFFFFFF) | v
        elif addr == 0x0014:
            self.run_id = (self.run_id & 0xFFFFFFFF) | (v << 32)
        elif addr == 0x0018:
            self.seq_base = v
        elif addr == 0x001C:
            self.cut_short = v & 1
        elif 0x1000 <= addr < 0x1000 + 8 * self.P:
            self.arr[(addr - 0x1000) // 8][(addr >> 2) & 1] = v
        elif 0x2000 <= addr < 0x2000 + 8 * self.N:
            i = (addr - 0x2000) // 8
            if addr & 4:
                self.cen[i] = v & 1
            else:
                self.csig[i], self.carr[i] = v & 0xFFFF, v >> 16
        elif addr == 0x0000:
            if v & 1 and self.state in (IDLE, DONE) and self.period:
                self.state = RUN
                self.run_begin = self.iv_begin = self.cycle
                self.remaining = self.period
                self.index = 0
                self.seq = self.seq_base
                self.data_packets = 0
                self.cnt = [0] * self.N
                self.sat = [0] * self.N
                self.total = [0] * self.N
            if v & 2 and self.state == RUN:
                if self.cycle == self.iv_begin:
                    self._final()
                else:
                    self.state = DRAIN

    def _event(self, i, pc, valid, sig):
        if not self.cen[i]:
            return False
        s = self.csig[i]
        if s >= self.S or not (sig >> s) & 1 or not valid:
            return False
        a = self.carr[i]
        if a == 0xFFFF:
            return True
        return a < self.P and self.arr[a][0] <= pc < self.arr[a][1]

    def step(self, pc, valid, sig):
        if self.state in (RUN, DRAIN):
            counting = self.state == RUN
            if self.remaining == 0:
                self._data(self.cycle)
                for i in range(self.N):
                    self.total[i] += self.cnt[i]
                self.index += 1
                self.iv_begin = self.cycle
                self.remaining = (self.period - 1) & 0xFFFFFFFF
                for i in range(self.N):
                    e = counting and self._event(i, pc, valid, sig)
                    self.cnt[i] = 1 if e else 0
                    self.sat[i] = 1 if e and self.R == 1 else 0
                if not counting:
                    self._final()
            else:
                self.remaining -= 1
                if counting:
                    for i in range(self.N):
                        if self._event(i, pc, valid, sig) and self.cnt[i] != self.maxv:
                            self.cnt[i] += 1
                            if self.cnt[i] == self.maxv:
                                self.sat[i] = 1
        self.cycle += 1

    def end(self):
        while self.state in (RUN, DRAIN):
            self.step(0, 0, 0)


def run_trace(lines, S, P, N, R, totals=1, snap=1):
    m = RefStatmod(S, P, N, R, totals, snap)
    for line in lines:
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "c":
            rep = int(f[4]) if len(f) > 4 else 1
            for _ in range(rep):
                m.step(int(f[1], 16), int(f[2], 16), int(f[3], 16))
        elif f[0] == "w":
            m.write(int(f[1], 16), int(f[2], 16))
        elif f[0] == "end":
            m.end()
    return m.packets
