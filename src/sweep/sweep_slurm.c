/*
 * A sweep on a Slurm cluster: a job array whose task i runs one slice of
 * the points into its own file (DIR/task-i.db: no SQLite file shared over
 * a network filesystem), and a merge job, started when every task ended
 * well, that copies them into the one sweep file. Each task is `tally
 * sweep SPEC --slice ...` run in the submitting directory, so a point is
 * the same simulation (same argv) as in a local run.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sweep_int.h"

/* s in single quotes for sh: a ' becomes '\'' */
static void quote(FILE *f, const char *s) {
  fputc('\'', f);
  for (; *s; s++)
    *s == '\'' ? fputs("'\\''", f) : fputc(*s, f);
  fputc('\'', f);
}

static int absolute(const char *path, char *out, size_t size) {
  char cwd[PATH_MAX];
  if (path[0] == '/')
    return snprintf(out, size, "%s", path) < (int)size ? 0 : -1;
  if (!getcwd(cwd, sizeof cwd))
    return -1;
  return snprintf(out, size, "%s/%s", cwd, path) < (int)size ? 0 : -1;
}

static int script(const char *path, const char *tally, const char *spec, const char *body_db, const char *dir,
                  size_t per, unsigned tasks, int merge) {
  char cwd[PATH_MAX];
  FILE *f = fopen(path, "w");
  if (!f || !getcwd(cwd, sizeof cwd)) {
    if (f)
      fclose(f);
    return -1;
  }
  fputs("#!/bin/sh\n# written by tally sweep --slurm\ncd ", f);
  quote(f, cwd);
  fputs(" || exit 66\nexec ", f);
  quote(f, tally);
  fputs(" sweep ", f);
  quote(f, spec);
  if (merge) {
    fputs(" --no-run -q --db ", f);
    quote(f, body_db);
    for (unsigned i = 0; i < tasks; i++) {
      char t[PATH_MAX + 32];
      snprintf(t, sizeof t, "%s/task-%u.db", dir, i);
      fputs(" --merge ", f);
      quote(f, t);
    }
    fputc('\n', f);
  } else {
    fprintf(f, " -q -j \"${SLURM_CPUS_PER_TASK:-1}\" --slice \"$((SLURM_ARRAY_TASK_ID * %zu)):%zu\" --db ", per, per);
    quote(f, dir);
    fputs("/task-\"$SLURM_ARRAY_TASK_ID\".db\n", f);
  }
  int rc = fclose(f);
  return rc == 0 ? chmod(path, 0755) : -1;
}

/* Runs an sbatch command line; the job id it prints (--parsable). */
static int sbatch(const char *cmd, char *id, size_t size, tally_error *err) {
  FILE *p = popen(cmd, "r");
  if (!p)
    return sw_err(err, TALLY_E_INTERNAL, "cannot run sbatch: %s", strerror(errno)), -1;
  char line[256] = "";
  if (!fgets(line, sizeof line, p))
    line[0] = 0;
  int st = pclose(p);
  line[strcspn(line, ";\r\n")] = 0;
  if (st != 0 || !line[0])
    return sw_err(err, TALLY_E_NOANSWER, "sbatch failed (exit status %d): %s", st, cmd), -1;
  snprintf(id, size, "%s", line);
  return 0;
}

int tally_sweep_slurm_submit(const tally_sweep *s, const char *tally, const char *spec, const char *db,
                             unsigned tasks, const char *dir, tally_error *err) {
  char aspec[PATH_MAX], adb[PATH_MAX], adir[PATH_MAX], a[PATH_MAX + 16], m[PATH_MAX + 16];
  size_t total = tally_sweep_points(s);
  if (sw_check_size(s, err) != 0)
    return -1;
  if (total == 0 || tasks == 0)
    return sw_err(err, TALLY_E_USAGE, "--slurm: no points, or no tasks"), -1;
  if (tasks > total)
    tasks = (unsigned)total;
  size_t per = (total + tasks - 1) / tasks;
  tasks = (unsigned)((total + per - 1) / per);
  if (absolute(spec, aspec, sizeof aspec) || absolute(db, adb, sizeof adb) || absolute(dir, adir, sizeof adir))
    return sw_err(err, TALLY_E_USAGE, "--slurm: path too long"), -1;
  if (mkdir(adir, 0755) != 0 && errno != EEXIST)
    return sw_err(err, TALLY_E_CREATE, "%s: %s", adir, strerror(errno)), -1;
  snprintf(a, sizeof a, "%s/array.sh", adir);
  snprintf(m, sizeof m, "%s/merge.sh", adir);
  if (script(a, tally, aspec, NULL, adir, per, tasks, 0) || script(m, tally, aspec, adb, adir, per, tasks, 1))
    return sw_err(err, TALLY_E_CREATE, "%s: cannot write the job scripts", adir), -1;
  char cmd[4 * PATH_MAX], jarr[64], jmerge[64];
  snprintf(cmd, sizeof cmd, "sbatch --parsable --job-name=tally-sweep --array=0-%u --output='%s/task-%%a.log' '%s'",
           tasks - 1, adir, a);
  if (strchr(adir, '\'') || sbatch(cmd, jarr, sizeof jarr, err) != 0)
    return -1;
  snprintf(cmd, sizeof cmd,
           "sbatch --parsable --job-name=tally-sweep-merge --dependency=afterok:%s --output='%s/merge.log' '%s'", jarr,
           adir, m);
  if (sbatch(cmd, jmerge, sizeof jmerge, err) != 0)
    return -1;
  snprintf(a, sizeof a, "%s/jobs", adir);
  FILE *f = fopen(a, "w");
  if (!f)
    return sw_err(err, TALLY_E_CREATE, "%s: %s", a, strerror(errno)), -1;
  fprintf(f, "%s %s %u %zu\n", jarr, jmerge, tasks, total);
  fclose(f);
  return 0;
}
