/*
 * include/tally/run.h: a measured run. (Being moved here from src/cli;
 * until then every call fails with "not implemented yet".)
 */
#include <stdlib.h>

#include "api_internal.h"
#include "tally/run.h"

#define NOT_YET(err) (api_error(err, "%s: not implemented yet", __func__), -1)

void tally_measure_params_default(tally_measure_params *p) {
  *p = (tally_measure_params){.counters = 16, .width = 32, .arrs = 16};
}
int tally_event_parse(const char *spec, tally_event *ev, tally_error *err) { (void)spec; (void)ev; return NOT_YET(err); }
tally_measure *tally_measure_new(tally_sim *sim, const tally_measure_params *p, tally_error *err) {
  (void)sim; (void)p; api_error(err, "%s: not implemented yet", __func__); return NULL;
}
void tally_measure_free(tally_measure *m) { (void)m; }
int tally_measure_add(tally_measure *m, const char *spec, tally_error *err) { (void)m; (void)spec; return NOT_YET(err); }
int tally_measure_add_event(tally_measure *m, const tally_event *ev, tally_error *err) { (void)m; (void)ev; return NOT_YET(err); }
int tally_measure_store(tally_measure *m, const char *db, tally_error *err) { (void)m; (void)db; return NOT_YET(err); }
int tally_measure_collector(tally_measure *m, const char *a, tally_error *err) { (void)m; (void)a; return NOT_YET(err); }
int tally_measure_on_interval(tally_measure *m, tally_interval_fn fn, void *ctx, tally_error *err) {
  (void)m; (void)fn; (void)ctx; return NOT_YET(err);
}
int tally_measure_control(tally_measure *m, const char *a, const char *k, tally_error *err) {
  (void)m; (void)a; (void)k; return NOT_YET(err);
}
const char *tally_measure_control_addr(const tally_measure *m) { (void)m; return ""; }
int tally_measure_wait_start(tally_measure *m, const volatile int *c, tally_error *err) { (void)m; (void)c; return NOT_YET(err); }
int tally_measure_start(tally_measure *m, const char *p, const char *c, tally_error *err) {
  (void)m; (void)p; (void)c; return NOT_YET(err);
}
tally_stop tally_measure_run(tally_measure *m, uint64_t n) { (void)m; (void)n; return TALLY_STOP_ERROR; }
void tally_measure_cancel(tally_measure *m) { (void)m; }
void tally_measure_progress(const tally_measure *m, tally_progress *p) { (void)m; *p = (tally_progress){0}; }
int tally_measure_finish(tally_measure *m, const char *why, tally_measure_result *res, tally_error *err) {
  (void)m; (void)why; *res = (tally_measure_result){0}; return NOT_YET(err);
}
uint32_t tally_measure_events(const tally_measure *m) { (void)m; return 0; }
const tally_event_info *tally_measure_event(const tally_measure *m, uint32_t i) { (void)m; (void)i; return NULL; }
const tally_measure_params *tally_measure_params_of(const tally_measure *m) { (void)m; return NULL; }
uint64_t tally_measure_run_id(const tally_measure *m) { (void)m; return 0; }
