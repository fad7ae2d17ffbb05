/* A guest that never ends: for the wall-time and CPU-time limits. */
int main(void) {
  volatile unsigned x = 0;
  for (;;)
    x++;
}
