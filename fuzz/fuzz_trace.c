/*
 * libFuzzer target: the binary instruction trace's reader
 * (tally_trace_print, src/debug/trace_bin.c), which reads files a user
 * names (`tally trace --print FILE`). The bytes are the file (fmemopen): a
 * damaged one must be refused with a reason, never crash or read outside
 * the input.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>

#include "tally/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0)
    return 0;
  FILE *in = fmemopen((void *)data, size, "rb");
  FILE *out = fopen("/dev/null", "w");
  if (in && out) {
    tally_error err = {0};
    if (tally_trace_print(in, out, &err) != 0 && !err.msg[0])
      __builtin_trap(); /* refused without a reason */
  }
  if (in)
    fclose(in);
  if (out)
    fclose(out);
  return 0;
}
