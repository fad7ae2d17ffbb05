/* --irq, --uart-rx and the latency report of -v (irq_opts.h). */
#include "irq_opts.h"

#include <stdlib.h>

#include "cli.h"
#include "tally/irq.h"
#include "tally/tally.h"

bool irq_opts_add(irq_opts *o, const char *spec, const char *cmd) {
  if (o->nirq == IRQ_OPTS_MAX) {
    fprintf(stderr, "tally %s: --irq %s: too many --irq options (at most %d)\n", cmd, spec, IRQ_OPTS_MAX);
    return false;
  }
  o->irq[o->nirq++] = spec;
  return true;
}

int irq_opts_apply(const irq_opts *o, struct tally_sim *sim, const char *cmd) {
  tally_error err;
  for (int i = 0; i < o->nirq; i++)
    if (tally_irq_add(sim, o->irq[i], &err) != 0) {
      fprintf(stderr, "tally %s: %s\n", cmd, err.msg);
      return EXIT_USAGE;
    }
  if (o->uart_rx && tally_uart_rx(sim, o->uart_rx, &err) != 0) {
    fprintf(stderr, "tally %s: %s\n", cmd, err.msg);
    return EXIT_NOINPUT;
  }
  return 0;
}

/* The latencies per task that ran when the line rose (tally_irq_tasks). */
static void irq_report_tasks(struct tally_sim *sim, const tally_profile *p, FILE *f) {
  const tally_task_profile *tp;
  size_t ntasks = p ? tally_profile_tasks(p, &tp) : 0;
  size_t n = ntasks ? tally_irq_tasks(sim, p, NULL, 0) : 0;
  tally_irq_task *v = n ? calloc(n, sizeof *v) : NULL;
  if (!v)
    return;
  n = tally_irq_tasks(sim, p, v, n);
  char a[32], b[32], c[32], d[32], e[32];
  for (size_t i = 0; i < n; i++) {
    const tally_irq_task *t = &v[i];
    fprintf(f, "tally: irq %u while %s ran: %s interrupts taken, latency min %s / median %s / max %s cycles (jitter %s)\n",
            t->source, t->task >= 0 && (size_t)t->task < ntasks ? tp[t->task].name : "[not known: the task log was full]",
            tally_format_count(t->taken, a, sizeof a), tally_format_count(t->lat_min, b, sizeof b),
            tally_format_count(t->lat_median, c, sizeof c), tally_format_count(t->lat_max, d, sizeof d),
            tally_format_count(t->lat_max - t->lat_min, e, sizeof e));
  }
  free(v);
}

void irq_report(struct tally_sim *sim, const tally_profile *p, FILE *f) {
  tally_irq_source src[96];
  size_t n = tally_irq_sources(sim, src, sizeof src / sizeof src[0]);
  char a[32], b[32], c[32], d[32];
  for (size_t i = 0; i < n && i < sizeof src / sizeof src[0]; i++) {
    const tally_irq_source *s = &src[i];
    fprintf(f, "tally: irq %u: %s rises, %s interrupts taken", s->source, tally_format_count(s->rises, a, sizeof a),
            tally_format_count(s->taken, b, sizeof b));
    if (s->taken)
      fprintf(f, ", latency min %s / median %s / max %s cycles (jitter %s)", tally_format_count(s->lat_min, a, sizeof a),
              tally_format_count(s->lat_median, b, sizeof b), tally_format_count(s->lat_max, c, sizeof c),
              tally_format_count(s->lat_max - s->lat_min, d, sizeof d));
    if (s->merged)
      fprintf(f, ", %s merged into one already pending", tally_format_count(s->merged, a, sizeof a));
    if (s->polled)
      fprintf(f, ", %s claimed by polling", tally_format_count(s->polled, a, sizeof a));
    fputc('\n', f);
    if (s->waiting)
      fprintf(f, "tally: irq %u: a request from cycle %s is still pending, no interrupt taken: %s\n", s->source,
              tally_format_count(s->waiting_since, a, sizeof a), s->why);
  }
  irq_report_tasks(sim, p, f);
}
