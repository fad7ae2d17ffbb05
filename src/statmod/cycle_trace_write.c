/*
 * The records of the per-cycle trace (cycle_trace_write.h); the format is
 * docs/cycle-trace.md's.
 */
#include <errno.h>
#include <string.h>

#include "cycle_trace_write.h"

_Static_assert(SIG_COUNT <= 64, "a cycle's signal mask is 64 bits");

#define TAG_PC 0x01      /* u32 pc: the cycles that follow belong to it */
#define TAG_ONES 0x03    /* varint repeat, varint mask: cycles whose signals in mask are 1 */
#define TAG_VALUES 0x04  /* varint repeat, varint mask, a varint value per bit: the same with values */
#define TAG_CONFIG 0x05  /* varint cycle, u8 kind, its fields: a configuration change from that cycle on */
#define TAG_END 0x0F     /* u64 the cycle after the last one traced */
#define TRACE_VERSION 2  /* 2: CONFIG records (a version-1 trace is one without them) */

static void put(ctrace_writer *w, const void *p, size_t n) {
  if (!w->write_failed && fwrite(p, 1, n, w->out) != n) {
    w->write_failed = true;
    w->write_errno = errno ? errno : EIO;
  }
}

static void put_le(ctrace_writer *w, uint64_t v, int bytes) {
  uint8_t b[8];
  for (int i = 0; i < bytes; i++)
    b[i] = (uint8_t)(v >> (8 * i));
  put(w, b, (size_t)bytes);
}

/* unsigned LEB128 */
static void put_varint(ctrace_writer *w, uint64_t v) {
  uint8_t b[10];
  size_t n = 0;
  do {
    b[n++] = (uint8_t)((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
    v >>= 7;
  } while (v);
  put(w, b, n);
}

int ctrace_begin(ctrace_writer *w, FILE *out, uint64_t first) {
  memset(w, 0, sizeof *w);
  w->out = out;
  w->first = first;
  put(w, "TALCYC1\n", 8);
  put_le(w, TRACE_VERSION, 2);
  put_le(w, SIG_COUNT, 2);
  put_le(w, 0, 4);
  put_le(w, first, 8);
  for (int s = 0; s < SIG_COUNT; s++) {
    size_t n = strlen(signal_catalog[s].name);
    put_le(w, n, 1);
    put(w, signal_catalog[s].name, n);
  }
  return w->write_failed ? -1 : 0;
}

static void flush_record(ctrace_writer *w) {
  if (!w->rep)
    return;
  if (!w->pc_written || w->pc != w->pc_out) {
    put_le(w, TAG_PC, 1);
    put_le(w, w->pc, 4);
    w->pc_out = w->pc;
    w->pc_written = true;
  }
  uint64_t mask = 0;
  bool ones = true;
  for (int s = 0; s < SIG_COUNT; s++) {
    if (w->vec[s])
      mask |= 1ull << s;
    ones &= w->vec[s] <= 1;
  }
  put_le(w, ones ? TAG_ONES : TAG_VALUES, 1);
  put_varint(w, w->rep);
  put_varint(w, mask);
  if (!ones)
    for (int s = 0; s < SIG_COUNT; s++)
      if (w->vec[s])
        put_varint(w, w->vec[s]);
  w->cycles += w->rep;
  w->rep = 0;
}

void ctrace_emit(ctrace_writer *w, uint32_t pc, const uint64_t *v, uint64_t rep) {
  if (w->rep && (w->pc != pc || memcmp(w->vec, v, sizeof w->vec) != 0))
    flush_record(w);
  if (!w->rep) {
    w->pc = pc;
    memcpy(w->vec, v, sizeof w->vec);
  }
  w->rep += rep;
}

void ctrace_config(ctrace_writer *w, uint64_t cycle, const statmod_change *c) {
  flush_record(w);
  put_le(w, TAG_CONFIG, 1);
  put_varint(w, cycle);
  put_le(w, (uint64_t)c->kind, 1);
  switch (c->kind) {
  case STATMOD_CHANGE_PERIOD: put_varint(w, c->period); break;
  case STATMOD_CHANGE_ARR:
    put_varint(w, c->index);
    put_le(w, c->arr.lo, 4);
    put_le(w, c->arr.hi, 4);
    break;
  case STATMOD_CHANGE_COUNTER:
    put_varint(w, c->index);
    put_varint(w, c->cfg.signal);
    put_varint(w, c->cfg.arr);
    put_le(w, c->cfg.enabled, 1);
    break;
  case STATMOD_CHANGE_START:
  case STATMOD_CHANGE_STOP: break;
  }
}

int ctrace_finish(ctrace_writer *w) {
  flush_record(w);
  put_le(w, TAG_END, 1);
  put_le(w, w->first + w->cycles, 8);
  if (!w->write_failed && fflush(w->out) != 0) {
    w->write_failed = true;
    w->write_errno = errno;
  }
  return w->write_failed ? -1 : 0;
}
