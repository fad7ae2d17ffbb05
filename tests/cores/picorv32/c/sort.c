/* Insertion sort and a binary search over it; short and long branches. */
#include <stdint.h>
static int32_t v[200];
static int find(int32_t key) {
  int lo = 0, hi = 199;
  while (lo <= hi) {
    int mid = (lo + hi) >> 1;
    if (v[mid] == key) return mid;
    if (v[mid] < key) lo = mid + 1; else hi = mid - 1;
  }
  return -1;
}
int main(void) {
  uint32_t x = 7;
  for (int i = 0; i < 200; i++) {
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    v[i] = (int32_t)(x % 1000) - 500;
  }
  for (int i = 1; i < 200; i++) {
    int32_t k = v[i];
    int j = i - 1;
    while (j >= 0 && v[j] > k) { v[j + 1] = v[j]; j--; }
    v[j + 1] = k;
  }
  int bad = 0;
  for (int i = 1; i < 200; i++) bad += v[i - 1] > v[i];
  for (int i = 0; i < 200; i += 7) bad += find(v[i]) < 0;
  return bad;
}
