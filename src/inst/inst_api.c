/*
 * The public API of the instrumenter (include/tally/inst.h): opening,
 * walking, attaching calls and writing. The work is in the other files;
 * this one keeps the object's life and checks what callers pass in.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inst_impl.h"

int tally_inst_open(const char *path, tally_inst **out, tally_error *err) {
  *out = NULL;
  tally_inst *ti = calloc(1, sizeof *ti);
  if (!ti || !(ti->path = strdup(path))) {
    free(ti);
    return inst_fail(err, TALLY_INST_EINPUT, "out of memory");
  }
  sym_table_init(&ti->syms);
  sym_lines_init(&ti->lines);
  int rc = inst_elf_read(ti, path, err);
  if (!rc)
    rc = inst_cfg_build(ti, err);
  if (rc) {
    tally_inst_close(ti);
    return rc;
  }
  *out = ti;
  return 0;
}

void tally_inst_close(tally_inst *ti) {
  if (!ti)
    return;
  for (size_t s = 0; s < ti->nsites; s++) {
    for (size_t c = 0; c < ti->sites[s].ncalls; c++)
      free(ti->sites[s].calls[c].func);
    free(ti->sites[s].calls);
  }
  free(ti->sites);
  for (size_t w = 0; w < ti->nwarnings; w++)
    free(ti->warnings[w]);
  free(ti->tramp_asm);
  free(ti->bb_rec);
  free(ti->bb_prog);
  free(ti->bb_terms);
  for (size_t i = 0; i < ti->nsources; i++)
    free(ti->sources[i]);
  free(ti->sources);
  for (size_t i = 0; i < ti->ncode; i++)
    free(ti->code[i].name);
  free(ti->code);
  for (size_t i = 0; i < ti->nobjs; i++)
    free(ti->objs[i].name);
  free(ti->objs);
  free(ti->segs);
  free(ti->insns);
  free(ti->dec);
  free(ti->site_of);
  free(ti->blocks);
  free(ti->funcs);
  sym_table_free(&ti->syms);
  sym_lines_free(&ti->lines);
  free(ti->file);
  free(ti->path);
  free(ti);
}

size_t tally_inst_ninsns(const tally_inst *ti) { return ti->ninsns; }
const tally_inst_insn *tally_inst_insn_at(const tally_inst *ti, size_t i) { return i < ti->ninsns ? &ti->insns[i] : NULL; }
size_t tally_inst_nblocks(const tally_inst *ti) { return ti->nblocks; }
const tally_inst_block *tally_inst_block_at(const tally_inst *ti, size_t i) { return i < ti->nblocks ? &ti->blocks[i] : NULL; }
size_t tally_inst_nfuncs(const tally_inst *ti) { return ti->nfuncs; }
const tally_inst_func *tally_inst_func_at(const tally_inst *ti, size_t i) { return i < ti->nfuncs ? &ti->funcs[i] : NULL; }

int tally_inst_disasm(const tally_inst *ti, size_t i, char *buf, size_t size) {
  if (i >= ti->ninsns)
    return snprintf(buf, size, "?");
  return isa_disasm(&ti->dec[i], ti->insns[i].pc, buf, size);
}

const char *tally_inst_where(const tally_inst *ti, uint32_t pc, char *buf, size_t size) {
  const sym_entry *s = sym_table_lookup(&ti->syms, pc);
  if (s && pc != s->lo)
    snprintf(buf, size, "0x%08x (%s+0x%x)", pc, s->name, pc - s->lo);
  else if (s)
    snprintf(buf, size, "0x%08x (%s)", pc, s->name);
  else
    snprintf(buf, size, "0x%08x", pc);
  return buf;
}

/* FILE:LINE: the lowest address whose row is that line of a file whose
 * path ends with FILE. */
static int resolve_line(const tally_inst *ti, const char *file, unsigned long line, uint32_t *pc) {
  size_t flen = strlen(file);
  bool found = false;
  for (size_t i = 0; i < ti->lines.n; i++) {
    const sym_line *r = &ti->lines.v[i];
    if (r->line != line)
      continue;
    const char *path = sym_lines_file(&ti->lines, r);
    size_t plen = strlen(path);
    if (plen < flen || strcmp(path + plen - flen, file) != 0 || (plen > flen && path[plen - flen - 1] != '/'))
      continue;
    if (tally_inst_find_insn(ti, r->addr) >= 0 && (!found || r->addr < *pc)) {
      *pc = r->addr;
      found = true;
    }
  }
  return found ? 0 : -1;
}

int tally_inst_resolve(const tally_inst *ti, const char *where, uint32_t *pc, tally_error *err) {
  char *end;
  if (where[0] == '0' && (where[1] == 'x' || where[1] == 'X')) {
    unsigned long v = strtoul(where, &end, 16);
    if (*end || v > 0xffffffffu)
      return inst_fail(err, TALLY_INST_EUSAGE, "'%s': not an address", where);
    *pc = (uint32_t)v;
  } else {
    const char *colon = strrchr(where, ':');
    if (colon && colon[1] && isdigit((unsigned char)colon[1])) {
      char file[1024];
      snprintf(file, sizeof file, "%.*s", (int)(colon - where), where);
      unsigned long line = strtoul(colon + 1, &end, 10);
      if (*end || resolve_line(ti, file, line, pc) != 0)
        return inst_fail(err, TALLY_INST_EUSAGE, "'%s': no code for that source line in %s%s", where, ti->path,
                         ti->has_lines ? "" : " (it has no line tables: build with -g)");
    } else {
      char name[1024];
      const char *plus = strchr(where, '+');
      snprintf(name, sizeof name, "%.*s", plus ? (int)(plus - where) : (int)strlen(where), where);
      unsigned long off = 0;
      if (plus) {
        off = strtoul(plus + 1, &end, 0);
        if (*end || !plus[1])
          return inst_fail(err, TALLY_INST_EUSAGE, "'%s': bad offset after '+'", where);
      }
      const sym_entry *s = sym_table_find(&ti->syms, name);
      if (!s)
        return inst_fail(err, TALLY_INST_EUSAGE, "'%s': no function '%s' in %s%s", where, name, ti->path,
                         ti->has_symtab ? "" : " (it has no symbol table: stripped?)");
      *pc = s->lo + (uint32_t)off;
    }
  }
  if (tally_inst_find_insn(ti, *pc) < 0)
    return inst_fail(err, TALLY_INST_EUSAGE, "'%s' (0x%08x): no instruction starts there in %s", where, *pc, ti->path);
  return 0;
}

static bool is_identifier(const char *s) {
  if (!*s || isdigit((unsigned char)*s))
    return false;
  for (; *s; s++)
    if (!isalnum((unsigned char)*s) && *s != '_')
      return false;
  return true;
}

int tally_inst_add_site(tally_inst *ti, uint32_t pc, tally_error *err) {
  return inst_site_get(ti, pc, err) ? 0 : (long)tally_inst_find_insn(ti, pc) < 0 ? TALLY_INST_EUSAGE : TALLY_INST_ECANNOT;
}

int tally_inst_set_rare(tally_inst *ti, uint32_t pc, tally_error *err) {
  inst_site *s = inst_site_get(ti, pc, err);
  if (!s)
    return tally_inst_find_insn(ti, pc) < 0 ? TALLY_INST_EUSAGE : TALLY_INST_ECANNOT;
  s->rare = true;
  return 0;
}

int tally_inst_add_call(tally_inst *ti, uint32_t pc, int when, const char *func, const tally_inst_arg *args,
                        unsigned nargs, tally_error *err) {
  if (!is_identifier(func))
    return inst_fail(err, TALLY_INST_EUSAGE, "'%s' is not a C function name", func);
  if (nargs > TALLY_INST_MAX_ARGS)
    return inst_fail(err, TALLY_INST_EUSAGE, "%s: %u arguments; at most %d (a0..a5)", func, nargs, TALLY_INST_MAX_ARGS);
  for (unsigned a = 0; a < nargs; a++)
    if (args[a].kind > TALLY_INST_ARG_INSTRET || (args[a].kind == TALLY_INST_ARG_REG && args[a].value > 31) ||
        (args[a].kind == TALLY_INST_ARG_HPM && args[a].value > 31))
      return inst_fail(err, TALLY_INST_EUSAGE, "%s: argument %u is not one the runtime can pass", func, a + 1);
  inst_site *s = inst_site_get(ti, pc, err);
  if (!s)
    return tally_inst_find_insn(ti, pc) < 0 ? TALLY_INST_EUSAGE : TALLY_INST_ECANNOT;
  if (s->ncalls == 255)
    return inst_fail(err, TALLY_INST_EUSAGE, "0x%08x: more than 255 calls at one site", pc);
  if (s->ncalls == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 2;
    inst_call *nc = realloc(s->calls, cap * sizeof *nc);
    if (!nc)
      return inst_fail(err, TALLY_INST_EUSAGE, "out of memory");
    s->calls = nc;
    s->cap = cap;
  }
  inst_call *c = &s->calls[s->ncalls];
  *c = (inst_call){.func = strdup(func), .when = (uint8_t)(when == TALLY_INST_AFTER), .nargs = (uint8_t)nargs};
  if (!c->func)
    return inst_fail(err, TALLY_INST_EUSAGE, "out of memory");
  memcpy(c->args, args, nargs * sizeof *args);
  s->ncalls++;
  return 0;
}

int tally_inst_add_source(tally_inst *ti, const char *path, tally_error *err) {
  if (access(path, R_OK) != 0)
    return inst_fail(err, TALLY_INST_EUSAGE, "%s: cannot read the analysis source: %s", path, strerror(errno));
  char **ns = realloc(ti->sources, (ti->nsources + 1) * sizeof *ns);
  if (!ns || !(ns[ti->nsources] = strdup(path)))
    return inst_fail(err, TALLY_INST_EUSAGE, "out of memory");
  ti->sources = ns;
  ti->nsources++;
  return 0;
}

int tally_inst_use_tool(tally_inst *ti, const char *name, tally_error *err) {
  char want[64];
  snprintf(want, sizeof want, "inst/%s.c", name);
  for (size_t i = 0; i < inst_embedded_nfiles; i++)
    if (strcmp(inst_embedded_files[i].name, want) == 0 && strcmp(name, "rt") != 0) {
      ti->tool = inst_embedded_files[i].name + 5;
      ti->tool_name = name;
      return 0;
    }
  return inst_fail(err, TALLY_INST_EUSAGE, "no shipped tool '%s' (there are: none, bbcount, phases, memtrace)", name);
}

void tally_inst_set_tactic(tally_inst *ti, tally_inst_tactic t) { ti->tactic = t; }

void tally_inst_set_bbcount_all(tally_inst *ti, int all) { ti->bb_all = all != 0; }

size_t tally_inst_nsites(const tally_inst *ti) { return ti->nsites; }

void tally_inst_site_get(const tally_inst *ti, size_t i, tally_inst_site_info *out) {
  const inst_site *s = &ti->sites[i];
  *out = (tally_inst_site_info){s->pc, (unsigned)s->ncalls, s->tactic ? s->tactic : "?", s->why ? s->why : ""};
}

static void remove_dir(const char *dir) {
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *de;
    while ((de = readdir(d))) {
      if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
        continue;
      char p[4400];
      snprintf(p, sizeof p, "%s/%s", dir, de->d_name);
      if (de->d_type == DT_DIR)
        remove_dir(p);
      else
        unlink(p);
    }
    closedir(d);
  }
  rmdir(dir);
}

size_t tally_inst_nwarnings(const tally_inst *ti) { return ti->nwarnings_total; }
const char *tally_inst_warning(const tally_inst *ti, size_t i) { return i < ti->nwarnings ? ti->warnings[i] : NULL; }

void tally_inst_get_summary(const tally_inst *ti, tally_inst_summary *out) { *out = ti->sum; }

int tally_inst_write(tally_inst *ti, const char *out, tally_error *err) {
  int rc = inst_sites_check(ti, err);
  if (rc)
    return rc;
  const char *tmpdir = getenv("TMPDIR");
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/tally-inst.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  if (!mkdtemp(dir))
    return inst_fail(err, TALLY_INST_ETOOLCHAIN, "%s: cannot make a scratch directory: %s", dir, strerror(errno));
  rc = inst_gen_write(ti, dir, err);
  if (!rc)
    rc = inst_link_run(ti, dir, err);
  if (!rc) {
    char elf[4200];
    snprintf(elf, sizeof elf, "%s/analysis.elf", dir);
    ti->sum = (tally_inst_summary){0};
    rc = inst_write_output(ti, elf, out, &ti->sum, err);
  }
  if (!rc) {
    tally_inst_summary *m = &ti->sum;
    m->sites = ti->nsites;
    for (size_t s = 0; s < ti->nsites; s++) {
      const inst_site *st = &ti->sites[s];
      if (st->jump)
        m->jump++;
      else
        m->trap++, m->trap_tramp += st->tramp != 0;
      m->own += inst_site_forced(ti, st->insn);
    }
    m->insns = ti->ninsns;
    for (size_t i = 0; i < ti->ninsns; i++)
      m->code_bytes += ti->insns[i].len;
    m->data_bytes = ti->data_bytes;
  }
  if (!getenv("TALLY_INST_KEEP"))
    remove_dir(dir);
  return rc;
}
