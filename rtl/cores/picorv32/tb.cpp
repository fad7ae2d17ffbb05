// Testbench of rtl/cores/picorv32/top.v: loads an ELF32 program into the
// memory, releases reset and runs until the program stores to the finisher.
//
//   tb ELF [-w W] [-t] [-m MAX_CYCLES]
//
// Prints "cycles C instret N exit S" on stdout (the program's UART output,
// if any, goes to stderr). Cycles are counted the way tally counts them:
// from the cycle the first instruction starts (reset released: the core's
// first fetch) up to and including the last cycle of the finisher store
// (the cycle before the next instruction would start). Concretely: the
// rising edges from reset release up to and including the one on which the
// core samples the finisher store's mem_ready, plus one (the cycle in which
// the core's stmem state sees mem_done and moves to fetch). instret counts
// the instructions started (the finisher store included).
// -t prints each instruction's start: "launch CYCLE PC" (the cycle counted
// as above, 0 = the first), for lining up against tally.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "Vtop.h"
#include "Vtop___024root.h"
#include "Vtop_tally_pico_top.h"
#include "verilated.h"

#include "../../elf_load.h"

static const uint32_t RAM_BASE = 0x80000000u;
static const uint32_t MEM_WORDS = 262144;

int main(int argc, char **argv) {
  const char *elf = nullptr;
  int wait_states = 0;
  bool trace = false;
  uint64_t max_cycles = 200000000;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-w") && i + 1 < argc) {
      wait_states = atoi(argv[++i]);
      if (wait_states < 0 || wait_states > 3) {
        fprintf(stderr, "tb: -w: wait states must be 0 to 3\n");
        return 2;
      }
    } else if (!strcmp(argv[i], "-t")) {
      trace = true;
    } else if (!strcmp(argv[i], "-m") && i + 1 < argc) {
      max_cycles = strtoull(argv[++i], nullptr, 0);
    } else if (argv[i][0] != '-' && !elf) {
      elf = argv[i];
    } else {
      fprintf(stderr, "usage: tb ELF [-w W] [-t] [-m MAX_CYCLES]\n");
      return 2;
    }
  }
  if (!elf) {
    fprintf(stderr, "usage: tb ELF [-w W] [-t] [-m MAX_CYCLES]\n");
    return 2;
  }
  Verilated::commandArgs(1, argv);
  Vtop *top = new Vtop;
  for (uint32_t i = 0; i < MEM_WORDS; i++) top->rootp->tally_pico_top->mem[i] = 0;
  if (!elf_load(elf, RAM_BASE, MEM_WORDS, top->rootp->tally_pico_top->mem)) return 2;
  top->wait_states = wait_states;
  top->clk = 0;
  top->resetn = 0;
  top->eval();
  for (int i = 0; i < 4; i++) {
    top->clk = 1;
    top->eval();
    top->clk = 0;
    top->eval();
  }
  top->resetn = 1;
  uint64_t edges = 0, instret = 0, first = UINT64_MAX;
  int status = -1;
  while (edges < max_cycles) {
    // Values of the cycle before this edge: a launch in the cycle
    // numbered `edges` (0 = the first cycle after reset release).
    if (top->launch) {
      instret++;
      if (first == UINT64_MAX) first = edges;
      if (trace) printf("launch %llu 0x%08x\n", (unsigned long long)(edges - first), top->launch_pc);
    }
    if (trace && top->xfer)
      printf("xfer %lld 0x%08x %s\n", (long long)(edges - (first == UINT64_MAX ? edges : first)), top->xfer_addr, top->xfer_write ? "write" : "read");
    top->clk = 1;
    top->eval();
    edges++;
    top->clk = 0;
    top->eval();
    if (top->uart_valid) fputc(top->uart_byte, stderr);
    if (top->bad_access) {
      fprintf(stderr, "tb: access outside the memory map after %llu cycles\n", (unsigned long long)edges);
      return 3;
    }
    if (top->trap) {
      fprintf(stderr, "tb: the core trapped after %llu cycles\n", (unsigned long long)edges);
      return 3;
    }
    if (top->finished) {
      uint32_t v = top->finish_value;
      status = (v & 0xffff) == 0x5555 ? 0 : (v & 0xffff) == 0x3333 ? (int)(v >> 16) : 1;
      break;
    }
  }
  if (status < 0) {
    fprintf(stderr, "tb: no finisher store within %llu cycles\n", (unsigned long long)max_cycles);
    return 3;
  }
  printf("cycles %llu instret %llu exit %d\n", (unsigned long long)(edges - first), (unsigned long long)instret, status);
  delete top;
  return 0;
}
