/*
 * unit.disasm_rvc: compressed instructions are named as the RISC-V
 * compressed extension names them. Encodings and expected mnemonics and
 * operands come from GNU objdump 2.40 (riscv64-unknown-elf-objdump -d
 * -M no-aliases on an assembled file): c.j must not read as c.jal, which
 * links ra; c.li not as c.addi, which adds to rd.
 */
#include <string.h>

#include "../../tests/check.h"
#include "core/isa.h"

typedef struct expect {
  uint16_t bits;
  uint32_t pc;
  const char *text; /* tally's spelling of objdump's line: ", " between operands, absolute targets */
} expect;

static const expect cases[] = {
  {0xa001, 0x80000000, "c.j 0x80000000"},    /* objdump: c.j 0 <_start> (at 0) */
  {0x3ffd, 0x80000002, "c.jal 0x80000000"},  /* c.jal 0 <_start> (at 2) */
  {0x8502, 0x80000004, "c.jr a0"},
  {0x9582, 0x80000006, "c.jalr a1"},
  {0x566d, 0x80000008, "c.li a2, -5"},
  {0x86ba, 0x8000000a, "c.mv a3, a4"},
};

int main(void) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    isa_insn in;
    char buf[64];
    isa_decode(cases[i].bits, &in);
    isa_disasm(&in, cases[i].pc, buf, sizeof buf);
    CHECK(strcmp(buf, cases[i].text) == 0, "0x%04x: '%s', expected '%s'", cases[i].bits, buf, cases[i].text);
  }
  /* c.add keeps its expansion's form (add rd, rd, rs2): objdump's c.add a3,a4 */
  isa_insn in;
  char buf[64];
  isa_decode(0x96ba, &in);
  isa_disasm(&in, 0, buf, sizeof buf);
  CHECK(strncmp(buf, "c.add a3", 8) == 0, "0x96ba: '%s'", buf);
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
