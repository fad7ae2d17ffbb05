/*
 * The decoder against bad packets: every prefix of every document vector,
 * a byte too many, wrong magic/version/type/flags/reserved/lengths, lies
 * inside payloads, oversized datagrams, and a quarter million seeded
 * mutations. Laws: nothing bad is accepted; whatever is accepted encodes
 * back to the same bytes (one encoding per packet); nothing reads outside
 * its buffer (run under ASan in the sanitizer build).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/auth.h"
#include "net/proto.h"
#include "vectors.h"

#include "check.h"

static net_msg m;
static vector v[VEC_MAX];
static int nv;

/* Decodes a copy in a buffer of exactly len bytes, so ASan sees any
 * overread. The copy lives until the next call (m points into it). */
static int decode_exact(const uint8_t *bytes, size_t len, char *err, size_t errlen) {
  static uint8_t *copy;
  free(copy);
  copy = malloc(len ? len : 1);
  memcpy(copy, bytes, len);
  return net_decode(copy, len, &m, err, errlen);
}

static const vector *find(const char *name) {
  for (int i = 0; i < nv; i++)
    if (strcmp(v[i].name, name) == 0)
      return &v[i];
  fprintf(stderr, "no vector named %s in the document\n", name);
  exit(1);
}

/* A vector with bytes changed: refused, and the reason mentions `why`. */
static void expect_refused(const char *name, size_t off, uint8_t value, const char *why) {
  const vector *x = find(name);
  uint8_t b[2048];
  memcpy(b, x->bytes, x->len);
  b[off] = value;
  char err[200] = "";
  int rc = decode_exact(b, x->len, err, sizeof err);
  CHECK(rc != 0, "%s with byte %zu = 0x%02x was accepted", name, off, value);
  CHECK(!why || strstr(err, why), "%s with byte %zu = 0x%02x: reason '%s' does not mention '%s'", name, off, value,
        err, why);
}

static void truncations_and_extensions(void) {
  char err[200];
  for (int i = 0; i < nv; i++) {
    for (size_t len = 0; len < v[i].len; len++)
      CHECK(decode_exact(v[i].bytes, len, err, sizeof err) != 0, "%s cut to %zu bytes was accepted", v[i].name, len);
    uint8_t b[2048];
    memcpy(b, v[i].bytes, v[i].len);
    b[v[i].len] = 0;
    CHECK(decode_exact(b, v[i].len + 1, err, sizeof err) != 0, "%s with a byte added was accepted", v[i].name);
  }
}

static void header_faults(void) {
  expect_refused("set-timer", 0, 'X', "magic");
  expect_refused("set-timer", 4, 2, "version 2");
  expect_refused("set-timer", 4, 0, "version 0");
  static const uint8_t bad_types[] = {0x00, 0x08, 0x10, 0x14, 0x20, 0x27, 0x30, 0x33, 0xFF};
  for (size_t i = 0; i < sizeof bad_types; i++)
    expect_refused("set-timer", 5, bad_types[i], "unknown packet type");
  expect_refused("set-timer", 6, 0x02, "flags");
  expect_refused("set-timer", 7, 0x80, "flags");
  expect_refused("set-timer", 6, 0x01, "tag");           /* AUTH without a tag: the size is wrong */
  expect_refused("set-timer", 20, 7, "payload bytes");   /* length one short */
  expect_refused("set-timer", 20, 9, "payload bytes");   /* one long */
  expect_refused("set-timer", 21, 1, "payload bytes");
  expect_refused("set-timer", 22, 1, "reserved");
  /* A type changed to one whose payload has another size. */
  expect_refused("set-timer", 5, NET_START, "left over");
  expect_refused("stop", 5, NET_SET_TIMER, "too short");
  char err[200];
  uint8_t big[NET_MAX_PACKET + 1];
  memset(big, 0, sizeof big);
  memcpy(big, find("set-timer")->bytes, find("set-timer")->len);
  CHECK(decode_exact(big, sizeof big, err, sizeof err) != 0 && strstr(err, "longer"), "1,401 bytes accepted (%s)", err);
  CHECK(decode_exact(big, 0, err, sizeof err) != 0 && strstr(err, "shorter"), "0 bytes accepted (%s)", err);
}

static void payload_lies(void) {
  /* offsets are 24 (header) + the payload offsets of docs/protocol.md */
  expect_refused("set-arr", 24 + 2, 11, NULL);            /* name_len past the end */
  expect_refused("set-arr", 24 + 2, 9, "left over");      /* name_len short */
  expect_refused("set-arr", 24 + 3, 1, "reserved");
  expect_refused("set-counter", 24 + 6, 2, "enabled");
  /* byte 7 is the task register (version 1 reserved it; docs/protocol.md, "Compatibility") */
  expect_refused("set-task", 24 + 2, 1, "reserved");
  expect_refused("set-task", 24 + 3, 1, "reserved");
  expect_refused("ack", 24 + 1, 1, "reserved");
  expect_refused("error", 24 + 2, 200, "too short");      /* text_len past the end */
  expect_refused("error", 24 + 3, 1, NULL);               /* text_len 256+ */
  expect_refused("run-start", 24 + 2, 0, "bits");          /* width 0 */
  expect_refused("run-start", 24 + 2, 65, "bits");
  expect_refused("run-start", 24 + 0, 0, "counters");      /* 0 counters */
  expect_refused("run-start", 24 + 22, 200, "too short");  /* core_len past the end */
  expect_refused("counter-info", 24 + 2, 3, "too short");  /* one entry more than there is */
  expect_refused("counter-info", 24 + 2, 0, "descriptions");
  expect_refused("counter-info", 24 + 4 + 13, 60, NULL);   /* name_len of entry 0 past the end */
  expect_refused("counter-info", 24 + 4 + 12, 7, "enabled");
  expect_refused("data", 24 + 28, 0, "width");
  expect_refused("data", 24 + 28, 65, "width");
  expect_refused("data", 24 + 28, 20, "needs");            /* 20 bits: 3 bytes a value, size is wrong */
  expect_refused("data", 24 + 26, 5, "needs");             /* n = 5 */
  expect_refused("data", 24 + 26, 0, "chunk");             /* n = 0 */
  expect_refused("data", 24 + 29, 1, "reserved");
  expect_refused("data", 24 + 32, 0x12, "past counter");   /* bitmap bit 4 with n = 4 */
  expect_refused("data", 24 + 32, 0x03, "saturated");      /* counter 0 marked saturated at 17 */
  expect_refused("data", 24 + 34, 0xFF, "exceeds");        /* counter 0 = 0xFF11 > 4095 */
  expect_refused("data", 24 + 35, 0x10, "saturated");      /* counter 1 = 0x0F10, still marked saturated */
  /* DATA_COMPACT: index (4), n (2), width (1), reserved (1), bitmap, values */
  expect_refused("data-compact", 24 + 6, 0, "width");
  expect_refused("data-compact", 24 + 6, 65, "width");
  expect_refused("data-compact", 24 + 6, 20, "DATA_COMPACT for 4 counters of 20 bits needs");
  expect_refused("data-compact", 24 + 4, 5, "needs");              /* n = 5 */
  expect_refused("data-compact", 24 + 4, 0, "chunk");              /* n = 0 */
  expect_refused("data-compact", 24 + 7, 1, "reserved");
  expect_refused("data-compact", 24 + 8, 0x12, "past counter");    /* bitmap bit 4 with n = 4 */
  expect_refused("data-compact", 24 + 8, 0x03, "saturated");       /* counter 0 marked saturated at 17 */
  expect_refused("data-compact", 24 + 10, 0xFF, "exceeds");        /* counter 0 = 0xFF11 > 4095 */
  expect_refused("data-compact", 5, NET_DATA, "too short");        /* read as a full DATA */
  expect_refused("data", 24 + 18, 0, "before it begins");  /* cycle_end 0x01A80 < cycle_begin */
  expect_refused("final", 24 + 36, 5, "outside");          /* first + n > counters */
  expect_refused("final", 24 + 28, 12, "not below");       /* total_packets = seq */
  expect_refused("final", 24 + 38, 2, "cut_short");
  expect_refused("final", 24 + 39, 1, "reserved");
  expect_refused("resend", 24 + 0, 0, "ranges");
  expect_refused("resend", 24 + 0, 3, "too short");
  expect_refused("resend", 24 + 8, 0, "empty");            /* count of range 0 = 0 */
  expect_refused("final-ack", 24 + 0, 3, "verdict");
  expect_refused("final-ack", 24 + 2, 1, "reserved");
}

/* Near misses that must be accepted, so the refusals above are known to
 * come from the checks they name. */
static void accepted_cases(void) {
  const vector *x = find("data");
  uint8_t b[2048];
  char err[200];
  memcpy(b, x->bytes, x->len);
  b[24 + 33] = 0xFF;   /* counter 0 = 0x00FF: fits 12 bits */
  CHECK(decode_exact(b, x->len, err, sizeof err) == 0 && m.values[0] == 0xFF, "12-bit value 0x00FF refused: %s", err);
  memcpy(b, x->bytes, x->len);
  b[24 + 8] = 0;       /* an earlier cycle_begin */
  CHECK(decode_exact(b, x->len, err, sizeof err) == 0, "an earlier cycle_begin refused: %s", err);
  /* GONE for [0xFFFFFFFF, +1) ends exactly at 2^32: fine; +2 is not. */
  x = find("gone");
  memcpy(b, x->bytes, x->len);
  memset(b + 24 + 4, 0xFF, 4);
  b[24 + 8] = 1;
  CHECK(decode_exact(b, x->len, err, sizeof err) == 0, "range [0xFFFFFFFF, +1) refused: %s", err);
  b[24 + 8] = 2;
  CHECK(decode_exact(b, x->len, err, sizeof err) != 0 && strstr(err, "2^32"), "range past 2^32 accepted (%s)", err);
  /* A FINAL without totals (a board that keeps none, docs/protocol.md):
   * the vector's fixed part with n = 0 and a 40-byte payload. Not at first 1. */
  x = find("final");
  memcpy(b, x->bytes, 24 + 40);
  b[20] = 40, b[21] = 0, b[24 + 36] = 0, b[24 + 37] = 0;
  CHECK(decode_exact(b, 24 + 40, err, sizeof err) == 0 && m.n == 0 && m.first == 0, "FINAL without totals refused: %s",
        err);
  b[24 + 34] = 1;
  CHECK(decode_exact(b, 24 + 40, err, sizeof err) != 0 && strstr(err, "without totals"),
        "FINAL without totals at first 1 accepted (%s)", err);
}

static void encoder_refusals(void) {
  uint8_t out[NET_MAX_PACKET];
  char err[200];
  static char name[300];
  memset(name, 'a', sizeof name);
  net_msg e = {.h = {.type = NET_SET_ARR}, .name = name, .name_len = 256};
  CHECK(net_encode(&e, NULL, out, err, sizeof err) == 0, "SET_ARR with a 256-byte name encoded");
  static uint64_t vals[400];
  vals[3] = 4096;
  e = (net_msg){.h = {.type = NET_DATA}, .width = 12, .n = 4, .values = vals};
  CHECK(net_encode(&e, NULL, out, err, sizeof err) == 0 && strstr(err, "exceeds"), "DATA value past its width encoded");
  vals[3] = 0;
  e = (net_msg){.h = {.type = NET_DATA}, .width = 64, .n = 200, .values = vals};
  CHECK(net_encode(&e, NULL, out, err, sizeof err) == 0 && strstr(err, "fit"), "200 64-bit values encoded in a packet");
  e.n = (uint16_t)net_data_chunk(64);
  size_t len = net_encode(&e, NULL, out, err, sizeof err);
  CHECK(len > 0 && len + NET_TAG_SIZE <= NET_MAX_PACKET, "a full 64-bit chunk takes %zu bytes", len);
  /* The chunk table of docs/protocol.md, computed from its rule by hand. */
  CHECK(net_data_chunk(8) == 1176 && net_data_chunk(16) == 624 && net_data_chunk(32) == 320 && net_data_chunk(64) == 160,
        "chunk sizes %u %u %u %u", net_data_chunk(8), net_data_chunk(16), net_data_chunk(32), net_data_chunk(64));
}

static uint64_t rng = 0x5EED;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* Mutations of the vectors: accepted ones must encode to the same bytes. */
static void mutations(void) {
  net_key key;
  char err[200];
  net_key_set(&key, VEC_KEY, strlen(VEC_KEY), err, sizeof err);
  int accepted = 0;
  for (int round = 0; round < 250000; round++) {
    const vector *x = &v[next() % (uint64_t)nv];
    uint8_t b[2048];
    size_t len = x->len;
    memcpy(b, x->bytes, len);
    int edits = 1 + (int)(next() % 3);
    for (int e = 0; e < edits; e++) {
      uint64_t r = next();
      switch (r % 4) {
      case 0: b[(r >> 8) % len] ^= (uint8_t)(1u << ((r >> 20) % 8)); break;
      case 1: b[(r >> 8) % len] = (uint8_t)(r >> 32); break;
      case 2: if (len > 1) len -= 1 + (r >> 8) % (len < 8 ? len - 1 : 8); break;
      case 3: if (len < sizeof b - 8) { memset(b + len, (int)(r >> 40), 1 + (r >> 8) % 8); len += 1 + (r >> 8) % 8; } break;
      }
    }
    if (decode_exact(b, len, err, sizeof err) != 0)
      continue;
    accepted++;
    bool tagged = m.h.flags & NET_FLAG_AUTH;
    uint8_t again[NET_MAX_PACKET];
    size_t n = net_encode(&m, tagged ? &key : NULL, again, err, sizeof err);
    size_t cmp = tagged ? len - NET_TAG_SIZE : len;
    if (n != len || memcmp(again, b, cmp) != 0) {
      CHECK(0, "a mutated %s (%zu bytes) decodes but re-encodes to %zu other bytes", x->name, len, n);
      break;
    }
  }
  printf("mutations: %d of 250000 accepted and re-encoded identically\n", accepted);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_robust docs/protocol.md\n");
    return 2;
  }
  nv = vectors_load(argv[1], v, VEC_MAX);
  if (nv < 16)
    return 1;
  truncations_and_extensions();
  header_faults();
  payload_lies();
  accepted_cases();
  encoder_refusals();
  mutations();
  printf("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
