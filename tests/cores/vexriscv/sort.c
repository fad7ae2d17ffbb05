/* sort.c -- insertion sort of 300 words and an 8x8 matrix sweep: loads,
 * stores, load-use, nested loops, calls; no multiply, so it runs on rv32i. */
#define N 300
static int a[N];
static int m1[8][8], m2[8][8], m3[8][8];

static unsigned next(unsigned x) {
    x ^= x << 13;
    x ^= x >> 17;
    return x ^ (x << 5);
}

static void isort(int *v, int n) {
    for (int i = 1; i < n; i++) {
        int x = v[i], j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

int main(void) {
    unsigned x = 7;
    for (int i = 0; i < N; i++) {
        x = next(x);
        a[i] = (int)(x >> 8) - (1 << 23);
    }
    isort(a, N);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            m1[i][j] = i + j + j - 5;
            m2[i][j] = i + i + i - j;
        }
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int s = 0;
            for (int k = 0; k < 8; k++) s += (m1[i][k] ^ m2[k][j]) + (m1[i][k] << (k & 3));
            m3[i][j] = s;
        }
    int sum = 0;
    for (int i = 1; i < N; i++) sum += a[i] >= a[i - 1];
    for (int i = 0; i < 8; i++) sum += m3[i][i];
    return sum & 0xffff;
}
