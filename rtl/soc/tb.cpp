// Verilator testbench of rtl/soc (tally_soc): the board side of
// docs/protocol.md with the statistics module in the RTL.
//
//   tb ELF [--control ADDR:PORT] [--collector ADDR:PORT] [--program NAME]
//          [--max-cycles N] [--linger S] [--dump FILE]
//
// It loads ELF into the SoC's RAM and waits for the configuration on the
// control address (default 127.0.0.1:0, the port chosen is printed), as
// `tally run --control` does: each control packet (SET_TIMER, SET_ARR,
// SET_COUNTER, START, STOP, QUERY) is checked as the protocol says (run id,
// sequence number, a repeat answered again) and applied as writes to the
// module's registers (docs/rtl.md), answered with ACK, ERROR or STATUS. On
// START it sends the collector RUN_START and COUNTER_INFO (seq 0 and 1, from
// the configuration it applied), tells the module the first DATA packet's
// sequence number (2) and the run id, and starts it: the SoC releases the
// core. Every packet the module's byte stream carries (out_valid/out_last)
// goes out as one UDP datagram as it is; the collector's RESEND is answered
// from the packets kept, and after FINAL the testbench repeats FINAL until
// FINAL_ACK (or --linger seconds of silence, default 5). Built with
// SOC_COMPACT 1 (build.sh's COMPACT) it is a compact stream's relay
// instead: each frame of the module becomes a DATA_COMPACT or FINAL packet
// (relay_frame, docs/protocol.md "Compact stream"). Built with SOC_VEXRISCV
// (build.sh --core vexriscv) it is the board of soc_vexriscv.v: RAM at
// 0x40000000 and the signals of adapter_vexriscv.v (docs/rtl-soc.md, "VexRiscv").
//
// --dump FILE writes every cycle the adapter presents to the module as a
// line "CYCLE PC PC_VALID SIGNALS" (the cycle in decimal, PC and signals in hex;
// rtl/soc/cmptrace.py compares it with tally run --cycle-trace).
//
// Prints on stderr what the program writes to the UART, and at the end
// "tb: cycles C packets K exit S held H" (the clocks since START, the packets of
// the stream, the program's exit status, the clocks the PicoRV32 adapter held the core). It ends once the collector has
// acknowledged FINAL (after a STOP, while the program may still run). Exit status: 0 the run was acknowledged
// complete by the collector, 1 not acknowledged or acknowledged incomplete,
// 2 usage or file errors, 3 the SoC misbehaved (trap, bad access, adapter
// overflow, no finisher store within --max-cycles).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Vsoc.h"
#include "Vsoc___024root.h"
#include "Vsoc_tally_soc.h"
#include "verilated.h"

#include "../elf_load.h"

#ifndef SOC_N
#define SOC_N 8
#endif
#ifndef SOC_P
#define SOC_P 4
#endif
#ifndef SOC_R
#define SOC_R 32
#endif
#ifndef SOC_MEM_WORDS
#define SOC_MEM_WORDS 65536
#endif

#ifdef SOC_VEXRISCV  // build.sh --core vexriscv: soc_vexriscv.v on the litex board's map
#define SOC_RAM_BASE 0x40000000u
#define SOC_CORE_NAME "vexriscv (RTL, rtl/soc)"
#else
#define SOC_RAM_BASE 0x80000000u
#define SOC_CORE_NAME "picorv32 (RTL, rtl/soc)"
#endif
static const uint32_t RAM_BASE = SOC_RAM_BASE;

// The signals the SoC's adapter provides (rtl/soc/adapter_picorv32.v,
// adapter_vexriscv.v), with tally's names and plain nouns (src/timing/signals.h).
struct sigdesc { unsigned id; const char *name, *noun; };
static const sigdesc SIGNALS[] = {
#ifdef SOC_VEXRISCV
    {0, "cycle", "cycles"}, {1, "instret", "instructions retired"}, {2, "load", "loads"},
    {3, "store", "stores"}, {5, "branch", "conditional branches"}, {6, "branch.taken", "taken branches"},
    {7, "branch.mispredict", "mispredicted branches"},
    {8, "jump", "jumps (jal and jalr)"}, {9, "call", "calls"}, {10, "ret", "returns"},
    {11, "mul", "multiplies"}, {12, "div", "divides"}, {13, "csr", "CSR instructions"},
    {14, "system", "system instructions"}, {15, "compressed", "compressed instructions"},
    {16, "icache.access", "instruction-cache lookups"}, {17, "icache.hit", "instruction-cache hits"},
    {18, "icache.miss", "instruction-cache misses"}, {19, "dcache.read_hit", "data-cache read hits"},
    {20, "dcache.read_miss", "data-cache read misses"}, {21, "dcache.write_hit", "data-cache write hits"},
    {22, "dcache.write_miss", "data-cache write misses"}, {23, "writeback", "dirty-line write-backs"}, {24, "mem.read", "memory reads"},
    {25, "mem.write", "memory writes"},
    {26, "stall", "stall cycles"}, {27, "stall.icache", "instruction-fetch stall cycles"},
    {28, "stall.load_use", "load-use stall cycles"}, {29, "stall.muldiv", "multiply/divide stall cycles"},
    {30, "stall.dcache", "data-memory stall cycles"}, {31, "stall.write_buffer", "write-buffer stall cycles"},
    {32, "stall.branch", "branch penalty cycles"},
    {33, "stall.jump", "jump penalty cycles"}, {34, "stall.system", "pipeline-drain cycles"},
    {36, "trap", "exceptions taken"}};
#else
    {0, "cycle", "cycles"}, {1, "instret", "instructions retired"}, {2, "load", "loads"},
    {3, "store", "stores"}, {5, "branch", "conditional branches"}, {6, "branch.taken", "taken branches"},
    {8, "jump", "jumps (jal and jalr)"}, {9, "call", "calls"}, {10, "ret", "returns"},
    {11, "mul", "multiplies"}, {12, "div", "divides"}, {13, "csr", "CSR instructions"},
    {14, "system", "system instructions"}, {15, "compressed", "compressed instructions"},
    {26, "stall", "stall cycles"}, {27, "stall.icache", "instruction-fetch stall cycles"},
    {29, "stall.muldiv", "multiply/divide stall cycles"}, {32, "stall.branch", "branch penalty cycles"}};
#endif
static const sigdesc *find_signal(unsigned id) {
  for (const sigdesc &s : SIGNALS)
    if (s.id == id) return &s;
  return nullptr;
}

static bool parse_addr(const char *s, sockaddr_in *a) {
  std::string str(s);
  size_t c = str.rfind(':');
  std::string host = c == std::string::npos ? "127.0.0.1" : str.substr(0, c);
  std::string port = c == std::string::npos ? str : str.substr(c + 1);
  char *end;
  long p = strtol(port.c_str(), &end, 10);
  if (port.empty() || *end || p < 0 || p > 65535) return false;
  memset(a, 0, sizeof *a);
  a->sin_family = AF_INET;
  a->sin_port = htons((uint16_t)p);
  return inet_pton(AF_INET, host.c_str(), &a->sin_addr) == 1;
}

static double now_s() {
  timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static void put16(std::vector<uint8_t> &v, uint32_t x) { v.push_back(x & 0xff); v.push_back(x >> 8 & 0xff); }
static void put32(std::vector<uint8_t> &v, uint32_t x) { put16(v, x & 0xffff); put16(v, x >> 16); }
static void put64(std::vector<uint8_t> &v, uint64_t x) { put32(v, (uint32_t)x); put32(v, (uint32_t)(x >> 32)); }
static uint32_t get16(const uint8_t *p) { return p[0] | p[1] << 8; }
static uint32_t get32(const uint8_t *p) { return get16(p) | get16(p + 2) << 16; }
static uint64_t get64(const uint8_t *p) { return get32(p) | (uint64_t)get32(p + 4) << 32; }

static std::vector<uint8_t> packet(uint8_t type, uint64_t run_id, uint32_t seq, const std::vector<uint8_t> &payload) {
  std::vector<uint8_t> v = {'T', 'A', 'L', 'Y', 1, type, 0, 0};
  put64(v, run_id);
  put32(v, seq);
  put16(v, (uint32_t)payload.size());
  put16(v, 0);
  v.insert(v.end(), payload.begin(), payload.end());
  return v;
}

struct Board {
  Vsoc *top;
  uint64_t run_id = 0;
  // control
  bool have_ctl_seq = false;
  uint32_t last_ctl_seq = 0;
  std::vector<uint8_t> last_req, last_reply;
  uint32_t stale = 0, malformed = 0;
  int state = 0;  // 0 configuring, 1 running, 2 stopping, 3 finished
  uint64_t period = 0;
  uint32_t arr_lo[SOC_P] = {}, arr_hi[SOC_P] = {};
  std::string arr_name[SOC_P];
  bool arr_set[SOC_P] = {};
  unsigned c_sig[SOC_N], c_arr[SOC_N];
  bool c_en[SOC_N] = {};
  uint64_t cycles = 0;     // clocks since the run started
  uint64_t intervals = 0;  // DATA packets sent
  Board() {
    for (int i = 0; i < SOC_N; i++) c_sig[i] = 0, c_arr[i] = 0xFFFF;
  }
};

#ifndef SOC_COMPACT
#define SOC_COMPACT 0
#endif

// A compact stream's relay (docs/protocol.md, "Compact stream"): the
// module's frame made the packet the collector takes, with the run id, the
// sequence number seq and the interval number the relay counts (the
// frame's tag must agree); FINAL without totals. Empty: not a frame the
// module may send (the reason in why).
static std::vector<uint8_t> relay_frame(const Board &b, const std::vector<uint8_t> &f, uint32_t seq, std::string &why) {
  const size_t sb = (SOC_N + 7) / 8, vb = (SOC_R + 7) / 8;
  char text[160];
  std::vector<uint8_t> p;
  if (f.size() == 2 + sb + SOC_N * vb && f[0] == 0x26) {
    if (f[1] != (b.intervals & 0xFF)) {
      snprintf(text, sizeof text, "DATA frame tagged %u where interval %llu (mod 256: %llu) was due", f[1],
               (unsigned long long)b.intervals, (unsigned long long)(b.intervals & 0xFF));
      why = text;
      return {};
    }
    put32(p, (uint32_t)b.intervals);
    put16(p, SOC_N);
    p.push_back(SOC_R);
    p.push_back(0);
    p.insert(p.end(), f.begin() + 2, f.end());
    return packet(0x26, b.run_id, seq, p);
  }
  if (f.size() == 2 && f[0] == 0x27) {
    if (f[1] != (b.intervals & 0xFF)) {
      snprintf(text, sizeof text, "FINAL frame says %u intervals (mod 256) where %llu were relayed", f[1],
               (unsigned long long)b.intervals);
      why = text;
      return {};
    }
    put64(p, b.intervals);
    put64(p, 0);
    put64(p, b.intervals * b.period);
    put32(p, (uint32_t)b.intervals);
    put32(p, seq + 1);
    put16(p, SOC_N);
    put16(p, 0);
    put16(p, 0);  // no totals: the collector adds the intervals
    p.push_back(0);
    p.push_back(0);
    return packet(0x24, b.run_id, seq, p);
  }
  snprintf(text, sizeof text, "not a compact frame: %zu bytes, the first 0x%02x", f.size(), f.empty() ? 0 : f[0]);
  why = text;
  return {};
}

static Board *B;
static uint64_t dump_cycle;
static FILE *dump_f;

// One clock. The module's stream is taken byte by byte (out_ready high).
static std::vector<uint8_t> cur_pkt;
static std::vector<std::vector<uint8_t>> out_pkts;
static void tick(Vsoc *top) {
  top->out_ready = 1;
  top->clk = 0;
  top->eval();
  if (dump_f) {
    auto *r = top->rootp->tally_soc;
    if (r->g_sm__DOT__cyc_en)
      fprintf(dump_f, "%llu %x %d %llx\n", (unsigned long long)dump_cycle++, r->g_sm__DOT__pc,
              r->g_sm__DOT__pc_valid, (unsigned long long)r->g_sm__DOT__sig);
  }
  bool byte = top->out_valid;
  uint8_t data = top->out_data;
  bool last = top->out_last;
  top->clk = 1;
  top->eval();
  if (byte) {
    cur_pkt.push_back(data);
    if (last) {
      out_pkts.push_back(cur_pkt);
      cur_pkt.clear();
    }
  }
  top->reg_we = 0;
}

static void reg_write(Vsoc *top, uint32_t addr, uint32_t data) {
  top->reg_we = 1;
  top->reg_addr = addr;
  top->reg_wdata = data;
  tick(top);
}

static uint32_t reg_read(Vsoc *top, uint32_t addr) {
  top->reg_we = 0;
  top->reg_addr = addr;
  top->clk = 0;
  top->eval();
  return top->reg_rdata;
}

static std::vector<uint8_t> ack(Board &b, uint8_t req) {
  std::vector<uint8_t> p = {req, 0, 0, 0};
  put32(p, b.last_ctl_seq + 1);
  return packet(0x11, b.run_id, b.last_ctl_seq, p);
}

static std::vector<uint8_t> error(Board &b, uint8_t req, uint8_t code, uint32_t seq, const std::string &text) {
  std::vector<uint8_t> p = {req, code};
  put16(p, (uint32_t)text.size());
  put32(p, b.have_ctl_seq ? b.last_ctl_seq + 1 : 0);
  p.insert(p.end(), text.begin(), text.end());
  return packet(0x12, b.run_id, seq, p);
}

static std::vector<uint8_t> status(Board &b, uint32_t seq) {
  std::vector<uint8_t> p = {(uint8_t)b.state, (uint8_t)SOC_R};
  put16(p, SOC_N);
  put16(p, SOC_P);
  put16(p, 0);
  put32(p, b.have_ctl_seq ? b.last_ctl_seq + 1 : 0);
  put32(p, 0);
  put32(p, b.stale);
  put32(p, b.malformed);
  put64(p, b.period);
  put64(p, b.intervals);
  put64(p, b.cycles);
  return packet(0x13, b.run_id, seq, p);
}

static std::string where_of(Board &b, unsigned arr) {
  if (arr == 0xFFFF) return "anywhere";
  if (!b.arr_name[arr].empty()) return b.arr_name[arr];
  char w[64];
  snprintf(w, sizeof w, "0x%08x-0x%08x", b.arr_lo[arr], b.arr_hi[arr]);
  return w;
}

// RUN_START and COUNTER_INFO of the configuration applied (docs/protocol.md).
static std::vector<std::vector<uint8_t>> describe(Board &b, const std::string &program) {
  std::vector<uint8_t> rs;
  put16(rs, SOC_N);
  rs.push_back(SOC_R);
  rs.push_back(0);
  put16(rs, SOC_P);
  put16(rs, 1);
  put64(rs, b.period);
  put32(rs, 0);
  std::string core = SOC_CORE_NAME;
  put16(rs, (uint32_t)program.size());
  put16(rs, (uint32_t)core.size());
  rs.insert(rs.end(), program.begin(), program.end());
  rs.insert(rs.end(), core.begin(), core.end());
  std::vector<uint8_t> ci;
  put16(ci, 0);
  put16(ci, SOC_N);
  for (int i = 0; i < SOC_N; i++) {
    const sigdesc *s = find_signal(b.c_sig[i]);
    std::string name = s ? s->name : "cycle", wh = where_of(b, b.c_arr[i]), label;
    const char *noun = s ? s->noun : "cycles";
    if (b.c_arr[i] == 0xFFFF) label = noun;
    else if (b.arr_name[b.c_arr[i]].empty()) label = std::string(noun) + " at " + wh;
    else if (s && (s->id == 9 || s->id == 10)) label = std::string(noun) + " made from " + wh + "'s own code";
    else label = std::string(noun) + " in " + wh + "'s own code";
    put16(ci, s ? s->id : 0);
    put16(ci, b.c_arr[i]);
    put32(ci, b.c_arr[i] == 0xFFFF ? 0 : b.arr_lo[b.c_arr[i]]);
    put32(ci, b.c_arr[i] == 0xFFFF ? 0 : b.arr_hi[b.c_arr[i]]);
    ci.push_back(b.c_en[i]);
    ci.push_back((uint8_t)name.size());
    ci.push_back((uint8_t)wh.size());
    ci.push_back((uint8_t)label.size());
    ci.push_back(0);
    ci.pop_back();
    ci.insert(ci.end(), name.begin(), name.end());
    ci.insert(ci.end(), wh.begin(), wh.end());
    ci.insert(ci.end(), label.begin(), label.end());
  }
  return {packet(0x21, b.run_id, 0, rs), packet(0x22, b.run_id, 1, ci)};
}

// A control packet: the reply to send (empty: none), and what to do.
enum { DO_NOTHING, DO_START, DO_STOP };
static std::vector<uint8_t> control(Board &b, const uint8_t *p, size_t len, int *action) {
  *action = DO_NOTHING;
  if (len < 24 || memcmp(p, "TALY", 4) != 0 || p[4] != 1 || get16(p + 20) != len - 24 || get16(p + 22) != 0) {
    b.malformed++;
    return error(b, len >= 6 ? p[5] : 0, 1, 0, "malformed: header or length");
  }
  uint8_t type = p[5];
  uint64_t rid = get64(p + 8);
  uint32_t seq = get32(p + 16);
  const uint8_t *pl = p + 24;
  size_t n = len - 24;
  if (get16(p + 6) != 0) {
    b.malformed++;
    return error(b, type, 7, seq, "not supported by this board: authentication");
  }
  if (type == 0x06 && rid == 0 && n == 0) return status(b, seq);  // hello
  std::vector<uint8_t> req(p, p + len);
  if (b.have_ctl_seq && req == b.last_req) return b.last_reply;  // a repeat
  if (rid != b.run_id) {
    b.stale++;
    return error(b, type, 4, seq, "wrong run id");
  }
  if (b.have_ctl_seq && (seq <= b.last_ctl_seq || seq - b.last_ctl_seq > 65536)) {
    b.stale++;
    return error(b, type, 3, seq, "stale sequence number");
  }
  char text[400];
  auto refuse = [&](uint8_t code, const char *t) { return error(b, type, code, seq, t); };
  Vsoc *top = b.top;
  switch (type) {
  case 0x01:
    if (n != 8) return b.malformed++, refuse(1, "malformed: SET_TIMER has 8 bytes");
    if (b.state != 0) return refuse(6, "not allowed: the run has started");
    if (get64(pl) == 0 || get64(pl) > 0xFFFFFFFFu) return refuse(5, "bad value: the module's period is 1 to 2^32 - 1 cycles");
    b.period = get64(pl);
    reg_write(top, 0x0004, (uint32_t)b.period);
    break;
  case 0x02: {
    if (n < 12 || n != 12u + pl[2] || pl[3]) return b.malformed++, refuse(1, "malformed: SET_ARR");
    unsigned i = get16(pl);
    uint32_t lo = get32(pl + 4), hi = get32(pl + 8);
    if (i >= SOC_P) {
      snprintf(text, sizeof text, "bad value: ARR %u does not exist (the board has %d)", i, SOC_P);
      return refuse(5, text);
    }
    if (lo > hi) return refuse(5, "bad value: lo > hi");
    b.arr_lo[i] = lo, b.arr_hi[i] = hi, b.arr_set[i] = true;
    b.arr_name[i] = std::string((const char *)pl + 12, pl[2]);
    reg_write(top, 0x1000 + 8 * i, lo);
    reg_write(top, 0x1004 + 8 * i, hi);
    break;
  }
  case 0x03: {
    if (n != 8 || pl[7]) return b.malformed++, refuse(1, "malformed: SET_COUNTER");
    unsigned i = get16(pl), sig = get16(pl + 2), arr = get16(pl + 4), en = pl[6];
    if (i >= SOC_N) {
      snprintf(text, sizeof text, "bad value: counter %u does not exist (the board has %d)", i, SOC_N);
      return refuse(5, text);
    }
    if (arr != 0xFFFF && arr >= SOC_P) {
      snprintf(text, sizeof text, "bad value: ARR %u does not exist (the board has %d)", arr, SOC_P);
      return refuse(5, text);
    }
    if (en > 1) return refuse(5, "bad value: enabled is 0 or 1");
    if (!find_signal(sig)) {
      std::string names;
      for (const sigdesc &d : SIGNALS) names += std::string(names.empty() ? "" : " ") + d.name;
      snprintf(text, sizeof text, "not supported by this board: signal %u (the adapter provides %s)", sig,
               names.c_str());
      return refuse(7, text);
    }
    b.c_sig[i] = sig, b.c_arr[i] = arr, b.c_en[i] = en;
    reg_write(top, 0x2000 + 8 * i, (uint32_t)arr << 16 | sig);
    reg_write(top, 0x2004 + 8 * i, en);
    break;
  }
  case 0x04:
    if (n) return b.malformed++, refuse(1, "malformed: START has no payload");
    if (b.state != 0) return refuse(6, "not allowed: START twice");
    if (!b.period) return refuse(6, "not allowed: no timer set");
    *action = DO_START;
    break;
  case 0x05:
    if (n) return b.malformed++, refuse(1, "malformed: STOP has no payload");
    if (b.state != 1) return refuse(6, "not allowed: the run is not running");
    *action = DO_STOP;
    break;
  case 0x06:
    if (n) return b.malformed++, refuse(1, "malformed: QUERY has no payload");
    break;
  default:
    b.malformed++;
    return refuse(1, "malformed: not a control packet");
  }
  b.have_ctl_seq = true;
  b.last_ctl_seq = seq;
  b.last_req = req;
  b.last_reply = type == 0x06 ? status(b, seq) : ack(b, type);
  return b.last_reply;
}

static void usage() {
  fprintf(stderr, "usage: tb ELF [--control ADDR:PORT] [--collector ADDR:PORT] [--program NAME] "
                  "[--max-cycles N] [--linger S] [--dump FILE]\n");
}

int main(int argc, char **argv) {
  const char *elf = nullptr, *ctl = "127.0.0.1:0", *col = nullptr, *dump = nullptr;
  std::string program;
  uint64_t max_cycles = 100000000;
  double linger = 5;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto val = [&]() -> const char * {
      if (i + 1 >= argc) {
        fprintf(stderr, "tb: %s needs a value\n", a.c_str());
        exit(2);
      }
      return argv[++i];
    };
    if (a == "-h" || a == "--help") {
      printf("usage: tb ELF [--control ADDR:PORT] [--collector ADDR:PORT] [--program NAME] [--max-cycles N] "
             "[--linger S] [--dump FILE]\n"
             "  --control ADDR:PORT    where control packets are taken (default 127.0.0.1:0: a free port, printed)\n"
             "  --collector ADDR:PORT  where the run's packets go (tally collect --listen); none: not sent\n"
             "  --program NAME         the program named in RUN_START (default ELF)\n"
             "  --max-cycles N         clocks the run may take (default 100000000)\n"
             "  --linger S             seconds to wait for FINAL_ACK after FINAL (default 5)\n"
             "  --dump FILE            every cycle presented to the module: CYCLE PC PC_VALID SIGNALS (PC, SIGNALS in hex)\n"
             "docs/rtl-soc.md\n");
      return 0;
    }
    if (a == "--control") ctl = val();
    else if (a == "--collector") col = val();
    else if (a == "--program") program = val();
    else if (a == "--max-cycles" || a == "--linger") {
      const char *v = val();
      char *end;
      double x = strtod(v, &end);
      if (!*v || *end || x < 0 || (a == "--max-cycles" && x < 1)) {
        fprintf(stderr, "tb: %s %s: not a %s\n", a.c_str(), v, a == "--linger" ? "number of seconds" : "positive number");
        return 2;
      }
      if (a == "--linger") linger = x;
      else max_cycles = (uint64_t)x;
    }
    else if (a == "--dump") dump = val();
    else if (a[0] == '-') {
      fprintf(stderr, "tb: unknown option %s (tb --help)\n", a.c_str());
      return 2;
    } else if (elf) return usage(), 2;
    else elf = argv[i];
  }
  if (!elf) return usage(), 2;
  if (program.empty()) program = elf;
  sockaddr_in ctl_a, col_a;
  if (!parse_addr(ctl, &ctl_a)) {
    fprintf(stderr, "tb: --control %s: not ADDR:PORT\n", ctl);
    return 2;
  }
  if (col && !parse_addr(col, &col_a)) {
    fprintf(stderr, "tb: --collector %s: not ADDR:PORT\n", col);
    return 2;
  }
  if (dump && !(dump_f = fopen(dump, "w"))) {
    fprintf(stderr, "tb: --dump %s: %s\n", dump, strerror(errno));
    return 2;
  }
  int cfd = socket(AF_INET, SOCK_DGRAM, 0), dfd = socket(AF_INET, SOCK_DGRAM, 0);
  if (cfd < 0 || dfd < 0 || bind(cfd, (sockaddr *)&ctl_a, sizeof ctl_a) < 0) {
    fprintf(stderr, "tb: --control %s: %s\n", ctl, strerror(errno));
    return 2;
  }
  socklen_t sl = sizeof ctl_a;
  getsockname(cfd, (sockaddr *)&ctl_a, &sl);

  Verilated::commandArgs(1, argv);
  Vsoc *top = new Vsoc;
  for (uint32_t i = 0; i < SOC_MEM_WORDS; i++) top->rootp->tally_soc->mem[i] = 0;
  if (!elf_load(elf, RAM_BASE, SOC_MEM_WORDS, top->rootp->tally_soc->mem)) return 2;
  Board b;
  B = &b;
  b.top = top;
  while (!b.run_id)
    if (getrandom(&b.run_id, sizeof b.run_id, 0) != sizeof b.run_id) return 2;
  top->rst = 1;
  for (int i = 0; i < 4; i++) tick(top);
  top->rst = 0;
  tick(top);
  char ab[INET_ADDRSTRLEN];
  inet_ntop(AF_INET, &ctl_a.sin_addr, ab, sizeof ab);
  fprintf(stderr, "tb: waiting for the configuration on %s:%u (run %016llx)\n", ab, ntohs(ctl_a.sin_port),
          (unsigned long long)b.run_id);

  std::vector<std::vector<uint8_t>> stream;  // by sequence number
  uint8_t rx[2048];
  uint64_t clocks = 0, start_clock = 0;
  bool started = false, final_seen = false, acked = false, complete = false;
  double final_at = 0, last_final_send = 0, backoff = 0.2;
  auto send_stream = [&](const std::vector<uint8_t> &pkt) {
    if (col) sendto(dfd, pkt.data(), pkt.size(), 0, (sockaddr *)&col_a, sizeof col_a);
  };
  int rc = 0;
  for (;;) {
    // control packets: waited for before START, polled every 4096 clocks after
    if (!started || clocks % 4096 == 0 || final_seen) {
      pollfd pf[2] = {{cfd, POLLIN, 0}, {dfd, POLLIN, 0}};
      int w = !started ? 1000 : final_seen ? 50 : 0;
      if (poll(pf, 2, w) > 0) {
        if (pf[0].revents & POLLIN) {
          sockaddr_in from;
          socklen_t fl = sizeof from;
          ssize_t n = recvfrom(cfd, rx, sizeof rx, 0, (sockaddr *)&from, &fl);
          if (n > 0) {
            int action;
            b.cycles = started ? clocks - start_clock : 0;
            std::vector<uint8_t> reply = control(b, rx, (size_t)n, &action);
            if (action == DO_START) {
              reg_write(top, 0x0010, (uint32_t)b.run_id);
              reg_write(top, 0x0014, (uint32_t)(b.run_id >> 32));
              reg_write(top, 0x0018, 2);
              reg_write(top, 0x001C, 0);
              stream = describe(b, program);
              for (auto &pk : stream) send_stream(pk);
              reg_write(top, 0x0000, 1);  // START: the core leaves reset
              b.state = 1;
              started = true;
              start_clock = clocks;
            } else if (action == DO_STOP) {
              reg_write(top, 0x0000, 2);
              b.state = 2;
            }
            if (!reply.empty()) sendto(cfd, reply.data(), reply.size(), 0, (sockaddr *)&from, fl);
          }
        }
        if (pf[1].revents & POLLIN) {
          ssize_t n = recv(dfd, rx, sizeof rx, 0);
          if (n >= 24 && !memcmp(rx, "TALY", 4) && get64(rx + 8) == b.run_id) {
            if (rx[5] == 0x31 && n >= 28) {  // RESEND
              unsigned count = get16(rx + 24);
              for (unsigned k = 0; k < count && 28 + 8 * k + 8 <= (unsigned)n; k++) {
                uint32_t first = get32(rx + 28 + 8 * k), cnt = get32(rx + 32 + 8 * k);
                for (uint64_t s = first; s < (uint64_t)first + cnt && s < stream.size(); s++) send_stream(stream[s]);
              }
            } else if (rx[5] == 0x32 && n >= 32 && final_seen && get32(rx + 16) == stream.size()) {
              acked = true;
              complete = rx[24] == 1;
            }
          }
        }
      }
      if (!started) continue;
    }
    if (acked) break;
    if (final_seen) {
      double t = now_s();
      if (t - final_at > linger) break;
      if (t - last_final_send > backoff) {
        send_stream(stream.back());
        last_final_send = t;
        backoff = backoff * 2 > 2 ? 2 : backoff * 2;
      }
      continue;
    }
    tick(top);
    clocks++;
    if (top->uart_valid) fputc(top->uart_byte, stderr);
    for (auto &frame : out_pkts) {
      std::vector<uint8_t> pk = frame;
      if (SOC_COMPACT) {
        std::string why;
        pk = relay_frame(b, frame, (uint32_t)stream.size(), why);
        if (pk.empty()) {
          fprintf(stderr, "tb: the module's stream: %s\n", why.c_str());
          return 3;
        }
      }
      uint32_t seq = get32(pk.data() + 16);
      if (seq != stream.size()) {
        fprintf(stderr, "tb: the module sent seq %u where %zu was due\n", seq, stream.size());
        return 3;
      }
      stream.push_back(pk);
      send_stream(pk);
      if (pk[5] == 0x23 || pk[5] == 0x26) b.intervals++;
      if (pk[5] == 0x24) {
        final_seen = true;
        final_at = last_final_send = now_s();
        b.state = 3;
      }
    }
    out_pkts.clear();
    uint32_t st = reg_read(top, 0x0F00);
    // after the finisher store the core goes on (its final loop, or whatever
    // follows): what it does then is no part of the run
    if ((st & 0x4) || ((st & 0x38) && !(st & 1))) {
      fprintf(stderr, "tb: the SoC stopped:%s%s%s%s after %llu clocks\n", st & 4 ? " adapter overflow (cycles lost)" : "",
              st & 8 ? " access outside the memory map" : "", st & 16 ? " UART queue overflow" : "",
              st & 32 ? " the core trapped" : "", (unsigned long long)(clocks - start_clock));
      return 3;
    }
    if (clocks - start_clock > max_cycles) {
      fprintf(stderr, "tb: no end of the run within %llu clocks\n", (unsigned long long)max_cycles);
      return 3;
    }
  }
  uint32_t st = reg_read(top, 0x0F00);
  char ex[48];
  if (st & 1) snprintf(ex, sizeof ex, "exit %u", st >> 16);
  else snprintf(ex, sizeof ex, "the program had not ended");
  char held[32] = "";  // the clocks the adapter held the core (soc.v's 0x0F04)
#ifndef SOC_VEXRISCV
  snprintf(held, sizeof held, " held %u", reg_read(top, 0x0F04));
#endif
  fprintf(stderr, "tb: cycles %llu packets %zu %s%s%s\n", (unsigned long long)(clocks - start_clock),
          stream.size(), ex, held,
          !col ? "" : acked ? (complete ? ", stored complete" : ", stored incomplete") : ", not acknowledged");
  if (dump_f) fclose(dump_f);
  delete top;
  return col && (!acked || !complete) ? 1 : rc;
}
