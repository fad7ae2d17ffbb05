/* Integer matrix multiply, divides and remainders, shifts by variables. */
#include <stdint.h>
#define N 10
static int32_t a[N][N], b[N][N], c[N][N];
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      a[i][j] = (i * 7 + j * 3) % 11 - 5;
      b[i][j] = (i * 5 - j * 2) % 13 + 1;
    }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      int32_t s = 0;
      for (int k = 0; k < N; k++) s += a[i][k] * b[k][j];
      c[i][j] = s;
    }
  uint32_t h = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      int32_t x = c[i][j];
      h += (uint32_t)(x / (j + 1)) ^ (uint32_t)(x % (i + 2));
      h = (h << (j & 31)) | (h >> ((32 - j) & 31));
      h ^= (uint32_t)(((int64_t)x * 0x12345) >> 32);
    }
  return h == 0x5a5a5a5au;
}
