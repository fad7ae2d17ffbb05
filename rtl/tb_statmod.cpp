// Verilator testbench: drives tally_statmod with a trace (rtl/README.md,
// "Trace format") read from stdin, one observed core cycle per `c` line (or
// run of them), register writes between cycles, and prints every packet the
// module sends as one line of hex bytes. argv[1], if given, is a seed for a
// pseudo-random out_ready (back-pressure on the packet stream).
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Vtally_statmod.h"
#include "verilated.h"

namespace {

struct Bench {
  Vtally_statmod *m;
  std::vector<uint8_t> pkt;
  uint64_t lcg;
  bool backpressure;
  uint64_t clocks = 0;

  bool ready_now() {
    if (!backpressure) return true;
    lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
    return (lcg >> 61) != 0; /* ready 7 clocks in 8 */
  }
  // One clock: sample the packet byte that is accepted on this edge.
  void clock() {
    m->out_ready = ready_now();
    m->eval();
    bool take = m->out_valid && m->out_ready;
    uint8_t byte = m->out_data;
    bool last = m->out_last;
    m->clk = 1;
    m->eval();
    m->clk = 0;
    m->eval();
    clocks++;
    if (take) {
      pkt.push_back(byte);
      if (last) {
        for (uint8_t b : pkt) printf("%02x", b);
        printf("\n");
        pkt.clear();
      }
    }
  }
  void idle_inputs() {
    m->cyc_en = 0;
    m->reg_we = 0;
  }
  void write(uint32_t addr, uint32_t data) {
    idle_inputs();
    m->reg_we = 1;
    m->reg_addr = addr;
    m->reg_wdata = data;
    clock();
    m->reg_we = 0;
  }
  // One observed cycle: held back while the module asks for it (hold).
  void cycle(uint32_t pc, bool valid, uint64_t sig) {
    for (;;) {
      m->cyc_en = 1;
      m->pc = pc;
      m->pc_valid = valid;
      m->sig = sig;
      m->eval();
      if (!m->hold) break;
      m->cyc_en = 0;
      clock();
    }
    clock();
    m->cyc_en = 0;
  }
  uint32_t state() {
    m->reg_addr = 0;
    m->eval();
    return m->reg_rdata & 7u;
  }
};

}  // namespace

int main(int argc, char **argv) {
  VerilatedContext ctx;
  Bench b;
  b.m = new Vtally_statmod(&ctx);
  b.backpressure = argc > 1;
  b.lcg = argc > 1 ? strtoull(argv[1], nullptr, 0) : 0;
  b.idle_inputs();
  b.m->rst = 1;
  b.clock();
  b.clock();
  b.m->rst = 0;

  char line[256];
  unsigned lineno = 0;
  while (fgets(line, sizeof line, stdin)) {
    lineno++;
    char op[8];
    unsigned long long a = 0, v = 0, s = 0, rep = 1;
    int got = sscanf(line, "%7s %llx %llx %llx %llu", op, &a, &v, &s, &rep);
    if (got < 1 || op[0] == '#') continue;
    if (!strcmp(op, "c") && got >= 4) {
      for (unsigned long long k = 0; k < rep; k++) b.cycle((uint32_t)a, v != 0, s);
    } else if (!strcmp(op, "w") && got >= 3) {
      b.write((uint32_t)a, (uint32_t)v);
    } else if (!strcmp(op, "idle") && got >= 2) {
      /* clocks with no observed cycle (the packet stream drains) */
      for (unsigned long long k = 0; k < a; k++) b.clock();
    } else if (!strcmp(op, "end")) {
      /* the program ended: the timer runs down with no valid PC, the
       * last interval and the FINAL packet go out */
      unsigned long long guard = 0;
      for (uint32_t st = b.state(); st != 4 && st != 0; st = b.state()) {
        if (st == 1 || st == 2)
          b.cycle(0, false, 0); /* the timer runs down on observed cycles */
        else
          b.clock(); /* the FINAL packet goes out; no cycle is observed */
        if (++guard > (1ull << 34)) {
          fprintf(stderr, "tb_statmod: line %u: the module never finished\n", lineno);
          return 70;
        }
      }
    } else {
      fprintf(stderr, "tb_statmod: line %u: cannot read '%s'\n", lineno, line);
      return 65;
    }
  }
  if (!b.pkt.empty()) {
    fprintf(stderr, "tb_statmod: a packet was cut short (%zu bytes)\n", b.pkt.size());
    return 70;
  }
  b.m->final();
  delete b.m;
  return 0;
}
