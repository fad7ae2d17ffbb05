/*
 * One line of a source file, for annotated disassembly (the way perf
 * annotate and KCachegrind show the source beside the instructions).
 *
 * The path comes from the program's line table, which the program's author
 * wrote: only regular files are read (a FIFO or a device named there would
 * block or never end), opened without blocking, and lines are read in a
 * bounded buffer (a longer line is cut).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile_text.h"

/* Opens path for reading if it is a regular file; NULL otherwise. */
static FILE *open_regular(const char *path) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  struct stat st;
  FILE *f = NULL;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
    f = fdopen(fd, "r");
  if (!f)
    close(fd);
  return f;
}

int report_source_line(const char *path, uint32_t line, char *buf, size_t size) {
  if (!path || line == 0 || size < 2)
    return 0;
  FILE *f = open_regular(path);
  if (!f)
    return 0;
  uint32_t at = 1;
  bool cut = false; /* the buffer ended before the line did */
  int found = 0;
  while (fgets(buf, (int)size, f)) {
    size_t len = strlen(buf);
    bool whole = len && buf[len - 1] == '\n';
    if (at == line && !cut) {
      buf[strcspn(buf, "\r\n")] = '\0';
      found = 1;
      break;
    }
    cut = !whole;
    if (whole)
      at++;
  }
  fclose(f);
  return found;
}
