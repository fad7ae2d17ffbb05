/* Counts the bytes on stdin with getchar (SYS_READC), then keeps reading:
 * past the end of input tally must stop it rather than spin. */
#include <stdio.h>

int main(void) {
  int n = 0;
  for (int c = getchar(); c != '\n'; c = getchar())
    n++;
  printf("line of %d bytes\n", n);
  for (;;)
    (void)getchar();
}
