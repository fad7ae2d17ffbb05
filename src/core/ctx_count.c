/* Per calling context counts of the cached blocks' executions: the
 * records, their table, adding them up (see ctx_count.h). */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ctx_count.h"

#define CHUNK_RECORDS 1024
#define LINE 64

/* A record padded to a cache line of its own: the translated code's
 * counts (execs, entry_hits) and the key the lookups compare (row) are
 * then one line, where a 56-byte record straddles two most of the time. */
typedef union line_record {
  ctx_count c;
  char pad[LINE];
} line_record;
_Static_assert(sizeof(line_record) == LINE, "a record is one cache line");

struct ctx_count_chunk {
  line_record v[CHUNK_RECORDS]; /* first: the chunk is line-aligned */
  ctx_count_chunk *next;
  uint32_t used;
};

static bool grow(core_ctx_counts *t);
static ctx_count_chunk *new_chunk(core_ctx_counts *t);

/* With its slots and first chunk, which it keeps: once the table is
 * added up and emptied, a record can always be made. */
core_ctx_counts *core_ctx_counts_new(void) {
  core_ctx_counts *t = calloc(1, sizeof *t);
  if (!t)
    return NULL;
  t->max = CTX_COUNT_MAX;
  t->tabs = malloc(CTX_TAB_MAX * sizeof *t->tabs);
  void *z = mmap(NULL, CTX_TAB_IDS * sizeof(ctx_count *), PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  t->tab_zero = z == MAP_FAILED ? NULL : z;
  if (!t->tabs || !t->tab_zero || !grow(t) || !new_chunk(t)) {
    core_ctx_counts_free(t);
    return NULL;
  }
  return t;
}

static void free_chunks(core_ctx_counts *t) {
  while (t->chunks) {
    ctx_count_chunk *next = t->chunks->next;
    free(t->chunks);
    t->chunks = next;
  }
}

/* Unmaps the contexts' tables; with `owned`, their contexts (alive) have
 * none again. */
static void free_tabs(core_ctx_counts *t, bool owned) {
  for (uint32_t i = 0; i < t->ntabs; i++) {
    munmap(t->tabs[i].tab, CTX_TAB_IDS * sizeof(ctx_count *));
    if (owned)
      *t->tabs[i].own = t->tab_zero; /* none, as from prof_attach on (prof_node.ctx_tab) */
  }
  t->ntabs = 0;
}

void core_ctx_counts_free(core_ctx_counts *t) {
  if (!t)
    return;
  if (t->tabs)
    free_tabs(t, false);
  free(t->tabs);
  if (t->tab_zero)
    munmap(t->tab_zero, CTX_TAB_IDS * sizeof(ctx_count *));
  free_chunks(t);
  free(t->slots);
  free(t->homes);
  free(t);
}

/* The key's hash, never 0 (an empty slot's) */
static uint64_t hash_of(const int64_t *row, const block_timing *bt) {
  return (ctx_hash_row(row) ^ ctx_hash_bt(bt)) | 1u;
}

static uint32_t slot_of(const core_ctx_counts *t, uint64_t h) {
  return (uint32_t)(h >> 32) & t->mask;
}

/* Doubles the table (or makes its first); false when out of memory. One
 * slot more than the mask reaches, always empty: the translated entry
 * probes a key's slot and the one after it without wrapping round
 * (emit_ctx_probe). */
static bool grow(core_ctx_counts *t) {
  uint32_t n = t->slots ? 2 * (t->mask + 1) : 4096;
  ctx_slot *old = t->slots, *v = calloc(n + 1, sizeof *v);
  if (!v)
    return false;
  uint32_t old_n = old ? t->mask + 1 : 0;
  t->slots = v;
  t->mask = n - 1;
  for (uint32_t i = 0; i < old_n; i++) {
    if (!old[i].r)
      continue;
    uint32_t s = slot_of(t, old[i].hash);
    while (t->slots[s].r)
      s = (s + 1) & t->mask;
    t->slots[s] = old[i];
  }
  free(old);
  return true;
}

static ctx_count_chunk *new_chunk(core_ctx_counts *t) {
  ctx_count_chunk *c = aligned_alloc(LINE, (sizeof *c + LINE - 1) / LINE * LINE); /* a multiple, as C11 asks */
  if (!c)
    return NULL;
  c->next = t->chunks;
  c->used = 0;
  t->chunks = c;
  return c;
}

/* A new record of a chunk, NULL when out of memory. */
static ctx_count *chunk_record(core_ctx_counts *t) {
  if (t->chunks->used == CHUNK_RECORDS && !new_chunk(t))
    return NULL;
  return &t->chunks->v[t->chunks->used++].c;
}

/* A new record, NULL when out of memory: the block's own (home), its
 * record till now moved to a chunk (its slot and cache ways following it),
 * so that home holds the context the block was last new in: a block run
 * first in one context (a warm-up) and then in another has the second's
 * record on its line. */
static ctx_count *new_record(core_ctx_counts *t, int64_t *row, block_timing *bt) {
  if (bt->home.row) {
    /* home's slot, found within one round of the table (a home in use is
     * always in it; were it not, home stays and the new record goes to a
     * chunk, which no count depends on) */
    uint32_t s = slot_of(t, hash_of(bt->home.row, bt)), n = 0;
    while (t->slots[s].r != &bt->home && n++ <= t->mask)
      s = (s + 1) & t->mask;
    ctx_count *r = t->slots[s].r == &bt->home ? chunk_record(t) : NULL;
    if (!r) {
      r = chunk_record(t);
      if (r)
        *r = (ctx_count){.row = row, .bt = bt};
      return r;
    }
    *r = bt->home;
    t->slots[s].r = r;
    ctx_count **tab = ((ctx_count ***)bt->home.row)[-1]; /* its context's table (prof_node.ctx_tab) */
    if (tab && bt->ctx_id && tab[bt->ctx_id - 1] == &bt->home)
      tab[bt->ctx_id - 1] = r;
    for (int w = 0; w < TIMING_CTX_WAYS; w++)
      if (bt->ccw[w] == &bt->home)
        bt->ccw[w] = r;
    if (bt->cc == &bt->home)
      bt->cc = r;
    bt->home = (ctx_count){.row = row, .bt = bt};
    return &bt->home;
  }
  if (t->nhomes == t->homes_cap) {
    uint32_t cap = t->homes_cap ? 2 * t->homes_cap : 1024;
    ctx_count **v = realloc(t->homes, cap * sizeof *v);
    if (v) {
      t->homes = v;
      t->homes_cap = cap;
    }
  }
  if (t->nhomes < t->homes_cap) {
    bt->home = (ctx_count){.row = row, .bt = bt};
    t->homes[t->nhomes++] = &bt->home;
    return &bt->home;
  }
  ctx_count *r = chunk_record(t);
  if (r)
    *r = (ctx_count){.row = row, .bt = bt};
  return r;
}

/* The record of (row, bt), made when missing; NULL when the table is full
 * or memory is out. */
static ctx_count *lookup(core_ctx_counts *t, int64_t *row, block_timing *bt) {
  uint64_t h = hash_of(row, bt);
  uint32_t s = slot_of(t, h);
  for (; t->slots[s].r; s = (s + 1) & t->mask)
    if (t->slots[s].hash == h && t->slots[s].r->row == row && t->slots[s].r->bt == bt)
      return t->slots[s].r;
  if (t->used >= t->max)
    return NULL;
  if (2 * (t->used + 1) > t->mask + 1) { /* at most half full */
    if (!grow(t))
      return NULL;
    for (s = slot_of(t, h); t->slots[s].r; s = (s + 1) & t->mask)
      ;
  }
  ctx_count *r = new_record(t, row, bt);
  if (r) {
    t->slots[s] = (ctx_slot){h, r};
    t->used++;
  }
  return r;
}

ctx_count *core_ctx_count_find(core_cpu *cpu, core_block *b) {
  core_ctx_counts *t = cpu->ctx_counts;
  block_timing *bt = b->timing;
  int64_t *row = cpu->tm->ctx_row;
  if (!b->cached) { /* a stepped block: core_fold_stepped gives its counts to the context */
    bt->cc = &t->step;
    return bt->cc;
  }
  /* the block's cache of its records by context: a block run by turns
   * from several callers, or at several depths of a recursion, finds its
   * record without the table; the translated entry tries it first */
  ctx_count **w = &bt->ccw[ctx_way(row)];
  ctx_count *r = *w;
  if (r->row != row) {
    r = lookup(t, row, bt);
    if (!r) { /* full or out of memory: add everything up and start again */
      core_ctx_counts_fold(cpu, true);
      core_ctx_counts_drop(cpu, true);
      r = lookup(t, row, bt); /* an empty table with a chunk: never NULL */
    }
    *w = r;
  }
  bt->cc = r;
  if (bt->ctx_id && row) { /* the context's table, made at its first record (ctx_count.h) */
    ctx_count ***own = (ctx_count ***)row - 1; /* prof_node.ctx_tab */
    if ((!*own || *own == t->tab_zero) && t->ntabs < CTX_TAB_MAX) {
      void *m = mmap(NULL, CTX_TAB_IDS * sizeof(ctx_count *), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                     -1, 0);
      if (m != MAP_FAILED) {
        *own = m;
        t->tabs[t->ntabs++] = (ctx_tab_made){own, m};
        cpu->tm->ctx_tab = m;
      }
    }
    if (*own && *own != t->tab_zero)
      (*own)[bt->ctx_id - 1] = r;
  }
  return r;
}

/* Moves r's counts into its block's, and clears them. */
static void move_counts(ctx_count *r, block_timing *bt) {
  bt->execs += r->execs;
  bt->outcomes[0] += r->outcomes[0];
  bt->outcomes[1] += r->outcomes[1];
  bt->entry_hits += r->entry_hits;
  bt->entry_load_use += r->entry_load_use;
  r->execs = r->outcomes[0] = r->outcomes[1] = r->entry_hits = r->entry_load_use = 0;
}

static void fold_record(const timing *tm, ctx_count *r, bool to_rows) {
  bool events = (r->outcomes[0] | r->outcomes[1] | r->entry_hits | r->entry_load_use) != 0;
  if (!r->execs && !events)
    return;
  if (to_rows && r->execs)
    timing_add_block(r->bt, (int64_t)r->execs, r->row);
  if (to_rows && events)
    timing_add_event_counts(tm, r->bt, r->outcomes[0], r->outcomes[1], r->entry_hits, r->entry_load_use, r->row);
  move_counts(r, r->bt);
}

void core_ctx_counts_fold(core_cpu *cpu, bool to_rows) {
  const timing *tm = cpu->tm;
  core_ctx_counts *t = cpu->ctx_counts;
  for (uint32_t i = 0; i < t->nhomes; i++)
    fold_record(tm, t->homes[i], to_rows);
  for (ctx_count_chunk *c = t->chunks; c; c = c->next)
    for (uint32_t i = 0; i < c->used; i++)
      fold_record(tm, &c->v[i].c, to_rows);
}

void core_ctx_counts_take_step(core_cpu *cpu, block_timing *bt) {
  move_counts(&cpu->ctx_counts->step, bt);
}

static void unlink_block(block_timing *bt, ctx_count *none) {
  bt->cc = none;
  bt->home = (ctx_count){0};
  for (int w = 0; w < TIMING_CTX_WAYS; w++)
    bt->ccw[w] = none;
}

/* Points every cached block's records at none. */
static void unlink_blocks(core_cpu *cpu) {
  ctx_count *none = &cpu->ctx_counts->none;
  if (!cpu->cached_lost) {
    for (uint32_t i = 0; i < cpu->ncached; i++)
      if (cpu->cached[i]->timing)
        unlink_block(cpu->cached[i]->timing, none);
    return;
  }
  for (uint32_t h = 0; h <= cpu->hash_mask; h++)
    for (core_block *b = cpu->hash[h]; b; b = b->hash_next)
      if (b->timing)
        unlink_block(b->timing, none);
}

void core_ctx_counts_drop(core_cpu *cpu, bool blocks_stay) {
  core_ctx_counts *t = cpu->ctx_counts;
  if (!t->used)
    return;
  if (blocks_stay)
    unlink_blocks(cpu);
  free_tabs(t, cpu->tm && cpu->tm->prof); /* the contexts are gone with their profile (tally_sim_free) */
  if (cpu->tm)
    cpu->tm->ctx_tab = t->tab_zero;
  ctx_count_chunk *keep = t->chunks; /* kept for the next records */
  t->chunks = keep->next;
  free_chunks(t);
  keep->next = NULL;
  keep->used = 0;
  t->chunks = keep;
  memset(t->slots, 0, ((size_t)t->mask + 1) * sizeof *t->slots);
  t->used = 0;
  t->nhomes = 0; /* each cleared with its block above, or going with it */
}
