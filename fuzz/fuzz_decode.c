/*
 * libFuzzer target for the packet decoder (src/net/proto.c). Any input may
 * be refused, but nothing may crash, hang or read outside the input, and
 * whatever is accepted must encode back to the same bytes: the format has
 * exactly one encoding per packet, so the decoder cannot be accepting
 * something it does not fully understand. The tag check runs on every
 * input too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "net/auth.h"
#include "net/proto.h"

static net_msg m;   /* ~16 KB: kept off the fuzzer's stack */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static net_key key;
  if (!key.len)
    net_key_set(&key, "tally protocol test key 0001", 28, NULL, 0);
  char err[200];
  if (net_decode(data, size, &m, err, sizeof err) != 0)
    return 0;
  char text[8192];
  net_format(&m, text, sizeof text);
  bool tagged = m.h.flags & NET_FLAG_AUTH;
  if (tagged)
    (void)net_verify(&key, data, size);
  uint8_t again[NET_MAX_PACKET];
  size_t n = net_encode(&m, tagged ? &key : NULL, again, err, sizeof err);
  size_t cmp = tagged ? size - NET_TAG_SIZE : size;
  if (n != size || memcmp(again, data, cmp) != 0)
    abort();   /* accepted, but not the one encoding of what it decoded to */
  return 0;
}
