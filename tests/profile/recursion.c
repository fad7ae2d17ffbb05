/*
 * Direct and mutual recursion.
 *   sum(10): 11 calls of sum, 1 from main and 10 from sum itself.
 *   is_even(7) -> is_odd(6) -> is_even(5) -> ... -> is_odd(0):
 *     is_even: 4 calls (1 from main, 3 from is_odd); is_odd: 4 (from is_even).
 * None of them calls anything else, so each recursive cluster's inclusive
 * cycles equal the sum of its members' self cycles.
 */
#include "pstart.h"

__attribute__((noipa)) int sum(int n) {
  if (n == 0)
    return 0;
  int r = sum(n - 1);
  KEEP(r);
  return n + r;
}

__attribute__((noipa)) int is_odd(int n);

__attribute__((noipa)) int is_even(int n) {
  if (n == 0)
    return 1;
  int r = is_odd(n - 1);
  KEEP(r);
  return r;
}

__attribute__((noipa)) int is_odd(int n) {
  if (n == 0)
    return 0;
  int r = is_even(n - 1);
  KEEP(r);
  return r;
}

int main(void) {
  volatile int ten = 10, seven = 7;
  int s = sum(ten);
  int e = is_even(seven);
  return s == 55 && e == 0 ? 0 : 1;
}
