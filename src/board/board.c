/* Board-wide state: the program's command line, its input, freeing. */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board.h"

void board_free(board *b) {
  if (!b)
    return;
  for (int i = 0; i < SEMIHOST_MAX_FILES; i++)
    if (b->files[i].kind == 1 && b->files[i].fd > STDERR_FILENO && b->files[i].fd != b->in_fd)
      close(b->files[i].fd);
  hostfs_free(&b->fs);
  for (int i = 0; i < PLIC_SOURCES; i++) {
    free(b->plic.stat[i].lat);
    free(b->plic.stat[i].rise);
  }
  free(b->irq.script);
  free(b->irq.per);
  free(b->irq.rx_bytes);
  free(b->irq.chunks);
  free(b->cmdline);
  free(b);
}

/* The semihosting command line is argv joined by spaces, argv[0] first. */
bool board_set_cmdline(board *b, int argc, char *const argv[]) {
  size_t len = 1;
  for (int i = 0; i < argc; i++)
    len += strlen(argv[i]) + 1;
  char *s = malloc(len);
  if (!s)
    return false;
  s[0] = '\0';
  for (int i = 0; i < argc; i++) {
    if (i)
      strcat(s, " ");
    strcat(s, argv[i]);
  }
  free(b->cmdline);
  b->cmdline = s;
  return true;
}

/* A read of the program's stdin would block until input comes, and a
 * signal only fails one read() (the guest reads again): wait in short polls
 * instead, so that a stop the host asks for (Ctrl-C, --timeout) ends the
 * wait. True when a read() will not block; false when the run is stopping. */
bool board_wait_input(core_cpu *cpu) {
  board *b = cpu->board;
  if (b->in_fd < 0)
    return !core_poll_stop_request(cpu);   /* no stdin: the read says end of input at once */
  for (;;) {
    if (core_poll_stop_request(cpu))
      return false;
    struct pollfd p = {.fd = b->in_fd, .events = POLLIN};
    int r = poll(&p, 1, BOARD_INPUT_POLL_MS);
    if (r > 0 || (r < 0 && errno != EINTR))
      return true;
  }
}
