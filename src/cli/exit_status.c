/*
 * The exit status of tally run and tally profile when the program ended by
 * itself: its own code, which a process can only pass on as 8 bits.
 *
 * A code whose low byte is 0 but which is not 0 (riscv-tests report the
 * failing test N through HTIF as tohost = N << 1 | 1: test 256 gives code
 * 256) must not become status 0, so it becomes 1. HTIF codes are failures
 * by convention, so what the program reported is said on stderr.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_exit_status(const tally_sim *sim, const char *cmd) {
  int code = tally_exit_code(sim);
  int status = code & 0xff;
  if (code != 0 && status == 0)
    status = 1;
  const char *detail = tally_stop_detail(sim);
  bool htif = detail && strncmp(detail, "HTIF tohost", 11) == 0; /* not the exit syscall */
  if (code != 0 && htif)
    fprintf(stderr, "tally %s: the program reported failure through HTIF tohost: code %d (riscv-tests: test %d "
                    "failed); exit status %d\n", cmd, code, code, status);
  else if (status != code)
    fprintf(stderr, "tally %s: the program exited with code %d, which does not fit in an exit status; exit status %d\n",
            cmd, code, status);
  return status;
}
