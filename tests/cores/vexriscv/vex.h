/* vex.h -- shared definitions of the VexRiscv differential programs. */
#define FINISHER 0xF0000000
#define UART_TX  0xF0001000
/* An uncached IO address inside the finisher's window that is not its
 * register: reads return 0, word writes are ignored (tally's finisher and
 * the RTL testbench alike). */
#define IO_SCRATCH 0xF0000100
