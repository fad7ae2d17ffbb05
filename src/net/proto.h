/*
 * The statistics module's UDP protocol (docs/protocol.md is the reference;
 * its test vectors are checked against this code).
 *
 * Every packet is a 24-byte header, a payload of `length` bytes and, when
 * the AUTH flag is set, a 16-byte tag (truncated HMAC-SHA256, auth.h). All
 * integers are little-endian. A datagram never exceeds NET_MAX_PACKET bytes.
 *
 * Decoding never allocates and never reads outside the buffer it is given:
 * every length is checked against the datagram's size before it is used.
 * A decoded net_msg points into the datagram for strings, so the datagram
 * must outlive the message; numbers are copied into the message's own
 * arrays. Encoding writes into a caller's buffer of NET_MAX_PACKET bytes.
 */
#ifndef TALLY_NET_PROTO_H
#define TALLY_NET_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NET_VERSION 1
/* A control packet's sequence number may be at most this far above the
 * last one the board accepted (docs/protocol.md, "Sequence numbers"). */
#define NET_CTL_SEQ_WINDOW 65536u
#define NET_MAX_PACKET 1400
#define NET_HEADER_SIZE 24
#define NET_TAG_SIZE 16
#define NET_MAX_PAYLOAD (NET_MAX_PACKET - NET_HEADER_SIZE)
#define NET_FLAG_AUTH 0x0001u

/* Room for a DATA packet's values (the most 1-byte values a payload can
 * hold); the encoder's chunk (net_data_chunk) is smaller. */
#define NET_MAX_VALUES 1200
/* FINAL packets carry at most this many 64-bit totals. */
#define NET_FINAL_CHUNK 160
/* RESEND / GONE: at most this many ranges. */
#define NET_MAX_RANGES 171
/* COUNTER_INFO: at most this many entries (each at least 16 bytes). */
#define NET_MAX_DESCS 85
#define NET_MAX_TEXT 255   /* names, labels, error text */
#define NET_MAX_PROGRAM 512

typedef enum net_type {
  /* collector/PC -> board: configuration (control packets) */
  NET_SET_TIMER = 0x01,
  NET_SET_ARR = 0x02,
  NET_SET_COUNTER = 0x03,
  NET_START = 0x04,
  NET_STOP = 0x05,
  NET_QUERY = 0x06,
  NET_SET_TASK = 0x07,
  /* board -> PC: replies to control packets */
  NET_ACK = 0x11,
  NET_ERROR = 0x12,
  NET_STATUS = 0x13,
  /* board -> collector: the run's packet stream (one sequence space per run) */
  NET_RUN_START = 0x21,
  NET_COUNTER_INFO = 0x22,
  NET_DATA = 0x23,
  NET_FINAL = 0x24,
  NET_GONE = 0x25,
  NET_DATA_COMPACT = 0x26,   /* a compact stream's DATA: no stamps, all counters (docs/protocol.md) */
  /* collector -> board */
  NET_RESEND = 0x31,
  NET_FINAL_ACK = 0x32,
} net_type;

/* Error codes in ERROR replies. */
typedef enum net_err {
  NET_E_MALFORMED = 1,     /* the packet does not decode */
  NET_E_BAD_TAG = 2,       /* missing or wrong authentication tag */
  NET_E_STALE = 3,         /* sequence number not above the last accepted one */
  NET_E_WRONG_RUN = 4,     /* run id is not the board's */
  NET_E_BAD_VALUE = 5,     /* index out of range, empty timer, unknown signal... */
  NET_E_BAD_STATE = 6,     /* e.g. START while running */
  NET_E_UNSUPPORTED = 7,   /* the board does not implement this request */
} net_err;

/* Board states in STATUS replies. */
typedef enum net_state {
  NET_STATE_CONFIGURING = 0,  /* waiting for START */
  NET_STATE_RUNNING = 1,
  NET_STATE_STOPPING = 2,     /* STOP received or program ended, final not yet sent */
  NET_STATE_FINISHED = 3,     /* final sent; answering resends */
} net_state;

typedef struct net_header {
  uint8_t version, type;
  uint16_t flags;
  uint64_t run_id;
  uint32_t seq;
  uint16_t length;   /* payload bytes */
} net_header;

typedef struct net_range {
  uint32_t first, count;   /* sequence numbers [first, first + count) */
} net_range;

/* One counter's description (COUNTER_INFO entry). Strings are not
 * NUL-terminated; each has its length. */
typedef struct net_counter_desc {
  uint16_t signal, arr;     /* arr: ARR index or 0xFFFF (anywhere) */
  uint32_t lo, hi;          /* the ARR's range [lo, hi) when arr != 0xFFFF */
  bool enabled;
  uint8_t name_len, where_len, label_len;
  const char *name;         /* signal name, e.g. "dcache.read_miss" */
  const char *where;        /* e.g. "MixColumns", "anywhere" */
  const char *label;        /* plain words */
} net_counter_desc;

/* A packet, decoded or to encode. Only the fields of its type are used. */
typedef struct net_msg {
  net_header h;
  uint8_t tag[NET_TAG_SIZE];   /* decoded: the tag as received (AUTH flag) */

  /* SET_TIMER, RUN_START, STATUS */
  uint64_t period;
  /* SET_ARR, SET_COUNTER: the ARR's or counter's index (16 bits on the
   * wire; DATA's interval index below shares the field); SET_ARR: lo, hi, name */
  uint32_t lo, hi;
  uint16_t name_len;
  const char *name;
  /* SET_COUNTER (task: its task register, 0 for none); SET_TASK: the
   * register's index (1..16) and name/name_len */
  uint16_t signal, arr;
  bool enabled;
  uint8_t task;
  /* ACK, ERROR: the request type answered; next control sequence number
   * (ACK, ERROR, STATUS); ERROR code and text (name/name_len) */
  uint8_t req_type, code;
  uint32_t next_seq;
  /* STATUS */
  uint8_t state;
  uint32_t bad_tags, stale, malformed;
  uint64_t cycle;
  /* STATUS, RUN_START, FINAL: module parameters */
  uint16_t counters, arrs;
  uint8_t width;
  /* RUN_START */
  uint16_t info_packets;
  uint32_t freq_khz;
  uint16_t program_len, core_len;
  const char *program, *core;
  /* COUNTER_INFO, DATA, FINAL: counters [first, first + n) */
  uint16_t first, n;
  const net_counter_desc *descs;       /* COUNTER_INFO */
  /* DATA, DATA_COMPACT (32 bits on the wire, first 0, no stamps: the
   * collector derives them): interval index; STATUS, FINAL: intervals
   * dispatched */
  uint64_t index, intervals;
  uint64_t cycle_begin, cycle_end;     /* DATA, FINAL */
  const uint64_t *values;              /* DATA values, FINAL totals */
  const uint8_t *saturated;            /* DATA: one byte (0/1) per counter */
  /* FINAL */
  uint32_t data_packets, total_packets;
  uint8_t cut_short;                   /* 1: the program did not run to its end */
  /* RESEND, GONE */
  uint16_t nranges;
  const net_range *ranges;
  /* FINAL_ACK: 1 complete, 2 incomplete; packets the collector holds */
  uint8_t verdict;
  uint32_t received;

  /* Storage the decoder fills and the pointers above point to. */
  uint64_t value_buf[NET_MAX_VALUES];
  uint8_t sat_buf[NET_MAX_VALUES];
  net_range range_buf[NET_MAX_RANGES];
  net_counter_desc desc_buf[NET_MAX_DESCS];
} net_msg;

struct net_key;

/* Decodes one datagram. 0 on success; -1 with a one-line reason in err.
 * Checks magic, version, type, reserved bits and every length; does not
 * check the tag (net_verify in auth.h does). */
int net_decode(const uint8_t *buf, size_t len, net_msg *m, char *err, size_t errlen);

/* Encodes m (its header's type, run id, seq; flags are set here) into buf
 * (NET_MAX_PACKET bytes). With a key the packet carries a tag. Returns the
 * datagram's length, or 0 if m does not fit or is invalid (reason in err). */
size_t net_encode(const net_msg *m, const struct net_key *key, uint8_t *buf, char *err, size_t errlen);

/* Bytes per value in a DATA packet for a counter width (1..64 bits). */
unsigned net_value_bytes(unsigned width);
/* How many counters one DATA packet carries for this width: the largest
 * multiple of 8 that fits with room left for a tag (160 at 64 bits, 320 at
 * 32, 624 at 16, 1,176 at 8). */
unsigned net_data_chunk(unsigned width);
/* Bytes one COUNTER_INFO entry takes. */
size_t net_desc_size(const net_counter_desc *d);

const char *net_type_name(unsigned type);
const char *net_err_name(unsigned code);
const char *net_state_name(unsigned state);
bool net_is_control(unsigned type);   /* SET_*, START, STOP, QUERY, SET_TASK */

/* Writes a decoded message as "field = value" lines (the form of the
 * "decoded" blocks in docs/protocol.md). Returns the length written (the
 * text is cut at size - 1). */
size_t net_format(const net_msg *m, char *out, size_t size);

#endif
