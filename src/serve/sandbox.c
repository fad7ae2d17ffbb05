/*
 * What keeps a run to itself. Limits (set in the child before exec, so they
 * hold from the worker's first instruction): CPU seconds, address space,
 * the size of a file it may write, no core dumps. After the program is
 * loaded, a seccomp filter makes every call that opens, creates, renames,
 * removes or executes a file fail with EACCES: whatever the guest asks of
 * semihosting, no host file is reached. The filter is installed by the
 * thread the simulation runs in (worker.c). Sockets stay: the statistics
 * module's packets go to the server's collector over loopback UDP.
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "serve.h"

int serve_sandbox_limits(const serve_limits *lim) {
  /* SIGXCPU at the soft limit lets the run end and be stored as stopped;
   * the kernel's SIGKILL at the hard one ends it in any case */
  struct rlimit cpu = {lim->cpu_seconds, lim->cpu_seconds + 3};
  struct rlimit fsize = {256u << 20, 256u << 20}; /* the profile and the store stay far below */
  struct rlimit core = {0, 0};
  if (setrlimit(RLIMIT_CPU, &cpu) != 0 || setrlimit(RLIMIT_FSIZE, &fsize) != 0 ||
      setrlimit(RLIMIT_CORE, &core) != 0)
    return -1;
#if !defined(__SANITIZE_ADDRESS__)
  /* AddressSanitizer reserves terabytes of shadow address space: the
   * sanitizer build runs without this one limit. */
  struct rlimit as = {lim->mem_bytes, lim->mem_bytes};
  if (setrlimit(RLIMIT_AS, &as) != 0)
    return -1;
#endif
  return 0;
}

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#endif

#define DENY(nr) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), \
                 BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES)

int serve_sandbox_no_files(void) {
#ifdef ARCH
  struct sock_filter f[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#if defined(__x86_64__)
    /* x32 system calls have their own numbers: none is needed */
    BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    DENY(SYS_open), DENY(SYS_creat), DENY(SYS_unlink), DENY(SYS_rename), DENY(SYS_mkdir), DENY(SYS_rmdir),
    DENY(SYS_link), DENY(SYS_symlink), DENY(SYS_chmod), DENY(SYS_chown), DENY(SYS_lchown), DENY(SYS_truncate),
    DENY(SYS_mknod),
#endif
    DENY(SYS_openat), DENY(SYS_openat2), DENY(SYS_open_by_handle_at), DENY(SYS_unlinkat), DENY(SYS_renameat),
    DENY(SYS_renameat2), DENY(SYS_mkdirat), DENY(SYS_linkat), DENY(SYS_symlinkat), DENY(SYS_fchmodat),
    DENY(SYS_fchownat), DENY(SYS_mknodat), DENY(SYS_execve), DENY(SYS_execveat),
    DENY(SYS_ptrace),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  struct sock_fprog prog = {.len = sizeof f / sizeof f[0], .filter = f};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return -1;
#if defined(__SANITIZE_ADDRESS__)
  /* The calling thread (the simulation's) and the threads it starts only:
   * LeakSanitizer's check at exit runs on the main thread and must read
   * /proc. The guest runs in the filtered thread all the same. */
  unsigned flags = 0;
#else
  unsigned flags = SECCOMP_FILTER_FLAG_TSYNC; /* every thread of the worker */
#endif
  return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
#else
  errno = ENOSYS;
  return -1; /* no filter for this machine: the worker refuses to run */
#endif
}
