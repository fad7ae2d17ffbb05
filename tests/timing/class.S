/*
 * class: one instruction class, 16 times in a row, for the per-class cycle
 * counts. Built once per class with -DCLASS_<name>; every build has the
 * same prologue and epilogue:
 *
 *   la s0, scratch (auipc, addi) ; la s2, kernel (auipc, addi) ;
 *   li s1, 1 ; li s3, 31                     6 ALU-immediate instructions
 *   kernel: 16 instructions of the class
 *   EXIT_PASS                                4 instructions
 *
 * picorv32 (ALU 3, EXIT_PASS 14): total = 6 x 3 + 16 x CPI + 14 = 32 + 16 x CPI
 * sram (cpi 1 + penalties, EXIT_PASS 4): total = 6 + 16 x cost + 4 = 10 + 16 x cost
 *
 *   class       kernel instruction           picorv32 CPI  total   sram cost            total
 *   jal         jal x0, next                 3            80      1 + jal_penalty 1    42
 *   alu_imm     addi t0, t0, 1               3            80      1                    26
 *   alu_reg     add t0, t0, s1               3            80      1                    26
 *   branch_nt   beq s1, x0, next (s1 = 1)    3            80      1 (fwd, predicted not taken) 26
 *   branch_t    bne s1, x0, next             5            112     1 + branch_penalty 2 58
 *   load        lw t0, 0(s0)                 5            112     1                    26
 *   store       sw s1, 0(s0)                 5            112     1                    26
 *   jalr        jalr x0, off(s2) -> next     6            128     1 + jalr_penalty 2   58
 *   shift_imm   slli t0, s1, 1, 3, ..., 31   4 + a/4 + a%4: sum 152  184   1 (barrel)  26
 *   shift_reg   sll t0, s1, s3 (amount 31)   4 + 7 + 3 = 14  256     1                    26
 *   mul         mul t0, s1, s3               40           672     1 + mul_latency 2    58
 *   mulh        mulh t0, s1, s3              72           1184    1 + 2                58
 *   div         div t0, s3, s1               40           672     1 + div_latency 32   538
 *
 * shift_imm amounts a = 1, 3, 5, ..., 31: sum of a/4 = 2 x (0+1+...+7) = 56,
 * sum of a%4 = 8 x (1 + 3) = 32, so 16 x 4 + 56 + 32 = 152.
 * In every kernel no instruction reads the result of a load just before it
 * (the loads write t0 and read s0), so no load-use stall.
 */
#include "bench.h"
  .option norvc
  .option norelax
  .section .text.start, "ax"
  .globl _start
_start:
  la s0, scratch
  la s2, kernel
  li s1, 1
  li s3, 31
kernel:
  AT kernel, 24
  .set off, 4
  .rept 16
#if defined(CLASS_jal)
  jal x0, 1f
1:
#elif defined(CLASS_alu_imm)
  addi t0, t0, 1
#elif defined(CLASS_alu_reg)
  add t0, t0, s1
#elif defined(CLASS_branch_nt)
  beq s1, x0, 1f
1:
#elif defined(CLASS_branch_t)
  bne s1, x0, 1f
1:
#elif defined(CLASS_load)
  lw t0, 0(s0)
#elif defined(CLASS_store)
  sw s1, 0(s0)
#elif defined(CLASS_jalr)
  jalr x0, off(s2)
#elif defined(CLASS_shift_imm)
  slli t0, s1, (off / 2) - 1
#elif defined(CLASS_shift_reg)
  sll t0, s1, s3
#elif defined(CLASS_mul)
  mul t0, s1, s3
#elif defined(CLASS_mulh)
  mulh t0, s1, s3
#elif defined(CLASS_div)
  div t0, s3, s1
#else
#error "build with -DCLASS_<name>"
#endif
  .set off, off + 4
  .endr
exit:
  AT exit, 24 + 64
  EXIT_PASS

  .data
scratch: .word 0
