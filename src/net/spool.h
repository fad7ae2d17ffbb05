/*
 * A spool file: the datagrams a board sent, kept on local disk so that a run
 * whose collector never answered is not lost (docs/protocol.md, "Spool
 * files"). The board appends each stream packet once, as first sent; a
 * collector reads the file back later (`tally collect --import`) and takes
 * the packets as if they had come over the network.
 *
 * Format: the 8 bytes "TALSPL1\n", then records of a 2-byte little-endian
 * length (1 to NET_MAX_PACKET) and that many bytes of datagram.
 */
#ifndef TALLY_NET_SPOOL_H
#define TALLY_NET_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define NET_SPOOL_MAGIC "TALSPL1\n"

typedef struct net_spool net_spool;

/* Creates PATH (mode 0600, never through a symlink, never over an existing
 * file). NULL with the reason in err. */
net_spool *net_spool_create(const char *path, char *err, size_t errlen);
/* Appends one datagram; -1 with errno on a write error. */
int net_spool_add(net_spool *s, const void *buf, size_t len);
/* Flushes and closes; -1 if anything written was lost (errno). */
int net_spool_close(net_spool *s);

/* Called with each datagram; nonzero stops the reading. */
typedef int (*net_spool_fn)(void *ctx, const uint8_t *buf, size_t len);

/* Reads PATH back. Returns the number of datagrams read (>= 0); *truncated
 * is set when the file ends inside a record (a board killed while writing:
 * what came before is kept). -1 with err when the file cannot be read
 * (*bad_input false) or is not a spool file (*bad_input true). */
long net_spool_read(const char *path, net_spool_fn fn, void *ctx, bool *truncated, bool *bad_input, char *err,
                    size_t errlen);

#endif
