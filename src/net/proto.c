/*
 * Packet encoding and decoding (docs/protocol.md). Reads and writes go
 * through a cursor that refuses to step past its buffer, so a wrong length
 * in a packet can only make decoding fail, never read elsewhere.
 */
#include "proto.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "auth.h"

static const uint8_t magic[4] = {'T', 'A', 'L', 'Y'};

/* ---- cursors ---- */

typedef struct cursor {
  uint8_t *w;          /* writing: the buffer; NULL when reading */
  const uint8_t *r;
  size_t len, off;
  bool bad;
} cursor;

static const uint8_t *take(cursor *c, size_t n) {
  if (c->bad || n > c->len - c->off) {
    c->bad = true;
    return NULL;
  }
  const uint8_t *p = c->r + c->off;
  c->off += n;
  return p;
}

static uint64_t get_le(cursor *c, unsigned bytes) {
  const uint8_t *p = take(c, bytes);
  uint64_t v = 0;
  if (p)
    for (unsigned i = 0; i < bytes; i++)
      v |= (uint64_t)p[i] << (8 * i);
  return v;
}
static uint8_t get8(cursor *c) { return (uint8_t)get_le(c, 1); }
static uint16_t get16(cursor *c) { return (uint16_t)get_le(c, 2); }
static uint32_t get32(cursor *c) { return (uint32_t)get_le(c, 4); }
static uint64_t get64(cursor *c) { return get_le(c, 8); }

static void put_le(cursor *c, uint64_t v, unsigned bytes) {
  if (c->bad || bytes > c->len - c->off) {
    c->bad = true;
    return;
  }
  for (unsigned i = 0; i < bytes; i++)
    c->w[c->off++] = (uint8_t)(v >> (8 * i));
}
static void put8(cursor *c, uint64_t v) { put_le(c, v, 1); }
static void put16(cursor *c, uint64_t v) { put_le(c, v, 2); }
static void put32(cursor *c, uint64_t v) { put_le(c, v, 4); }
static void put64(cursor *c, uint64_t v) { put_le(c, v, 8); }
static void put_bytes(cursor *c, const void *p, size_t n) {
  if (c->bad || n > c->len - c->off) {
    c->bad = true;
    return;
  }
  if (n)
    memcpy(c->w + c->off, p, n);
  c->off += n;
}

/* ---- names ---- */

const char *net_type_name(unsigned type) {
  switch (type) {
  case NET_SET_TIMER: return "SET_TIMER";
  case NET_SET_ARR: return "SET_ARR";
  case NET_SET_COUNTER: return "SET_COUNTER";
  case NET_START: return "START";
  case NET_STOP: return "STOP";
  case NET_QUERY: return "QUERY";
  case NET_SET_TASK: return "SET_TASK";
  case NET_ACK: return "ACK";
  case NET_ERROR: return "ERROR";
  case NET_STATUS: return "STATUS";
  case NET_RUN_START: return "RUN_START";
  case NET_COUNTER_INFO: return "COUNTER_INFO";
  case NET_DATA: return "DATA";
  case NET_FINAL: return "FINAL";
  case NET_GONE: return "GONE";
  case NET_DATA_COMPACT: return "DATA_COMPACT";
  case NET_RESEND: return "RESEND";
  case NET_FINAL_ACK: return "FINAL_ACK";
  default: return NULL;
  }
}

const char *net_err_name(unsigned code) {
  static const char *const names[] = {
    [NET_E_MALFORMED] = "malformed packet", [NET_E_BAD_TAG] = "bad or missing authentication tag",
    [NET_E_STALE] = "stale sequence number", [NET_E_WRONG_RUN] = "wrong run id",
    [NET_E_BAD_VALUE] = "bad value", [NET_E_BAD_STATE] = "not allowed in this state",
    [NET_E_UNSUPPORTED] = "not supported by this board",
  };
  return code < sizeof names / sizeof names[0] && names[code] ? names[code] : "unknown error";
}

const char *net_state_name(unsigned state) {
  static const char *const names[] = {"configuring", "running", "stopping", "finished"};
  return state < 4 ? names[state] : "unknown";
}

bool net_is_control(unsigned type) { return type >= NET_SET_TIMER && type <= NET_SET_TASK; }

unsigned net_value_bytes(unsigned width) { return (width + 7) / 8; }

#define DATA_FIXED 32
#define FINAL_FIXED 40
#define RANGES_FIXED 4
#define DESC_FIXED 16

unsigned net_data_chunk(unsigned width) {
  if (width < 1 || width > 64)
    return 0;
  unsigned room = NET_MAX_PAYLOAD - NET_TAG_SIZE - DATA_FIXED;
  unsigned n = room * 8 / (8 * net_value_bytes(width) + 1);
  return n & ~7u;
}

size_t net_desc_size(const net_counter_desc *d) {
  return DESC_FIXED + (size_t)d->name_len + d->where_len + d->label_len;
}

static uint64_t width_max(unsigned width) { return width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1; }

/* ---- decoding ---- */

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...) {
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static const char *get_str(cursor *c, size_t n) { return (const char *)take(c, n); }

static bool zeros(cursor *c, size_t n) {
  const uint8_t *p = take(c, n);
  if (!p)
    return false;
  for (size_t i = 0; i < n; i++)
    if (p[i])
      return false;
  return true;
}

static int decode_ranges(cursor *c, net_msg *m, char *err, size_t errlen) {
  m->nranges = get16(c);
  if (!zeros(c, 2))
    return fail(err, errlen, "reserved bytes not zero");
  if (m->nranges == 0 || m->nranges > NET_MAX_RANGES)
    return fail(err, errlen, "%u ranges (1 to %d allowed)", m->nranges, NET_MAX_RANGES);
  for (unsigned i = 0; i < m->nranges; i++) {
    net_range *r = &m->range_buf[i];
    r->first = get32(c);
    r->count = get32(c);
    if (!c->bad && (r->count == 0 || (uint64_t)r->first + r->count > UINT64_C(1) << 32))
      return fail(err, errlen, "range %u [%" PRIu32 ", +%" PRIu32 ") is empty or past 2^32", i, r->first, r->count);
  }
  m->ranges = m->range_buf;
  return 0;
}

static int decode_descs(cursor *c, net_msg *m, char *err, size_t errlen) {
  m->first = get16(c);
  m->n = get16(c);
  if (c->bad)
    return 0;
  if (m->n == 0 || m->n > NET_MAX_DESCS)
    return fail(err, errlen, "%u counter descriptions (1 to %d allowed)", m->n, NET_MAX_DESCS);
  if ((uint32_t)m->first + m->n > 65536)
    return fail(err, errlen, "counters %u..%u past 65535", m->first, m->first + m->n - 1);
  for (unsigned i = 0; i < m->n && !c->bad; i++) {
    net_counter_desc *d = &m->desc_buf[i];
    d->signal = get16(c);
    d->arr = get16(c);
    d->lo = get32(c);
    d->hi = get32(c);
    uint8_t en = get8(c);
    d->name_len = get8(c);
    d->where_len = get8(c);
    d->label_len = get8(c);
    d->name = get_str(c, d->name_len);
    d->where = get_str(c, d->where_len);
    d->label = get_str(c, d->label_len);
    if (!c->bad && en > 1)
      return fail(err, errlen, "counter %u: enabled byte is %u (0 or 1)", m->first + i, en);
    d->enabled = en;
  }
  m->descs = m->desc_buf;
  return 0;
}

static int decode_data(cursor *c, net_msg *m, char *err, size_t errlen) {
  bool compact = m->h.type == NET_DATA_COMPACT;
  if (compact) {
    /* index (4), n (2), width (1), reserved (1): all counters, no stamps */
    m->index = get32(c);
    m->cycle_begin = m->cycle_end = 0;
    m->first = 0;
    m->n = get16(c);
    m->width = get8(c);
  } else {
    m->index = get64(c);
    m->cycle_begin = get64(c);
    m->cycle_end = get64(c);
    m->first = get16(c);
    m->n = get16(c);
    m->width = get8(c);
  }
  if (!zeros(c, compact ? 1 : 3))
    return c->bad ? 0 : fail(err, errlen, "reserved bytes not zero");
  if (m->width < 1 || m->width > 64)
    return fail(err, errlen, "counter width %u (1 to 64 bits)", m->width);
  if (m->n == 0 || m->n > NET_MAX_VALUES || (uint32_t)m->first + m->n > 65536)
    return fail(err, errlen, "counters [%u, +%u) not a valid chunk", m->first, m->n);
  if (m->cycle_end < m->cycle_begin)
    return fail(err, errlen, "cycle range ends (%" PRIu64 ") before it begins (%" PRIu64 ")", m->cycle_end,
                m->cycle_begin);
  unsigned vb = net_value_bytes(m->width);
  size_t need = (m->n + 7) / 8 + (size_t)m->n * vb;
  if (c->len - c->off != need)
    return fail(err, errlen, "%s for %u counters of %u bits needs %zu bytes after its fixed part, has %zu",
                compact ? "DATA_COMPACT" : "DATA", m->n, m->width, need, c->len - c->off);
  const uint8_t *bits = take(c, (m->n + 7) / 8);
  if (m->n % 8 && bits[m->n / 8] >> (m->n % 8))
    return fail(err, errlen, "saturation bitmap has bits set past counter %u", m->first + m->n - 1);
  uint64_t max = width_max(m->width);
  for (unsigned i = 0; i < m->n; i++) {
    m->value_buf[i] = get_le(c, vb);
    m->sat_buf[i] = (bits[i / 8] >> (i % 8)) & 1;
    if (m->value_buf[i] > max)
      return fail(err, errlen, "counter %u: value %" PRIu64 " exceeds %u bits", m->first + i, m->value_buf[i],
                  m->width);
    if (m->sat_buf[i] && m->value_buf[i] != max)
      return fail(err, errlen, "counter %u: marked saturated but its value %" PRIu64 " is not 2^%u-1", m->first + i,
                  m->value_buf[i], m->width);
  }
  m->values = m->value_buf;
  m->saturated = m->sat_buf;
  return 0;
}

static int decode_final(cursor *c, net_msg *m, char *err, size_t errlen) {
  m->intervals = get64(c);
  m->cycle_begin = get64(c);
  m->cycle_end = get64(c);
  m->data_packets = get32(c);
  m->total_packets = get32(c);
  m->counters = get16(c);
  m->first = get16(c);
  m->n = get16(c);
  m->cut_short = get8(c);
  if (!zeros(c, 1))
    return c->bad ? 0 : fail(err, errlen, "reserved byte not zero");
  if (m->cut_short > 1)
    return fail(err, errlen, "FINAL's cut_short is %u (0 or 1)", m->cut_short);
  /* n = 0: a board that keeps no totals (a small hardware build); the
   * collector adds up the intervals itself (docs/protocol.md, FINAL) */
  if (m->n == 0 && (m->first != 0 || m->counters == 0))
    return fail(err, errlen, "FINAL without totals must have first 0 and counters >= 1 (has first %u, %u counters)",
                m->first, m->counters);
  if ((uint32_t)m->first + m->n > m->counters)
    return fail(err, errlen, "totals [%u, +%u) outside the %u counters", m->first, m->n, m->counters);
  if (c->len - c->off != (size_t)m->n * 8)
    return fail(err, errlen, "FINAL with %u totals needs %u bytes after its fixed part, has %zu", m->n, m->n * 8,
                c->len - c->off);
  if (m->h.seq >= m->total_packets)
    return fail(err, errlen, "FINAL's sequence number %" PRIu32 " is not below its packet count %" PRIu32, m->h.seq,
                m->total_packets);
  if (m->cycle_end < m->cycle_begin)
    return fail(err, errlen, "cycle range ends before it begins");
  for (unsigned i = 0; i < m->n; i++)
    m->value_buf[i] = get64(c);
  m->values = m->value_buf;
  return 0;
}

static int decode_payload(cursor *c, net_msg *m, char *err, size_t errlen) {
  switch (m->h.type) {
  case NET_SET_TIMER:
    m->period = get64(c);
    return 0;
  case NET_SET_ARR: {
    m->index = get16(c);
    m->name_len = get8(c);
    if (!zeros(c, 1))
      return c->bad ? 0 : fail(err, errlen, "reserved byte not zero");
    m->lo = get32(c);
    m->hi = get32(c);
    m->name = get_str(c, m->name_len);
    return 0;
  }
  case NET_SET_COUNTER: {
    m->index = get16(c);
    m->signal = get16(c);
    m->arr = get16(c);
    uint8_t en = get8(c);
    m->task = get8(c);
    if (en > 1)
      return fail(err, errlen, "enabled byte is %u (0 or 1)", en);
    m->enabled = en;
    return 0;
  }
  case NET_SET_TASK: {
    m->index = get8(c);
    m->name_len = get8(c);
    if (!zeros(c, 2))
      return c->bad ? 0 : fail(err, errlen, "reserved bytes not zero");
    m->name = get_str(c, m->name_len);
    return 0;
  }
  case NET_START:
  case NET_STOP:
  case NET_QUERY:
    return 0;
  case NET_ACK:
    m->req_type = get8(c);
    if (!zeros(c, 3))
      return c->bad ? 0 : fail(err, errlen, "reserved bytes not zero");
    m->next_seq = get32(c);
    return 0;
  case NET_ERROR:
    m->req_type = get8(c);
    m->code = get8(c);
    m->name_len = get16(c);
    m->next_seq = get32(c);
    if (!c->bad && m->name_len > NET_MAX_TEXT)
      return fail(err, errlen, "error text of %u bytes (at most %d)", m->name_len, NET_MAX_TEXT);
    m->name = get_str(c, m->name_len);
    return 0;
  case NET_STATUS:
    m->state = get8(c);
    m->width = get8(c);
    m->counters = get16(c);
    m->arrs = get16(c);
    if (!zeros(c, 2))
      return c->bad ? 0 : fail(err, errlen, "reserved bytes not zero");
    m->next_seq = get32(c);
    m->bad_tags = get32(c);
    m->stale = get32(c);
    m->malformed = get32(c);
    m->period = get64(c);
    m->intervals = get64(c);
    m->cycle = get64(c);
    return 0;
  case NET_RUN_START:
    m->counters = get16(c);
    m->width = get8(c);
    if (!zeros(c, 1))
      return c->bad ? 0 : fail(err, errlen, "reserved byte not zero");
    m->arrs = get16(c);
    m->info_packets = get16(c);
    m->period = get64(c);
    m->freq_khz = get32(c);
    m->program_len = get16(c);
    m->core_len = get16(c);
    if (c->bad)
      return 0;
    if (m->width < 1 || m->width > 64 || m->counters == 0)
      return fail(err, errlen, "module of %u counters of %u bits", m->counters, m->width);
    if (m->program_len > NET_MAX_PROGRAM || m->core_len > NET_MAX_TEXT)
      return fail(err, errlen, "program name of %u bytes or core name of %u bytes too long", m->program_len,
                  m->core_len);
    m->program = get_str(c, m->program_len);
    m->core = get_str(c, m->core_len);
    return 0;
  case NET_COUNTER_INFO:
    return decode_descs(c, m, err, errlen);
  case NET_DATA:
  case NET_DATA_COMPACT:
    return decode_data(c, m, err, errlen);
  case NET_FINAL:
    return decode_final(c, m, err, errlen);
  case NET_GONE:
  case NET_RESEND:
    return decode_ranges(c, m, err, errlen);
  case NET_FINAL_ACK:
    m->verdict = get8(c);
    if (!zeros(c, 3))
      return c->bad ? 0 : fail(err, errlen, "reserved bytes not zero");
    m->received = get32(c);
    if (m->verdict != 1 && m->verdict != 2)
      return fail(err, errlen, "verdict %u (1 complete, 2 incomplete)", m->verdict);
    return 0;
  }
  return fail(err, errlen, "unknown packet type 0x%02x", m->h.type);
}

int net_decode(const uint8_t *buf, size_t len, net_msg *m, char *err, size_t errlen) {
  if (len < NET_HEADER_SIZE)
    return fail(err, errlen, "%zu bytes, shorter than the %d-byte header", len, NET_HEADER_SIZE);
  if (len > NET_MAX_PACKET)
    return fail(err, errlen, "%zu bytes, longer than the %d-byte maximum", len, NET_MAX_PACKET);
  if (memcmp(buf, magic, 4) != 0)
    return fail(err, errlen, "not a tally packet (bad magic)");
  cursor c = {.r = buf, .len = len, .off = 4};
  net_header *h = &m->h;
  h->version = get8(&c);
  h->type = get8(&c);
  h->flags = get16(&c);
  h->run_id = get64(&c);
  h->seq = get32(&c);
  h->length = get16(&c);
  uint16_t reserved = get16(&c);
  if (h->version != NET_VERSION)
    return fail(err, errlen, "protocol version %u (this side speaks %d)", h->version, NET_VERSION);
  if (!net_type_name(h->type))
    return fail(err, errlen, "unknown packet type 0x%02x", h->type);
  if (h->flags & ~NET_FLAG_AUTH)
    return fail(err, errlen, "unknown flags 0x%04x", h->flags);
  if (reserved)
    return fail(err, errlen, "reserved header bytes not zero");
  size_t tag = h->flags & NET_FLAG_AUTH ? NET_TAG_SIZE : 0;
  if ((size_t)NET_HEADER_SIZE + h->length + tag != len)
    return fail(err, errlen, "%s: header says %u payload bytes%s, datagram has %zu", net_type_name(h->type),
                h->length, tag ? " and a tag" : "", len - NET_HEADER_SIZE);
  if (tag)
    memcpy(m->tag, buf + len - tag, tag);
  else
    memset(m->tag, 0, sizeof m->tag);
  /* The payload cursor ends where the payload ends: the tag is not its to read. */
  cursor p = {.r = buf, .len = NET_HEADER_SIZE + h->length, .off = NET_HEADER_SIZE};
  if (decode_payload(&p, m, err, errlen) != 0)
    return -1;
  if (p.bad)
    return fail(err, errlen, "%s: payload of %u bytes is too short", net_type_name(h->type), h->length);
  if (p.off != p.len)
    return fail(err, errlen, "%s: %zu bytes left over after the payload", net_type_name(h->type), p.len - p.off);
  return 0;
}

/* ---- encoding ---- */

static void encode_payload(cursor *c, const net_msg *m) {
  switch (m->h.type) {
  case NET_SET_TIMER:
    put64(c, m->period);
    break;
  case NET_SET_ARR:
    put16(c, m->index);
    put8(c, m->name_len);
    put8(c, 0);
    put32(c, m->lo);
    put32(c, m->hi);
    put_bytes(c, m->name, m->name_len);
    break;
  case NET_SET_COUNTER:
    put16(c, m->index);
    put16(c, m->signal);
    put16(c, m->arr);
    put8(c, m->enabled);
    put8(c, m->task);
    break;
  case NET_SET_TASK:
    put8(c, m->index);
    put8(c, m->name_len);
    put16(c, 0);
    put_bytes(c, m->name, m->name_len);
    break;
  case NET_ACK:
    put8(c, m->req_type);
    put_le(c, 0, 3);
    put32(c, m->next_seq);
    break;
  case NET_ERROR:
    put8(c, m->req_type);
    put8(c, m->code);
    put16(c, m->name_len);
    put32(c, m->next_seq);
    put_bytes(c, m->name, m->name_len);
    break;
  case NET_STATUS:
    put8(c, m->state);
    put8(c, m->width);
    put16(c, m->counters);
    put16(c, m->arrs);
    put16(c, 0);
    put32(c, m->next_seq);
    put32(c, m->bad_tags);
    put32(c, m->stale);
    put32(c, m->malformed);
    put64(c, m->period);
    put64(c, m->intervals);
    put64(c, m->cycle);
    break;
  case NET_RUN_START:
    put16(c, m->counters);
    put8(c, m->width);
    put8(c, 0);
    put16(c, m->arrs);
    put16(c, m->info_packets);
    put64(c, m->period);
    put32(c, m->freq_khz);
    put16(c, m->program_len);
    put16(c, m->core_len);
    put_bytes(c, m->program, m->program_len);
    put_bytes(c, m->core, m->core_len);
    break;
  case NET_COUNTER_INFO:
    put16(c, m->first);
    put16(c, m->n);
    for (unsigned i = 0; i < m->n; i++) {
      const net_counter_desc *d = &m->descs[i];
      put16(c, d->signal);
      put16(c, d->arr);
      put32(c, d->lo);
      put32(c, d->hi);
      put8(c, d->enabled);
      put8(c, d->name_len);
      put8(c, d->where_len);
      put8(c, d->label_len);
      put_bytes(c, d->name, d->name_len);
      put_bytes(c, d->where, d->where_len);
      put_bytes(c, d->label, d->label_len);
    }
    break;
  case NET_DATA:
  case NET_DATA_COMPACT: {
    if (m->h.type == NET_DATA_COMPACT) {
      put32(c, (uint32_t)m->index);
      put16(c, m->n);
      put8(c, m->width);
      put8(c, 0);
    } else {
      put64(c, m->index);
      put64(c, m->cycle_begin);
      put64(c, m->cycle_end);
      put16(c, m->first);
      put16(c, m->n);
      put8(c, m->width);
      put_le(c, 0, 3);
    }
    for (unsigned i = 0; i < m->n; i += 8) {
      uint8_t byte = 0;
      for (unsigned b = 0; b < 8 && i + b < m->n; b++)
        byte |= (uint8_t)((m->saturated && m->saturated[i + b] ? 1 : 0) << b);
      put8(c, byte);
    }
    unsigned vb = net_value_bytes(m->width);
    for (unsigned i = 0; i < m->n; i++)
      put_le(c, m->values[i], vb);
    break;
  }
  case NET_FINAL:
    put64(c, m->intervals);
    put64(c, m->cycle_begin);
    put64(c, m->cycle_end);
    put32(c, m->data_packets);
    put32(c, m->total_packets);
    put16(c, m->counters);
    put16(c, m->first);
    put16(c, m->n);
    put8(c, m->cut_short ? 1 : 0);
    put8(c, 0);
    for (unsigned i = 0; i < m->n; i++)
      put64(c, m->values[i]);
    break;
  case NET_GONE:
  case NET_RESEND:
    put16(c, m->nranges);
    put16(c, 0);
    for (unsigned i = 0; i < m->nranges; i++) {
      put32(c, m->ranges[i].first);
      put32(c, m->ranges[i].count);
    }
    break;
  case NET_FINAL_ACK:
    put8(c, m->verdict);
    put_le(c, 0, 3);
    put32(c, m->received);
    break;
  default:   /* START, STOP, QUERY: no payload */
    break;
  }
}

/* What the wire cannot say (a length wider than its field, a value wider
 * than its counter) is refused rather than cut short. */
static int check_encodable(const net_msg *m, char *err, size_t errlen) {
  switch (m->h.type) {
  case NET_SET_COUNTER:
    if (m->index > 0xFFFF)
      return fail(err, errlen, "counter index %" PRIu64 " past 65535", m->index);
    return 0;
  case NET_SET_TASK:
    if (m->index > 0xFF)
      return fail(err, errlen, "task register %" PRIu64 " past 255", m->index);
    if (m->name_len > NET_MAX_TEXT)
      return fail(err, errlen, "a name of %u bytes (at most %d)", m->name_len, NET_MAX_TEXT);
    return 0;
  case NET_SET_ARR:
    if (m->index > 0xFFFF)
      return fail(err, errlen, "ARR index %" PRIu64 " past 65535", m->index);
    /* fall through */
  case NET_ERROR:
    if (m->name_len > NET_MAX_TEXT)
      return fail(err, errlen, "%s text of %u bytes (at most %d)", net_type_name(m->h.type), m->name_len, NET_MAX_TEXT);
    return 0;
  case NET_RUN_START:
    if (m->program_len > NET_MAX_PROGRAM || m->core_len > NET_MAX_TEXT)
      return fail(err, errlen, "program name (%u bytes) or core name (%u bytes) too long", m->program_len, m->core_len);
    if (m->width < 1 || m->width > 64 || m->counters == 0)
      return fail(err, errlen, "module of %u counters of %u bits", m->counters, m->width);
    return 0;
  case NET_COUNTER_INFO:
    if (m->n == 0 || m->n > NET_MAX_DESCS)
      return fail(err, errlen, "%u counter descriptions (1 to %d)", m->n, NET_MAX_DESCS);
    return 0;
  case NET_DATA_COMPACT:
    if (m->first != 0 || m->index > UINT32_MAX)
      return fail(err, errlen, "DATA_COMPACT starts at counter 0 (not %u) and numbers intervals in 32 bits (not %" PRIu64
                  ")", m->first, m->index);
    /* fall through */
  case NET_DATA:
    if (m->width < 1 || m->width > 64 || m->n == 0 || m->n > NET_MAX_VALUES)
      return fail(err, errlen, "DATA chunk of %u counters of %u bits", m->n, m->width);
    for (unsigned i = 0; i < m->n; i++)
      if (m->values[i] > width_max(m->width))
        return fail(err, errlen, "counter %u: value %" PRIu64 " exceeds %u bits", m->first + i, m->values[i], m->width);
    return 0;
  case NET_FINAL:
    if (m->n > NET_FINAL_CHUNK + 7)
      return fail(err, errlen, "FINAL chunk of %u totals", m->n);
    return 0;
  case NET_GONE:
  case NET_RESEND:
    if (m->nranges == 0 || m->nranges > NET_MAX_RANGES)
      return fail(err, errlen, "%u ranges (1 to %d)", m->nranges, NET_MAX_RANGES);
    return 0;
  default:
    return 0;
  }
}

size_t net_encode(const net_msg *m, const net_key *key, uint8_t *buf, char *err, size_t errlen) {
  if (!net_type_name(m->h.type)) {
    fail(err, errlen, "unknown packet type 0x%02x", m->h.type);
    return 0;
  }
  if (check_encodable(m, err, errlen) != 0)
    return 0;
  size_t tag = key ? NET_TAG_SIZE : 0;
  cursor c = {.w = buf, .len = NET_MAX_PACKET - tag, .off = NET_HEADER_SIZE};
  encode_payload(&c, m);
  if (c.bad) {
    fail(err, errlen, "%s packet does not fit in %d bytes", net_type_name(m->h.type), NET_MAX_PACKET);
    return 0;
  }
  size_t payload = c.off - NET_HEADER_SIZE;
  cursor h = {.w = buf, .len = NET_HEADER_SIZE};
  put_bytes(&h, magic, 4);
  put8(&h, NET_VERSION);
  put8(&h, m->h.type);
  put16(&h, key ? NET_FLAG_AUTH : 0);
  put64(&h, m->h.run_id);
  put32(&h, m->h.seq);
  put16(&h, payload);
  put16(&h, 0);
  if (tag)
    net_tag(key, buf, c.off, buf + c.off);
  return c.off + tag;
}

/* ---- "field = value" text ---- */

typedef struct out {
  char *p;
  size_t size, len;
} out;

static void emit(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void emit(out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t room = o->len < o->size ? o->size - o->len : 0;
  int n = vsnprintf(o->p + o->len, room, fmt, ap);
  va_end(ap);
  if (n > 0)
    o->len += (size_t)n < room ? (size_t)n : (room ? room - 1 : 0);
}

/* Strings are quoted, bytes outside printable ASCII written \xNN. */
static void emit_str(out *o, const char *key, const char *s, size_t n) {
  emit(o, "%s = \"", key);
  for (size_t i = 0; i < n; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch >= 0x20 && ch < 0x7f && ch != '"' && ch != '\\')
      emit(o, "%c", ch);
    else
      emit(o, "\\x%02x", ch);
  }
  emit(o, "\"\n");
}

static void emit_u64s(out *o, const char *key, const uint64_t *v, unsigned n) {
  emit(o, "%s =", key);
  for (unsigned i = 0; i < n; i++)
    emit(o, " %" PRIu64, v[i]);
  emit(o, "\n");
}

size_t net_format(const net_msg *m, char *buf, size_t size) {
  out o = {.p = buf, .size = size};
  if (size)
    buf[0] = '\0';
  emit(&o, "type = %s\nflags = 0x%04x\nrun_id = 0x%016" PRIx64 "\nseq = %" PRIu32 "\nlength = %u\n",
       net_type_name(m->h.type) ? net_type_name(m->h.type) : "?", m->h.flags, m->h.run_id, m->h.seq, m->h.length);
  switch (m->h.type) {
  case NET_SET_TIMER:
    emit(&o, "period = %" PRIu64 "\n", m->period);
    break;
  case NET_SET_ARR:
    emit(&o, "index = %" PRIu64 "\nlo = 0x%08" PRIx32 "\nhi = 0x%08" PRIx32 "\n", m->index, m->lo, m->hi);
    emit_str(&o, "name", m->name, m->name_len);
    break;
  case NET_SET_COUNTER:
    emit(&o, "index = %" PRIu64 "\nsignal = %u\narr = 0x%04x\nenabled = %u\n", m->index, m->signal, m->arr,
         m->enabled);
    if (m->task)
      emit(&o, "task = %u\n", m->task);
    break;
  case NET_SET_TASK:
    emit(&o, "index = %" PRIu64 "\n", m->index);
    emit_str(&o, "name", m->name, m->name_len);
    break;
  case NET_ACK:
    emit(&o, "req_type = %s\nnext_seq = %" PRIu32 "\n", net_type_name(m->req_type) ? net_type_name(m->req_type) : "?",
         m->next_seq);
    break;
  case NET_ERROR:
    emit(&o, "req_type = %s\ncode = %u\nnext_seq = %" PRIu32 "\n",
         net_type_name(m->req_type) ? net_type_name(m->req_type) : "?", m->code, m->next_seq);
    emit_str(&o, "text", m->name, m->name_len);
    break;
  case NET_STATUS:
    emit(&o,
         "state = %u\ncounters = %u\nwidth = %u\narrs = %u\nnext_seq = %" PRIu32 "\nbad_tags = %" PRIu32
         "\nstale = %" PRIu32 "\nmalformed = %" PRIu32 "\nperiod = %" PRIu64 "\nintervals = %" PRIu64
         "\ncycle = %" PRIu64 "\n",
         m->state, m->counters, m->width, m->arrs, m->next_seq, m->bad_tags, m->stale, m->malformed, m->period,
         m->intervals, m->cycle);
    break;
  case NET_RUN_START:
    emit(&o, "counters = %u\nwidth = %u\narrs = %u\ninfo_packets = %u\nperiod = %" PRIu64 "\nfreq_khz = %" PRIu32 "\n",
         m->counters, m->width, m->arrs, m->info_packets, m->period, m->freq_khz);
    emit_str(&o, "program", m->program, m->program_len);
    emit_str(&o, "core", m->core, m->core_len);
    break;
  case NET_COUNTER_INFO:
    emit(&o, "first = %u\nn = %u\n", m->first, m->n);
    for (unsigned i = 0; i < m->n; i++) {
      const net_counter_desc *d = &m->descs[i];
      emit(&o, "counter %u = signal %u, arr 0x%04x, lo 0x%08" PRIx32 ", hi 0x%08" PRIx32 ", enabled %u\n", m->first + i,
           d->signal, d->arr, d->lo, d->hi, d->enabled);
      emit_str(&o, "  name", d->name, d->name_len);
      emit_str(&o, "  where", d->where, d->where_len);
      emit_str(&o, "  label", d->label, d->label_len);
    }
    break;
  case NET_DATA:
  case NET_DATA_COMPACT:
    if (m->h.type == NET_DATA_COMPACT)
      emit(&o, "index = %" PRIu64 "\nn = %u\nwidth = %u\n", m->index, m->n, m->width);
    else
      emit(&o, "index = %" PRIu64 "\ncycle_begin = %" PRIu64 "\ncycle_end = %" PRIu64 "\nfirst = %u\nn = %u\nwidth = %u\n",
           m->index, m->cycle_begin, m->cycle_end, m->first, m->n, m->width);
    emit_u64s(&o, "values", m->values, m->n);
    emit(&o, "saturated =");
    bool any = false;
    for (unsigned i = 0; i < m->n; i++)
      if (m->saturated && m->saturated[i]) {
        emit(&o, " %u", m->first + i);
        any = true;
      }
    emit(&o, "%s\n", any ? "" : " none");
    break;
  case NET_FINAL:
    emit(&o,
         "intervals = %" PRIu64 "\ncycle_begin = %" PRIu64 "\ncycle_end = %" PRIu64 "\ndata_packets = %" PRIu32
         "\ntotal_packets = %" PRIu32 "\ncounters = %u\nfirst = %u\nn = %u\ncut_short = %u\n",
         m->intervals, m->cycle_begin, m->cycle_end, m->data_packets, m->total_packets, m->counters, m->first, m->n,
         m->cut_short);
    emit_u64s(&o, "totals", m->values, m->n);
    break;
  case NET_GONE:
  case NET_RESEND:
    emit(&o, "ranges =");
    for (unsigned i = 0; i < m->nranges; i++)
      emit(&o, " %" PRIu32 "+%" PRIu32, m->ranges[i].first, m->ranges[i].count);
    emit(&o, "\n");
    break;
  case NET_FINAL_ACK:
    emit(&o, "verdict = %u\nreceived = %" PRIu32 "\n", m->verdict, m->received);
    break;
  default:
    break;
  }
  if (m->h.flags & NET_FLAG_AUTH) {
    emit(&o, "tag =");
    for (int i = 0; i < NET_TAG_SIZE; i++)
      emit(&o, " %02x", m->tag[i]);
    emit(&o, "\n");
  }
  return o.len;
}
