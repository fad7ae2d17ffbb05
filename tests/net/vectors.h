/* The test vectors of docs/protocol.md, read from the document itself. */
#ifndef TALLY_TESTS_NET_VECTORS_H
#define TALLY_TESTS_NET_VECTORS_H

#include <stddef.h>
#include <stdint.h>

#define VEC_MAX 64

typedef struct vector {
  char name[64];
  uint8_t bytes[2048];
  size_t len;
  char decoded[4096];
} vector;

/* The key the authenticated vectors use (the document names it). */
#define VEC_KEY "tally protocol test key 0001"

/* Reads every "### Vector: NAME" with its ```hex and ```decoded blocks.
 * Returns the number read, or -1 with a message on stderr. */
int vectors_load(const char *path, vector *out, int max);

#endif
