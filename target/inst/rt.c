/*
 * rt.c - the analysis runtime's handler. Every trap of an instrumented
 * program lands here (rt_entry.S saved the program's registers):
 *  - an ebreak at a known site runs the site's analysis calls and then the
 *    instruction the ebreak replaced, re-created on the saved registers
 *    (so pc-relative and control-flow instructions see their original
 *    address, and links are original return addresses);
 *  - anything else is the program's own trap and goes to the program's
 *    handler (shadow mtvec) with the original mcause, mepc and mtval.
 * The program's view of mtvec, mscratch, mepc, mcause, mtval and mstatus'
 * MPIE are shadows kept here: tally inst makes every program instruction
 * that touches them (and mret) a site, so the program never sees ours.
 * kinds.h (generated) gives tally's instruction kind numbers.
 */
#include <stdint.h>

#include "kinds.h"
#include "rt.h"
#include "tally/inst.h"

#define SYS_OPEN 0x01
#define SYS_CLOSE 0x02
#define SYS_WRITE 0x05
#define SYS_WRITE0 0x04
#define SYS_EXIT 0x18
#define SYS_EXIT_EXTENDED 0x20
#define MSTATUS_MIE 0x8u
#define MSTATUS_MPIE 0x80u

#define CSRR(n) ({ uint32_t v_; __asm__ volatile("csrr %0, " #n : "=r"(v_)); v_; })
#define CSRW(n, v) __asm__ volatile("csrw " #n ", %0" ::"r"(v))

struct tally_inst_ctx __tally_inst_ctx;

#define CTX_AT(field, off) _Static_assert(__builtin_offsetof(struct tally_inst_ctx, field) == off, #field)
CTX_AT(busy, CTX_BUSY);
CTX_AT(inhibit, CTX_INHIBIT);
CTX_AT(new_pc, CTX_NEWPC);
CTX_AT(site, CTX_SITE);
CTX_AT(save1, CTX_SAVE1);
CTX_AT(pmie, CTX_PMIE);
CTX_AT(ret, CTX_RET);

void __tally_inst_handle(struct tally_inst_ctx *c);
void __tally_inst_jhandle(struct tally_inst_ctx *c);
void __tally_inst_nested(struct tally_inst_ctx *c);
void tally_inst_fini(void) __attribute__((weak));
/* bbcount's counters and each site's counter numbers (+1; 0: none) at the
 * site, on a branch's taken way and on its fall-through way (sites.c has
 * them only when the tool is bbcount; absent, their addresses are 0). */
extern unsigned long long __tally_inst_ctr[] __attribute__((weak));
extern const unsigned __tally_bb_site_ctr[] __attribute__((weak));

void *tally_inst_memset(void *dst, int v, unsigned n) {
  volatile unsigned char *p = dst;
  while (n--)
    *p++ = (unsigned char)v;
  return dst;
}

unsigned tally_inst_strlen(const char *s) {
  unsigned n = 0;
  while (s[n])
    n++;
  return n;
}

void tally_inst_print(const char *s) { __tally_inst_semihost(SYS_WRITE0, (uint32_t)s); }

/* Set by a tool whose output file could not be written: the run then ends
 * with status 74 instead of the program's (the analysis's data are lost;
 * an exit 0 would pass for a good run). Runtime state, in the analysis
 * region: one run, one program. */
static int output_lost;
void tally_inst_output_lost(void) { output_lost = 1; }

int tally_inst_file_open(const char *name) {
  uint32_t blk[3] = {(uint32_t)name, 5 /* "wb" */, tally_inst_strlen(name)};
  return (int)__tally_inst_semihost(SYS_OPEN, (uint32_t)blk);
}

int tally_inst_file_write(int fd, const void *buf, unsigned len) {
  uint32_t blk[3] = {(uint32_t)fd, (uint32_t)buf, len};
  return __tally_inst_semihost(SYS_WRITE, (uint32_t)blk) == 0 ? 0 : -1;
}

int tally_inst_file_close(int fd) {
  uint32_t blk[1] = {(uint32_t)fd};
  return __tally_inst_semihost(SYS_CLOSE, (uint32_t)blk) == 0 ? 0 : -1;
}

int tally_inst_write_file(const char *name, const void *buf, unsigned len) {
  int fd = tally_inst_file_open(name);
  if (fd < 0)
    return -1;
  int w = tally_inst_file_write(fd, buf, len);
  int cl = tally_inst_file_close(fd);
  return w == 0 && cl == 0 ? 0 : -1;
}

/* Ends the run with a message and a status (70: the analysis went wrong;
 * 125: the program trapped with no handler, as `tally run` says it). */
static void die(const char *what, uint32_t pc, uint32_t status) {
  __tally_inst_semihost(SYS_WRITE0, (uint32_t)"tally inst runtime: ");
  __tally_inst_semihost(SYS_WRITE0, (uint32_t)what);
  char tail[16] = " at 0x";
  for (int i = 0; i < 8; i++)
    tail[6 + i] = "0123456789abcdef"[(pc >> (28 - 4 * i)) & 15];
  tail[14] = '\n';
  tail[15] = 0;
  __tally_inst_semihost(SYS_WRITE0, (uint32_t)tail);
  uint32_t blk[2] = {0x20026 /* ADP_Stopped_ApplicationExit */, status};
  __tally_inst_semihost(SYS_EXIT_EXTENDED, (uint32_t)blk);
  for (;;)
    ;
}

static long find_site(uint32_t pc) {
  unsigned lo = 0, hi = tally_inst_nsites;
  while (lo < hi) {
    unsigned mid = lo + (hi - lo) / 2;
    if (tally_inst_site_pc[mid] < pc)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < tally_inst_nsites && tally_inst_site_pc[lo] == pc ? (long)lo : -1;
}

/* Takes a trap into the program's own handler, as the hardware would have. */
static void deliver(struct tally_inst_ctx *c, uint32_t cause, uint32_t tval, uint32_t epc) {
  if (c->s_mtvec == 0) /* tally.ld programs without a handler: as on a bare board, nothing catches it */
    die("the program trapped with no trap handler of its own (mtvec = 0)", epc, 125);
  c->s_mepc = epc;
  c->s_mcause = cause;
  c->s_mtval = tval;
  c->s_mpie = (c->mstatus & MSTATUS_MPIE) ? 1 : 0; /* its MIE before the trap */
  __asm__ volatile("csrc mstatus, %0" ::"r"(MSTATUS_MPIE)); /* our mret leaves MIE off */
  uint32_t base = c->s_mtvec & ~3u;
  if ((c->s_mtvec & 3u) == 1u && (cause >> 31))
    base += 4u * (cause & 0x7fffffffu);
  c->new_pc = base;
}

static uint32_t hw_csr_read(uint32_t csr, int *ok);
static int hw_csr_write(uint32_t csr, uint32_t v);

/* The program's CSRs: shadows for the trap CSRs, the hardware for the rest. */
static uint32_t csr_read(struct tally_inst_ctx *c, uint32_t csr, int *ok) {
  *ok = 1;
  switch (csr) {
  case 0x300: return 3u << 11 | ((c->mstatus & MSTATUS_MPIE) ? MSTATUS_MIE : 0) | (c->s_mpie ? MSTATUS_MPIE : 0);
  case 0x305: return c->s_mtvec;
  case 0x340: return c->s_mscratch;
  case 0x341: return c->s_mepc;
  case 0x342: return c->s_mcause;
  case 0x343: return c->s_mtval;
  case CSR_MCOUNTINHIBIT: return c->inhibit;
  default: return hw_csr_read(csr, ok);
  }
}

static int csr_write(struct tally_inst_ctx *c, uint32_t csr, uint32_t v) {
  switch (csr) {
  case 0x300:
    /* its MIE is what our mret restores: the MPIE bit of the real mstatus */
    if (v & MSTATUS_MIE) {
      c->mstatus |= MSTATUS_MPIE;
      __asm__ volatile("csrs mstatus, %0" ::"r"(MSTATUS_MPIE));
    } else {
      c->mstatus &= ~MSTATUS_MPIE;
      __asm__ volatile("csrc mstatus, %0" ::"r"(MSTATUS_MPIE));
    }
    c->s_mpie = (v & MSTATUS_MPIE) ? 1 : 0;
    return 1;
  case 0x305: c->s_mtvec = v & ~2u; return 1;
  case 0x340: c->s_mscratch = v; return 1;
  case 0x341: c->s_mepc = v & ~1u; return 1;
  case 0x342: c->s_mcause = v; return 1;
  case 0x343: c->s_mtval = v; return 1;
  case CSR_MCOUNTINHIBIT: c->inhibit = v; return 1;
  default: return hw_csr_write(csr, v);
  }
}

#define HW_CSRS(X) \
  X(0x301) X(0x304) X(0x344) X(0xb00) X(0xb02) X(0xb80) X(0xb82) X(0xc00) X(0xc01) X(0xc02) \
  X(0xc80) X(0xc81) X(0xc82) X(0xf11) X(0xf12) X(0xf13) X(0xf14) \
  X(0xb03) X(0xb04) X(0xb05) X(0xb06) X(0xb07) X(0xb08) X(0xb09) X(0xb0a) X(0xb0b) X(0xb0c) \
  X(0xb0d) X(0xb0e) X(0xb0f) X(0xb10) X(0xb11) X(0xb12) X(0xb13) X(0xb14) X(0xb15) X(0xb16) \
  X(0xb17) X(0xb18) X(0xb19) X(0xb1a) X(0xb1b) X(0xb1c) X(0xb1d) X(0xb1e) X(0xb1f) \
  X(0x323) X(0x324) X(0x325) X(0x326) X(0x327) X(0x328) X(0x329) X(0x32a) X(0x32b) X(0x32c) \
  X(0x32d) X(0x32e) X(0x32f) X(0x330) X(0x331) X(0x332) X(0x333) X(0x334) X(0x335) X(0x336) \
  X(0x337) X(0x338) X(0x339) X(0x33a) X(0x33b) X(0x33c) X(0x33d) X(0x33e) X(0x33f)

static uint32_t hw_csr_read(uint32_t csr, int *ok) {
  switch (csr) {
#define RD(n) case n: return CSRR(n);
    HW_CSRS(RD)
#undef RD
  default: *ok = 0; return 0;
  }
}

/* Read-only CSRs (0xc.., 0xf..) are refused by the caller's rule. */
static int hw_csr_write(uint32_t csr, uint32_t v) {
  if ((csr >> 10) == 3)
    return 0;
  switch (csr) {
#define WR(n) case n: CSRW(n, v); return 1;
    HW_CSRS(WR)
#undef WR
  default: return 0;
  }
}

static uint32_t hpm_read(uint32_t n) {
  int ok;
  return hw_csr_read(0xb00u + (n & 31u), &ok);
}

static int branch_taken(const struct tally_inst_site *d, const uint32_t *x) {
  uint32_t a = x[d->rs1], b = x[d->rs2];
  switch (d->kind) {
  case K_BEQ: return a == b;
  case K_BNE: return a != b;
  case K_BLT: return (int32_t)a < (int32_t)b;
  case K_BGE: return (int32_t)a >= (int32_t)b;
  case K_BLTU: return a < b;
  case K_BGEU: return a >= b;
  case K_JAL: case K_JALR: return 1;
  default: return 0;
  }
}

static int is_mem(unsigned k) {
  return k == K_LB || k == K_LH || k == K_LW || k == K_LBU || k == K_LHU || k == K_SB || k == K_SH || k == K_SW ||
         k == K_LR_W || k == K_SC_W || (k >= K_AMOSWAP && k <= K_AMOMAXU);
}

static uint32_t arg_value(const struct tally_inst_ctx *c, const struct tally_inst_site *d, uint32_t site,
                          unsigned kind, unsigned val) {
  switch (kind) {
  case TI_ARG_SITE: return site;
  case TI_ARG_PC: return tally_inst_site_pc[site];
  case TI_ARG_EA: return is_mem(d->kind) ? c->x[d->rs1] + (uint32_t)d->imm : 0;
  case TI_ARG_TAKEN: return (uint32_t)branch_taken(d, c->x);
  case TI_ARG_REG: return c->x[val & 31u];
  case TI_ARG_HPM: return hpm_read(val);
  case TI_ARG_CYCLE: return hpm_read(0);
  case TI_ARG_INSTRET: return hpm_read(2);
  default: return 0;
  }
}

static void run_calls(struct tally_inst_ctx *c, const struct tally_inst_site *d, uint32_t site, unsigned when) {
  for (unsigned i = 0; i < d->ncalls; i++) {
    const struct tally_inst_call *k = &__tally_inst_calls[d->first_call + i];
    if (k->when != when)
      continue;
    uint32_t a[6] = {0, 0, 0, 0, 0, 0};
    for (unsigned j = 0; j < k->nargs && j < 6; j++)
      a[j] = arg_value(c, d, site, k->arg_kind[j], k->arg_val[j]);
    ((void (*)(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t))__tally_inst_fns[k->fn])(
        a[0], a[1], a[2], a[3], a[4], a[5]);
  }
}

#include "rt_exec.inc"

/* A trap taken inside a trampoline (a displaced instruction that faults,
 * or an interrupt at a trampoline's first instruction or at its final
 * jump): the pc the program's handler must see. At a final jump (jal x0 or
 * jalr x0: the analysis and the displaced instruction are done) that is
 * where the jump goes; anywhere else it is the pc of the replaced
 * instruction, with the program's MIE (the trampoline cleared the real
 * one) as the MIE before the trap. */
static uint32_t tramp_origin(struct tally_inst_ctx *c) {
  uint32_t pc = c->mepc, lo = 0, hi = __tally_inst_ntramps;
  while (hi - lo > 1) { /* the last trampoline starting at or below pc */
    uint32_t mid = lo + (hi - lo) / 2;
    if (__tally_inst_tramp_at[mid][0] <= pc)
      lo = mid;
    else
      hi = mid;
  }
  uint32_t w = *(const volatile uint16_t *)pc | (uint32_t)*(const volatile uint16_t *)(pc + 2) << 16;
  if ((w & 0xfffu) == 0x06fu) { /* jal x0 */
    uint32_t off = ((w >> 31) & 1u) << 20 | ((w >> 12) & 0xffu) << 12 | ((w >> 20) & 1u) << 11 | ((w >> 21) & 0x3ffu) << 1;
    return pc + (off ^ 0x100000u) - 0x100000u;
  }
  if ((w & 0x7fffu) == 0x067u) /* jalr x0 */
    return (c->x[(w >> 15) & 31u] + (uint32_t)((int32_t)w >> 20)) & ~1u;
  if (pc != __tally_inst_tramp_at[lo][0])
    c->mstatus = (c->mstatus & ~MSTATUS_MPIE) | (c->pmie ? MSTATUS_MPIE : 0);
  return __tally_inst_tramp_at[lo][1];
}

/* The program's MIE once the runtime returns to it (what mret restores),
 * for the trampolines that set it again (CTX_PMIE). */
static void note_mie(struct tally_inst_ctx *c) { c->pmie = (CSRR(mstatus) & MSTATUS_MPIE) ? MSTATUS_MIE : 0; }

/* Called by __tally_inst_jcall: the calls of a jump site (before ones only). */
void __tally_inst_jhandle(struct tally_inst_ctx *c) {
  const struct tally_inst_site *d = &__tally_inst_sites[c->site];
  run_calls(c, d, c->site, 0);
}

static void handle(struct tally_inst_ctx *c);

/* A bbcount site at a trap counts here, as its trampoline would, rather
 * than through run_calls and the tool's functions (tally_bbcount_hit and
 * tally_bbcount_edge do the same): the trap path stays short and touches
 * fewer I-cache lines. Its calls are all counts: bbcount has no others. */
static void count_inline(const struct tally_inst_ctx *c, const struct tally_inst_site *d, uint32_t site) {
  const unsigned *k = &__tally_bb_site_ctr[3 * site];
  if (k[0])
    __tally_inst_ctr[k[0] - 1]++;
  if (k[1] | k[2]) {
    unsigned w = branch_taken(d, c->x) ? k[1] : k[2];
    if (w)
      __tally_inst_ctr[w - 1]++;
  }
}

/* Called by rt_entry.S with the program's registers in c. */
void __tally_inst_handle(struct tally_inst_ctx *c) {
  handle(c);
  note_mie(c);
}

static void handle(struct tally_inst_ctx *c) {
  c->mstatus = CSRR(mstatus);
  c->mcause = CSRR(mcause);
  c->mepc = CSRR(mepc);
  c->mtval = CSRR(mtval);
  if (c->mepc >= __tally_inst_hole_lo && c->mepc < __tally_inst_hole_hi && __tally_inst_ntramps) {
    deliver(c, c->mcause, c->mtval, tramp_origin(c));
    return;
  }
  long site = c->mcause == 3 ? find_site(c->mepc) : -1;
  if (site < 0) {
    deliver(c, c->mcause, c->mtval, c->mepc);
    return;
  }
  const struct tally_inst_site *d = &__tally_inst_sites[site];
  c->site = (uint32_t)site;
  if (__tally_bb_site_ctr && d->ncalls && !d->nafter)
    count_inline(c, d, (uint32_t)site);
  else if (d->ncalls > d->nafter)
    run_calls(c, d, (uint32_t)site, 0);
  if (exec_insn(c, d, c->mepc) && d->nafter)
    run_calls(c, d, (uint32_t)site, 1);
  c->x[0] = 0;
}

/* A trap inside the handler: a re-created load or store faulted, which the
 * program sees as its own instruction's fault at the original pc. */
void __tally_inst_nested(struct tally_inst_ctx *c) {
  if (!c->in_access)
    die("the analysis code trapped", CSRR(mepc), 70);
  c->in_access = 0;
  deliver(c, CSRR(mcause), CSRR(mtval), tally_inst_site_pc[c->site]);
  note_mie(c);
}
