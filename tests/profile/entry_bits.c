/*
 * entry_bits: prof_is_function_entry answers from a bit per halfword of the
 * profiled range, built from the symbol table on first use. The law it must
 * obey is its definition: pc is an entry exactly when the function the
 * symbol table finds at pc starts at pc. Checked at every halfword in and
 * around the range, on a table built by hand (sized and unsized functions,
 * a label inside a sized function, functions outside the range), by hand
 * at a few addresses, and again after the table is replaced
 * (prof_symbols_changed, as tally_load_map does).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../src/profile/profile.h"
#include "../../src/symbols/symtab.h"

static int failures;

static void expect(bool got, bool want, const char *what, uint32_t pc) {
  if (got != want) {
    fprintf(stderr, "entry_bits: %s at 0x%08x: got %d, want %d\n", what, pc, got, want);
    failures++;
  }
}

/* The definition, from the symbol table alone. */
static bool is_entry(const sym_table *t, uint32_t pc) {
  const sym_entry *e = sym_table_lookup(t, pc);
  return e && e->addr == pc;
}

static void check_all(prof_state *p, const sym_table *t, const char *what) {
  for (uint32_t pc = 0x7f0; pc < 0x1040; pc += 1)
    expect(prof_is_function_entry(p, pc), is_entry(t, pc), what, pc);
}

static int build(sym_table *t, const uint32_t (*syms)[2], size_t n) {
  sym_table_init(t);
  static const char *names[] = {"a", "b", "c", "d", "e", "f", "g", "h"};
  for (size_t i = 0; i < n; i++)
    if (sym_table_add(t, syms[i][0], syms[i][1], names[i]) != 0)
      return -1;
  return sym_table_finish(t);
}

int main(void) {
  /* [addr, size]: 0x900 sized; 0x910 a label inside it; 0x940 unsized (to
   * the next function); 0x980 sized; 0x700 and 0x1100 outside the range */
  static const uint32_t one[][2] = {{0x900, 0x20}, {0x910, 0}, {0x940, 0}, {0x980, 0x10},
                                    {0x700, 0x10}, {0x1100, 0x10}};
  static const uint32_t two[][2] = {{0x902, 0x10}, {0xa00, 0x40}, {0xfe0, 0}};
  sym_table t;
  if (build(&t, one, sizeof one / sizeof one[0]) != 0) {
    fprintf(stderr, "entry_bits: out of memory\n");
    return 1;
  }
  prof_state *p = prof_new(0x800, 0x1000, &t);
  if (!p) {
    fprintf(stderr, "entry_bits: out of memory\n");
    return 1;
  }
  /* by hand */
  expect(prof_is_function_entry(p, 0x900), true, "sized function", 0x900);
  expect(prof_is_function_entry(p, 0x902), false, "inside a function", 0x902);
  expect(prof_is_function_entry(p, 0x910), false, "label", 0x910);
  expect(prof_is_function_entry(p, 0x940), true, "unsized function", 0x940);
  expect(prof_is_function_entry(p, 0x700), true, "below the range", 0x700);
  expect(prof_is_function_entry(p, 0x1100), true, "above the range", 0x1100);
  check_all(p, &t, "first table");

  /* the table is replaced in place, as tally_load_map does */
  sym_table_free(&t);
  if (build(&t, two, sizeof two / sizeof two[0]) != 0) {
    fprintf(stderr, "entry_bits: out of memory\n");
    return 1;
  }
  prof_symbols_changed(p);
  expect(prof_is_function_entry(p, 0x900), false, "gone with the old table", 0x900);
  expect(prof_is_function_entry(p, 0x902), true, "new function", 0x902);
  check_all(p, &t, "second table");

  prof_free(p);
  sym_table_free(&t);
  if (failures)
    return 1;
  printf("entry_bits: ok\n");
  return 0;
}
