/*
 * The check the C tests share: a failed CHECK prints where and why and is
 * counted; the test goes on, so one run shows every failure, and main
 * returns failures ? 1 : 0.
 */
#ifndef TALLY_TESTS_CHECK_H
#define TALLY_TESTS_CHECK_H

#include <stdio.h>

static int failures, checks;

#define CHECK(cond, ...)                                                                                               \
  do {                                                                                                                 \
    checks++;                                                                                                          \
    if (!(cond)) {                                                                                                     \
      failures++;                                                                                                      \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                                                             \
      fprintf(stderr, __VA_ARGS__);                                                                                    \
      fputc('\n', stderr);                                                                                             \
    }                                                                                                                  \
  } while (0)

#endif
