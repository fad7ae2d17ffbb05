#!/usr/bin/env python3
"""Exact instruction count of a board program, measured on QEMU.

usage: qemu_icount.py [--timeout S] PROG.elf [ARGS...]

Debian's QEMU 7.2 has no TCG plugins, and its mcycle/minstret follow the
host clock, so the count comes from QEMU's execution trace instead: with
one instruction per translation block and block chaining off, `-d exec`
logs one line per executed instruction. A -dfilter leaves out the virt
machine's boot ROM (the reset vector QEMU runs before jumping to the ELF
entry), so the figure is what tally reports: instructions from the entry
point to the end of the program, the final semihosting or test-finisher
exit included. (The start-up code reads the command line character by
character, so the count depends on the length of the ELF path given.)

This is slow (under a million instructions per second): use it on small
sizes. Prints the count on stdout; the program's own output is discarded.
Exit status: 0, or 1 if QEMU fails or the program exits non-zero, 77 if
QEMU is not installed.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading

# Everything but virt's mrom (0x1000..0xffff: reset vector, device tree).
DFILTER = "0x0..0xfff,0x10000..0xffffffff"


def qemu_binary():
    return os.environ.get("QEMU_SYSTEM_RISCV32", "qemu-system-riscv32")


def one_insn_per_tb_option(qemu):
    """-singlestep until QEMU 8.1 renamed it to -accel tcg,one-insn-per-tb=on."""
    out = subprocess.run([qemu, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"version (\d+)\.(\d+)", out)
    if m and (int(m.group(1)), int(m.group(2))) >= (8, 1):
        return ["-accel", "tcg,one-insn-per-tb=on"]
    return ["-singlestep"]


def count(elf, args, timeout=600):
    """Returns (instructions, exit status of QEMU)."""
    qemu = qemu_binary()
    semi = "enable=on,target=native,chardev=con"
    for a in [os.path.basename(elf)] + list(args):   # tally passes argv[0] as its base name
        semi += ",arg=" + a.replace(",", ",,")
    with tempfile.TemporaryDirectory(prefix="tally-icount.") as d:
        fifo = os.path.join(d, "trace")
        os.mkfifo(fifo)
        result = {"n": 0}

        def reader():
            n = 0
            with open(fifo, "rb") as f:
                carry = b""
                while True:
                    chunk = f.read(1 << 20)
                    if not chunk:
                        break
                    data = carry + chunk
                    cut = data.rfind(b"\n") + 1
                    n += (b"\n" + data[:cut]).count(b"\nTrace ")
                    carry = data[cut:]
            result["n"] = n

        t = threading.Thread(target=reader, daemon=True)
        t.start()
        cmd = [qemu, "-M", "virt", "-bios", "none", "-nographic", "-monitor", "none",
               "-serial", "none", "-chardev", "stdio,id=con,mux=on", "-serial", "chardev:con",
               "-semihosting-config", semi] + one_insn_per_tb_option(qemu) + [
               "-d", "nochain,exec", "-dfilter", DFILTER, "-D", fifo, "-kernel", elf]
        try:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, timeout=timeout)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            rc = 124
        # If QEMU never opened the log, unblock the reader.
        if t.is_alive():
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                os.close(fd)
            except OSError:
                pass
        t.join(timeout=60)
        return result["n"], rc


def main(argv):
    timeout = 600
    if len(argv) >= 2 and argv[0] == "--timeout":
        timeout = float(argv[1])
        argv = argv[2:]
    if not argv:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    if shutil.which(qemu_binary()) is None:
        print(f"qemu_icount.py: SKIP: {qemu_binary()} not found", file=sys.stderr)
        return 77
    n, rc = count(argv[0], argv[1:], timeout)
    print(n)
    if rc != 0:
        print(f"qemu_icount.py: QEMU exit status {rc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
