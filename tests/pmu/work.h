/*
 * work.h - the function measure.c and warm.c measure: loads, stores, taken
 * and untaken branches and divisions over data[N] (N is the includer's).
 * noinline, noclone: the programs find it by its symbol.
 */
static volatile int data[N];

int work(int n);

__attribute__((noinline, noclone)) int work(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        s += data[i] * 3;
        data[i] = s;
        if (s & 0x100)
            s /= 3;
    }
    return s;
}
