/* csr.S -- mscratch (0x340): present in the IMAC variant's CSR set ("all"),
 * absent from the standard and Min variants (exit 0x102 there). */
#include "vex.h"
    main_entry
    li t0, 0x1234
    csrw mscratch, t0
    csrr a0, mscratch
    addi a0, a0, 1
    ret
