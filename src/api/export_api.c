/*
 * include/tally/export.h: profile and run exports. (Being moved here from
 * src/cli; until then every call fails with "not implemented yet".)
 */
#include "api_internal.h"
#include "tally/export.h"

#define NOT_YET(err) (api_error(err, "%s: not implemented yet", __func__), -1)

int tally_profile_format_lookup(const char *name) { (void)name; return -1; }
void tally_run_info_from(tally_sim *sim, tally_stop stop, int exit_status, tally_run_info *info) {
  (void)sim; (void)stop; (void)exit_status; *info = (tally_run_info){0};
}
int tally_export_profile(const tally_profile *p, const tally_run_info *run, tally_profile_format fmt, FILE *f,
                         tally_error *err) {
  (void)p; (void)run; (void)fmt; (void)f; return NOT_YET(err);
}
int tally_export_profile_mem(const tally_profile *p, const tally_run_info *run, tally_profile_format fmt, char **buf,
                             size_t *len, tally_error *err) {
  (void)p; (void)run; (void)fmt; (void)buf; (void)len; return NOT_YET(err);
}
int tally_export_run(tally_store *s, const char *db, uint64_t id, tally_run_format fmt, unsigned parts, FILE *f,
                     tally_error *err) {
  (void)s; (void)db; (void)id; (void)fmt; (void)parts; (void)f; return NOT_YET(err);
}
int tally_export_run_mem(tally_store *s, const char *db, uint64_t id, tally_run_format fmt, unsigned parts, char **buf,
                         size_t *len, tally_error *err) {
  (void)s; (void)db; (void)id; (void)fmt; (void)parts; (void)buf; (void)len; return NOT_YET(err);
}
int tally_export_runs(tally_store *s, const char *db, tally_run_format fmt, FILE *f, tally_error *err) {
  (void)s; (void)db; (void)fmt; (void)f; return NOT_YET(err);
}
void tally_json_string(FILE *f, const char *s) { (void)f; (void)s; }
