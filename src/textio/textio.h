/* Bounded reading of user-named text files (README.md). */
#ifndef TALLY_TEXTIO_TEXTIO_H
#define TALLY_TEXTIO_TEXTIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* textio_getline's results other than a length. */
enum { TEXTIO_EOF = -1, TEXTIO_TOO_LONG = -2, TEXTIO_NOMEM = -3, TEXTIO_ERROR = -4 };

/* Opens `path` for reading if it is a regular file of at most max_bytes;
 * NULL with err ("PATH: not a regular file ...", "PATH: too large ...",
 * "PATH: cannot open: ...") otherwise. Never blocks on a FIFO. */
FILE *textio_open(const char *path, uint64_t max_bytes, const char *what, char *err, size_t errsize);

/* Reads one line (with its newline, if any) into *buf (grown as needed, at
 * most max_line + 1 bytes). Returns its length, or TEXTIO_EOF at the end,
 * TEXTIO_TOO_LONG when the line exceeds max_line bytes, TEXTIO_NOMEM or
 * TEXTIO_ERROR. */
ssize_t textio_getline(char **buf, size_t *cap, FILE *f, size_t max_line);

/* For readers of line-based files (inih's ini_parse_stream reader): the
 * next line without its leading blanks and its line end, at *line (inside
 * *buf). Returns its length or a TEXTIO_* code; for a code other than
 * TEXTIO_EOF, msg says why in words ("line too long (more than N bytes):
 * not a WHAT file", "out of memory", "read error: ..."). */
ssize_t textio_next_line(char **buf, size_t *cap, FILE *f, size_t max_line, const char *what, char **line,
                         char *msg, size_t msgsize);

/* Copies a line of len bytes into a buffer of size bytes (inih's). A
 * comment (';' or '#') that does not fit is cut, as it says nothing; any
 * other line that does not fit leaves dst empty and returns false, so the
 * caller can refuse it rather than read half a value. */
bool textio_fit_line(char *dst, size_t size, const char *line, size_t len);

#endif
