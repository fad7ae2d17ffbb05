/*
 * The protocol document's test vectors against the code: every vector
 * decodes, its fields are exactly the document's "decoded" block, its tag
 * (if any) verifies with the document's key, and encoding the decoded packet
 * gives back the same bytes. Every packet type must have a vector.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/auth.h"
#include "net/proto.h"
#include "vectors.h"

#include "check.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_vectors docs/protocol.md\n");
    return 2;
  }
  static vector v[VEC_MAX];
  int n = vectors_load(argv[1], v, VEC_MAX);
  CHECK(n >= 16, "%d vectors in %s, expected at least one per packet type", n, argv[1]);
  net_key key;
  char err[200];
  CHECK(net_key_set(&key, VEC_KEY, strlen(VEC_KEY), err, sizeof err) == 0, "%s", err);
  static net_msg m;
  bool seen[256] = {false};
  for (int i = 0; i < n; i++) {
    CHECK(v[i].len >= NET_HEADER_SIZE && v[i].decoded[0], "vector %s: empty hex or decoded block", v[i].name);
    if (net_decode(v[i].bytes, v[i].len, &m, err, sizeof err) != 0) {
      CHECK(0, "vector %s does not decode: %s", v[i].name, err);
      continue;
    }
    seen[m.h.type] = true;
    char text[4096];
    net_format(&m, text, sizeof text);
    CHECK(strcmp(text, v[i].decoded) == 0, "vector %s decodes to\n%s\nbut the document says\n%s", v[i].name, text,
          v[i].decoded);
    bool tagged = m.h.flags & NET_FLAG_AUTH;
    if (tagged)
      CHECK(net_verify(&key, v[i].bytes, v[i].len), "vector %s: tag does not verify with the document's key",
            v[i].name);
    uint8_t again[NET_MAX_PACKET];
    size_t len = net_encode(&m, tagged ? &key : NULL, again, err, sizeof err);
    CHECK(len == v[i].len && memcmp(again, v[i].bytes, len) == 0, "vector %s: re-encodes to %zu different bytes (%s)",
          v[i].name, len, len ? "" : err);
  }
  static const unsigned types[] = {NET_SET_TIMER, NET_SET_ARR, NET_SET_COUNTER, NET_START, NET_STOP, NET_QUERY,
                                   NET_ACK, NET_ERROR, NET_STATUS, NET_RUN_START, NET_COUNTER_INFO, NET_DATA,
                                   NET_DATA_COMPACT, NET_FINAL, NET_GONE, NET_RESEND, NET_FINAL_ACK};
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    CHECK(seen[types[i]], "no test vector for %s", net_type_name(types[i]));
  printf("%d vectors checked, %d failures\n", n, failures);
  return failures ? 1 : 0;
}
