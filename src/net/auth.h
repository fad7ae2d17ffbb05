/*
 * Authentication of control packets and, with a key, of the run's stream
 * and the collector's replies: HMAC-SHA256 (libgcrypt) over the
 * header and payload, truncated to its first 16 bytes (128 bits, as
 * HMAC-SHA-256-128 of RFC 4868). docs/protocol.md, "Authentication".
 */
#ifndef TALLY_NET_AUTH_H
#define TALLY_NET_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NET_KEY_MIN 16
#define NET_KEY_MAX 1024

typedef struct net_key {
  size_t len;
  uint8_t bytes[NET_KEY_MAX];
} net_key;

/* The key is a file's bytes, as they are (e.g. head -c 32 /dev/urandom).
 * 0 on success; -1 with the reason in err (missing, too short, too long). */
int net_key_load(const char *path, net_key *key, char *err, size_t errlen);
/* The value of environment variable VAR, its bytes as they are (so that
 * `--key-env VAR` and `--key FILE` name the same key when FILE holds those
 * bytes and no newline). -1 with the reason in err (unset, too short...). */
int net_key_from_env(const char *var, net_key *key, char *err, size_t errlen);
/* The same from memory (tests). */
int net_key_set(net_key *key, const void *bytes, size_t len, char *err, size_t errlen);

/* tag = first 16 bytes of HMAC-SHA256(key, data[0..len)). */
void net_tag(const net_key *key, const uint8_t *data, size_t len, uint8_t tag[16]);

/* A whole datagram (header, payload, tag) whose AUTH flag is set: true if
 * its tag is right. Compares in constant time. */
bool net_verify(const net_key *key, const uint8_t *pkt, size_t len);

#endif
