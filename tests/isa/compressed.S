// compressed.S - every RV32C instruction form, with its immediate edge
// cases and a spread of registers (so that each register field is decoded
// for several values), plus the reserved encodings that must trap.
//
// The file is assembled with .option norvc, and every compressed
// instruction is written as C(c.xxx ...), which switches RVC on for that
// one instruction: the c.* mnemonics are checked by the assembler to have
// a 16-bit encoding, and everything else (checks, glue) stays 32-bit, so
// distances are exactly as written.
//
// Compressed register fields (rd', rs1', rs2') name x8..x15 only:
// s0, s1, a0..a5. sp is moved for the sp-relative forms and restored
// from s11 afterwards.
#include "test_macros.h"

#define C(...) .option rvc; __VA_ARGS__; .option norvc

TEST_BEGIN
    mv      s11, sp

    // ---- c.addi4spn rd', sp, nzuimm (4..1020, multiple of 4) ----
    // nzuimm bit patterns 0x154 (bits 2,4,6,8) and 0x2a8 (bits 3,5,7,9)
    // catch swapped immediate bits.
    li      sp, 0x12345678
    TEST_NUM 1
    C(c.addi4spn a0, sp, 4)
    CHECK   a0, 0x1234567c
    TEST_NUM 2
    C(c.addi4spn s0, sp, 1020)
    CHECK   s0, 0x12345a74          // 0x678 + 0x3fc = 0xa74
    TEST_NUM 3
    C(c.addi4spn a5, sp, 340)
    CHECK   a5, 0x123457cc          // 0x678 + 0x154 = 0x7cc
    TEST_NUM 4
    C(c.addi4spn s1, sp, 680)
    CHECK   s1, 0x12345920          // 0x678 + 0x2a8 = 0x920
    CHECK   sp, 0x12345678          // sp itself unchanged
    mv      sp, s11

    // ---- c.lw rd', uimm(rs1') (0..124, multiple of 4) ----
    // cbuf: the word at byte offset k is 0xa5000000 + k
    TEST_NUM 10
    la      s0, cbuf
    C(c.lw  a0, 0(s0))
    CHECK   a0, 0xa5000000
    TEST_NUM 11
    la      s1, cbuf
    C(c.lw  a1, 124(s1))
    CHECK   a1, 0xa500007c
    TEST_NUM 12
    la      a3, cbuf
    C(c.lw  a2, 84(a3))             // 0x54: bits 2, 4, 6
    CHECK   a2, 0xa5000054
    TEST_NUM 13
    la      a5, cbuf
    C(c.lw  a4, 40(a5))             // 0x28: bits 3, 5
    CHECK   a4, 0xa5000028
    TEST_NUM 14
    la      a2, cbuf
    C(c.lw  s1, 64(a2))
    CHECK   s1, 0xa5000040
    TEST_NUM 15
    la      a4, cbuf
    C(c.lw  a5, 4(a4))
    CHECK   a5, 0xa5000004
    TEST_NUM 16
    la      a0, cbuf
    C(c.lw  a0, 8(a0))              // rd' == rs1'
    CHECK   a0, 0xa5000008
    TEST_NUM 17
    la      a1, cbuf
    C(c.lw  s0, 32(a1))
    CHECK   s0, 0xa5000020
    TEST_NUM 18
    la      s0, cbuf
    C(c.lw  a3, 16(s0))
    CHECK   a3, 0xa5000010

    // ---- c.sw rs2', uimm(rs1') ----
    TEST_NUM 20
    la      a3, sbuf
    li      a2, 0x11111111
    C(c.sw  a2, 124(a3))
    lw      a4, 124(a3)
    CHECK   a4, 0x11111111
    TEST_NUM 21
    la      s0, sbuf
    li      s1, 0x22222222
    C(c.sw  s1, 0(s0))
    lw      a4, 0(s0)
    CHECK   a4, 0x22222222
    TEST_NUM 22
    la      a5, sbuf
    li      a0, 0x33333333
    C(c.sw  a0, 84(a5))
    lw      a4, 84(a5)
    CHECK   a4, 0x33333333
    TEST_NUM 23
    la      a1, sbuf
    li      a4, 0x44444444
    C(c.sw  a4, 40(a1))
    lw      a5, 40(a1)
    CHECK   a5, 0x44444444
    TEST_NUM 24
    la      a4, sbuf
    li      a5, 0x55555555
    C(c.sw  a5, 4(a4))
    lw      a0, 4(a4)
    CHECK   a0, 0x55555555
    TEST_NUM 25
    la      s1, sbuf
    li      a3, 0x66666666
    C(c.sw  a3, 64(s1))
    lw      a4, 64(s1)
    CHECK   a4, 0x66666666
    TEST_NUM 26
    la      a0, sbuf
    C(c.sw  a0, 8(a0))              // store the base register itself
    lw      a4, 8(a0)
    CHECK_ADDR a4, sbuf
    TEST_NUM 27                     // neighbours untouched
    la      a1, sbuf
    lw      a4, 120(a1)
    CHECK   a4, 0
    lw      a4, 12(a1)
    CHECK   a4, 0

    // ---- c.nop ----
    TEST_NUM 30
    li      a0, 0x77
    C(c.nop)
    C(c.nop)
    CHECK   a0, 0x77

    // ---- c.addi rd, nzimm (-32..31) ----
    TEST_NUM 31
    li      a0, 10
    C(c.addi a0, -32)
    CHECK   a0, 0xffffffea          // 10 - 32 = -22
    TEST_NUM 32
    li      a1, 10
    C(c.addi a1, 31)
    CHECK   a1, 41
    TEST_NUM 33
    li      a2, 0x7fffffff
    C(c.addi a2, 1)
    CHECK   a2, 0x80000000          // wraps
    TEST_NUM 34
    li      t3, 0
    C(c.addi t3, 21)                // 0b010101
    CHECK   t3, 21
    TEST_NUM 35
    li      t4, 0
    C(c.addi t4, -22)               // 0b101010
    CHECK   t4, 0xffffffea
    TEST_NUM 36
    li      ra, 0
    C(c.addi ra, -1)
    CHECK   ra, 0xffffffff
    TEST_NUM 37
    li      t6, 0x80000000
    C(c.addi t6, -1)
    CHECK   t6, 0x7fffffff

    // ---- c.jal offset (x1 = pc + 2; offset -2048..2046) ----
    TEST_NUM 40
    li      ra, 0
    C(c.jal cjal_t40)
cjal_r40:
    j       test_fail
cjal_t40:
    CHECK_ADDR ra, cjal_r40         // the link is pc + 2
    TEST_NUM 41                     // backward
    j       cjal_f41
cjal_b41:
    CHECK_ADDR ra, cjal_r41
    j       cjal_done41
cjal_f41:
    C(c.jal cjal_b41)
cjal_r41:
    j       test_fail
cjal_done41:
    // the extreme offsets: A = cjal_a jumps +2046 to cjal_fwd; from
    // cjal_b = cjal_back + 2048 a c.jal jumps -2048 back to cjal_back.
    TEST_NUM 42
    li      s0, 0
cjal_a:
    C(c.jal cjal_fwd)               // +2046
cjal_a_link:
    j       test_fail
cjal_back:                          // = cjal_b - 2048
    CHECK_ADDR s0, cjal_a_link
    CHECK_ADDR ra, cjal_b_link
    TEST_NUM 43
    la      a0, cjal_a
    la      a1, cjal_fwd
    sub     a1, a1, a0
    CHECK   a1, 2046
    la      a0, cjal_b
    la      a1, cjal_back
    sub     a1, a1, a0
    CHECK   a1, -2048
    j       cjal_done
    .skip   (cjal_a + 2046) - ., 0  // never executed
cjal_fwd:                           // = cjal_a + 2046
    mv      s0, ra
    nop
cjal_b:
    C(c.jal cjal_back)              // -2048
cjal_b_link:
    j       test_fail
cjal_done:

    // ---- c.li rd, imm (-32..31) ----
    TEST_NUM 50
    C(c.li  a0, -32)
    CHECK   a0, 0xffffffe0
    TEST_NUM 51
    C(c.li  ra, 31)
    CHECK   ra, 31
    TEST_NUM 52
    li      s0, 0x1234
    C(c.li  s0, 0)
    CHECK   s0, 0
    TEST_NUM 53
    C(c.li  a5, -1)
    CHECK   a5, 0xffffffff
    TEST_NUM 54
    C(c.li  t3, 21)
    CHECK   t3, 21
    TEST_NUM 55
    C(c.li  t6, -22)
    CHECK   t6, 0xffffffea

    // ---- c.addi16sp sp, nzimm (-512..496, multiple of 16) ----
    // nzimm bits [9|4|6|8:7|5]: 336 = bits 4,6,8; 160 = bits 5,7;
    // -512 = bit 9 alone; 496 = bits 4..8
    li      sp, 0x10000
    TEST_NUM 60
    C(c.addi16sp sp, -512)
    CHECK   sp, 0x0000fe00
    TEST_NUM 61
    C(c.addi16sp sp, 496)
    CHECK   sp, 0x0000fff0
    TEST_NUM 62
    C(c.addi16sp sp, 16)
    CHECK   sp, 0x00010000
    TEST_NUM 63
    C(c.addi16sp sp, -16)
    CHECK   sp, 0x0000fff0
    TEST_NUM 64
    C(c.addi16sp sp, 336)
    CHECK   sp, 0x00010140          // 0xfff0 + 0x150
    TEST_NUM 65
    C(c.addi16sp sp, 160)
    CHECK   sp, 0x000101e0          // + 0xa0
    TEST_NUM 66
    C(c.addi16sp sp, -352)
    CHECK   sp, 0x00010080          // - 0x160
    mv      sp, s11

    // ---- c.lui rd, nzimm (rd not x0/x2; nzimm -32..31, shifted by 12) ----
    TEST_NUM 70
    C(c.lui a0, 1)
    CHECK   a0, 0x00001000
    TEST_NUM 71
    C(c.lui ra, 31)
    CHECK   ra, 0x0001f000
    TEST_NUM 72
    C(c.lui s0, 0xfffe0)            // nzimm -32
    CHECK   s0, 0xfffe0000
    TEST_NUM 73
    C(c.lui a5, 0xfffff)            // nzimm -1
    CHECK   a5, 0xfffff000
    TEST_NUM 74
    C(c.lui t3, 0x15)
    CHECK   t3, 0x00015000
    TEST_NUM 75
    li      t6, -1
    C(c.lui t6, 0xfffea)            // nzimm -22; low 12 bits cleared
    CHECK   t6, 0xfffea000

    // ---- c.srli rd', shamt (1..31) ----
    TEST_NUM 80
    li      s0, 0x80000000
    C(c.srli s0, 31)
    CHECK   s0, 1
    TEST_NUM 81
    li      s1, 0x80000000
    C(c.srli s1, 1)
    CHECK   s1, 0x40000000
    TEST_NUM 82
    li      a0, 0x12345678
    C(c.srli a0, 16)
    CHECK   a0, 0x00001234
    TEST_NUM 83
    li      a5, 0xffffffff
    C(c.srli a5, 21)
    CHECK   a5, 0x000007ff
    TEST_NUM 84
    li      a3, 0xffffffff
    C(c.srli a3, 10)
    CHECK   a3, 0x003fffff

    // ---- c.srai rd', shamt (1..31) ----
    TEST_NUM 90
    li      a1, 0x80000000
    C(c.srai a1, 31)
    CHECK   a1, 0xffffffff
    TEST_NUM 91
    li      a2, 0x80000000
    C(c.srai a2, 1)
    CHECK   a2, 0xc0000000
    TEST_NUM 92
    li      a3, 0x7fffffff
    C(c.srai a3, 31)
    CHECK   a3, 0
    TEST_NUM 93
    li      a4, 0x87654321
    C(c.srai a4, 16)
    CHECK   a4, 0xffff8765
    TEST_NUM 94
    li      s0, 0x80000000
    C(c.srai s0, 10)
    CHECK   s0, 0xffe00000
    TEST_NUM 95
    li      a5, 0x40000000
    C(c.srai a5, 21)
    CHECK   a5, 0x00000200          // positive: 2^30 >> 21 = 2^9

    // ---- c.andi rd', imm (-32..31, sign-extended) ----
    TEST_NUM 100
    li      a0, 0x12345678
    C(c.andi a0, -32)
    CHECK   a0, 0x12345660          // 0x78 & 0xe0 = 0x60
    TEST_NUM 101
    li      s1, 0x12345678
    C(c.andi s1, 31)
    CHECK   s1, 0x00000018          // 0x78 & 0x1f
    TEST_NUM 102
    li      a2, 0x12345678
    C(c.andi a2, 0)
    CHECK   a2, 0
    TEST_NUM 103
    li      a3, 0x12345678
    C(c.andi a3, -1)
    CHECK   a3, 0x12345678
    TEST_NUM 104
    li      a4, 0x12345678
    C(c.andi a4, 21)
    CHECK   a4, 0x00000010          // 0x78 & 0x15
    TEST_NUM 105
    li      a5, 0x12345678
    C(c.andi a5, -22)
    CHECK   a5, 0x12345668          // 0x78 & 0xea = 0x68

    // ---- c.sub / c.xor / c.or / c.and rd', rs2' ----
    TEST_NUM 110
    li      s0, 10
    li      a5, 3
    C(c.sub s0, a5)
    CHECK   s0, 7
    CHECK   a5, 3
    TEST_NUM 111
    li      a5, 0
    li      s0, 1
    C(c.sub a5, s0)
    CHECK   a5, 0xffffffff
    TEST_NUM 112
    li      a0, 0x12345678
    C(c.sub a0, a0)
    CHECK   a0, 0
    TEST_NUM 113
    li      s1, 0x80000000
    li      a4, 1
    C(c.sub s1, a4)
    CHECK   s1, 0x7fffffff
    TEST_NUM 114
    li      s1, 0xff00ff00
    li      a1, 0x0ff00ff0
    C(c.xor s1, a1)
    CHECK   s1, 0xf0f0f0f0
    TEST_NUM 115
    li      a2, 0x12345678
    li      a3, 0xffffffff
    C(c.xor a2, a3)
    CHECK   a2, 0xedcba987
    TEST_NUM 116
    li      a3, 0xff00ff00
    li      a4, 0x0ff00ff0
    C(c.or  a3, a4)
    CHECK   a3, 0xfff0fff0
    TEST_NUM 117
    li      a4, 0x80000000
    li      s0, 1
    C(c.or  a4, s0)
    CHECK   a4, 0x80000001
    TEST_NUM 118
    li      a1, 0xff00ff00
    li      a2, 0x0ff00ff0
    C(c.and a1, a2)
    CHECK   a1, 0x0f000f00
    TEST_NUM 119
    li      a5, 0x12345678
    li      s1, 0xf0f0f0f0
    C(c.and a5, s1)
    CHECK   a5, 0x10305070
    TEST_NUM 120
    li      a0, 0x0000ffff
    li      a2, 0x00ff00ff
    C(c.xor a0, a2)
    CHECK   a0, 0x00ffff00
    TEST_NUM 121
    li      s0, 0x0000ffff
    li      a3, 0xffff0000
    C(c.and s0, a3)
    CHECK   s0, 0

    // ---- c.j offset (-2048..2046), no link ----
    TEST_NUM 130
    li      ra, 0x1234
    C(c.j   cj_t130)
    j       test_fail
cj_t130:
    CHECK   ra, 0x1234
    TEST_NUM 131                    // the extreme offsets, as for c.jal
    li      a0, 0
cj_a:
    C(c.j   cj_fwd)                 // +2046
    j       test_fail
cj_back:                            // = cj_b - 2048
    CHECK   a0, 1
    TEST_NUM 132
    la      a0, cj_a
    la      a1, cj_fwd
    sub     a1, a1, a0
    CHECK   a1, 2046
    la      a0, cj_b
    la      a1, cj_back
    sub     a1, a1, a0
    CHECK   a1, -2048
    j       cj_done
    .skip   (cj_a + 2046) - ., 0    // never executed
cj_fwd:                             // = cj_a + 2046
    li      a0, 1
    nop
cj_b:
    C(c.j   cj_back)                // -2048
    j       test_fail
cj_done:

    // ---- c.beqz / c.bnez rs1', offset (-256..254) ----
    j       cb_start
test_fail_near:                     // within reach of c.beqz/c.bnez
    j       test_fail
cb_start:
    TEST_NUM 140
    li      s0, 0
    C(c.beqz s0, cb_t140)
    j       test_fail
cb_t140:
    TEST_NUM 141
    li      a5, 0x80000000
    C(c.beqz a5, test_fail_near)    // not taken
    li      a5, 1
    C(c.beqz a5, test_fail_near)
    li      a5, -1
    C(c.beqz a5, test_fail_near)
    TEST_NUM 142
    li      a1, 0x80000000
    C(c.bnez a1, cb_t142)
    j       test_fail
cb_t142:
    TEST_NUM 143
    li      a2, 0
    C(c.bnez a2, test_fail_near)    // not taken
    TEST_NUM 144                    // a backward loop: a0 = 5 + 4 + 3 + 2 + 1
    li      a0, 0
    li      s1, 5
cb_loop:
    add     a0, a0, s1
    C(c.addi s1, -1)
    C(c.bnez s1, cb_loop)
    CHECK   a0, 15
    TEST_NUM 145                    // the extreme offsets +254 and -256
    li      a3, 0
    li      a4, 1
cb_a:
    C(c.beqz a3, cb_fwd)            // +254
    j       test_fail
cb_back:                            // = cb_b - 256
    TEST_NUM 146
    la      a0, cb_a
    la      a1, cb_fwd
    sub     a1, a1, a0
    CHECK   a1, 254
    la      a0, cb_b
    la      a1, cb_back
    sub     a1, a1, a0
    CHECK   a1, -256
    j       cb_done
    .skip   (cb_a + 254) - ., 0     // never executed
cb_fwd:                             // = cb_a + 254
    nop
    nop
cb_b:
    C(c.bnez a4, cb_back)           // -256
    j       test_fail
cb_done:

    // ---- c.slli rd, shamt (1..31) ----
    TEST_NUM 160
    li      ra, 1
    C(c.slli ra, 31)
    CHECK   ra, 0x80000000
    TEST_NUM 161
    li      a0, 0x12345678
    C(c.slli a0, 16)
    CHECK   a0, 0x56780000
    TEST_NUM 162
    li      t3, 0xffffffff
    C(c.slli t3, 1)
    CHECK   t3, 0xfffffffe
    TEST_NUM 163
    li      s1, 0x00000fff
    C(c.slli s1, 21)
    CHECK   s1, 0xffe00000
    TEST_NUM 164
    li      t6, 0x0f0f0f0f
    C(c.slli t6, 4)
    CHECK   t6, 0xf0f0f0f0

    // ---- c.lwsp rd, uimm(sp) (0..252, multiple of 4) ----
    la      sp, cbuf
    TEST_NUM 170
    C(c.lwsp a0, 0(sp))
    CHECK   a0, 0xa5000000
    TEST_NUM 171
    C(c.lwsp ra, 252(sp))
    CHECK   ra, 0xa50000fc
    TEST_NUM 172
    C(c.lwsp t3, 84(sp))            // 0x54: bits 2, 4, 6
    CHECK   t3, 0xa5000054
    TEST_NUM 173
    C(c.lwsp s1, 168(sp))           // 0xa8: bits 3, 5, 7
    CHECK   s1, 0xa50000a8
    TEST_NUM 174
    C(c.lwsp t6, 4(sp))
    CHECK   t6, 0xa5000004
    TEST_NUM 175
    C(c.lwsp sp, 128(sp))           // rd == sp
    CHECK   sp, 0xa5000080
    mv      sp, s11

    // ---- c.swsp rs2, uimm(sp) ----
    la      sp, sbuf
    TEST_NUM 180
    li      a0, 0x01020304
    C(c.swsp a0, 0(sp))
    lw      a4, 0(sp)
    CHECK   a4, 0x01020304
    TEST_NUM 181
    li      ra, 0x05060708
    C(c.swsp ra, 252(sp))
    lw      a4, 252(sp)
    CHECK   a4, 0x05060708
    TEST_NUM 182
    li      t3, 0x090a0b0c
    C(c.swsp t3, 84(sp))
    lw      a4, 84(sp)
    CHECK   a4, 0x090a0b0c
    TEST_NUM 183
    li      s1, 0x0d0e0f10
    C(c.swsp s1, 168(sp))
    lw      a4, 168(sp)
    CHECK   a4, 0x0d0e0f10
    TEST_NUM 184
    li      a4, -1
    sw      a4, 4(sp)
    C(c.swsp x0, 4(sp))             // rs2 = x0 stores zero
    lw      a4, 4(sp)
    CHECK   a4, 0
    TEST_NUM 185
    C(c.swsp sp, 8(sp))             // store sp itself
    lw      a4, 8(sp)
    CHECK_ADDR a4, sbuf
    mv      sp, s11

    // ---- c.jr rs1 (no link) ----
    TEST_NUM 190
    li      ra, 0x1234
    la      a0, cjr_t190
    C(c.jr  a0)
    j       test_fail
cjr_t190:
    CHECK   ra, 0x1234
    TEST_NUM 191
    la      t6, cjr_t191
    C(c.jr  t6)
    j       test_fail
cjr_t191:
    TEST_NUM 192                    // c.jr ra is the compressed ret
    jal     ra, cjr_func
    CHECK   a0, 0x5a

    // ---- c.mv rd, rs2 ----
    TEST_NUM 195
    li      a5, 0x12345678
    li      a0, 0
    C(c.mv  a0, a5)
    CHECK   a0, 0x12345678
    CHECK   a5, 0x12345678
    TEST_NUM 196
    li      s0, 0x80000000
    C(c.mv  t3, s0)
    CHECK   t3, 0x80000000
    TEST_NUM 197
    li      t6, 0xffffffff
    C(c.mv  ra, t6)
    CHECK   ra, 0xffffffff

    // ---- c.ebreak: breakpoint exception, mepc = its address ----
    // mtval may be 0 or the address (QEMU 7.2 writes 0); either is accepted.
    TEST_NUM 200
    EXPECT_TRAP cebreak_resume
cebreak_at:
    C(c.ebreak)
    j       test_fail_no_trap
cebreak_resume:
    CHECK_TRAP_CAUSE CAUSE_BREAKPOINT
    CHECK_TRAP_EPC cebreak_at
    la      t6, test_trap
    lw      t5, TRAP_TVAL(t6)
    beqz    t5, cebreak_tval_ok
    CHECK_ADDR t5, cebreak_at
cebreak_tval_ok:

    // ---- c.jalr rs1 (x1 = pc + 2) ----
    TEST_NUM 201
    la      a0, cjalr_t201
    C(c.jalr a0)
cjalr_r201:
    j       test_fail
cjalr_t201:
    CHECK_ADDR ra, cjalr_r201
    TEST_NUM 202                    // rs1 == ra: the target is the old ra
    la      ra, cjalr_t202
    C(c.jalr ra)
cjalr_r202:
    j       test_fail
cjalr_t202:
    CHECK_ADDR ra, cjalr_r202
    TEST_NUM 203                    // call and return, both compressed
    la      t3, cjr_func
    li      a0, 0
    C(c.jalr t3)
    CHECK   a0, 0x5a

    // ---- c.add rd, rs2 ----
    TEST_NUM 210
    li      a0, 3
    li      a5, 4
    C(c.add a0, a5)
    CHECK   a0, 7
    CHECK   a5, 4
    TEST_NUM 211
    li      t3, 0x7fffffff
    li      t4, 1
    C(c.add t3, t4)
    CHECK   t3, 0x80000000
    TEST_NUM 212
    li      ra, 0x40000001
    C(c.add ra, ra)                 // rd == rs2: doubles
    CHECK   ra, 0x80000002
    TEST_NUM 213
    li      s1, 0xffffffff
    li      t6, 1
    C(c.add s1, t6)
    CHECK   s1, 0

    // ---- a 32-bit instruction that spans a 4 KiB page boundary ----
    TEST_NUM 220
    li      a0, 0
    j       cross_page
    .balign 4096, 0
    .skip   4094, 0                 // never executed
cross_page:                         // 4094 mod 4096
    addi    a0, a0, 7               // bytes 4094..4097
    C(c.addi a0, 1)
    CHECK   a0, 8
    la      a1, cross_page
    li      a2, 4095
    and     a1, a1, a2
    CHECK   a1, 4094

    // ---- reserved encodings are illegal instructions, mtval = the bits ----
    TEST_TRAP 230, CAUSE_ILLEGAL_INSN, 0x0000, .half 0x0000  // all zeros
    TEST_TRAP 231, CAUSE_ILLEGAL_INSN, 0x0008, .half 0x0008  // c.addi4spn a0, sp, 0
    TEST_TRAP 232, CAUSE_ILLEGAL_INSN, 0x6101, .half 0x6101  // c.addi16sp sp, 0
    TEST_TRAP 233, CAUSE_ILLEGAL_INSN, 0x6581, .half 0x6581  // c.lui a1, 0
    TEST_TRAP 234, CAUSE_ILLEGAL_INSN, 0x4002, .half 0x4002  // c.lwsp x0, 0(sp)
    TEST_TRAP 235, CAUSE_ILLEGAL_INSN, 0x8002, .half 0x8002  // c.jr x0
    TEST_TRAP 236, CAUSE_ILLEGAL_INSN, 0x1702, .half 0x1702  // c.slli a4, 32 (shamt[5] on RV32)

    mv      sp, s11
TEST_END

cjr_func:                           // a0 = 0x5a; c.jr ra
    li      a0, 0x5a
    C(c.jr  ra)

    .data
    .balign 16
cbuf:                               // word at byte offset k = 0xa5000000 + k
    .set    k, 0
    .rept   64
    .word   0xa5000000 + k
    .set    k, k + 4
    .endr
sbuf:
    .fill   64, 4, 0
