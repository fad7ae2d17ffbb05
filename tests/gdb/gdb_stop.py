#!/usr/bin/env python3
"""gdb.stop_*: the GDB stub never holds a stop back (no GDB needed: a raw
socket client). Usage: gdb_stop.py TALLY FOREVER_ELF CASE

malformed: a client sends a burst of malformed packets (bad checksums,
  3,000 bytes each) and then holds the line; one SIGINT, sent while the
  stub reads the burst (so it lands between two reads, with no system call
  to interrupt), must end tally run within 3 s with status 130.
detach: the same burst, then a detach ($D): the program runs on, and one
  SIGINT ends it within 3 s with status 130.
timeout: --timeout 1 with --gdb-wait and no GDB: the wait ends after 1 s
  with status 124 and '--timeout reached'.
"""
import signal
import socket
import subprocess
import sys
import time

tally, elf, case = sys.argv[1], sys.argv[2], sys.argv[3]


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start(*extra):
    port = free_port()
    p = subprocess.Popen([tally, "run", "--gdb", str(port), *extra, elf], stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    return p, port


def connect(port, p):
    deadline = time.time() + 20
    while time.time() < deadline:
        try:
            return socket.create_connection(("127.0.0.1", port))
        except OSError:
            if p.poll() is not None:
                fail(f"tally ended before GDB connected: {p.returncode}")
            time.sleep(0.02)
    fail("could not connect to the stub")


def ends(p, within, status, words):
    t0 = time.time()
    try:
        _, err = p.communicate(timeout=within)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        fail(f"{case}: tally run did not end within {within} s")
    if p.returncode != status or words not in err:
        fail(f"{case}: exit {p.returncode}, stderr {err!r}; expected {status} and '{words}'")
    return time.time() - t0


burst = b"".join(b"$" + b"m" * 3000 + b"#00" for _ in range(43))
if case in ("malformed", "detach"):
    for attempt in range(5):
        p, port = start("--gdb-wait")
        c = connect(port, p)
        c.sendall(burst + (b"$D#44" if case == "detach" else b""))
        time.sleep(0.2 if case == "detach" else 0.002 * attempt)
        p.send_signal(signal.SIGINT)
        took = ends(p, 3, 130, "interrupted")
        c.close()
        print(f"{case} try {attempt}: ended {took:.2f} s after SIGINT")
elif case == "timeout":
    p, port = start("--gdb-wait", "--timeout", "1")
    took = ends(p, 4, 124, "--timeout reached")
    if took > 3:
        fail(f"timeout: took {took:.2f} s")
    print(f"timeout: ended after {took:.2f} s")
else:
    fail(f"unknown case {case}")
print("ok")
