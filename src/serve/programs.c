/*
 * Uploaded programs: each gets a number and a folder of the server's own
 * (DIR/programs/N), where its parts are written under fixed names
 * (program.elf, program.bin, program.map): a name a user sent is never a
 * path. An upload is checked by loading it into a simulation exactly as a
 * run will, and its function table is kept for the page.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve.h"
#include "tally/tally.h"

#define MAX_PROGRAMS 1000

struct serve_program {
  unsigned id;
  char dir[PATH_MAX];
  bool raw;
  uint32_t load_addr, entry;
  char board[48];               /* "" : virt */
  char name[72];                /* serve_program_name() of the upload's file */
  json_t *desc;
  serve_program *next;
};

static int write_file(const char *path, const char *data, size_t n) {
  FILE *f = fopen(path, "wbx"); /* never an existing file */
  if (!f)
    return -1;
  size_t w = fwrite(data, 1, n, f);
  return (fclose(f) == 0 && w == n) ? 0 : -1;
}

/* Messages name the part the user sent, not the server's file. */
static void clean_msg(char *msg, size_t size, const char *path, const char *part) {
  char out[600];
  size_t plen = strlen(path), o = 0;
  for (const char *s = msg; *s && o + 40 < sizeof out;) {
    if (strncmp(s, path, plen) == 0) {
      o += (size_t)snprintf(out + o, sizeof out - o, "%s", part);
      s += plen;
    } else {
      out[o++] = *s++;
    }
  }
  out[o] = 0;
  snprintf(msg, size, "%s", out);
}

/* The program's files for a worker's job. */
static void program_fill(const serve_program *p, json_t *job) {
  char path[PATH_MAX + 16];
  snprintf(path, sizeof path, "%s/%s", p->dir, p->raw ? "program.bin" : "program.elf");
  json_object_set_new(job, "program", json_string(path));
  json_object_set_new(job, "name", json_string(p->name));
  if (p->board[0]) /* a run may name another (jobs.c) */
    json_object_set_new(job, "board", json_string(p->board));
  if (p->raw) {
    snprintf(path, sizeof path, "%s/program.map", p->dir);
    json_object_set_new(job, "map", json_string(path));
    json_object_set_new(job, "load_addr", json_integer(p->load_addr));
    json_object_set_new(job, "entry", json_integer(p->entry));
  }
}

static bool parse_addr(const char *s, uint32_t *out) {
  char *end;
  if (!*s)
    return false;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end || v > 0xffffffffull)
    return false;
  *out = (uint32_t)v;
  return true;
}

/* The last line of a worker's output, as JSON. */
static json_t *last_line(char *out, size_t n) {
  while (n && out[n - 1] == '\n')
    out[--n] = 0;
  char *nl = strrchr(out, '\n');
  return json_loads(nl ? nl + 1 : out, 0, NULL);
}

/* Loads the stored parts as a run will, in a worker (a hostile file may
 * crash the loader, never the server); fills the description. */
static json_t *check(serve_ctx *c, serve_program *p, char *msg, size_t msgsize) {
  char path[PATH_MAX + 16];
  json_t *job = json_pack("{s:b}", "check", 1);
  program_fill(p, job);
  snprintf(path, sizeof path, "%s/job.json", p->dir);
  int rc = json_dump_file(job, path, JSON_COMPACT);
  json_decref(job);
  size_t n = 0;
  char *out = rc == 0 ? serve_child_output(c, p->dir, 20, &n) : NULL;
  json_t *r = out ? last_line(out, n) : NULL;
  free(out);
  json_t *funcs = json_object_get(r, "functions");
  if (!json_is_array(funcs)) {
    const char *m = json_string_value(json_object_get(r, "msg"));
    snprintf(msg, msgsize, "%s", m ? m : "the upload could not be checked (it crashed the loader or took too long)");
    const char *part = p->raw ? "the .bin file" : "the ELF file";
    snprintf(path, sizeof path, "%s/%s", p->dir, p->raw ? "program.bin" : "program.elf");
    clean_msg(msg, msgsize, path, part);
    snprintf(path, sizeof path, "%s/program.map", p->dir);
    clean_msg(msg, msgsize, path, "the .map file");
    json_decref(r);
    return NULL;
  }
  json_t *d = json_pack("{s:I,s:s,s:O}", "id", (json_int_t)p->id, "kind", p->raw ? "bin" : "elf", "functions",
                        funcs);
  json_t *warn = json_object_get(r, "warnings"); /* a .map the .bin contradicts (worker_check.c) */
  json_object_set_new(d, "warnings", json_is_array(warn) ? json_incref(warn) : json_array());
  json_decref(r);
  json_object_set_new(d, "board", json_string(p->board[0] ? p->board : "virt"));
  json_object_set_new(d, "name", json_string(p->name));
  if (p->raw) {
    json_object_set_new(d, "load_addr", json_integer(p->load_addr));
    json_object_set_new(d, "entry", json_integer(p->entry));
  }
  return d;
}

void serve_program_name(const char *filename, char *out, size_t size) {
  const char *base = strrchr(filename, '/'), *b2 = strrchr(filename, '\\');
  base = base ? base + 1 : filename;
  if (b2 && b2 + 1 > base)
    base = b2 + 1;
  size_t n = strlen(base), o = 0;
  if (n > 4 && (strcmp(base + n - 4, ".elf") == 0 || strcmp(base + n - 4, ".bin") == 0))
    n -= 4;
  for (size_t i = 0; i < n && o + 1 < size; i++) {
    unsigned char ch = (unsigned char)base[i];
    out[o++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '_';
  }
  out[o] = 0;
  if (o == 0)
    snprintf(out, size, "program");
}

/* What the form must hold, before anything is written. */
static int validate_form(const serve_upload *u, serve_program *p, char *msg, size_t msgsize) {
  p->raw = strcmp(u->kind, "bin") == 0 || (!u->elf && u->bin);
  tally_board_info b;
  tally_error err;
  if (u->board[0]) {
    if (strchr(u->board, '/') || u->board[0] == '.')
      return snprintf(msg, msgsize, "board '%s': expected the name of a shipped board", u->board), -1;
    if (tally_board_lookup(u->board, &b, &err) != 0)
      return snprintf(msg, msgsize, "board: %s", err.msg), -1;
    snprintf(p->board, sizeof p->board, "%s", u->board);
  } else if (tally_board_lookup(NULL, &b, &err) != 0) {
    return snprintf(msg, msgsize, "%s", err.msg), -1;
  }
  if (!p->raw) {
    if (!u->elf || u->elf_n == 0)
      return snprintf(msg, msgsize, "no program: send an ELF file (field 'elf') or a .bin with its .map"), -1;
    return 0;
  }
  if (!u->bin || u->bin_n == 0)
    return snprintf(msg, msgsize, "the .bin file is missing or empty (field 'bin')"), -1;
  if (!u->map || u->map_n == 0)
    return snprintf(msg, msgsize, "a .bin needs its linker map (field 'map'): the functions come from it"), -1;
  if (!u->load_addr[0]) /* the board's RAM base */
    p->load_addr = b.ram_base;
  else if (!parse_addr(u->load_addr, &p->load_addr))
    return snprintf(msg, msgsize, "load address '%s' is not an address (e.g. 0x80000000)", u->load_addr), -1;
  p->entry = p->load_addr;
  if (u->entry[0] && !parse_addr(u->entry, &p->entry))
    return snprintf(msg, msgsize, "entry '%s' is not an address", u->entry), -1;
  return 0;
}

static int store_parts(serve_ctx *c, serve_program *p, const serve_upload *u) {
  char path[PATH_MAX + 16];
  snprintf(p->dir, sizeof p->dir, "%s/programs/%u", c->dir, p->id);
  if (mkdir(p->dir, 0700) != 0)
    return -1;
  if (!p->raw) {
    snprintf(path, sizeof path, "%s/program.elf", p->dir);
    return write_file(path, u->elf, u->elf_n);
  }
  snprintf(path, sizeof path, "%s/program.bin", p->dir);
  if (write_file(path, u->bin, u->bin_n) != 0)
    return -1;
  snprintf(path, sizeof path, "%s/program.map", p->dir);
  return write_file(path, u->map, u->map_n);
}

static void remove_parts(serve_program *p) {
  const char *names[] = {"program.elf", "program.bin", "program.map", "job.json", "stderr.log"};
  char path[PATH_MAX + 16];
  for (size_t i = 0; i < 5; i++) {
    snprintf(path, sizeof path, "%s/%s", p->dir, names[i]);
    unlink(path);
  }
  rmdir(p->dir);
}

json_t *serve_program_add(serve_ctx *c, const serve_upload *u, char *msg, size_t msgsize) {
  serve_program *p = calloc(1, sizeof *p);
  if (!p)
    return snprintf(msg, msgsize, "out of memory"), NULL;
  if (validate_form(u, p, msg, msgsize) != 0)
    return free(p), NULL;
  snprintf(p->name, sizeof p->name, "%s", u->name[0] ? u->name : "program");
  pthread_mutex_lock(&c->lock);
  p->id = c->next_program < MAX_PROGRAMS ? c->next_program++ : 0;
  pthread_mutex_unlock(&c->lock);
  if (p->id == 0)
    return free(p), snprintf(msg, msgsize, "the server holds %d programs already: restart it", MAX_PROGRAMS), NULL;
  if (store_parts(c, p, u) != 0) {
    snprintf(msg, msgsize, "cannot store the upload in the server's folder: %s", strerror(errno));
    remove_parts(p);
    return free(p), NULL;
  }
  p->desc = check(c, p, msg, msgsize);
  if (!p->desc) {
    remove_parts(p);
    return free(p), NULL;
  }
  pthread_mutex_lock(&c->lock);
  p->next = c->programs;
  c->programs = p;
  pthread_mutex_unlock(&c->lock);
  return json_incref(p->desc);
}

static serve_program *find(serve_ctx *c, unsigned id) {
  for (serve_program *p = c->programs; p; p = p->next)
    if (p->id == id)
      return p;
  return NULL;
}

json_t *serve_program_json(serve_ctx *c, unsigned id) {
  pthread_mutex_lock(&c->lock);
  serve_program *p = find(c, id);
  json_t *d = p ? json_incref(p->desc) : NULL;
  pthread_mutex_unlock(&c->lock);
  return d;
}


void serve_programs_free(serve_ctx *c) {
  while (c->programs) {
    serve_program *p = c->programs;
    c->programs = p->next;
    json_decref(p->desc);
    free(p);
  }
}

int serve_program_paths(serve_ctx *c, unsigned id, json_t *job) {
  pthread_mutex_lock(&c->lock);
  serve_program *p = find(c, id);
  if (p)
    program_fill(p, job);
  pthread_mutex_unlock(&c->lock);
  return p ? 0 : -1;
}
