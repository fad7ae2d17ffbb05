/* CSV output shared by the exports and the command line's tables. */
#ifndef TALLY_REPORT_CSV_H
#define TALLY_REPORT_CSV_H

#include <stdio.h>

/* One CSV field (RFC 4180): quoted, with quotes doubled, when it holds a
 * comma, a quote or a line break; nothing for NULL. */
void report_csv_field(FILE *f, const char *text);

#endif
