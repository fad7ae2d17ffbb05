/* Output that is not all valid UTF-8: stray bytes, a lone lead byte, a
 * surrogate and an overlong form, a sequence cut between two of the
 * worker's slices (the spin between its halves is longer than a slice of
 * 2 million instructions, so the halves come in two writes), and one the
 * program never finishes. The page must get all of it, each ill-formed
 * part as U+FFFD; BYTES in hardening.py is the same text. */
#include <stdio.h>

static void spin(unsigned n) {
  volatile unsigned x = 0;
  while (n--)
    x++;
}

int main(void) {
  fputs("plain ascii\n", stdout);
  fputs("bad \xff\xfe lone \xc3( surrogate \xed\xa0\x80 overlong \xc0\xaf end\n", stdout);
  fputs("euro cut \xe2\x82", stdout);
  fflush(stdout);
  spin(3000000);
  fputs("\xac whole \xc3\xa9\n", stdout);
  fputs("tail cut \xf0\x9f\x98", stdout);
  return 0;
}
