/* Runs a differential-test kernel (tests/cores/picorv32/c, built with
 * -Dmain=kernel_main) REPEAT times: a longer run of the same code, for the
 * speed comparison with the RTL (bench/picorv32-rtl.md). */
int kernel_main(void);
int main(void) {
  int r = 0;
  for (int i = 0; i < REPEAT; i++) r |= kernel_main();
  return r;
}
