/*
 * Per-line counts by hand. mix() hashes LEN bytes; main calls it CALLS
 * times. Its loop runs LEN times per call, so each instruction of the loop
 * (between the loop's backward branch and that branch's target) runs
 * CALLS x LEN times and every other instruction on the way from mix's
 * entry to its return CALLS times. A line's instructions are the ones
 * `objdump -dl` lists under it; check_profile.py reads LEN and CALLS from
 * here, the loop and the lines from the disassembly, and multiplies.
 */
#include "pstart.h"

#define LEN 37
#define CALLS 3

static unsigned char data[LEN];

__attribute__((noipa)) unsigned mix(const unsigned char *p) {
  unsigned h = 5381;
  for (unsigned i = 0; i < LEN; i++)
    h = h * 33 + p[i];
  return h ^ (h >> 7);
}

int main(void) {
  unsigned s = 0;
  for (int i = 0; i < LEN; i++)
    data[i] = (unsigned char)(i * 7);
  for (int k = 0; k < CALLS; k++)
    s += mix(data);
  return s ? 0 : 1;
}
