# plic_regs.S - the PLIC's registers as a program sees them, on QEMU's
# virt board (qemu-system-riscv32 -M virt -bios none -kernel) and on
# tally's: the same lines on both. Each line is "NAME VALUE" in hex.
# Interrupts stay off (mstatus.MIE = 0): mip.MEIP is read, never taken.
# The UART's transmitter-empty interrupt (IER bit 1) is the one source a
# program can raise on both boards: PLIC source 10. (Source 96's priority
# register is left alone: QEMU 7.2 stores a value there, one past its 95
# sources, an off-by-one its later versions fixed; tally has none.)
  .option norvc
  .option norelax
#define PLIC          0x0c000000
#define PLIC_PENDING  0x0c001000
#define PLIC_ENABLE0  0x0c002000
#define PLIC_ENABLE1  0x0c002080
#define PLIC_CTX0     0x0c200000
#define PLIC_CTX1     0x0c201000
#define UART          0x10000000
#define FINISHER      0x00100000

# SHOW name, reg: notes "name value" in the table, printed at the end
# (printing through the UART in between would raise its line again)
.macro SHOW name, reg
  la    t0, 9f
  sw    t0, 0(s11)
  sw    \reg, 4(s11)
  addi  s11, s11, 8
  .section .rodata
9: .asciz "\name"
  .text
.endm

.macro LOADW reg, addr
  li    t0, \addr
  lw    \reg, 0(t0)
.endm

.macro STOREW addr, val
  li    t0, \addr
  li    t1, \val
  sw    t1, 0(t0)
.endm

  .section .text.start
  .globl _start
_start:
  la    s11, table
  li    t0, UART
  li    t1, 7
  sb    t1, 2(t0)               # FCR: FIFOs on (IIR shows 0xc0 on both)
  # priorities: WARL, three bits
  STOREW PLIC + 1*4, 0xffffffff
  LOADW s0, PLIC + 1*4
  SHOW prio1_all_ones, s0
  STOREW PLIC + 95*4, 0x0000000d
  LOADW s0, PLIC + 95*4
  SHOW prio95_0xd, s0
  STOREW PLIC + 10*4, 3
  LOADW s0, PLIC + 10*4
  SHOW prio10, s0
  # enables: contexts 0 and 1, three words each, the fourth absent
  STOREW PLIC_ENABLE0 + 4, 0xffffffff
  LOADW s0, PLIC_ENABLE0 + 4
  SHOW enable0_w1, s0
  STOREW PLIC_ENABLE0 + 8, 0x12345678
  LOADW s0, PLIC_ENABLE0 + 8
  SHOW enable0_w2, s0
  STOREW PLIC_ENABLE0 + 12, 0xffffffff
  LOADW s0, PLIC_ENABLE0 + 12
  SHOW enable0_w3_absent, s0
  STOREW PLIC_ENABLE1, 0x00000400
  LOADW s0, PLIC_ENABLE1
  SHOW enable1_w0, s0
  STOREW PLIC_ENABLE0 + 4, 0
  STOREW PLIC_ENABLE0 + 8, 0
  STOREW PLIC_ENABLE1, 0
  STOREW PLIC_ENABLE0, 0x00000400  # source 10 only
  LOADW s0, PLIC_ENABLE0
  SHOW enable0_w0, s0
  # thresholds: WARL, three bits
  STOREW PLIC_CTX0, 0xffffffff
  LOADW s0, PLIC_CTX0
  SHOW threshold0_all_ones, s0
  STOREW PLIC_CTX1, 2
  LOADW s0, PLIC_CTX1
  SHOW threshold1, s0
  # nothing pending yet
  LOADW s0, PLIC_PENDING
  SHOW pending_idle, s0
  LOADW s0, PLIC_CTX0 + 4
  SHOW claim_idle, s0
  # the UART's transmitter-empty interrupt: source 10's line rises
  li    t0, UART
  li    t1, 2
  sb    t1, 1(t0)               # IER: THRE
  LOADW s0, PLIC_PENDING
  SHOW pending_uart, s0
  csrr  s0, mip
  li    t0, 0x800
  and   s0, s0, t0
  SHOW meip_below_threshold, s0
  STOREW PLIC_CTX0, 3           # priority 3 is not above 3
  csrr  s0, mip
  li    t0, 0x800
  and   s0, s0, t0
  SHOW meip_at_threshold, s0
  STOREW PLIC_CTX0, 2
  csrr  s0, mip
  li    t0, 0x800
  and   s0, s0, t0
  SHOW meip_above_threshold, s0
  # claim: the id, pending cleared, EIP down while it is in service
  LOADW s0, PLIC_CTX0 + 4
  SHOW claim, s0
  LOADW s0, PLIC_PENDING
  SHOW pending_claimed, s0
  csrr  s0, mip
  li    t0, 0x800
  and   s0, s0, t0
  SHOW meip_claimed, s0
  LOADW s0, PLIC_CTX0 + 4
  SHOW claim_again, s0
  # the UART says why and lowers its line; completion asks nothing more
  li    t0, UART
  lbu   s0, 2(t0)
  SHOW iir_thre, s0
  li    t0, UART
  lbu   s0, 2(t0)
  SHOW iir_none, s0
  STOREW PLIC_CTX0 + 4, 10      # complete
  LOADW s0, PLIC_PENDING
  SHOW pending_completed, s0
  csrr  s0, mip
  li    t0, 0x800
  and   s0, s0, t0
  SHOW meip_completed, s0
  # sent a byte: the transmitter is empty again, the line rises again
  li    t0, UART
  li    t1, '\n'
  sb    t1, 0(t0)
  LOADW s0, PLIC_PENDING
  SHOW pending_after_send, s0
  LOADW s0, PLIC_CTX0 + 4
  SHOW claim_after_send, s0
  li    t0, UART
  sb    zero, 1(t0)             # IER off: the line falls
  STOREW PLIC_CTX0 + 4, 10
  LOADW s0, PLIC_PENDING
  SHOW pending_ier_off, s0
  # priority 0 never interrupts
  STOREW PLIC + 10*4, 0
  li    t0, UART
  li    t1, 2
  sb    t1, 1(t0)
  csrr  s0, mip
  li    t0, 0x800
  and   s0, s0, t0
  SHOW meip_prio0, s0
  LOADW s0, PLIC_PENDING
  SHOW pending_prio0, s0
  la    s10, table
5:
  bgeu  s10, s11, 6f
  lw    a0, 0(s10)
  lw    a1, 4(s10)
  jal   ra, show
  addi  s10, s10, 8
  j     5b
6:
  li    t0, FINISHER
  li    t1, 0x5555
  sw    t1, 0(t0)
1: j 1b

# a0: the name, a1: the value
show:
  mv    t3, ra
  li    t0, UART
1:
  lbu   t1, 0(a0)
  beqz  t1, 2f
  sb    t1, 0(t0)
  addi  a0, a0, 1
  j     1b
2:
  li    t1, ' '
  sb    t1, 0(t0)
  li    t2, 28
3:
  srl   t1, a1, t2
  andi  t1, t1, 15
  li    t4, 10
  blt   t1, t4, 4f
  addi  t1, t1, 'a' - '0' - 10
4:
  addi  t1, t1, '0'
  sb    t1, 0(t0)
  addi  t2, t2, -4
  bgez  t2, 3b
  li    t1, '\n'
  sb    t1, 0(t0)
  mv    ra, t3
  ret

  .data
  .align 4
table: .space 8 * 64
