/* Runs a VexRiscv differential-test kernel (tests/cores/vexriscv, built
 * with -Dmain=kernel_main) REPEAT times: a longer run of the same code,
 * for the speed comparison with the RTL (bench/vexriscv.md). Exit code 0
 * when every run gave the first one's result, 1 otherwise. */
int kernel_main(void);
int main(void) {
    int first = kernel_main(), bad = 0;
    for (int i = 1; i < REPEAT; i++)
        bad |= kernel_main() != first;
    return bad;
}
