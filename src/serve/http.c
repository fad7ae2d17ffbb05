/*
 * The HTTP side of tally serve, on libmicrohttpd: a thread per connection
 * (a slow client never holds up another), the page's files, the security
 * checks every request passes, request bodies (JSON, or the upload's
 * multipart form) gathered under the size limit, then api.c answers.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <microhttpd.h>

#include "serve.h"

/* One request's state between libmicrohttpd's calls. */
typedef struct req {
  char *body;
  size_t len, cap;
  bool too_big;
  struct MHD_PostProcessor *pp;
  serve_upload up;
  bool multipart;
} req;

static int grow(char **buf, size_t *len, size_t *cap, const char *data, size_t n, size_t max) {
  if (*len + n > max)
    return -1;
  if (*len + n + 1 > *cap) {
    size_t nc = (*cap ? *cap * 2 : 4096);
    while (nc < *len + n + 1)
      nc *= 2;
    char *b = realloc(*buf, nc);
    if (!b)
      return -1;
    *buf = b;
    *cap = nc;
  }
  memcpy(*buf + *len, data, n);
  *len += n;
  (*buf)[*len] = 0;
  return 0;
}

/* Appends to an upload part (pieces of up to 64 KiB: a realloc each is fine). */
static int append(char **buf, size_t *len, const char *data, size_t n) {
  char *b = realloc(*buf, *len + n + 1);
  if (!b)
    return -1;
  memcpy(b + *len, data, n);
  *len += n;
  b[*len] = 0;
  *buf = b;
  return 0;
}

/* The multipart parts the upload form has; anything else is ignored. */
static enum MHD_Result post_part(void *cls, enum MHD_ValueKind kind, const char *key, const char *filename,
                                 const char *ctype, const char *enc, const char *data, uint64_t off, size_t size) {
  (void)kind; (void)ctype; (void)enc; (void)off;
  req *r = cls;
  serve_upload *u = &r->up;
  static const size_t max_field = 31;
  char **buf = NULL;
  size_t *len = NULL;
  if (strcmp(key, "elf") == 0) buf = &u->elf, len = &u->elf_n;
  else if (strcmp(key, "bin") == 0) buf = &u->bin, len = &u->bin_n;
  else if (strcmp(key, "map") == 0) buf = &u->map, len = &u->map_n;
  if (buf) {
    if (filename && !u->name[0] && strcmp(key, "map") != 0)
      serve_program_name(filename, u->name, sizeof u->name);
    if (append(buf, len, data, size) != 0)
      r->too_big = true;
    return MHD_YES;
  }
  char *field = strcmp(key, "load_addr") == 0 ? u->load_addr : strcmp(key, "entry") == 0 ? u->entry
              : strcmp(key, "kind") == 0 ? u->kind : strcmp(key, "board") == 0 ? u->board : NULL;
  size_t fmax = strcmp(key, "kind") == 0 ? sizeof u->kind - 1 : strcmp(key, "board") == 0 ? sizeof u->board - 1
              : max_field;
  if (field) {
    size_t have = strlen(field);
    if (have + size > fmax)
      r->too_big = true;
    else
      memcpy(field + have, data, size), field[have + size] = 0;
  }
  return MHD_YES;
}

static void req_free(req *r) {
  if (!r)
    return;
  if (r->pp)
    MHD_destroy_post_processor(r->pp);
  free(r->body);
  free(r->up.elf);
  free(r->up.bin);
  free(r->up.map);
  free(r);
}

static void on_done(void *cls, struct MHD_Connection *conn, void **con_cls, enum MHD_RequestTerminationCode t) {
  (void)cls; (void)conn; (void)t;
  req_free(*con_cls);
  *con_cls = NULL;
}

static enum MHD_Result reply_send(struct MHD_Connection *conn, int status, const char *type, const void *data,
                            size_t len, enum MHD_ResponseMemoryMode mode, const char *disposition) {
  struct MHD_Response *resp = MHD_create_response_from_buffer(len, (void *)data, mode);
  if (!resp)
    return MHD_NO;
  MHD_add_response_header(resp, "Content-Type", type);
  MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
  MHD_add_response_header(resp, "Cache-Control", "no-store");
  MHD_add_response_header(resp, "Content-Security-Policy",
                          "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'");
  MHD_add_response_header(resp, "X-Frame-Options", "DENY");
  if (disposition && *disposition)
    MHD_add_response_header(resp, "Content-Disposition", disposition);
  enum MHD_Result ret = MHD_queue_response(conn, (unsigned)status, resp);
  MHD_destroy_response(resp);
  return ret;
}

static enum MHD_Result send_error(struct MHD_Connection *conn, int status, const char *msg) {
  json_t *j = json_pack("{s:s}", "error", msg);
  char *s = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  return reply_send(conn, status, "application/json", s, strlen(s), MHD_RESPMEM_MUST_FREE, NULL);
}

static const char *header(struct MHD_Connection *conn, const char *name) {
  return MHD_lookup_connection_value(conn, MHD_HEADER_KIND, name);
}

/* DNS rebinding: the Host header must name this server. On loopback the
 * names of loopback are accepted; elsewhere the listen address itself. */
static bool host_ok(serve_ctx *c, struct MHD_Connection *conn) {
  const char *h = header(conn, "Host");
  if (!h)
    return false;
  char want[96];
  const char *names[] = {c->host, "localhost", "127.0.0.1", "[::1]"};
  size_t nnames = c->loopback ? 4 : 1;
  for (size_t i = 0; i < nnames; i++) {
    snprintf(want, sizeof want, "%s:%u", names[i], c->port);
    if (strcmp(h, want) == 0)
      return true;
  }
  return false;
}

/* Cross-site requests: a browser says where a request comes from (Origin,
 * Sec-Fetch-Site); any other site is refused. Changes also need the
 * X-Tally header, which a cross-site page cannot send without a CORS
 * preflight this server never grants. */
static const char *cross_site(serve_ctx *c, struct MHD_Connection *conn, const char *method) {
  const char *site = header(conn, "Sec-Fetch-Site");
  if (site && strcmp(site, "same-origin") != 0 && strcmp(site, "none") != 0)
    return "cross-site request refused";
  const char *origin = header(conn, "Origin");
  if (origin) {
    const char *h = header(conn, "Host");
    char want[128];
    snprintf(want, sizeof want, "http://%s", h ? h : "");
    if (strcmp(origin, want) != 0)
      return "cross-site request refused (Origin is not this server)";
  }
  if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0 && !header(conn, "X-Tally"))
    return "request refused: changes need the X-Tally header (sent by the page and by scripts)";
  (void)c;
  return NULL;
}

static bool token_ok(serve_ctx *c, struct MHD_Connection *conn) {
  if (!c->token)
    return true;
  const char *t = header(conn, "X-Tally-Token");
  if (!t)
    t = MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, "token");
  if (!t || strlen(t) != strlen(c->token))
    return false;
  unsigned diff = 0; /* the same time for every wrong token of the right length */
  for (size_t i = 0; t[i]; i++)
    diff |= (unsigned)(t[i] ^ c->token[i]);
  return diff == 0;
}

static const char *query(void *conn, const char *key) {
  return MHD_lookup_connection_value(conn, MHD_GET_ARGUMENT_KIND, key);
}

static enum MHD_Result answer(struct MHD_Connection *conn, serve_reply *r) {
  if (r->json) {
    char *s = json_dumps(r->json, JSON_COMPACT);
    json_decref(r->json);
    if (!s)
      return send_error(conn, 500, "out of memory");
    return reply_send(conn, r->status, "application/json", s, strlen(s), MHD_RESPMEM_MUST_FREE, r->disposition);
  }
  return reply_send(conn, r->status, r->type ? r->type : "application/octet-stream", r->body ? r->body : "", r->len,
              r->body ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT, r->disposition);
}

static enum MHD_Result static_file(struct MHD_Connection *conn, const char *url) {
  const serve_asset *a = serve_asset_find(strcmp(url, "/") == 0 ? "/index.html" : url);
  if (!a)
    return send_error(conn, 404, "no such page");
  return reply_send(conn, 200, a->type, a->data, a->len, MHD_RESPMEM_PERSISTENT, NULL);
}

/* The first call of a request: checks, then how its body will be read. */
static enum MHD_Result begin(serve_ctx *c, struct MHD_Connection *conn, const char *url, const char *method,
                             void **con_cls) {
  if (!host_ok(c, conn))
    return send_error(conn, 421, "wrong Host header: open the address tally serve printed");
  const char *why = cross_site(c, conn, method);
  if (why)
    return send_error(conn, 403, why);
  if (strncmp(url, "/api/", 5) == 0 && !token_ok(c, conn))
    return send_error(conn, 401, "this server needs its token: open the address with ?token=TOKEN");
  const char *cl = header(conn, "Content-Length");
  if (cl && strtoull(cl, NULL, 10) > c->lim.max_upload)
    return send_error(conn, 413, "upload too large");
  req *r = calloc(1, sizeof *r);
  if (!r)
    return MHD_NO;
  const char *ct = header(conn, "Content-Type");
  if (ct && strncmp(ct, "multipart/form-data", 19) == 0) {
    r->multipart = true;
    r->pp = MHD_create_post_processor(conn, 64 * 1024, post_part, r);
    if (!r->pp) {
      free(r);
      return send_error(conn, 400, "the upload form cannot be read (multipart/form-data expected)");
    }
  }
  *con_cls = r;
  return MHD_YES;
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *conn, const char *url, const char *method,
                              const char *version, const char *data, size_t *size, void **con_cls) {
  (void)version;
  serve_ctx *c = cls;
  if (!*con_cls)
    return begin(c, conn, url, method, con_cls);
  req *r = *con_cls;
  if (*size) { /* a piece of the body */
    if (r->len + *size > c->lim.max_upload)
      r->too_big = true;
    else if (r->multipart)
      MHD_post_process(r->pp, data, *size), r->len += *size;
    else if (grow(&r->body, &r->len, &r->cap, data, *size, c->lim.max_upload) != 0)
      r->too_big = true;
    *size = 0;
    return MHD_YES;
  }
  if (r->too_big)
    return send_error(conn, 413, "upload too large");
  if (strncmp(url, "/api/", 5) != 0) {
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
      return send_error(conn, 405, "method not allowed");
    return static_file(conn, url);
  }
  serve_reply rep = {.status = 200};
  if (r->multipart)
    rep.status = 0, serve_api_upload(c, url + 4, &r->up, &rep);
  else
    serve_api(c, method, url + 4, query, conn, r->body ? r->body : "", r->len, &rep);
  return answer(conn, &rep);
}

/* SIGINT and SIGTERM, which end the server through the sigwait below. */
static void stop_signals(sigset_t *set) {
  sigemptyset(set);
  sigaddset(set, SIGINT);
  sigaddset(set, SIGTERM);
}

void serve_block_stop_signals(void) {
  sigset_t set;
  stop_signals(&set);
  pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int serve_http_run(serve_ctx *c, const char *addr) {
  struct sockaddr_in sin = {.sin_family = AF_INET, .sin_port = htons((uint16_t)c->port)};
  const char *h = strcmp(c->host, "localhost") == 0 ? "127.0.0.1" : c->host;
  if (inet_pton(AF_INET, h, &sin.sin_addr) != 1) {
    fprintf(stderr, "tally serve: --listen %s: not an IPv4 address\n", addr);
    return SERVE_EXIT_USAGE;
  }
  signal(SIGPIPE, SIG_IGN);
  sigset_t set; /* blocked since before any thread started (serve_block_stop_signals) */
  stop_signals(&set);
  struct MHD_Daemon *d = MHD_start_daemon(
      MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG, 0, NULL, NULL,
      handle, c, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sin, MHD_OPTION_NOTIFY_COMPLETED, on_done, c,
      MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)60, MHD_OPTION_CONNECTION_LIMIT, (unsigned)64, MHD_OPTION_END);
  if (!d) {
    fprintf(stderr, "tally serve: cannot listen on %s (in use, or not an address of this machine)\n", addr);
    return SERVE_EXIT_CANTCREAT;
  }
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
  if (info && info->port)
    c->port = info->port; /* --listen ADDR:0 picks a free port */
  printf("tally serve: open http://%s:%u/%s%s\n", c->host, c->port, c->token ? "?token=" : "",
         c->token ? c->token : "");
  fflush(stdout);
  int sig;
  sigwait(&set, &sig); /* the daemon's threads do the work */
  c->stopping = 1;
  MHD_stop_daemon(d);
  return 0;
}
