/*
 * wbuf_full: six back-to-back write-through stores into a 4-entry write
 * buffer in front of a slow memory (write_ns = 50: 5 cycles per write), then
 * a fetch miss and a load miss that must wait for the memory port.
 *
 * Run on tally5-wt with memory.write_ns=50 and sdram_row_miss_ns=0:
 * a fill is 6 + 7 x 1 = 13 cycles, a buffered write 1 beat x 5 = 5.
 *
 *   0x00  la s0, area                  auipc, addi
 *   0x08  sw s1, 0(s0) ... sw s1, 20(s0)   six stores (misses, no allocate)
 *   0x20  lw t0, 64(s0)                new I-cache line; D-cache miss
 *   0x24  EXIT_PASS (0x24..0x30)
 *
 * Reading of docs/timing.md used here: a store's write enters the buffer
 * after its issue cycle and keeps its entry until memory has taken it; the
 * buffer drains one write at a time through the memory port; a store that
 * finds the buffer full waits (stall.write_buffer) until the oldest write
 * is done; a miss waits for the port to be free, then fills.
 *
 *   cycles 0-12    I-cache miss, line 0x00 (13), charged to auipc
 *   13, 14         auipc, addi
 *   15  sw0        enters at 16; memory writes it during 16-20 (done 21)
 *   16  sw1        enters at 17; written 21-25 (done 26)
 *   17  sw2        enters at 18; written 26-30 (done 31)
 *   18  sw3        enters at 19; written 31-35 (done 36): buffer full
 *   19  sw4        20: full until sw0 is done at 21: stall 1; written 36-40
 *   21  sw5        22: full until sw1 is done at 26: stall 4 (22-25);
 *                  written 41-45 (done 46)
 *   26-58          fetch of line 0x20: the port is busy until 46 (wait 20),
 *                  then the fill (13): stall 33, charged to lw
 *   59  lw         miss at 60, port free: fill 13 (60-72)
 *   73-76          EXIT_PASS
 *   cycles 77; stall.write_buffer 1 + 4 = 5; stall.icache 13 + 33 = 46;
 *   stall.dcache 13; mem.write 6; mem.read 2 + 1 = 3
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  la s0, area
  sw s1, 0(s0)
  sw s1, 4(s0)
  sw s1, 8(s0)
  sw s1, 12(s0)
  sw s1, 16(s0)
  sw s1, 20(s0)
load:
  lw t0, 64(s0)
  AT load, 0x20
  EXIT_PASS

  .bss
  .balign 4096
area: .space 128
