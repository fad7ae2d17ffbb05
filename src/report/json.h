/*
 * A small JSON reader and the string escaping the JSON writers share.
 * The reader builds a tree of json_value; numbers keep their text so that
 * 64-bit counts come back exactly (json_u64), not through a double.
 */
#ifndef TALLY_REPORT_JSON_H
#define TALLY_REPORT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json_value json_value;
struct json_value {
  json_type type;
  unsigned line;           /* where the value starts, for messages */
  bool boolean;
  char *text;              /* JSON_STRING: the decoded string; JSON_NUMBER: its literal */
  size_t n;                /* JSON_ARRAY / JSON_OBJECT: number of items */
  json_value *items;       /* array items, or object values */
  char **keys;             /* object keys */
};

/* Parses `len` bytes of text. NULL with `err` ("line 3: expected ':'") on
 * a syntax error, trailing garbage, nesting deeper than 256, or no memory. */
json_value *json_parse(const char *text, size_t len, char *err, size_t errsize);
void json_free(json_value *v);

/* The member `key` of an object, NULL if absent or v is not an object. */
const json_value *json_get(const json_value *v, const char *key);
/* A non-negative integer that fits in 64 bits. */
bool json_u64(const json_value *v, uint64_t *out);

/* Writes s as a JSON string literal, quotes included. */
void json_write_string(FILE *f, const char *s);

#endif
