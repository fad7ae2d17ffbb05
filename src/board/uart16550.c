/*
 * ns16550 UART, as much as bare-metal drivers use: transmit goes straight
 * to the program's stdout, receive reads the program's stdin when a byte is
 * there, and the line status always says the transmitter is empty.
 */
#include <poll.h>
#include <unistd.h>

#include "board.h"

enum { RBR_THR = 0, IER = 1, IIR_FCR = 2, LCR = 3, MCR = 4, LSR = 5, MSR = 6, SCR = 7 };
#define LCR_DLAB 0x80
#define LSR_DR 0x01
#define LSR_THRE 0x20
#define LSR_TEMT 0x40

static bool input_ready(const board *b) {
  struct pollfd p = {.fd = b->in_fd, .events = POLLIN};
  return b->in_fd >= 0 && poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

bool uart_load(core_cpu *cpu, uint32_t off, unsigned size, uint32_t *val) {
  board *b = cpu->board;
  (void)size;
  bool dlab = b->uart_lcr & LCR_DLAB;
  switch (off) {
  case RBR_THR: {
    if (dlab) { *val = b->uart_dll; break; }
    unsigned char c = 0;
    if (input_ready(b) && read(b->in_fd, &c, 1) != 1)
      c = 0;
    *val = c;
    break;
  }
  case IER: *val = dlab ? b->uart_dlm : b->uart_ier; break;
  case IIR_FCR: *val = 0xc1; break; /* FIFOs enabled, no interrupt pending */
  case LCR: *val = b->uart_lcr; break;
  case MCR: *val = b->uart_mcr; break;
  case LSR: *val = LSR_THRE | LSR_TEMT | (input_ready(b) ? LSR_DR : 0); break;
  case MSR: *val = 0xb0; break; /* CTS, DSR, DCD */
  case SCR: *val = b->uart_scr; break;
  default: *val = 0; break;
  }
  return true;
}

bool uart_store(core_cpu *cpu, uint32_t off, unsigned size, uint32_t val) {
  board *b = cpu->board;
  (void)size;
  uint8_t v = (uint8_t)val;
  bool dlab = b->uart_lcr & LCR_DLAB;
  switch (off) {
  case RBR_THR:
    if (dlab) b->uart_dll = v;
    else fputc(v, b->out);
    break;
  case IER: if (dlab) b->uart_dlm = v; else b->uart_ier = v & 0x0f; break;
  case LCR: b->uart_lcr = v; break;
  case MCR: b->uart_mcr = v; break;
  case SCR: b->uart_scr = v; break;
  default: break;
  }
  return true;
}
