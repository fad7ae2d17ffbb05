/* A profile as text for people (profile_text.c; tally_export_profile_text). */
#ifndef TALLY_REPORT_PROFILE_TEXT_H
#define TALLY_REPORT_PROFILE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tally/export.h"

/* 0; 1 when the function to annotate does not exist (err says so; the
 * rest is written). */
int report_profile_text(const tally_sim *sim, const tally_profile *p, const tally_profile_text_opts *o, FILE *out,
                        char *err, size_t errsize);

/* Line `line` (from 1) of the source file at path, without its newline,
 * cut to size - 1 bytes: 1; 0 when path is not a readable regular file or
 * has no such line (source_text.c). */
int report_source_line(const char *path, uint32_t line, char *buf, size_t size);

#endif
