/*
 * loadcount.c - user analysis for tests/inst/cli_inst.sh: at every load,
 * loads(pc, ea, x2) counts the load and checks what it was given: pc in
 * the program's code, ea in the program's RAM (these programs load from
 * no device), sp (x2) inside tally.ld's 1 MiB stack; at exit it writes
 * "loads N bad M" to loadcount.out.
 */
#include <tally/inst.h>

static unsigned long long n, bad;

void loads(unsigned pc, unsigned ea, unsigned sp);

void loads(unsigned pc, unsigned ea, unsigned sp) {
  n++;
  if (pc < 0x80000000u || pc >= 0x88000000u || ea < 0x80000000u || ea >= 0x88000000u || sp < 0x87f00000u ||
      sp > 0x88000000u)
    bad++;
}

static char *put_u64(char *p, unsigned long long v) {
  char tmp[24];
  int i = 0;
  do
    tmp[i++] = (char)('0' + v % 10);
  while ((v /= 10) != 0);
  while (i)
    *p++ = tmp[--i];
  return p;
}

void tally_inst_fini(void) {
  static char buf[64];
  char *p = buf;
  const char *a = "loads ", *b = " bad ";
  while (*a) *p++ = *a++;
  p = put_u64(p, n);
  while (*b) *p++ = *b++;
  p = put_u64(p, bad);
  *p++ = '\n';
  tally_inst_write_file("loadcount.out", buf, (unsigned)(p - buf));
}
