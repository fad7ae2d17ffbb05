/*
 * ns16550 UART, as much as bare-metal drivers use: transmit goes straight
 * to the program's stdout, receive reads the program's stdin when a byte is
 * there (end of input is no data), or the bytes of --uart-rx once their
 * cycle has come (irq.c), and the line status always says the transmitter
 * is empty.
 *
 * Interrupts as QEMU's 16550 raises them, on PLIC source 10 (UART_IRQ):
 * received data available (IER bit 0) while a byte waits, transmitter
 * empty (IER bit 1) from enabling it or writing THR until IIR is read
 * saying so. IIR reads 0xc4, 0xc2 or 0xc1 (none), FIFOs shown enabled.
 * From stdin, a byte counts as arrived once a poll of LSR or RBR read it
 * ahead: interrupt-driven receive is exact with --uart-rx.
 */
#include <poll.h>
#include <unistd.h>

#include "board.h"

enum { RBR_THR = 0, IER = 1, IIR_FCR = 2, LCR = 3, MCR = 4, LSR = 5, MSR = 6, SCR = 7 };
#define LCR_DLAB 0x80
#define LSR_DR 0x01
#define LSR_THRE 0x20
#define LSR_TEMT 0x40

/* Is a received byte waiting? Reads at most one byte ahead into the
 * receive buffer register. End of input is not data: once read() returns
 * 0 the line stays quiet for good (a real UART whose sender went away). */
static bool rx_ready(board *b) {
  if (b->irq.uart_script)
    return b->irq.rx_read < b->irq.rx_arrived;
  if (b->uart_rx >= 0)
    return true;
  if (b->in_fd < 0 || b->in_eof)
    return false;
  struct pollfd p = {.fd = b->in_fd, .events = POLLIN};
  if (poll(&p, 1, 0) != 1 || !(p.revents & (POLLIN | POLLHUP)))
    return false;
  unsigned char c;
  ssize_t r = read(b->in_fd, &c, 1);
  if (r == 1)
    b->uart_rx = c;
  else if (r == 0)
    b->in_eof = true;
  return r == 1;
}

/* A program that polls for input after its end would spin forever: when
 * it has polled UART_EOF_SPIN_LIMIT times in a row with no more than a few
 * instructions between, stop it as SYS_READC does. A stop the host asks
 * for is looked at here too (a polling loop never leaves the fast loop). */
static void note_empty_poll(core_cpu *cpu, board *b) {
  if (core_poll_stop_request(cpu))
    return;
  if (b->irq.uart_script ? b->irq.chunk_next < b->irq.nchunks : !b->in_eof)
    return; /* more input is to come */
  b->uart_eof_polls = cpu->instret - b->uart_last_poll <= UART_SPIN_INSNS ? b->uart_eof_polls + 1 : 1;
  b->uart_last_poll = cpu->instret;
  if (b->uart_eof_polls == UART_EOF_SPIN_LIMIT)
    core_set_stop(cpu, CORE_STOP_HALT, "the program keeps polling the UART for input after the end of its input");
}

/* The interrupt a 16550 reports in IIR (its priority order), 0 none. */
static uint32_t pending_iir(board *b, bool rx) {
  if ((b->uart_ier & 0x01) && rx)
    return 0x04;
  if ((b->uart_ier & 0x02) && b->uart_thr_ipending)
    return 0x02;
  return 0;
}

/* Tells the PLIC the line's level when it changes (a level-triggered
 * source); `cycle` dates a rise. Without a PLIC the line goes nowhere. */
void uart_update_line(core_cpu *cpu, uint64_t cycle) {
  board *b = cpu->board;
  bool rx = b->irq.uart_script ? rx_ready(b) : b->uart_rx >= 0;
  bool line = pending_iir(b, rx) != 0;
  if (line == b->uart_line)
    return;
  b->uart_line = line;
  if (b->desc.has[BOARD_DEV_PLIC])
    plic_level(cpu, UART_IRQ, line, cycle);
}

static int rx_take(board *b) {
  if (b->irq.uart_script)
    return b->irq.rx_bytes[b->irq.rx_read++];
  int c = b->uart_rx;
  b->uart_rx = -1;
  return c;
}

bool uart_load(core_cpu *cpu, uint32_t off, unsigned size, uint32_t *val) {
  board *b = cpu->board;
  (void)size;
  bool dlab = b->uart_lcr & LCR_DLAB;
  switch (off) {
  case RBR_THR:
    if (dlab) { *val = b->uart_dll; break; }
    if (rx_ready(b)) {
      *val = (uint32_t)rx_take(b);
    } else {
      *val = 0; /* empty: reads 0, as the chip's idle register */
      note_empty_poll(cpu, b);
    }
    break;
  case IER: *val = dlab ? b->uart_dlm : b->uart_ier; break;
  case IIR_FCR: {
    uint32_t id = pending_iir(b, rx_ready(b));
    *val = 0xc0 | (id ? id : 0x01); /* FIFOs enabled */
    if (id == 0x02)
      b->uart_thr_ipending = false; /* reading it says so: cleared */
    break;
  }
  case LCR: *val = b->uart_lcr; break;
  case MCR: *val = b->uart_mcr; break;
  case LSR:
    *val = LSR_THRE | LSR_TEMT | (rx_ready(b) ? LSR_DR : 0);
    if (!(*val & LSR_DR))
      note_empty_poll(cpu, b);
    break;
  case MSR: *val = 0xb0; break; /* CTS, DSR, DCD */
  case SCR: *val = b->uart_scr; break;
  default: *val = 0; break;
  }
  uart_update_line(cpu, core_cycle_now(cpu));
  return true;
}

bool uart_store(core_cpu *cpu, uint32_t off, unsigned size, uint32_t val) {
  board *b = cpu->board;
  (void)size;
  uint8_t v = (uint8_t)val;
  bool dlab = b->uart_lcr & LCR_DLAB;
  switch (off) {
  case RBR_THR:
    if (dlab) {
      b->uart_dll = v;
    } else {
      fputc(v, b->out);
      b->uart_thr_ipending = true; /* sent at once: empty again */
    }
    break;
  case IER:
    if (dlab) {
      b->uart_dlm = v;
    } else {
      /* enabling the empty interrupt while the transmitter is empty raises it */
      if ((v ^ b->uart_ier) & 0x02)
        b->uart_thr_ipending = (v & 0x02) != 0;
      b->uart_ier = v & 0x0f;
    }
    break;
  case LCR: b->uart_lcr = v; break;
  case MCR: b->uart_mcr = v; break;
  case SCR: b->uart_scr = v; break;
  default: break;
  }
  uart_update_line(cpu, core_cycle_now(cpu));
  return true;
}
