/*
 * Removing a run (store_read.h: store_delete_run): its row, counters,
 * intervals and totals in one transaction, so that a failure leaves the run
 * whole rather than half gone.
 */
#include <sqlite3.h>
#include <stdio.h>

#include "store_internal.h"
#include "store_read.h"

static int delete_from(store *s, const char *table, uint64_t run_id) {
  char sql[96];
  snprintf(sql, sizeof sql, "DELETE FROM %s WHERE run_id = ?1", table);
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
    return store_fail_sql(s, "prepare a delete");
  sqlite3_bind_int64(st, 1, (sqlite3_int64)run_id);
  int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : store_fail_sql(s, "delete a run");
  sqlite3_finalize(st);
  return rc;
}

int store_delete_run(store *s, uint64_t run_id) {
  store_run_view v = {0};
  int found = store_get_run(s, run_id, &v);
  store_run_view_clear(&v);
  if (found != 1)
    return found;
  /* pending batched writes first: the delete must see (and remove) them */
  if (store_flush(s) != 0)
    return -1;
  if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    return store_fail_sql(s, "begin a delete");
  static const char *const tables[] = {"intervals", "counters", "totals", "runs"};
  for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
    if (delete_from(s, tables[i], run_id) != 0) {
      sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
      return -1;
    }
  }
  if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
    store_fail_sql(s, "commit a delete");
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
  }
  return 1;
}
