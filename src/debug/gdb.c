/*
 * The GDB remote stub (include/tally/gdb.h): the remote serial protocol's packets,
 * registers from a target description, memory, software and hardware
 * breakpoints, write watchpoints, step, continue, Ctrl-C, monitor commands,
 * the program's exit.
 *
 * The program is run one instruction at a time while GDB waits for a stop
 * with breakpoints set (tally_run with a budget of 1), in slices without:
 * stopping between any two instructions is exact (that is how the run loop
 * meets its event horizons), so the cycle counts are those of an
 * undisturbed run. The client is untrusted
 * input: every packet is bounded and checked; a client that sends garbage
 * gets errors, one that goes away ends the session.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tally/gdb.h"

#define PACKET_MAX 4096      /* what qSupported announces */
#define MAX_BREAKPOINTS 64
#define MAX_WATCHPOINTS 8
#define WATCH_MAX_LEN 8
#define POLL_EVERY 4096      /* instructions between looks for a Ctrl-C */
#define FREE_SLICE 100000    /* instructions run at once when no breakpoint is set */
#define SIGTRAP 5
#define SIGINT 2
#define SIGSEGV 11

/* A write watchpoint: the stub compares the watched bytes after every
 * instruction and stops when they changed (what GDB reports for `watch`
 * anyway: a write of the same value goes unseen, as with GDB's own
 * software watchpoints). */
typedef struct watch_point {
  uint32_t addr, len;
  unsigned char old[WATCH_MAX_LEN];
} watch_point;

typedef struct session {
  tally_sim *sim;
  int fd;
  volatile sig_atomic_t *interrupted;
  uint32_t bp[MAX_BREAKPOINTS];
  int nbp;
  watch_point wp[MAX_WATCHPOINTS];
  int nwp;
  bool ended;          /* the program stopped for good (exit, trap, halt) */
  bool gone;           /* the client went away */
  bool detached;       /* GDB detached: the program runs on */
  tally_stop stop;
  char in[PACKET_MAX + 1];
} session;

/* ------------------------------------------------------------- packets */

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static bool send_all(session *s, const void *buf, size_t n) {
  const char *p = buf;
  while (n) {
    ssize_t w = send(s->fd, p, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      s->gone = true;
      return false;
    }
    p += w;
    n -= (size_t)w;
  }
  return true;
}

/* One byte from the client, -1 when it is gone. */
static int read_byte(session *s) {
  unsigned char c;
  for (;;) {
    ssize_t r = recv(s->fd, &c, 1, 0);
    if (r == 1)
      return c;
    if (r < 0 && errno == EINTR) {
      if (s->interrupted && *s->interrupted)
        return -1;
      continue;
    }
    s->gone = true;
    return -1;
  }
}

/* Sends "$data#cs" in one piece (acknowledgements are read as packets
 * come in). */
static bool put_packet(session *s, const char *data) {
  size_t n = strlen(data);
  if (n > PACKET_MAX)
    n = PACKET_MAX;
  char out[PACKET_MAX + 4];
  unsigned sum = 0;
  out[0] = '$';
  for (size_t i = 0; i < n; i++) {
    out[1 + i] = data[i];
    sum += (unsigned char)data[i];
  }
  snprintf(out + 1 + n, 4, "#%02x", sum & 0xffu);
  return send_all(s, out, n + 4);
}

/* The next packet's data into s->in (NUL-terminated); false when the
 * client is gone. Acks and a Ctrl-C outside a run are skipped; a packet
 * too long or with a bad checksum is refused with '-'. */
static bool get_packet(session *s) {
  for (;;) {
    int c = read_byte(s);
    if (c < 0)
      return false;
    if (c != '$')
      continue;   /* '+', '-', 0x03 while stopped, noise */
    size_t n = 0;
    unsigned sum = 0;
    bool too_long = false;
    while ((c = read_byte(s)) >= 0 && c != '#') {
      sum += (unsigned)c;
      if (n < PACKET_MAX)
        s->in[n++] = (char)c;
      else
        too_long = true;
    }
    if (c < 0)
      return false;
    int h = read_byte(s), l = read_byte(s);
    if (h < 0 || l < 0)
      return false;
    s->in[n] = '\0';
    if (too_long || hexval(h) < 0 || hexval(l) < 0 || (unsigned)(hexval(h) << 4 | hexval(l)) != (sum & 0xffu)) {
      if (!send_all(s, "-", 1))
        return false;
      continue;
    }
    if (!send_all(s, "+", 1))
      return false;
    return true;
  }
}

/* -------------------------------------------------------------- values */

static void put_le32(char *out, uint32_t v) {
  for (int i = 0; i < 4; i++)
    snprintf(out + 2 * i, 3, "%02x", (v >> (8 * i)) & 0xffu);
}

static bool get_le32(const char *in, uint32_t *v) {
  uint32_t r = 0;
  for (int i = 0; i < 4; i++) {
    int h = hexval((unsigned char)in[2 * i]), l = h < 0 ? -1 : hexval((unsigned char)in[2 * i + 1]);
    if (h < 0 || l < 0)
      return false;
    r |= (uint32_t)(h << 4 | l) << (8 * i);
  }
  *v = r;
  return true;
}

/* A hex number ending at a char of `stop` (or the end); false if empty,
 * not hex, or over 32 bits. */
static bool parse_hex(const char **p, uint32_t *v) {
  uint64_t r = 0;
  const char *q = *p;
  int d, n = 0;
  while ((d = hexval((unsigned char)*q)) >= 0) {
    r = r << 4 | (uint64_t)d;
    if (r > 0xffffffffu)
      return false;
    q++;
    n++;
  }
  if (!n)
    return false;
  *p = q;
  *v = (uint32_t)r;
  return true;
}

/* "ADDR,LEN" */
static bool parse_range(const char *p, uint32_t *addr, uint32_t *len, const char **end) {
  if (!parse_hex(&p, addr) || *p++ != ',' || !parse_hex(&p, len))
    return false;
  if (end)
    *end = p;
  return true;
}

/* ---------------------------------------------------------- registers */

static const char *const reg_names[32] = {
  "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1", "a0", "a1", "a2", "a3", "a4", "a5",
  "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

/* GDB numbers CSR n as register CSR_REGNUM + n (its RISC-V convention). */
#define CSR_REGNUM 65
static const struct { unsigned num; const char *name; } csrs[] = {
  {0x300, "mstatus"}, {0x301, "misa"}, {0x304, "mie"}, {0x305, "mtvec"}, {0x340, "mscratch"},
  {0x341, "mepc"}, {0x342, "mcause"}, {0x343, "mtval"}, {0x344, "mip"}, {0x320, "mcountinhibit"},
  {0xb00, "mcycle"}, {0xb80, "mcycleh"}, {0xb02, "minstret"}, {0xb82, "minstreth"}, {0xf14, "mhartid"},
};
#define NCSRS (sizeof csrs / sizeof csrs[0])

/* The target description GDB reads (qXfer:features:read:target.xml). */
static size_t target_xml(char *buf, size_t size) {
  size_t n = (size_t)snprintf(buf, size,
                              "<?xml version=\"1.0\"?><!DOCTYPE target SYSTEM \"gdb-target.dtd\">"
                              "<target version=\"1.0\"><architecture>riscv:rv32</architecture>"
                              "<feature name=\"org.gnu.gdb.riscv.cpu\">");
  for (int i = 0; i < 32 && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, "<reg name=\"%s\" bitsize=\"32\" type=\"%s\" regnum=\"%d\"/>",
                          reg_names[i], i == 1 ? "code_ptr" : i == 2 || i == 8 ? "data_ptr" : "int", i);
  if (n < size)
    n += (size_t)snprintf(buf + n, size - n,
                          "<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\" regnum=\"32\"/></feature>"
                          "<feature name=\"org.gnu.gdb.riscv.csr\">");
  for (size_t i = 0; i < NCSRS && n < size; i++)
    n += (size_t)snprintf(buf + n, size - n, "<reg name=\"%s\" bitsize=\"32\" type=\"int\" regnum=\"%u\"/>",
                          csrs[i].name, CSR_REGNUM + csrs[i].num);
  if (n < size)
    n += (size_t)snprintf(buf + n, size - n, "</feature></target>");
  return n < size ? n : size - 1;
}

static uint32_t reg_value(const session *s, unsigned r) { return r < 32 ? tally_reg(s->sim, r) : tally_pc(s->sim); }


static void reply_all_regs(session *s) {
  char out[33 * 8 + 1];
  for (unsigned r = 0; r < 33; r++)
    put_le32(out + 8 * r, reg_value(s, r));
  put_packet(s, out);
}

static void write_all_regs(session *s, const char *hex) {
  if (strlen(hex) < 33 * 8) {
    put_packet(s, "E01");
    return;
  }
  uint32_t v[33];
  for (unsigned r = 0; r < 33; r++)
    if (!get_le32(hex + 8 * r, &v[r])) {
      put_packet(s, "E01");
      return;
    }
  for (unsigned r = 1; r < 32; r++)
    tally_set_reg(s->sim, r, v[r]);
  tally_set_pc(s->sim, v[32]);
  put_packet(s, "OK");
}

static void read_reg(session *s, const char *p) {
  uint32_t r, v;
  char out[9];
  if (!parse_hex(&p, &r) || (r > 32 && r < CSR_REGNUM) || r > CSR_REGNUM + 0xfff) {
    put_packet(s, "E01");
    return;
  }
  if (r >= CSR_REGNUM) {
    if (!tally_csr_read(s->sim, r - CSR_REGNUM, &v)) {
      put_packet(s, "E01");
      return;
    }
  } else {
    v = reg_value(s, r);
  }
  put_le32(out, v);
  put_packet(s, out);
}

static void write_reg(session *s, const char *p) {
  uint32_t r, v;
  if (!parse_hex(&p, &r) || *p++ != '=' || strlen(p) < 8 || !get_le32(p, &v) || r > 32) {
    put_packet(s, "E01");
    return;
  }
  if (r == 32)
    tally_set_pc(s->sim, v);
  else
    tally_set_reg(s->sim, r, v);
  put_packet(s, "OK");
}

/* -------------------------------------------------------------- memory */

static void read_memory(session *s, const char *p) {
  uint32_t addr, len;
  unsigned char buf[PACKET_MAX / 2];
  if (!parse_range(p, &addr, &len, NULL) || len > sizeof buf) {
    put_packet(s, "E01");
    return;
  }
  if (!tally_read_mem(s->sim, addr, buf, len)) {
    put_packet(s, "E14"); /* EFAULT */
    return;
  }
  char out[PACKET_MAX + 1];
  for (uint32_t i = 0; i < len; i++)
    snprintf(out + 2 * i, 3, "%02x", buf[i]);
  out[2 * len] = '\0';
  put_packet(s, out);
}

static void write_memory(session *s, const char *p) {
  uint32_t addr, len;
  unsigned char buf[PACKET_MAX / 2];
  if (!parse_range(p, &addr, &len, &p) || *p++ != ':' || len > sizeof buf || strlen(p) < 2 * (size_t)len) {
    put_packet(s, "E01");
    return;
  }
  for (uint32_t i = 0; i < len; i++) {
    int h = hexval((unsigned char)p[2 * i]), l = hexval((unsigned char)p[2 * i + 1]);
    if (h < 0 || l < 0) {
      put_packet(s, "E01");
      return;
    }
    buf[i] = (unsigned char)(h << 4 | l);
  }
  put_packet(s, len == 0 || tally_write_mem(s->sim, addr, buf, len) ? "OK" : "E14");
}

/* --------------------------------------------------------- breakpoints */

static bool is_breakpoint(const session *s, uint32_t pc) {
  for (int i = 0; i < s->nbp; i++)
    if (s->bp[i] == pc)
      return true;
  return false;
}

/* Z2/z2: a write watchpoint over [addr, addr + len). */
static void watchpoint(session *s, const char *p, bool insert) {
  uint32_t addr, len;
  if (*p++ != ',' || !parse_range(p, &addr, &len, NULL) || len == 0) {
    put_packet(s, "E01");
    return;
  }
  for (int i = 0; i < s->nwp; i++)
    if (s->wp[i].addr == addr && s->wp[i].len == len) {
      if (!insert)
        s->wp[i] = s->wp[--s->nwp];
      put_packet(s, "OK");
      return;
    }
  if (!insert) {
    put_packet(s, "OK");
    return;
  }
  watch_point w = {.addr = addr, .len = len};
  if (len > WATCH_MAX_LEN || s->nwp == MAX_WATCHPOINTS || !tally_read_mem(s->sim, addr, w.old, len)) {
    put_packet(s, "E01"); /* GDB then watches by stepping itself */
    return;
  }
  s->wp[s->nwp++] = w;
  put_packet(s, "OK");
}

/* The first watched range whose bytes changed (noting the new ones), or -1. */
static int watch_hit(session *s) {
  for (int i = 0; i < s->nwp; i++) {
    unsigned char now[WATCH_MAX_LEN];
    watch_point *w = &s->wp[i];
    if (tally_read_mem(s->sim, w->addr, now, w->len) && memcmp(now, w->old, w->len) != 0) {
      memcpy(w->old, now, w->len);
      return i;
    }
  }
  return -1;
}

/* Z0/Z1 (software and hardware breakpoints are the same here: the stub
 * looks at the pc, the program's code is never patched), Z2 (a write
 * watchpoint); read and access watchpoints are not offered (an empty reply
 * tells GDB so). */
static void breakpoint(session *s, const char *p, bool insert) {
  if (p[0] == '2') {
    watchpoint(s, p + 1, insert);
    return;
  }
  if (p[0] != '0' && p[0] != '1') {
    put_packet(s, "");
    return;
  }
  uint32_t addr;
  p += 1;
  if (*p++ != ',' || !parse_hex(&p, &addr)) {
    put_packet(s, "E01");
    return;
  }
  for (int i = 0; i < s->nbp; i++)
    if (s->bp[i] == addr) {
      if (!insert)
        s->bp[i] = s->bp[--s->nbp];
      put_packet(s, "OK");
      return;
    }
  if (insert) {
    if (s->nbp == MAX_BREAKPOINTS) {
      put_packet(s, "E0c"); /* ENOMEM */
      return;
    }
    s->bp[s->nbp++] = addr;
  }
  put_packet(s, "OK");
}

/* ----------------------------------------------------------- running */

/* The stop reply for the end of the program. */
static void reply_end(session *s) {
  char out[16];
  if (s->stop == TALLY_STOP_EXIT)
    snprintf(out, sizeof out, "W%02x", tally_exit_code(s->sim) & 0xff);
  else
    snprintf(out, sizeof out, "X%02x", SIGSEGV);
  put_packet(s, out);
}

/* A byte waiting from the client while the program runs: 0x03 is Ctrl-C. */
static bool client_interrupts(session *s) {
  struct pollfd pf = {.fd = s->fd, .events = POLLIN};
  if (poll(&pf, 1, 0) <= 0)
    return false;
  unsigned char c;
  ssize_t r = recv(s->fd, &c, 1, 0);
  if (r <= 0) {
    s->gone = true;
    return true;
  }
  return c == 0x03;
}

/* Runs one instruction (step) or until a breakpoint, Ctrl-C or the end. */
static void resume(session *s, bool step) {
  if (s->ended) {
    reply_end(s);
    return;
  }
  for (uint64_t n = 1;; n++) {
    /* with no breakpoint to look for, run in slices (Ctrl-C is looked for
     * between them); else one instruction at a time */
    bool free_run = !step && s->nbp == 0 && s->nwp == 0;
    tally_stop st = tally_run(s->sim, free_run ? FREE_SLICE : 1);
    if (st != TALLY_STOP_LIMIT) {
      s->ended = true;
      s->stop = st;
      if (st == TALLY_STOP_EXIT)
        reply_end(s);
      else /* a trap with no handler: GDB sees a signal, and may look around */
        put_packet(s, "S0b");
      return;
    }
    int w = s->nwp ? watch_hit(s) : -1;
    if (w >= 0) {
      char out[32];
      snprintf(out, sizeof out, "T05watch:%08x;", s->wp[w].addr);
      put_packet(s, out);
      return;
    }
    if (step || is_breakpoint(s, tally_pc(s->sim))) {
      put_packet(s, "S05");
      return;
    }
    if ((free_run || n % POLL_EVERY == 0) && (client_interrupts(s) || (s->interrupted && *s->interrupted))) {
      if (!s->gone)
        put_packet(s, "S02");
      return;
    }
  }
}

/* ----------------------------------------------------- monitor commands */

/* Sends text as console output ('O' packets, hex), in pieces. */
static void console(session *s, const char *text) {
  size_t n = strlen(text);
  for (size_t at = 0; at < n;) {
    char out[PACKET_MAX];
    size_t k = 0;
    out[k++] = 'O';
    while (at < n && k + 2 < sizeof out - 1) {
      snprintf(out + k, 3, "%02x", (unsigned char)text[at++]);
      k += 2;
    }
    out[k] = '\0';
    put_packet(s, out);
  }
}

/* "SIGNAL@FUNCTION": the signal's count in the function's own
 * instructions so far, from the exact profile (tally_profile_take is a
 * snapshot; the run goes on). */
static void count_in_function(session *s, const char *spec, char *text, size_t size) {
  const char *at = strchr(spec, '@');
  char sig[64];
  if (!at || (size_t)(at - spec) >= sizeof sig) {
    snprintf(text, size, "expected count SIGNAL@FUNCTION\n");
    return;
  }
  memcpy(sig, spec, (size_t)(at - spec));
  sig[at - spec] = '\0';
  int id = tally_signal_lookup(sig);
  if (id < 0) {
    snprintf(text, size, "no signal named '%s' (tally signals lists them)\n", sig);
    return;
  }
  tally_profile *p = tally_profile_take(s->sim);
  if (!p) {
    snprintf(text, size, "no counts by function: the run has no core model (use --core)\n");
    return;
  }
  const tally_func_profile *f;
  size_t n = tally_profile_functions(p, &f);
  snprintf(text, size, "no function named '%s' (tally symbols lists them)\n", at + 1);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(f[i].name, at + 1)) {
      snprintf(text, size, "%llu\n", (unsigned long long)f[i].self[id]);
      break;
    }
  tally_profile_free(p);
}

static void monitor(session *s, const char *hex) {
  char cmd[256];
  size_t n = 0;
  while (hex[0] && hex[1] && n < sizeof cmd - 1) {
    int h = hexval((unsigned char)hex[0]), l = hexval((unsigned char)hex[1]);
    if (h < 0 || l < 0) {
      put_packet(s, "E01");
      return;
    }
    cmd[n++] = (char)(h << 4 | l);
    hex += 2;
  }
  cmd[n] = '\0';
  char text[8192];
  if (!strcmp(cmd, "cycles")) {
    snprintf(text, sizeof text, "%llu\n", (unsigned long long)tally_cycles(s->sim));
  } else if (!strcmp(cmd, "instret")) {
    snprintf(text, sizeof text, "%llu\n", (unsigned long long)tally_instret(s->sim));
  } else if (!strcmp(cmd, "signals") || !strncmp(cmd, "signal ", 7)) {
    uint64_t totals[128] = {0};
    int count = tally_signal_count();
    if (count > 128)
      count = 128;
    tally_signal_totals(s->sim, totals);
    size_t k = 0;
    text[0] = '\0';
    for (int i = 0; i < count && k < sizeof text; i++)
      if (cmd[6] == 's' || !strcmp(cmd + 7, tally_signal_name(i)))
        k += (size_t)snprintf(text + k, sizeof text - k, "%s %llu\n", tally_signal_name(i),
                              (unsigned long long)totals[i]);
    if (!k)
      snprintf(text, sizeof text, "no signal named '%s' (tally signals lists them)\n", cmd + 7);
  } else if (!strncmp(cmd, "count ", 6)) {
    count_in_function(s, cmd + 6, text, sizeof text);
  } else {
    snprintf(text, sizeof text,
             "tally monitor commands:\n"
             "  cycles         cycles so far (the cycles before the next instruction starts)\n"
             "  instret        instructions retired so far\n"
             "  signals        every signal's total so far\n"
             "  signal NAME    one signal's total so far\n"
             "  count SIGNAL@FUNCTION  SIGNAL's count in FUNCTION's own instructions so far\n"
             "                 (timed runs: from the exact profile kept while GDB is attached)\n");
  }
  console(s, text);
  put_packet(s, "OK");
}

/* ------------------------------------------------------------- queries */

static void query(session *s, const char *q) {
  if (!strncmp(q, "qSupported", 10)) {
    char out[64];
    snprintf(out, sizeof out, "PacketSize=%x;qXfer:features:read+", PACKET_MAX);
    put_packet(s, out);
  } else if (!strncmp(q, "qXfer:features:read:target.xml:", 31)) {
    uint32_t off, len;
    char xml[4096];
    size_t n = target_xml(xml, sizeof xml);
    if (!parse_range(q + 31, &off, &len, NULL)) {
      put_packet(s, "E01");
      return;
    }
    if (len > PACKET_MAX - 2)
      len = PACKET_MAX - 2;
    char out[PACKET_MAX + 1];
    if (off >= n) {
      put_packet(s, "l");
      return;
    }
    size_t k = n - off < len ? n - off : len;
    out[0] = off + k >= n ? 'l' : 'm';
    memcpy(out + 1, xml + off, k);
    out[1 + k] = '\0';
    put_packet(s, out);
  } else if (!strncmp(q, "qRcmd,", 6)) {
    monitor(s, q + 6);
  } else if (!strcmp(q, "qAttached")) {
    put_packet(s, "1");
  } else if (!strcmp(q, "qC")) {
    put_packet(s, "QC1");
  } else if (!strcmp(q, "qfThreadInfo")) {
    put_packet(s, "m1");
  } else if (!strcmp(q, "qsThreadInfo")) {
    put_packet(s, "l");
  } else {
    put_packet(s, "");
  }
}

/* ------------------------------------------------------------- session */

/* Handles one packet; false when the session is over. */
static bool handle(session *s) {
  const char *p = s->in;
  switch (p[0]) {
  case '?':
    if (s->ended)
      reply_end(s);
    else
      put_packet(s, "S05");
    return true;
  case 'g': reply_all_regs(s); return true;
  case 'G': write_all_regs(s, p + 1); return true;
  case 'p': read_reg(s, p + 1); return true;
  case 'P': write_reg(s, p + 1); return true;
  case 'm': read_memory(s, p + 1); return true;
  case 'M': write_memory(s, p + 1); return true;
  case 'c': resume(s, false); return !s->gone;
  case 's': resume(s, true); return !s->gone;
  case 'Z': breakpoint(s, p + 1, true); return true;
  case 'z': breakpoint(s, p + 1, false); return true;
  case 'q': query(s, p); return true;
  case 'H': case 'T': put_packet(s, "OK"); return true;
  case 'D': put_packet(s, "OK"); s->detached = true; return false;
  case 'k': return false;
  default: put_packet(s, ""); return true; /* not supported: GDB falls back */
  }
}

/* "PORT" or "ADDR:PORT" */
static int listen_on(const char *where, char *err, size_t errlen) {
  char host[64] = "127.0.0.1";
  const char *colon = strrchr(where, ':');
  const char *port_text = where;
  if (colon) {
    size_t n = (size_t)(colon - where);
    if (n == 0 || n >= sizeof host) {
      snprintf(err, errlen, "--gdb '%s': expected PORT or ADDR:PORT", where);
      return -1;
    }
    memcpy(host, where, n);
    host[n] = '\0';
    port_text = colon + 1;
  }
  char *end;
  long port = strtol(port_text, &end, 10);
  struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
  if (!*port_text || *end || port < 1 || port > 65535 || inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
    snprintf(err, errlen, "--gdb '%s': expected PORT (1-65535) or IPv4-ADDR:PORT", where);
    return -1;
  }
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  int one = 1;
  if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
      bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 1) != 0) {
    snprintf(err, errlen, "--gdb %s: cannot listen: %s", where, strerror(errno));
    if (fd >= 0)
      close(fd);
    return -1;
  }
  return fd;
}

int tally_gdb_serve(tally_sim *sim, const char *where, FILE *note, volatile sig_atomic_t *interrupted,
                    tally_gdb_result *r) {
  r->stop = TALLY_STOP_LIMIT;
  r->detached = false;
  r->err[0] = '\0';
  int lfd = listen_on(where, r->err, sizeof r->err);
  if (lfd < 0)
    return -1;
  if (note) {
    fprintf(note, "tally: waiting for GDB on %s (target remote %s)\n", where, where);
    fflush(note);
  }
  int fd;
  do
    fd = accept(lfd, NULL, NULL);
  while (fd < 0 && errno == EINTR && !(interrupted && *interrupted));
  close(lfd);
  if (fd < 0) {
    snprintf(r->err, sizeof r->err, "--gdb %s: no connection: %s", where, strerror(errno));
    return -1;
  }
  session *s = calloc(1, sizeof *s);
  if (!s) {
    close(fd);
    snprintf(r->err, sizeof r->err, "out of memory");
    return -1;
  }
  int one = 1; /* small packets at once: a stop reply must not wait for an ack of the last one */
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  s->sim = sim;
  s->fd = fd;
  s->interrupted = interrupted;
  s->stop = TALLY_STOP_LIMIT;
  while (!s->gone && !(interrupted && *interrupted) && get_packet(s) && handle(s))
    ;
  r->stop = s->ended ? s->stop : TALLY_STOP_LIMIT;
  r->detached = s->detached && !s->ended;
  close(fd);
  free(s);
  return 0;
}
