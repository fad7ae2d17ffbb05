/* tally run --perfetto FILE: the run's timeline for Perfetto (run_perfetto.c). */
#ifndef TALLY_CLI_RUN_PERFETTO_H
#define TALLY_CLI_RUN_PERFETTO_H

#include <stdint.h>

#include "tally/run.h"
#include "tally/tally.h"

#define PERFETTO_CALLS_DEFAULT 1000000u   /* calls kept, unless --perfetto-calls says otherwise */

typedef struct perfetto_run perfetto_run;

/* Before the run, with the profile on (tally_profile_enable): its
 * timeline on, FILE created, the module's intervals (m, may be NULL)
 * written as they come. NULL after saying why; *status is then the exit
 * status (73: FILE cannot be created, 70: memory). */
perfetto_run *perfetto_start(tally_sim *sim, const char *path, uint64_t max_calls, tally_measure *m,
                             const char *program, int *status);
/* After the run (and the module's last interval): the call slices, the
 * end of the file. 0, or an exit status (70) after saying why. Frees r. */
int perfetto_finish(perfetto_run *r);

#endif
