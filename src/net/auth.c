/* HMAC-SHA256 tags for every packet of a keyed board and collector, through libgcrypt. */
#include "auth.h"

#include <errno.h>
#include <gcrypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

/* libgcrypt wants its version checked once before use; it keeps that state
 * itself, so asking it again is cheap and harmless. */
static void gcrypt_ready(void) {
  if (!gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P)) {
    gcry_check_version(NULL);
    gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
    gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
  }
}

int net_key_set(net_key *key, const void *bytes, size_t len, char *err, size_t errlen) {
  if (len < NET_KEY_MIN || len > NET_KEY_MAX) {
    snprintf(err, errlen, "key is %zu bytes; it must be %d to %d bytes (e.g. head -c 32 /dev/urandom)", len,
             NET_KEY_MIN, NET_KEY_MAX);
    return -1;
  }
  memcpy(key->bytes, bytes, len);
  key->len = len;
  return 0;
}

int net_key_load(const char *path, net_key *key, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "cannot open key file '%s': %s", path, strerror(errno));
    return -1;
  }
  uint8_t buf[NET_KEY_MAX + 1];
  size_t n = fread(buf, 1, sizeof buf, f);
  bool bad = ferror(f);
  fclose(f);
  if (bad) {
    snprintf(err, errlen, "cannot read key file '%s'", path);
    return -1;
  }
  char why[160];
  if (net_key_set(key, buf, n, why, sizeof why) != 0) {
    if (n > NET_KEY_MAX)
      snprintf(err, errlen, "key file '%s' is longer than %d bytes", path, NET_KEY_MAX);
    else
      snprintf(err, errlen, "key file '%s': %s", path, why);
    return -1;
  }
  return 0;
}

int net_key_from_env(const char *var, net_key *key, char *err, size_t errlen) {
  const char *v = getenv(var);
  if (!v || !*v) {
    snprintf(err, errlen, "environment variable %s (the key) is %s", var, v ? "empty" : "not set");
    return -1;
  }
  char why[160];
  if (net_key_set(key, v, strlen(v), why, sizeof why) != 0) {
    snprintf(err, errlen, "environment variable %s: %s", var, why);
    return -1;
  }
  return 0;
}

void net_tag(const net_key *key, const uint8_t *data, size_t len, uint8_t tag[16]) {
  gcrypt_ready();
  uint8_t mac[32];
  gcry_buffer_t iov[2] = {
    {.size = key->len, .len = key->len, .data = (void *)key->bytes},
    {.size = len, .len = len, .data = (void *)data},
  };
  gcry_md_hash_buffers(GCRY_MD_SHA256, GCRY_MD_FLAG_HMAC, mac, iov, 2);
  memcpy(tag, mac, NET_TAG_SIZE);
}

bool net_verify(const net_key *key, const uint8_t *pkt, size_t len) {
  if (len < NET_HEADER_SIZE + NET_TAG_SIZE)
    return false;
  uint8_t want[NET_TAG_SIZE];
  net_tag(key, pkt, len - NET_TAG_SIZE, want);
  const uint8_t *got = pkt + len - NET_TAG_SIZE;
  uint8_t diff = 0;
  for (int i = 0; i < NET_TAG_SIZE; i++)
    diff |= (uint8_t)(want[i] ^ got[i]);
  return diff == 0;
}
