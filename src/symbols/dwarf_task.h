/*
 * Where a program keeps its current task, from its DWARF (libdw): the
 * address of a variable path such as `pxCurrentTCB` or
 * `_kernel.cpus[0].current` (a global variable, then members and array
 * elements), which must be a pointer to a struct (the task's control
 * block), and where that struct keeps the task's name: the offset of a
 * member (`pcTaskName`, `name`) that is a char array or a char pointer.
 * Nothing is hard-coded: the offsets are the ones the compiler recorded.
 */
#ifndef TALLY_SYMBOLS_DWARF_TASK_H
#define TALLY_SYMBOLS_DWARF_TASK_H

#include <stdbool.h>
#include <stdint.h>

#include "tally/tally.h"

typedef struct sym_task_place {
  uint32_t ptr_addr;       /* the current-task pointer's address */
  char tcb_type[64];       /* the control block's struct name (for messages) */
  bool has_name;           /* the struct has the name member */
  bool name_is_ptr;        /* it is a char pointer, not an array */
  uint32_t name_off, name_len; /* offset in the struct; array length (0 for a pointer) */
} sym_task_place;

/* Finds `path` (a variable, then `.member` and `[N]` steps) and the member
 * `name_member` of the struct it points to, in the ELF file at `file`.
 * Returns 1 when found; 0 when the program has no such variable or no
 * debug information (err says which); -1 when the path does not fit the
 * types (err names the step), or the file cannot be read. A missing name
 * member is not an error (has_name false). */
int sym_task_place_find(const char *file, const char *path, const char *name_member, sym_task_place *out,
                        tally_error *err);

#endif
