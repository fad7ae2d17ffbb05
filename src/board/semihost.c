/*
 * RISC-V semihosting (the Arm semihosting calls, RV32 flavour: every field
 * of a parameter block is 32 bits). Covers every call picolibc's semihost
 * library makes. The program's ":tt" handles are tally's stdin, stdout and
 * stderr and always work; other names are host files, opened only as the
 * board's policy allows (hostfs.c: one directory, read-only by default).
 * Calls that would change the host beyond a file the program opened
 * (remove, rename, system) are refused.
 *
 * Time calls read the simulated clock, not the host's, so a program that
 * prints its own timing gives the same output on every run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "board.h"

enum {
  SYS_OPEN = 0x01, SYS_CLOSE = 0x02, SYS_WRITEC = 0x03, SYS_WRITE0 = 0x04, SYS_WRITE = 0x05,
  SYS_READ = 0x06, SYS_READC = 0x07, SYS_ISERROR = 0x08, SYS_ISTTY = 0x09, SYS_SEEK = 0x0a,
  SYS_FLEN = 0x0c, SYS_TMPNAM = 0x0d, SYS_REMOVE = 0x0e, SYS_RENAME = 0x0f, SYS_CLOCK = 0x10,
  SYS_TIME = 0x11, SYS_SYSTEM = 0x12, SYS_ERRNO = 0x13, SYS_GET_CMDLINE = 0x15,
  SYS_HEAPINFO = 0x16, SYS_EXIT = 0x18, SYS_EXIT_EXTENDED = 0x20, SYS_ELAPSED = 0x30,
  SYS_TICKFREQ = 0x31,
};

#define ADP_STOPPED_APPLICATION_EXIT 0x20026u
#define FILE_HOST 1
#define FILE_FEATURES 2

/* ":semihosting-features": magic, then EXIT_EXTENDED | STDOUT_STDERR */
static const uint8_t features[5] = {'S', 'H', 'F', 'B', 0x03};

typedef struct call {
  core_cpu *cpu;
  board *b;
  uint32_t args;
} call;

static bool arg(const call *c, unsigned i, uint32_t *v) {
  return core_read_mem(c->cpu, c->args + 4 * i, v, 4);
}

static uint32_t fail(call *c, int err) {
  c->b->sh_errno = err;
  return UINT32_MAX;
}

static semihost_file *handle(board *b, uint32_t h) {
  return h >= 1 && h <= SEMIHOST_MAX_FILES && b->files[h - 1].kind ? &b->files[h - 1] : NULL;
}

static uint32_t new_handle(board *b, int kind, int fd) {
  for (uint32_t i = 0; i < SEMIHOST_MAX_FILES; i++) {
    if (!b->files[i].kind) {
      b->files[i] = (semihost_file){.kind = kind, .fd = fd};
      return i + 1;
    }
  }
  return 0;
}

/* Copies a guest string of known length; NULL if it is not all in RAM. */
static char *guest_string(core_cpu *cpu, uint32_t addr, uint32_t len) {
  if (len > 4096)
    return NULL;
  char *s = malloc(len + 1);
  if (s && !core_read_mem(cpu, addr, s, len)) {
    free(s);
    return NULL;
  }
  if (s)
    s[len] = '\0';
  return s;
}

/* Tells the user (on the program's stderr) why a host file was refused:
 * the first few times only, since a hostile program may ask forever. The
 * name is the guest's bytes, so anything unprintable is shown as '?'. */
static void note_refusal(board *b, const char *path, const char *why) {
  if (b->fs.refusals++ >= SEMIHOST_REFUSAL_NOTES)
    return;
  fprintf(b->err, "tally: semihosting: refused '");
  for (size_t i = 0; path[i] && i < 200; i++)
    fputc(path[i] >= 0x20 && path[i] < 0x7f ? path[i] : '?', b->err);
  fprintf(b->err, "': %s (tally run --semihost-files, --semihost-root)\n", why);
}

static uint32_t sys_open(call *c) {
  uint32_t name, mode, len;
  if (!arg(c, 0, &name) || !arg(c, 1, &mode) || !arg(c, 2, &len))
    return fail(c, EFAULT);
  char *path = guest_string(c->cpu, name, len);
  if (!path)
    return fail(c, EFAULT);
  uint32_t h = 0;
  if (strcmp(path, ":tt") == 0) {
    int fd = mode < 4 ? c->b->in_fd : mode < 8 ? STDOUT_FILENO : STDERR_FILENO;
    h = new_handle(c->b, FILE_HOST, fd);
  } else if (strcmp(path, ":semihosting-features") == 0) {
    h = new_handle(c->b, FILE_FEATURES, -1);
  } else {
    const char *why;
    int fd = hostfs_open(&c->b->fs, path, len, mode, &why);
    if (fd < 0) {
      if (why)
        note_refusal(c->b, path, why);
      free(path);
      return fail(c, -fd);
    }
    h = new_handle(c->b, FILE_HOST, fd);
    if (!h)
      close(fd);
  }
  free(path);
  return h ? h : fail(c, EMFILE);
}

static uint32_t sys_close(call *c) {
  uint32_t h;
  semihost_file *f;
  if (!arg(c, 0, &h) || !(f = handle(c->b, h)))
    return fail(c, EBADF);
  if (f->kind == FILE_HOST && f->fd > STDERR_FILENO && f->fd != c->b->in_fd)
    close(f->fd);
  f->kind = 0;
  return 0;
}

static void out_bytes(board *b, int fd, const char *p, size_t n) {
  if (fd == STDOUT_FILENO) fwrite(p, 1, n, b->out);
  else if (fd == STDERR_FILENO) fwrite(p, 1, n, b->err);
}

/* Returns the number of bytes NOT written, as the spec asks. */
static uint32_t sys_write(call *c) {
  uint32_t h, buf, len;
  semihost_file *f;
  if (!arg(c, 0, &h) || !arg(c, 1, &buf) || !arg(c, 2, &len))
    return fail(c, EFAULT);
  if (!(f = handle(c->b, h)) || f->kind != FILE_HOST) {
    c->b->sh_errno = EBADF;
    return len;
  }
  char chunk[4096];
  uint32_t done = 0;
  while (done < len) {
    uint32_t n = len - done < sizeof chunk ? len - done : sizeof chunk;
    if (!core_read_mem(c->cpu, buf + done, chunk, n)) {
      c->b->sh_errno = EFAULT;
      break;
    }
    if (f->fd == STDOUT_FILENO || f->fd == STDERR_FILENO) {
      out_bytes(c->b, f->fd, chunk, n);
    } else {
      ssize_t w = write(f->fd, chunk, n);
      if (w < 0) { c->b->sh_errno = errno; break; }
      if ((uint32_t)w < n) { done += (uint32_t)w; break; }
    }
    done += n;
  }
  return len - done;
}

/* Returns the number of bytes NOT read (len on end of file). */
static uint32_t sys_read(call *c) {
  uint32_t h, buf, len;
  semihost_file *f;
  if (!arg(c, 0, &h) || !arg(c, 1, &buf) || !arg(c, 2, &len))
    return fail(c, EFAULT);
  if (!(f = handle(c->b, h))) {
    c->b->sh_errno = EBADF;
    return len;
  }
  char chunk[4096];
  uint32_t want = len < sizeof chunk ? len : (uint32_t)sizeof chunk, got = 0;
  if (f->kind == FILE_FEATURES) {
    while (got < want && f->pos < sizeof features)
      chunk[got++] = (char)features[f->pos++];
  } else {
    if (f->fd == c->b->in_fd) {
      fflush(c->b->out); /* show a prompt before blocking on input */
      if (!board_wait_input(c->cpu)) {
        c->b->sh_errno = EINTR; /* the run is stopping: nothing read */
        return len;
      }
    }
    ssize_t r = read(f->fd, chunk, want);
    if (r < 0) {
      c->b->sh_errno = errno;
      return len;
    }
    got = (uint32_t)r;
  }
  if (!core_write_mem(c->cpu, buf, chunk, got)) {
    c->b->sh_errno = EFAULT;
    return len;
  }
  return len - got;
}

static uint32_t sys_seek(call *c) {
  uint32_t h, pos;
  semihost_file *f;
  if (!arg(c, 0, &h) || !arg(c, 1, &pos) || !(f = handle(c->b, h)))
    return fail(c, EBADF);
  if (f->kind == FILE_FEATURES) {
    f->pos = pos;
    return 0;
  }
  return lseek(f->fd, (off_t)pos, SEEK_SET) < 0 ? fail(c, errno) : 0;
}

static uint32_t sys_flen(call *c) {
  uint32_t h;
  semihost_file *f;
  struct stat st;
  if (!arg(c, 0, &h) || !(f = handle(c->b, h)))
    return fail(c, EBADF);
  if (f->kind == FILE_FEATURES)
    return sizeof features;
  return fstat(f->fd, &st) < 0 ? fail(c, errno) : (uint32_t)st.st_size;
}

static uint32_t sys_istty(call *c) {
  uint32_t h;
  semihost_file *f;
  if (!arg(c, 0, &h) || !(f = handle(c->b, h)))
    return fail(c, EBADF);
  return f->kind == FILE_HOST && (f->fd <= STDERR_FILENO || f->fd == c->b->in_fd || isatty(f->fd));
}

static uint32_t sys_get_cmdline(call *c) {
  uint32_t buf, size;
  if (!arg(c, 0, &buf) || !arg(c, 1, &size))
    return fail(c, EFAULT);
  const char *s = c->b->cmdline ? c->b->cmdline : "";
  uint32_t n = (uint32_t)strlen(s);
  if (n + 1 > size)
    return fail(c, ENOSPC);
  if (!core_write_mem(c->cpu, buf, s, n + 1) || !core_write_mem(c->cpu, c->args + 4, &n, 4))
    return fail(c, EFAULT);
  return 0;
}

static uint32_t sys_exit(call *c, bool extended) {
  uint32_t reason = c->cpu->x[11], code = 0;
  if (extended && (!arg(c, 0, &reason) || !arg(c, 1, &code)))
    return fail(c, EFAULT);
  c->cpu->exit_code = reason == ADP_STOPPED_APPLICATION_EXIT ? (int)code : 1;
  core_set_stop(c->cpu, CORE_STOP_EXIT, "semihosting exit (reason 0x%x, code %d)", reason,
                c->cpu->exit_code);
  return 0;
}

static uint32_t sys_elapsed(call *c) {
  uint64_t t = core_cycle_now(c->cpu);
  return core_write_mem(c->cpu, c->args, &t, 8) ? 0 : fail(c, EFAULT);
}

void board_semihost(core_cpu *cpu) {
  call c = {.cpu = cpu, .b = cpu->board, .args = cpu->x[11]};
  uint32_t op = cpu->x[10], r;
  switch (op) {
  case SYS_OPEN: r = sys_open(&c); break;
  case SYS_CLOSE: r = sys_close(&c); break;
  case SYS_WRITEC: {
    char ch;
    r = core_read_mem(cpu, c.args, &ch, 1) ? (fputc(ch, c.b->out), 0) : fail(&c, EFAULT);
    break;
  }
  case SYS_WRITE0: {
    char ch;
    for (uint32_t a = c.args; core_read_mem(cpu, a, &ch, 1) && ch; a++)
      fputc(ch, c.b->out);
    r = 0;
    break;
  }
  case SYS_WRITE: r = sys_write(&c); break;
  case SYS_READ: r = sys_read(&c); break;
  case SYS_READC: {
    /* SYS_READC has no way to say "end of input" (picolibc's getchar turns
     * -1 into 0xff), so a program reading past the end would spin forever:
     * after many reads at end of input, stop it and say why. */
    unsigned char ch;
    fflush(c.b->out);
    if (c.b->in_fd >= 0 && !board_wait_input(cpu)) {
      r = UINT32_MAX; /* the run is stopping: not end of input */
    } else if (c.b->in_fd >= 0 && read(c.b->in_fd, &ch, 1) == 1) {
      r = ch;
      c.b->readc_at_eof = 0;
    } else {
      r = UINT32_MAX;
      if (++c.b->readc_at_eof == SEMIHOST_READC_EOF_LIMIT)
        core_set_stop(cpu, CORE_STOP_HALT,
                      "the program keeps reading past the end of its input (SYS_READC cannot report end of file)");
    }
    break;
  }
  case SYS_ISERROR: { uint32_t v; r = arg(&c, 0, &v) ? (int32_t)v < 0 : 0; break; }
  case SYS_ISTTY: r = sys_istty(&c); break;
  case SYS_SEEK: r = sys_seek(&c); break;
  case SYS_FLEN: r = sys_flen(&c); break;
  case SYS_CLOCK: r = (uint32_t)(core_cycle_now(cpu) / (BOARD_CORE_HZ / 100)); break;
  /* the simulated clock, as SYS_CLOCK and SYS_ELAPSED: seconds since reset */
  case SYS_TIME: r = (uint32_t)(core_cycle_now(cpu) / BOARD_CORE_HZ); break;
  case SYS_ERRNO: r = (uint32_t)c.b->sh_errno; break;
  case SYS_GET_CMDLINE: r = sys_get_cmdline(&c); break;
  case SYS_HEAPINFO: {
    static const uint32_t unknown[4] = {0, 0, 0, 0}; /* the program's own linker symbols rule */
    uint32_t block;
    r = arg(&c, 0, &block) && core_write_mem(cpu, block, unknown, sizeof unknown) ? 0 : fail(&c, EFAULT);
    break;
  }
  case SYS_EXIT: r = sys_exit(&c, false); break;
  case SYS_EXIT_EXTENDED: r = sys_exit(&c, true); break;
  case SYS_ELAPSED: r = sys_elapsed(&c); break;
  case SYS_TICKFREQ: r = BOARD_CORE_HZ; break;
  case SYS_TMPNAM: case SYS_REMOVE: case SYS_RENAME: case SYS_SYSTEM:
    r = fail(&c, EPERM);
    break;
  default:
    r = fail(&c, ENOSYS);
    break;
  }
  cpu->x[10] = r;
}
