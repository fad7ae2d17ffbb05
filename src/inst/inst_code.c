/*
 * Code or data: which bytes of the executable sections are instructions.
 *
 * A linker script may put read-only data in an executable section
 * (picolibc's own picolibc.ld merges .rodata into the text segment, and
 * gcc's constants have no symbol), so a linear sweep of the sections would
 * take constants for instructions. As binary rewriters do, the bytes are
 * told apart by
 *  - the symbol table: a function symbol with a size (STT_FUNC) is code
 *    from its start to its end, swept linearly (gcc puts no data inside a
 *    function); an object symbol with a size (STT_OBJECT) is data;
 *  - recursive traversal for everything else: from the entry point, the
 *    start of every function symbol (with or without a size), the direct
 *    branch and jump targets of code already found, the instruction after
 *    a call, a branch or a system instruction, and the labels whose address
 *    the code forms (lui/auipc + addi) or the data hold (a trap handler,
 *    a table of pointers to assembly code). Traversal does not fall out of
 *    the end of a sized function (the call to a noreturn function that
 *    ends one), stops at an illegal encoding, and a fall-through into an
 *    object symbol ends there (the object wins).
 * What no rule reaches is data: never decoded, never a site. What is truly
 * ambiguous is refused, naming it: a direct jump or branch into an object
 * symbol's bytes, or to the middle of an instruction found otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inst_impl.h"

enum { ST_UNKNOWN = 0, ST_DATA = 1, ST_START = 2, ST_CONT = 3 };

typedef struct croot {
  uint32_t pc, from; /* where to start, and what led there */
  bool jumped;       /* a direct jump or branch (not a fall-through, not a root of its own) */
} croot;

typedef struct cmap {
  tally_inst *ti;
  uint8_t **st;   /* per code section: one state per halfword */
  croot *work;    /* pending roots */
  size_t nwork, capwork;
  tally_error *err;
  int rc;
  bool lenient;   /* an instrumented program (it has the analysis region): its jal
                   * sites cover halves of instructions; read for its symbols
                   * (tally inst --show), never instrumented again */
} cmap;

static long section_of(const tally_inst *ti, uint32_t pc) {
  for (size_t i = 0; i < ti->ncode; i++)
    if (pc >= ti->code[i].lo && pc < ti->code[i].hi)
      return (long)i;
  return -1;
}

static uint8_t *state_at(cmap *m, uint32_t pc) {
  long s = section_of(m->ti, pc);
  if (s < 0)
    return NULL;
  return &m->st[s][(pc - (m->ti->code[s].lo & ~1u)) / 2];
}

static bool decode_at(const tally_inst *ti, uint32_t pc, isa_insn *d) {
  long s = section_of(ti, pc);
  if (s < 0 || pc + 2 > ti->code[s].hi)
    return false;
  const inst_code *c = &ti->code[s];
  const uint8_t *p = ti->file + c->offset + (pc - c->lo);
  uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8;
  if ((v & 3u) == 3u) {
    if (pc + 4 > c->hi)
      return false;
    v |= (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
  }
  isa_decode(v, d);
  return true;
}

/* The object symbol holding addr, or NULL. */
const inst_obj *inst_obj_at(const tally_inst *ti, uint32_t addr) {
  for (size_t i = 0; i < ti->nobjs; i++)
    if (addr >= ti->objs[i].lo && addr < ti->objs[i].hi)
      return &ti->objs[i];
  return NULL;
}

/* A data address by the object symbols: "POW5_INV_OFFSETS+0x4", or the
 * nearest object before it ("8 bytes after POW5_INV_OFFSETS"). */
const char *inst_data_where(const tally_inst *ti, uint32_t addr, char *buf, size_t size) {
  const inst_obj *o = inst_obj_at(ti, addr);
  if (o) {
    snprintf(buf, size, "0x%08x (object %s+0x%x)", addr, o->name, addr - o->lo);
    return buf;
  }
  const inst_obj *best = NULL;
  for (size_t i = 0; i < ti->nobjs; i++)
    if (ti->objs[i].hi <= addr && (!best || ti->objs[i].hi > best->hi))
      best = &ti->objs[i];
  if (best && addr - best->hi < 4096)
    snprintf(buf, size, "0x%08x (%u bytes after the object %s)", addr, addr - best->hi, best->name);
  else
    tally_inst_where(ti, addr, buf, size);
  return buf;
}

/* The sized function symbol holding pc, or NULL. */
static const sym_entry *sized_func(const tally_inst *ti, uint32_t pc) {
  const sym_entry *s = sym_table_lookup(&ti->syms, pc);
  return s && (s->flags & SYM_FUNC) && s->size ? s : NULL;
}

static void push(cmap *m, uint32_t pc, uint32_t from, bool jumped) {
  if (m->nwork == m->capwork) {
    size_t cap = m->capwork ? 2 * m->capwork : 256;
    croot *nw = realloc(m->work, cap * sizeof *nw);
    if (!nw) {
      m->rc = inst_fail(m->err, TALLY_INST_EINPUT, "out of memory");
      return;
    }
    m->work = nw, m->capwork = cap;
  }
  m->work[m->nwork].pc = pc;
  m->work[m->nwork].from = from;
  m->work[m->nwork++].jumped = jumped;
}

static int ambiguous(cmap *m, uint32_t from, uint32_t to, const char *why) {
  if (m->lenient)
    return 0; /* the walk stops there */
  char w1[160], w2[200];
  tally_inst_where(m->ti, from, w1, sizeof w1);
  if (inst_obj_at(m->ti, to))
    inst_data_where(m->ti, to, w2, sizeof w2);
  else
    tally_inst_where(m->ti, to, w2, sizeof w2);
  m->rc = inst_fail(m->err, TALLY_INST_ECANNOT,
                    "%s: cannot tell code from data at %s: the instruction at %s jumps there, but %s",
                    m->ti->path, w2, w1, why);
  return m->rc;
}

/* The successors of the instruction d at pc: direct targets pushed; the
 * return value is whether control may go on to the next instruction. */
static bool successors(cmap *m, uint32_t pc, const isa_insn *d) {
  switch (d->kind) {
  case K_BEQ: case K_BNE: case K_BLT: case K_BGE: case K_BLTU: case K_BGEU:
    push(m, pc + (uint32_t)d->imm, pc, true);
    return true;
  case K_JAL:
    push(m, pc + (uint32_t)d->imm, pc, true);
    return d->rd != 0; /* a call returns to the next instruction */
  case K_JALR:
    return d->rd != 0;
  case K_MRET: case K_ILLEGAL:
    return false;
  default:
    return true;
  }
}

/* Follows control flow from pc (reached from `from`, a jump when jumped). */
static void walk(cmap *m, uint32_t pc, uint32_t from, bool jumped) {
  const tally_inst *ti = m->ti;
  while (!m->rc) {
    uint8_t *st = state_at(m, pc);
    if (!st || (pc & 1))
      return; /* out of the code sections: not ours to decode */
    if (*st == ST_START)
      return;
    if (*st == ST_CONT) {
      if (jumped)
        ambiguous(m, from, pc, "it is the middle of an instruction");
      return;
    }
    isa_insn d;
    if (!decode_at(ti, pc, &d))
      return;
    uint8_t *st2 = d.len == 4 ? state_at(m, pc + 2) : NULL;
    if (*st == ST_DATA || (st2 && *st2 == ST_DATA)) {
      if (jumped)
        ambiguous(m, from, pc, "an object symbol of the symbol table covers it");
      return; /* a fall-through into data stops there */
    }
    if (d.kind == K_ILLEGAL)
      return; /* padding or data after code that does not return */
    if (st2 && *st2 != ST_UNKNOWN) {
      if (jumped)
        ambiguous(m, from, pc, "the instruction there would overlap another one");
      return;
    }
    *st = ST_START;
    if (st2)
      *st2 = ST_CONT;
    const sym_entry *f = sized_func(ti, pc);
    bool next = successors(m, pc, &d);
    uint32_t npc = pc + d.len;
    if (!next || (f && npc >= f->hi))
      return;
    from = pc, pc = npc, jumped = false;
  }
}

/* Linear sweep of a section, around its object symbols. */
static void sweep_linear(cmap *m, const inst_code *c) {
  for (uint32_t pc = c->lo & ~1u; pc + 2 <= c->hi;) {
    uint8_t *st = state_at(m, pc);
    isa_insn d;
    if (!st || !decode_at(m->ti, pc, &d))
      return;
    uint8_t *st2 = d.len == 4 ? state_at(m, pc + 2) : NULL;
    if (*st != ST_UNKNOWN || (st2 && *st2 != ST_UNKNOWN)) {
      pc += 2;
      continue;
    }
    *st = ST_START;
    if (st2)
      *st2 = ST_CONT;
    pc += d.len;
  }
}

/* Linear sweep of a sized function's range: code, by its symbol. */
static void sweep_func(cmap *m, const sym_entry *f) {
  for (uint32_t pc = f->lo & ~1u; pc + 2 <= f->hi && !m->rc;) {
    uint8_t *st = state_at(m, pc);
    isa_insn d;
    if (!st || !decode_at(m->ti, pc, &d))
      return;
    if (d.len == 4 && pc + 4 > f->hi)
      return; /* a halfword of padding at the end */
    uint8_t *st2 = d.len == 4 ? state_at(m, pc + 2) : NULL;
    if ((*st == ST_DATA || (st2 && *st2 == ST_DATA)) && m->lenient)
      return;
    if (*st == ST_DATA || (st2 && *st2 == ST_DATA)) {
      char w[200];
      m->rc = inst_fail(m->err, TALLY_INST_ECANNOT,
                        "%s: cannot tell code from data at %s: the function %s (0x%08x-0x%08x) and an object "
                        "symbol of the symbol table both cover it",
                        m->ti->path, inst_data_where(m->ti, pc, w, sizeof w), f->name, f->lo, f->hi);
      return;
    }
    *st = ST_START;
    if (st2)
      *st2 = ST_CONT;
    pc += d.len;
  }
}

/* Whether a formed or held address a, not decoded yet, is a root: a
 * label, or an address inside the range of a symbol (to the next one)
 * that holds code already found (a resume address after a trap in
 * assembly code). An address in a range without code (the merged
 * read-only data after picolibc.ld's __text_end) is data. */
static bool code_address(cmap *m, signed char *hascode, uint32_t a) {
  uint8_t *sa = state_at(m, a);
  if (!sa || *sa != ST_UNKNOWN || (a & 1))
    return false;
  const sym_entry *s = sym_table_lookup(&m->ti->syms, a);
  if (!s)
    return false;
  if (s->lo == a)
    return true;
  signed char *h = hascode ? &hascode[s - m->ti->syms.v] : NULL;
  if (h && *h)
    return *h > 0;
  bool found = false;
  for (uint32_t p = s->lo & ~1u; p < s->hi && !found; p += 2) {
    uint8_t *st = state_at(m, p);
    found = st && *st == ST_START;
  }
  if (h)
    *h = found ? 1 : -1; /* until the next drain finds more code */
  return found;
}

/* Labels whose addresses the code found so far forms (lui/auipc, then
 * addi or jalr on the same register before it is written otherwise), or
 * the loaded bytes outside the code hold, and that are not decoded yet:
 * new roots. Returns how many were pushed. */
static size_t formed_roots(cmap *m) {
  const tally_inst *ti = m->ti;
  size_t before = m->nwork;
  signed char *hascode = calloc(ti->syms.n ? ti->syms.n : 1, 1); /* per symbol: 0 not known yet, 1, -1 */
  for (size_t s = 0; s < ti->ncode; s++) {
    const inst_code *c = &ti->code[s];
    uint32_t val[32], known = 0, expect = 0; /* bit r: val[r] holds xr's value */
    for (uint32_t pc = c->lo & ~1u; pc + 2 <= c->hi; pc += 2) {
      isa_insn d;
      if (m->st[s][(pc - (c->lo & ~1u)) / 2] != ST_START || !decode_at(ti, pc, &d))
        continue;
      if (pc != expect)
        known = 0;
      expect = pc + d.len;
      bool base = d.rs1 && (known >> d.rs1 & 1u);
      if (d.kind == K_LUI || d.kind == K_AUIPC) {
        val[d.rd] = (uint32_t)d.imm + (d.kind == K_AUIPC ? pc : 0);
        known |= d.rd ? 1u << d.rd : 0;
        continue;
      }
      if (d.kind == K_JALR && base) {
        push(m, (val[d.rs1] + (uint32_t)d.imm) & ~1u, pc, true); /* a jump through a formed address */
      } else if (d.kind == K_ADDI && base) {
        uint32_t a = val[d.rs1] + (uint32_t)d.imm;
        if (code_address(m, hascode, a))
          push(m, a, pc, false);
        if (d.rd) {
          val[d.rd] = a;
          known |= 1u << d.rd;
        }
        continue;
      }
      if (d.rd && isa_infos[d.kind].fmt != FMT_STORE && isa_infos[d.kind].fmt != FMT_B)
        known &= ~(1u << d.rd);
      if (isa_infos[d.kind].fmt == FMT_B || d.kind == K_JAL || d.kind == K_JALR)
        known = 0;
    }
  }
  for (size_t g = 0; g < ti->nsegs; g++) {
    const inst_seg *sg = &ti->segs[g];
    for (uint32_t o = (4 - (sg->vaddr & 3)) & 3; o + 4 <= sg->filesz; o += 4) {
      uint8_t *here = state_at(m, sg->vaddr + o);
      if (here && (*here == ST_START || *here == ST_CONT))
        continue; /* instruction bytes are not data words */
      const uint8_t *p = ti->file + sg->offset + o;
      uint32_t w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
      if (code_address(m, hascode, w))
        push(m, w, w, false);
    }
  }
  free(hascode);
  return m->nwork - before;
}

static void drain(cmap *m) {
  while (m->nwork && !m->rc) {
    m->nwork--;
    walk(m, m->work[m->nwork].pc, m->work[m->nwork].from, m->work[m->nwork].jumped);
  }
}

/* Direct targets of the swept functions' instructions, checked and
 * followed (a jump from a function into code outside any function). */
static void sweep_targets(cmap *m) {
  const tally_inst *ti = m->ti;
  for (size_t s = 0; s < ti->ncode && !m->rc; s++) {
    const inst_code *c = &ti->code[s];
    for (uint32_t pc = c->lo & ~1u; pc + 2 <= c->hi && !m->rc; pc += 2) {
      if (m->st[s][(pc - (c->lo & ~1u)) / 2] != ST_START)
        continue;
      isa_insn d;
      if (!decode_at(ti, pc, &d))
        continue;
      bool direct = d.kind == K_JAL || d.kind == K_BEQ || d.kind == K_BNE || d.kind == K_BLT || d.kind == K_BGE ||
                    d.kind == K_BLTU || d.kind == K_BGEU;
      if (direct)
        walk(m, pc + (uint32_t)d.imm, pc, true);
    }
  }
}

static size_t count_code(const cmap *m) {
  size_t n = 0;
  for (size_t s = 0; s < m->ti->ncode; s++)
    for (uint32_t h = 0; h < (m->ti->code[s].hi - (m->ti->code[s].lo & ~1u)) / 2; h++)
      n += m->st[s][h] == ST_START;
  return n;
}

int inst_code_map(tally_inst *ti, uint8_t ***out, tally_error *err) {
  cmap m = {.ti = ti, .err = err};
  for (size_t i = 0; i < ti->nsegs; i++)
    m.lenient |= (uint64_t)ti->segs[i].vaddr + ti->segs[i].memsz > TALLY_INST_REGION_BASE &&
                 ti->segs[i].vaddr < TALLY_INST_REGION_BASE + TALLY_INST_REGION_SIZE;
  m.st = calloc(ti->ncode, sizeof *m.st);
  if (!m.st)
    return inst_fail(err, TALLY_INST_EINPUT, "out of memory");
  for (size_t s = 0; s < ti->ncode; s++) {
    m.st[s] = calloc((ti->code[s].hi - (ti->code[s].lo & ~1u)) / 2 + 2, 1);
    if (!m.st[s])
      m.rc = inst_fail(err, TALLY_INST_EINPUT, "out of memory");
  }
  /* data: the object symbols */
  for (size_t i = 0; i < ti->nobjs && !m.rc; i++)
    for (uint32_t a = ti->objs[i].lo & ~1u; a < ti->objs[i].hi; a += 2) {
      uint8_t *st = state_at(&m, a);
      if (st)
        *st = ST_DATA;
    }
  /* code: the sized functions, swept */
  bool sized = false;
  for (size_t f = 0; f < ti->syms.n && !m.rc; f++)
    if ((ti->syms.v[f].flags & SYM_FUNC) && ti->syms.v[f].size)
      sweep_func(&m, &ti->syms.v[f]), sized = true;
  /* No function symbol with a size (hand-written assembly without .size,
   * a stripped program): the symbol table says nothing of code, so every
   * byte outside the object symbols is swept linearly, as objdump does. */
  for (size_t s = 0; s < ti->ncode && !sized && !m.rc; s++)
    sweep_linear(&m, &ti->code[s]);
  /* roots: the entry point, every function symbol */
  if (!m.rc) {
    push(&m, ti->entry, ti->entry, false);
    for (size_t f = 0; f < ti->syms.n; f++)
      if (ti->syms.v[f].flags & SYM_FUNC)
        push(&m, ti->syms.v[f].lo, ti->syms.v[f].lo, false);
  }
  drain(&m);
  if (!m.rc)
    sweep_targets(&m);
  /* new roots until no new code is found (a label that is not code stays unknown) */
  for (size_t ncode = count_code(&m), prev = (size_t)-1; !m.rc && ncode != prev; prev = ncode, ncode = count_code(&m))
    if (formed_roots(&m))
      drain(&m), sweep_targets(&m);
  free(m.work);
  if (m.rc) {
    for (size_t s = 0; s < ti->ncode; s++)
      free(m.st[s]);
    free(m.st);
    return m.rc;
  }
  *out = m.st;
  return 0;
}
