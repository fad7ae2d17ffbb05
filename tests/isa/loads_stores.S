// loads_stores.S - lb, lh, lw, lbu, lhu, sb, sh, sw: every width, sign
// and zero extension, positive/negative/extreme offsets, and misaligned
// accesses in RAM.
//
// Misaligned loads and stores: the ISA lets an implementation either
// perform them or trap (address-misaligned or access fault). QEMU 7.2
// performs them in RAM as ordinary little-endian accesses, without a
// trap, and so must tally: tests 100.. check the bytes.
//
// ld_data bytes (little endian), offset: value
//    0: ff 00 ff 00   4: 00 ff 00 ff   8: f0 0f f0 0f   12: 0f f0 0f f0
// sx_data bytes
//    0: 7f 80 ff 7f   4: 00 80 01 00
// mis_data bytes: offset i holds 0x11 * i (00 11 22 ... ee ff)
#include "test_macros.h"

// Fill the two words at st_buf with 0xaaaaaaaa, store \val with \st at
// st_buf + \off, then expect the two words to be \w0 and \w1.
.macro TEST_ST_BYTES n, st, val, off, w0, w1
    TEST_NUM \n
    la      a1, st_buf
    li      a2, 0xaaaaaaaa
    sw      a2, 0(a1)
    sw      a2, 4(a1)
    li      a2, \val
    \st     a2, \off(a1)
    lw      a4, 0(a1)
    CHECK   a4, \w0
    lw      a4, 4(a1)
    CHECK   a4, \w1
.endm

TEST_BEGIN

    // ---- lb: sign-extends bit 7 ----
    TEST_LD  1, lb, 0xffffffff, 0, ld_data
    TEST_LD  2, lb, 0x00000000, 1, ld_data
    TEST_LD  3, lb, 0xffffffff, 2, ld_data
    TEST_LD  4, lb, 0x00000000, 3, ld_data
    TEST_LD  5, lb, 0xffffffff, 5, ld_data
    TEST_LD  6, lb, 0xfffffff0, 8, ld_data
    TEST_LD  7, lb, 0x0000000f, 9, ld_data
    TEST_LD  8, lb, 0xfffffff0, 15, ld_data
    TEST_LD  9, lb, 0x0000007f, 0, sx_data
    TEST_LD 10, lb, 0xffffff80, 1, sx_data
    TEST_LD 11, lb, 0x0000000f, -1, ld_data+12      // negative offset: byte 11
    TEST_LD 12, lb, 0xffffffff, -12, ld_data+12     // byte 0

    // ---- lbu: zero-extends ----
    TEST_LD 20, lbu, 0x000000ff, 0, ld_data
    TEST_LD 21, lbu, 0x00000000, 1, ld_data
    TEST_LD 22, lbu, 0x000000f0, 8, ld_data
    TEST_LD 23, lbu, 0x0000000f, 9, ld_data
    TEST_LD 24, lbu, 0x00000080, 1, sx_data
    TEST_LD 25, lbu, 0x0000007f, 0, sx_data
    TEST_LD 26, lbu, 0x000000f0, -4, ld_data+12     // byte 8

    // ---- lh: sign-extends bit 15 ----
    TEST_LD 30, lh, 0x000000ff, 0, ld_data
    TEST_LD 31, lh, 0x000000ff, 2, ld_data
    TEST_LD 32, lh, 0xffffff00, 4, ld_data
    TEST_LD 33, lh, 0xffffff00, 6, ld_data
    TEST_LD 34, lh, 0x00000ff0, 8, ld_data
    TEST_LD 35, lh, 0xfffff00f, 12, ld_data
    TEST_LD 36, lh, 0xffff807f, 0, sx_data
    TEST_LD 37, lh, 0x00007fff, 2, sx_data
    TEST_LD 38, lh, 0xffff8000, 4, sx_data
    TEST_LD 39, lh, 0x00000001, 6, sx_data
    TEST_LD 40, lh, 0x00000ff0, -2, ld_data+12      // offset 10

    // ---- lhu: zero-extends ----
    TEST_LD 50, lhu, 0x000000ff, 0, ld_data
    TEST_LD 51, lhu, 0x0000ff00, 4, ld_data
    TEST_LD 52, lhu, 0x0000f00f, 12, ld_data
    TEST_LD 53, lhu, 0x0000807f, 0, sx_data
    TEST_LD 54, lhu, 0x00008000, 4, sx_data
    TEST_LD 55, lhu, 0x00007fff, 2, sx_data
    TEST_LD 56, lhu, 0x0000f00f, -2, ld_data+16     // offset 14

    // ---- lw ----
    TEST_LD 60, lw, 0x00ff00ff, 0, ld_data
    TEST_LD 61, lw, 0xff00ff00, 4, ld_data
    TEST_LD 62, lw, 0x0ff00ff0, 8, ld_data
    TEST_LD 63, lw, 0xf00ff00f, 12, ld_data
    TEST_LD 64, lw, 0x00ff00ff, -12, ld_data+12
    TEST_LD 65, lw, 0x0ff00ff0, -4, ld_data+12
    TEST_LD 66, lw, 0x7fff807f, 0, sx_data

    // ---- the extreme offsets -2048 and +2047 ----
    TEST_LD 70, lb, 0xffffffff, 2047, ld_data-2047
    TEST_LD 71, lbu, 0x000000ff, 2047, ld_data-2047
    TEST_LD 72, lh, 0xffffff00, 2047, ld_data+4-2047
    TEST_LD 73, lw, 0xf00ff00f, 2047, ld_data+12-2047
    TEST_LD 74, lw, 0x00ff00ff, -2048, ld_data+2048
    TEST_LD 75, lhu, 0x0000ff00, -2048, ld_data+4+2048
    TEST_LD 76, lb, 0xfffffff0, -2048, ld_data+8+2048

    // ---- the loaded register is also the base ----
    TEST_NUM 77
    la      a1, ld_data+4
    lw      a1, 0(a1)
    CHECK   a1, 0xff00ff00
    TEST_NUM 78                     // a loaded value used at once
    la      a1, ld_data
    lw      a4, 4(a1)
    addi    a4, a4, 1
    CHECK   a4, 0xff00ff01

    // ---- stores: only the addressed bytes change ----
    TEST_ST_BYTES 80, sb, 0x12345678, 0, 0xaaaaaa78, 0xaaaaaaaa
    TEST_ST_BYTES 81, sb, 0x12345678, 1, 0xaaaa78aa, 0xaaaaaaaa
    TEST_ST_BYTES 82, sb, 0x12345678, 2, 0xaa78aaaa, 0xaaaaaaaa
    TEST_ST_BYTES 83, sb, 0x12345678, 3, 0x78aaaaaa, 0xaaaaaaaa
    TEST_ST_BYTES 84, sb, 0x00000000, 7, 0xaaaaaaaa, 0x00aaaaaa
    TEST_ST_BYTES 85, sh, 0x12345678, 0, 0xaaaa5678, 0xaaaaaaaa
    TEST_ST_BYTES 86, sh, 0x12345678, 2, 0x5678aaaa, 0xaaaaaaaa
    TEST_ST_BYTES 87, sh, 0xffff8001, 6, 0xaaaaaaaa, 0x8001aaaa
    TEST_ST_BYTES 88, sw, 0x12345678, 0, 0x12345678, 0xaaaaaaaa
    TEST_ST_BYTES 89, sw, 0x00000000, 4, 0xaaaaaaaa, 0x00000000
    // store, then read back with each load width
    TEST_ST 90, sb, lb,  0xffffff80, 0x00000080, 0, st_buf
    TEST_ST 91, sb, lbu, 0x00000080, 0xffffff80, 0, st_buf
    TEST_ST 92, sh, lh,  0xffff8000, 0x00008000, 2, st_buf
    TEST_ST 93, sh, lhu, 0x00008000, 0xffff8000, 2, st_buf
    TEST_ST 94, sw, lw,  0x80000001, 0x80000001, 4, st_buf
    TEST_ST 95, sw, lw,  0x0000aaaa, 0x0000aaaa, -4, st_buf+8     // negative offset
    TEST_ST 96, sb, lbu, 0x000000a5, 0x000000a5, 2047, st_buf-2047
    TEST_ST 97, sw, lw,  0x5a5a5a5a, 0x5a5a5a5a, -2048, st_buf+2048
    TEST_ST 98, sh, lhu, 0x00001234, 0x00001234, 2047, st_buf+2-2047
    TEST_NUM 99                     // store the base register itself; store x0
    la      a1, st_buf
    sw      a1, 0(a1)
    lw      a4, 0(a1)
    CHECK_ADDR a4, st_buf
    sw      x0, 0(a1)
    lw      a4, 0(a1)
    CHECK   a4, 0

    // ---- misaligned loads (performed, little endian; see the header) ----
    TEST_LD 100, lw,  0x44332211, 1, mis_data
    TEST_LD 101, lw,  0x55443322, 2, mis_data
    TEST_LD 102, lw,  0x66554433, 3, mis_data
    TEST_LD 103, lw,  0x88776655, 5, mis_data
    TEST_LD 104, lw,  0xaa998877, 7, mis_data
    TEST_LD 105, lw,  0xccbbaa99, 9, mis_data
    TEST_LD 106, lh,  0x00002211, 1, mis_data
    TEST_LD 107, lh,  0x00004433, 3, mis_data        // crosses a word boundary
    TEST_LD 108, lh,  0xffff8877, 7, mis_data        // sign-extended
    TEST_LD 109, lhu, 0x00008877, 7, mis_data
    TEST_LD 110, lh,  0xffffccbb, 11, mis_data
    TEST_LD 111, lhu, 0x0000ccbb, 11, mis_data
    TEST_LD 112, lw,  0x44332211, -1, mis_data+2     // negative offset, odd sum

    // ---- misaligned stores ----
    TEST_ST_BYTES 120, sw, 0x12345678, 1, 0x345678aa, 0xaaaaaa12
    TEST_ST_BYTES 121, sw, 0x12345678, 2, 0x5678aaaa, 0xaaaa1234
    TEST_ST_BYTES 122, sw, 0x12345678, 3, 0x78aaaaaa, 0xaa123456
    TEST_ST_BYTES 123, sh, 0x0000beef, 1, 0xaabeefaa, 0xaaaaaaaa
    TEST_ST_BYTES 124, sh, 0x0000beef, 3, 0xefaaaaaa, 0xaaaaaabe
    TEST_ST_BYTES 125, sw, 0xcafef00d, 5, 0xaaaaaaaa, 0xfef00daa
    TEST_ST 126, sw, lw, 0x12345678, 0x12345678, 3, st_buf         // round trip
    TEST_ST 127, sh, lh, 0xffff9abc, 0x00009abc, 1, st_buf

TEST_END

    .data
    .balign 16
ld_data:    .word 0x00ff00ff, 0xff00ff00, 0x0ff00ff0, 0xf00ff00f
sx_data:    .byte 0x7f, 0x80, 0xff, 0x7f, 0x00, 0x80, 0x01, 0x00
    .balign 16
mis_data:   .byte 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77
            .byte 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff
    .balign 16
st_buf:     .word 0, 0, 0, 0
