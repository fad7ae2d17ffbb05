/*
 * The instruction trace's binary form, version 1, and its reader
 * (docs/tally-trace.md, "The binary format"): the records of the text
 * form, about a tenth of its size. All numbers little-endian; "varint" is
 * unsigned LEB128 (7 bits a byte, low first, high bit: more follow).
 *
 *   header   "TALLYTRC", u32 version (1), u32 nsig, nsig x (u8 len, name)
 *   'D'      u32 pc, u32 insn, u8 len, len bytes "symbol+0xoff: disassembly":
 *            the text of the instruction at pc, until another 'D' for pc
 *            (written before an instruction's first record, and again when
 *            the bits at pc changed)
 *   'I'      u8 flags, [u32 pc unless SEQ], [varint cycle if CYCLE],
 *            varint taken, [u8 n, n x (u8 reg, u32 value) if REGS],
 *            [u8 kind, u32 addr, u8 len if MEM],
 *            [u8 n, n x (varint signal id, varint cycles) if SIGS]
 *            SEQ: pc is the last record's pc + its length (2 or 4 by its
 *            bits); CYCLE: cycle is not the last record's cycle + taken
 *   'E'      varint records: the end (a file without it was cut short)
 *
 * The reader is given untrusted bytes: every length and id is checked, and
 * a file that ends early or holds anything else is refused, with the
 * offset.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tally/trace.h"
#include "trace_impl.h"

#define MAGIC "TALLYTRC"
#define VERSION 1u
enum { F_SEQ = 1, F_CYCLE = 2, F_REGS = 4, F_MEM = 8, F_SIGS = 16 };

/* ---- pc -> definition, for the writer (bits) and the reader (text) ---- */

typedef struct def {
  uint32_t pc, insn;
  bool used;
  char *text;               /* the reader's */
} def;

typedef struct def_map {
  def *slots;
  size_t mask, n;
} def_map;

static size_t hash_pc(uint32_t pc) { return (size_t)((pc >> 1) * 2654435761u); }

static def *find(def_map *m, uint32_t pc) {
  for (size_t i = hash_pc(pc) & m->mask;; i = (i + 1) & m->mask)
    if (!m->slots[i].used || m->slots[i].pc == pc)
      return &m->slots[i];
}

static bool grow(def_map *m) {
  if (m->slots && 2 * (m->n + 1) <= m->mask + 1)
    return true;
  size_t size = m->slots ? 2 * (m->mask + 1) : 1024;
  def *old = m->slots;
  size_t old_size = old ? m->mask + 1 : 0;
  if (!(m->slots = calloc(size, sizeof *m->slots))) {
    m->slots = old;
    return false;
  }
  m->mask = size - 1;
  for (size_t i = 0; i < old_size; i++)
    if (old[i].used)
      *find(m, old[i].pc) = old[i];
  free(old);
  return true;
}

static void map_free(def_map *m) {
  for (size_t i = 0; m->slots && i <= m->mask; i++)
    free(m->slots[i].text);
  free(m->slots);
}

static uint32_t insn_len(uint32_t insn) { return (insn & 3) == 3 ? 4 : 2; }

/* ---------------------------------------------------------------- writer */

struct trace_bin_writer {
  FILE *out;
  def_map defs;
  bool any;
  uint32_t next_pc;         /* the last record's pc + its length */
  uint64_t next_cycle;      /* the last record's cycle + taken */
  uint64_t records;
};

static void put_u32(FILE *f, uint32_t v) {
  unsigned char b[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16), (unsigned char)(v >> 24)};
  fwrite(b, 1, 4, f);
}

static void put_varint(FILE *f, uint64_t v) {
  do {
    unsigned char b = v & 0x7f;
    v >>= 7;
    fputc(b | (v ? 0x80 : 0), f);
  } while (v);
}

trace_bin_writer *trace_bin_open(FILE *out, const char *const *names, int nsig) {
  trace_bin_writer *w = calloc(1, sizeof *w);
  if (!w || !grow(&w->defs)) {
    free(w);
    return NULL;
  }
  w->out = out;
  fwrite(MAGIC, 1, 8, out);
  put_u32(out, VERSION);
  put_u32(out, (uint32_t)nsig);
  for (int i = 0; i < nsig; i++) {
    size_t n = strlen(names[i]);
    n = n > 255 ? 255 : n;
    fputc((int)n, out);
    fwrite(names[i], 1, n, out);
  }
  return w;
}

/* A 'D' record unless pc's text is known with these bits. */
static void define(trace_bin_writer *w, const trace_record *r) {
  def *d = find(&w->defs, r->pc);
  if (d->used && d->insn == r->insn)
    return;
  if (!d->used) {
    if (!grow(&w->defs))
      return; /* out of memory: define it again next time */
    d = find(&w->defs, r->pc);
    w->defs.n++;
  }
  *d = (def){.pc = r->pc, .insn = r->insn, .used = true};
  size_t n = strlen(r->text);
  n = n > 255 ? 255 : n;
  fputc('D', w->out);
  put_u32(w->out, r->pc);
  put_u32(w->out, r->insn);
  fputc((int)n, w->out);
  fwrite(r->text, 1, n, w->out);
}

void trace_bin_record(trace_bin_writer *w, const trace_record *r) {
  define(w, r);
  unsigned flags = (w->any && r->pc == w->next_pc ? F_SEQ : 0) | (w->any && r->cycle == w->next_cycle ? 0 : F_CYCLE) |
                   (r->nregs ? F_REGS : 0) | (r->mem.valid ? F_MEM : 0) | (r->nsigs ? F_SIGS : 0);
  FILE *f = w->out;
  fputc('I', f);
  fputc((int)flags, f);
  if (!(flags & F_SEQ))
    put_u32(f, r->pc);
  if (flags & F_CYCLE)
    put_varint(f, r->cycle);
  put_varint(f, r->taken);
  if (flags & F_REGS) {
    fputc((int)r->nregs, f);
    for (uint32_t i = 0; i < r->nregs; i++) {
      fputc(r->reg[i], f);
      put_u32(f, r->val[i]);
    }
  }
  if (flags & F_MEM) {
    fputc(r->mem.kind, f);
    put_u32(f, r->mem.addr);
    fputc((int)r->mem.len, f);
  }
  if (flags & F_SIGS) {
    fputc((int)r->nsigs, f);
    for (uint32_t i = 0; i < r->nsigs; i++) {
      put_varint(f, r->sig[i]);
      put_varint(f, r->count[i]);
    }
  }
  w->any = true;
  w->next_pc = r->pc + insn_len(r->insn);
  w->next_cycle = r->cycle + r->taken;
  w->records++;
}

void trace_bin_close(trace_bin_writer *w) {
  if (!w)
    return;
  fputc('E', w->out);
  put_varint(w->out, w->records);
  map_free(&w->defs);
  free(w);
}

/* ---------------------------------------------------------------- reader */

typedef struct reader {
  FILE *in;
  long at;                  /* offset of the next byte, for messages */
  bool eof;
  tally_error *err;
  def_map defs;
  char **names;
  uint32_t nsig;
} reader;

static bool fail(reader *r, const char *what) {
  snprintf(r->err->msg, sizeof r->err->msg, "%s at byte %ld", what, r->at);
  r->err->code = TALLY_E_INPUT;
  return false;
}

static bool get_bytes(reader *r, void *buf, size_t n) {
  if (fread(buf, 1, n, r->in) != n)
    return fail(r, "the file ends too soon (cut short?)");
  r->at += (long)n;
  return true;
}

static bool get_u8(reader *r, uint8_t *v) { return get_bytes(r, v, 1); }

static bool get_u32(reader *r, uint32_t *v) {
  unsigned char b[4];
  if (!get_bytes(r, b, 4))
    return false;
  *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  return true;
}

static bool get_varint(reader *r, uint64_t *v) {
  *v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    uint8_t b;
    if (!get_u8(r, &b))
      return false;
    *v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80))
      return shift < 63 || b <= 1 ? true : fail(r, "a number over 64 bits");
  }
  return fail(r, "a number over 64 bits");
}

static bool read_header(reader *r) {
  char magic[8];
  uint32_t version;
  if (!get_bytes(r, magic, 8) || memcmp(magic, MAGIC, 8) != 0)
    return fail(r, "not a tally binary trace (no TALLYTRC)");
  if (!get_u32(r, &version) || version != VERSION)
    return r->err->msg[0] ? false : fail(r, "a binary trace version this tally does not read");
  if (!get_u32(r, &r->nsig) || r->nsig > TRACE_SIG_MAX)
    return r->err->msg[0] ? false : fail(r, "too many signals");
  if (!(r->names = calloc(r->nsig ? r->nsig : 1, sizeof *r->names)))
    return fail(r, "out of memory");
  for (uint32_t i = 0; i < r->nsig; i++) {
    uint8_t n;
    if (!get_u8(r, &n) || !(r->names[i] = calloc(1, (size_t)n + 1)) || !get_bytes(r, r->names[i], n))
      return r->err->msg[0] ? false : fail(r, "out of memory");
  }
  return true;
}

static bool read_def(reader *r) {
  uint32_t pc, insn;
  uint8_t n;
  char text[256];
  if (!get_u32(r, &pc) || !get_u32(r, &insn) || !get_u8(r, &n) || !get_bytes(r, text, n))
    return false;
  text[n] = '\0';
  if (!grow(&r->defs))
    return fail(r, "out of memory");
  def *d = find(&r->defs, pc);
  if (!d->used)
    r->defs.n++;
  free(d->text);
  *d = (def){.pc = pc, .insn = insn, .used = true, .text = strdup(text)};
  return d->text ? true : fail(r, "out of memory");
}

/* An 'I' record into rec; prev: the last one (for SEQ and CYCLE). */
static bool read_insn(reader *r, trace_record *rec, bool any, uint32_t next_pc, uint64_t next_cycle) {
  uint8_t flags, n;
  if (!get_u8(r, &flags))
    return false;
  if (flags & ~(F_SEQ | F_CYCLE | F_REGS | F_MEM | F_SIGS) || ((flags & F_SEQ) && !any) || (!(flags & F_CYCLE) && !any))
    return fail(r, "a record with flags that cannot be");
  rec->pc = next_pc;
  rec->cycle = next_cycle;
  if ((!(flags & F_SEQ) && !get_u32(r, &rec->pc)) || ((flags & F_CYCLE) && !get_varint(r, &rec->cycle)) ||
      !get_varint(r, &rec->taken))
    return false;
  def *d = find(&r->defs, rec->pc);
  if (!d->used)
    return fail(r, "an instruction with no definition before it");
  rec->insn = d->insn;
  snprintf(rec->text, sizeof rec->text, "%s", d->text);
  rec->nregs = rec->nsigs = 0;
  rec->mem.valid = false;
  if (flags & F_REGS) {
    if (!get_u8(r, &n) || n > 31)
      return r->err->msg[0] ? false : fail(r, "more than 31 registers");
    for (rec->nregs = 0; rec->nregs < n; rec->nregs++)
      if (!get_u8(r, &rec->reg[rec->nregs]) || rec->reg[rec->nregs] == 0 || rec->reg[rec->nregs] > 31 ||
          !get_u32(r, &rec->val[rec->nregs]))
        return r->err->msg[0] ? false : fail(r, "a register that is not x1..x31");
  }
  if (flags & F_MEM) {
    uint8_t kind, len;
    if (!get_u8(r, &kind) || !get_u32(r, &rec->mem.addr) || !get_u8(r, &len))
      return false;
    if (kind != 'r' && kind != 'w' && kind != 'a')
      return fail(r, "a memory access that is not r, w or a");
    rec->mem = (mem_access){true, (char)kind, rec->mem.addr, len};
  }
  if (flags & F_SIGS) {
    if (!get_u8(r, &n))
      return false;
    for (rec->nsigs = 0; rec->nsigs < n; rec->nsigs++) {
      uint64_t id;
      if (!get_varint(r, &id) || !get_varint(r, &rec->count[rec->nsigs]))
        return false;
      if (id >= r->nsig)
        return fail(r, "a signal the header does not name");
      rec->sig[rec->nsigs] = (uint16_t)id;
    }
  }
  return true;
}

static bool read_records(reader *r, FILE *out) {
  trace_record *rec = malloc(sizeof *rec);
  if (!rec || !grow(&r->defs)) {
    free(rec);
    return fail(r, "out of memory");
  }
  bool any = false;
  uint32_t next_pc = 0;
  uint64_t next_cycle = 0, records = 0;
  for (;;) {
    uint8_t tag;
    if (!get_u8(r, &tag))
      break;
    if (tag == 'D') {
      if (!read_def(r))
        break;
    } else if (tag == 'I') {
      if (!read_insn(r, rec, any, next_pc, next_cycle))
        break;
      trace_text_line(out, rec, (const char *const *)r->names);
      any = true;
      next_pc = rec->pc + insn_len(rec->insn);
      next_cycle = rec->cycle + rec->taken;
      records++;
    } else if (tag == 'E') {
      uint64_t n;
      bool ok = get_varint(r, &n) && (n == records || fail(r, "the end record's count is not the records'"));
      if (ok && fgetc(r->in) != EOF)
        ok = fail(r, "bytes after the end record");
      free(rec);
      return ok;
    } else {
      fail(r, "a record that is not D, I or E");
      break;
    }
  }
  free(rec);
  return false;
}

int tally_trace_print(FILE *in, FILE *out, tally_error *err) {
  reader r = {.in = in, .err = err};
  err->msg[0] = '\0';
  bool ok = read_header(&r);
  if (ok) {
    trace_text_header(out);
    ok = read_records(&r, out);
  }
  for (uint32_t i = 0; r.names && i < r.nsig; i++)
    free(r.names[i]);
  free(r.names);
  map_free(&r.defs);
  return ok ? 0 : -1;
}
