/*
 * phases.c - the loop/phase profiler shipped with `tally inst --tool
 * phases`, after the profiling tool of the DSPInst paper (section 5): it
 * reads the performance counters at every loop entry and divides the run
 * into phases, each a loop in the middle with loop entries at its two ends.
 *
 * It is called at every loop header (`--points loop`, the default of the
 * tool) with tally_phases_hit(site). Arriving at the header the previous
 * call came from is one more iteration of the same loop and changes
 * nothing; arriving at another header is a loop entry: the phase that
 * began at the previous entry ends there and a new one begins. So a phase
 * of header A ending at header B holds A's iterations and whatever ran
 * after A's exit until B was entered (the paper's phases between two
 * Zero-overhead Loop Setup instructions). The program's start and its exit
 * are the outer ends of the first and the last phase.
 *
 * At each entry it reads mcycle, minstret and two event counters it points
 * at data-cache read and write misses (mhpmcounter3/4, tally/pmu.h) at its
 * first call. The counters stand still while analysis code runs
 * (mcountinhibit, set by the runtime), so the readings count the program
 * only, and the phases of a run add up to the counts between the first and
 * the last reading. Misses before the first loop entry are not counted (the
 * events are chosen then); its cycles and instructions are.
 *
 * Phases with the same (start header, end header) are added up: phases.out
 * (text, in the directory tally or QEMU runs in) has a header line
 * "# tally phases 1 <rows> <overflow>" and one row per pair:
 *   start_pc end_pc entries cycles instret dcache_read_miss dcache_write_miss
 * (hexadecimal pcs, 0xffffffff = the program's start or exit; decimal
 * counts). Up to TABLE - 1 distinct pairs are kept; later new pairs are
 * added to one overflow row (start = end = 0xfffffffe) and counted in
 * <overflow>. On QEMU the counters read 0 (only the entries are counted).
 */
#include <tally/inst.h>
#include <tally/pmu_events.h>

void tally_phases_hit(unsigned site);

#define TABLE 4096u        /* power of two: open addressing */
#define NONE 0xffffffffu   /* program start or exit */
#define OVERFLOW 0xfffffffeu

struct phase_row {
  unsigned start, end; /* original pcs; start == 0 && end == 0 marks a free slot */
  unsigned long long entries, cycles, instret, rmiss, wmiss;
};

struct phase_state {
  int started;
  unsigned cur;        /* the pc of the header the current phase began at */
  unsigned long long at[4]; /* cycle, instret, read misses, write misses at its start */
  unsigned used, overflow;
  struct phase_row rows[TABLE];
  struct phase_row spill; /* the overflow row */
};

static struct phase_state st = {.cur = NONE, .spill = {.start = OVERFLOW, .end = OVERFLOW}};

#define CSR64(lo, hi) __extension__({                                                  \
    unsigned h_, l_;                                                                    \
    __asm__ volatile("csrr %0, " #hi "\n\tcsrr %1, " #lo : "=r"(h_), "=r"(l_));       \
    ((unsigned long long)h_ << 32) | l_; })

/* The counters now; they stand still while analysis code runs. */
static void read_counters(unsigned long long v[4]) {
  v[0] = CSR64(mcycle, mcycleh);
  v[1] = CSR64(minstret, minstreth);
  v[2] = CSR64(0xb03, 0xb83);
  v[3] = CSR64(0xb04, 0xb84);
}

static struct phase_row *row_of(unsigned start, unsigned end) {
  unsigned h = (start * 2654435761u) ^ (end * 40503u);
  for (unsigned i = 0; i < TABLE; i++) {
    struct phase_row *r = &st.rows[(h + i) & (TABLE - 1)];
    if (r->start == start && r->end == end && (start | end))
      return r;
    if (!(r->start | r->end)) {
      if (st.used >= TABLE - 1)
        break;
      st.used++;
      r->start = start, r->end = end;
      return r;
    }
  }
  st.overflow++;
  return &st.spill;
}

/* Ends the current phase at `end` (a header's pc, or NONE at exit). */
static void close_phase(unsigned end) {
  unsigned long long now[4];
  read_counters(now);
  struct phase_row *r = row_of(st.cur, end);
  r->entries++;
  r->cycles += now[0] - st.at[0];
  r->instret += now[1] - st.at[1];
  r->rmiss += now[2] - st.at[2];
  r->wmiss += now[3] - st.at[3];
  for (int i = 0; i < 4; i++)
    st.at[i] = now[i];
  st.cur = end;
}

void tally_phases_hit(unsigned site) {
  unsigned pc = tally_inst_site_pc[site];
  if (!st.started) {
    st.started = 1;
    /* Program start to here: cycles and instructions from reset (0). */
    __asm__ volatile("csrw 0x323, %0" : : "r"(TALLY_PMU_EV_DCACHE_READ_MISS));
    __asm__ volatile("csrw 0x324, %0" : : "r"(TALLY_PMU_EV_DCACHE_WRITE_MISS));
    __asm__ volatile("csrw 0xb03, zero\n\tcsrw 0xb83, zero\n\tcsrw 0xb04, zero\n\tcsrw 0xb84, zero");
  }
  if (pc != st.cur)
    close_phase(pc);
}

/* Formatting without a C library: appends to buf at *n. */
static void put_str(char *buf, unsigned *n, const char *s) {
  while (*s)
    buf[(*n)++] = *s++;
}

static void put_hex(char *buf, unsigned *n, unsigned v) {
  put_str(buf, n, "0x");
  for (int i = 7; i >= 0; i--)
    buf[(*n)++] = "0123456789abcdef"[(v >> (4 * i)) & 15u];
}

static void put_dec(char *buf, unsigned *n, unsigned long long v) {
  char t[24];
  int k = 0;
  do {
    /* 64-bit division: __udivdi3 from -lgcc, which the link has. */
    t[k++] = (char)('0' + (unsigned)(v % 10u));
    v /= 10u;
  } while (v);
  while (k)
    buf[(*n)++] = t[--k];
}

void tally_inst_fini(void) {
  static char buf[256];
  if (st.started)
    close_phase(NONE);
  int fd = tally_inst_file_open("phases.out");
  if (fd < 0) {
    tally_inst_print("phases: cannot create phases.out (on tally: run with --semihost-files rw)\n");
    tally_inst_output_lost();
    return;
  }
  unsigned n = 0;
  put_str(buf, &n, "# tally phases 1 ");
  put_dec(buf, &n, st.used);
  put_str(buf, &n, " ");
  put_dec(buf, &n, st.overflow);
  put_str(buf, &n, "\n# start_pc end_pc entries cycles instret dcache_read_miss dcache_write_miss\n");
  tally_inst_file_write(fd, buf, n);
  for (unsigned i = 0; i <= TABLE; i++) {
    const struct phase_row *r = i < TABLE ? &st.rows[i] : &st.spill;
    if (!(r->start | r->end) || !r->entries)
      continue;
    n = 0;
    put_hex(buf, &n, r->start);
    put_str(buf, &n, " ");
    put_hex(buf, &n, r->end);
    const unsigned long long v[5] = {r->entries, r->cycles, r->instret, r->rmiss, r->wmiss};
    for (int k = 0; k < 5; k++) {
      put_str(buf, &n, " ");
      put_dec(buf, &n, v[k]);
    }
    put_str(buf, &n, "\n");
    tally_inst_file_write(fd, buf, n);
  }
  tally_inst_file_close(fd);
}
