/*
 * libFuzzer target: the GNU ld map parser (src/symbols/sym_map.c), which
 * reads --map files a user names. The bytes are the file (fmemopen); a
 * bad one must be refused with a reason naming the line, a good one must
 * give a symbol table that sym_table_finish accepts.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>

#include "symbols/symtab.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  FILE *f = fmemopen((void *)data, size, "r");
  if (!f)
    return 0;
  sym_table t;
  tally_error err = {0};
  sym_table_init(&t);
  int rc = sym_table_read_map(&t, f, "fuzz.map", &err);
  if (rc != 0 && !err.msg[0])
    __builtin_trap(); /* refused without a reason */
  if (rc == 0)
    (void)sym_table_finish(&t);
  sym_table_free(&t);
  fclose(f);
  return 0;
}
