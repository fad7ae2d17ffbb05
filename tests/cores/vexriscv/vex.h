/* vex.h -- shared definitions of the VexRiscv differential programs. */
#define FINISHER 0xF0000000
#define UART_TX  0xF0001000
/* An uncached IO address that is neither device: reads return 0. */
#define IO_SCRATCH 0xF0002000
