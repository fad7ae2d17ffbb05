/* Reads the test vectors out of docs/protocol.md (see vectors.h). */
#include "vectors.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_hex_line(const char *line, vector *v) {
  const char *p = line;
  while (*p && !isspace((unsigned char)*p))   /* the offset column */
    p++;
  for (;;) {
    while (isspace((unsigned char)*p))
      p++;
    if (!*p)
      return 0;
    unsigned byte;
    int used;
    if (sscanf(p, "%2x%n", &byte, &used) != 1 || used != 2 || v->len >= sizeof v->bytes)
      return -1;
    v->bytes[v->len++] = (uint8_t)byte;
    p += used;
  }
}

int vectors_load(const char *path, vector *out, int max) {
  FILE *f = fopen(path, "r");
  if (!f) {
    perror(path);
    return -1;
  }
  char line[1024];
  int n = -1;
  enum { NONE, HEX, DECODED } in = NONE;
  int lineno = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (strncmp(line, "### Vector: ", 12) == 0) {
      if (++n >= max) {
        fprintf(stderr, "%s:%d: more than %d vectors\n", path, lineno, max);
        fclose(f);
        return -1;
      }
      memset(&out[n], 0, sizeof out[n]);
      snprintf(out[n].name, sizeof out[n].name, "%.63s", line + 12);
      out[n].name[strcspn(out[n].name, "\r\n")] = '\0';
      continue;
    }
    if (n < 0)
      continue;
    if (in == NONE) {
      if (strncmp(line, "```hex", 6) == 0)
        in = HEX;
      else if (strncmp(line, "```decoded", 10) == 0)
        in = DECODED;
      continue;
    }
    if (strncmp(line, "```", 3) == 0) {
      in = NONE;
      continue;
    }
    if (in == HEX && parse_hex_line(line, &out[n]) != 0) {
      fprintf(stderr, "%s:%d: bad hex line in vector %s\n", path, lineno, out[n].name);
      fclose(f);
      return -1;
    }
    if (in == DECODED)
      strncat(out[n].decoded, line, sizeof out[n].decoded - strlen(out[n].decoded) - 1);
  }
  fclose(f);
  return n + 1;
}
