/*
 * libtally: source lines of a program, for front ends that show where code
 * comes from (tally serve's function table and annotated disassembly).
 *
 *   tally_error err;
 *   tally_line_table *lt = tally_line_table_read("aes.elf", &err);
 *   const char *file; uint32_t line;
 *   if (lt && tally_line_at(lt, pc, &file, &line))
 *     printf("%s:%u\n", file, line);
 *   tally_line_table_free(lt);
 *
 * The table is read from the ELF's DWARF .debug_line, independently of any
 * simulation (the same reader tally_profile_lines_enable uses).
 */
#ifndef TALLY_LINES_H
#define TALLY_LINES_H

#include <stdint.h>

#include "tally/tally.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tally_line_table tally_line_table;

/* Reads an ELF file's line table. A program without one (no -g, stripped)
 * gives an empty table, not an error; NULL with err when the file cannot
 * be read or its DWARF is damaged. */
tally_line_table *tally_line_table_read(const char *elf_path, tally_error *err);
void tally_line_table_free(tally_line_table *lt);

/* Rows in the table (0: no line information). */
unsigned long tally_line_table_rows(const tally_line_table *lt);

/* The source of the instruction at pc: 1 with *file (as addr2line prints
 * it; lives as long as the table) and *line, or 0 when pc has no line. */
int tally_line_at(const tally_line_table *lt, uint32_t pc, const char **file, uint32_t *line);

/* The file of the first code in [lo, hi) that has a line (a function's
 * source file), or NULL. */
const char *tally_line_file_in(const tally_line_table *lt, uint32_t lo, uint32_t hi);

#ifdef __cplusplus
}
#endif

#endif
