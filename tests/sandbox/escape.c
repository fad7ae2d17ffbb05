/* A hostile guest: tries to open each host file named on its command line
 * through semihosting SYS_OPEN and reports what it got. Each argument is
 * MODE:PATH, MODE one of r (read), w (create/truncate and write), a
 * (append), u (read-write, no create). One line per attempt:
 *   r notes.txt: opened, read 'first bytes'
 *   w ../x: refused, errno 13
 * The calls are made directly (not through picolibc's open) so that the
 * mode numbers and paths reach tally exactly as a program could send them. */
#include <stdio.h>
#include <string.h>

enum { SYS_OPEN = 0x01, SYS_CLOSE = 0x02, SYS_WRITE = 0x05, SYS_READ = 0x06, SYS_ERRNO = 0x13 };

static long semihost(long op, void *args) {
  register long a0 __asm__("a0") = op;
  register void *a1 __asm__("a1") = args;
  __asm__ volatile(".option push\n.option norvc\n.balign 16\n"
                   "slli x0, x0, 0x1f\nebreak\nsrai x0, x0, 7\n.option pop"
                   : "+r"(a0) : "r"(a1) : "memory");
  return a0;
}

static int mode_number(char m) {
  switch (m) {
  case 'r': return 0;  /* "r" */
  case 'u': return 2;  /* "r+" */
  case 'w': return 4;  /* "w" */
  case 'a': return 8;  /* "a" */
  default: return -1;
  }
}

static void attempt(const char *arg) {
  int mode = mode_number(arg[0]);
  if (mode < 0 || arg[1] != ':') {
    printf("%s: bad argument\n", arg);
    return;
  }
  const char *path = arg + 2;
  long open_args[3] = {(long)path, mode, (long)strlen(path)};
  long h = semihost(SYS_OPEN, open_args);
  if (h < 0) {
    printf("%c %s: refused, errno %ld\n", arg[0], path, semihost(SYS_ERRNO, NULL));
    return;
  }
  if (arg[0] == 'r' || arg[0] == 'u') {
    char buf[17] = {0};
    long read_args[3] = {h, (long)buf, 16};
    long left = semihost(SYS_READ, read_args);
    for (int i = 0; i < 16; i++)
      if (buf[i] == '\n') buf[i] = '\0';
    printf("%c %s: opened, read %ld bytes '%s'\n", arg[0], path, 16 - left, buf);
  } else {
    static char msg[] = "PWNED\n";
    long write_args[3] = {h, (long)msg, 6};
    long left = semihost(SYS_WRITE, write_args);
    printf("%c %s: opened, wrote %ld bytes\n", arg[0], path, 6 - left);
  }
  long close_args[1] = {h};
  semihost(SYS_CLOSE, close_args);
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    attempt(argv[i]);
  return 0;
}
