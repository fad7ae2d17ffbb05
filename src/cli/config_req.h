/*
 * tally config's settings (cmd_config.c), and the naming of their address
 * ranges by function (config_names.c): shared by the two.
 */
#ifndef TALLY_CLI_CONFIG_REQ_H
#define TALLY_CLI_CONFIG_REQ_H

#include <stdbool.h>
#include <stdint.h>

#include "tally/control.h"

/* One setting as given, sent in the paper's order (timer, ARRs, counters,
 * then start or stop) whatever the order of the options. */
enum { REQ_TIMER, REQ_ARR, REQ_TASK, REQ_COUNTER, REQ_START, REQ_STOP };
typedef struct request {
  int type;
  unsigned index, arr;
  int signal;
  bool enabled;
  uint32_t lo, hi;
  uint64_t period;
  char name[TALLY_CONTROL_MAX_NAME + 1];
  bool named;
  /* Not yet resolved (config_names.c): an ARR given by function name
   * (`func`), or a counter whose range is a function or 0xLO-0xHI and
   * needs an ARR (`needs_arr`: `func` names it, or lo/hi hold it). */
  char func[TALLY_CONTROL_MAX_NAME + 1];
  bool needs_arr;
  const char *option;       /* the option's text, for messages */
  /* a task counter: the task's name and its task register (1..16);
   * REQ_TASK: register `index` names `task` */
  char task[64];
  unsigned task_reg;
} request;

/* Resolves the function names of reqs[0..*nreq) through the program's
 * symbols (program: an ELF, or NULL; map: a GNU ld map file, or NULL),
 * and gives every counter that needs one an ARR: the ARR already holding
 * its range, else the lowest one no --arr names (a new ARR request is
 * added, room for `cap` in all). Returns 0, or an exit status after
 * saying why on stderr. */
int config_resolve(request *reqs, int *nreq, int cap, const char *program, const char *map);

#endif
