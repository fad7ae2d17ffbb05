/* tally report RUN --perfetto FILE (report_perfetto.c). */
#ifndef TALLY_CLI_REPORT_PERFETTO_H
#define TALLY_CLI_REPORT_PERFETTO_H

#include <stdint.h>

#include "tally/store.h"

/* Writes the run's intervals to path: 0, 2 when the run is not whole
 * (what is stored is written), or an exit status after saying why. */
int report_perfetto(tally_store *s, uint64_t run_id, const char *path);

#endif
