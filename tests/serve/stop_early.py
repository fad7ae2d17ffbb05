#!/usr/bin/env python3
"""tally serve stops cleanly (exit 0) on a SIGTERM that comes as soon as it
has printed its address, before the main thread may have reached the point
where it waits for the signal. A helper thread started with the stop
signals unblocked took such a SIGTERM as its default action and killed the
server (status -15) about one start in eight on a loaded machine; the
server now blocks them before its first thread. The race is timing-bound,
so the check repeats it: with the old behaviour 40 starts all stopping
cleanly would have had a chance of about 0.4%.

usage: stop_early.py TALLY WORK_DIR
"""
import os
import shutil
import signal
import subprocess
import sys

TALLY, WORK = sys.argv[1:3]
ROUNDS = 40


def one(i):
    d = os.path.join(WORK, str(i))
    os.makedirs(d)
    p = subprocess.Popen([TALLY, "serve", "--listen", "127.0.0.1:0", "--db", os.path.join(d, "runs.db"),
                          "--dir", os.path.join(d, "srv")],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    if "open http://" not in line:
        p.kill()
        return "start %d: no address line: %r %s" % (i, line, p.stderr.read())
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(20)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        return "start %d: did not stop on SIGTERM" % i
    if p.returncode != 0:
        return "start %d: ended with status %d: %s" % (i, p.returncode, p.stderr.read().strip())
    return None


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    fails = [f for f in (one(i) for i in range(ROUNDS)) if f]
    for f in fails:
        print("FAIL: " + f, file=sys.stderr)
    if fails:
        print("%d of %d starts did not stop cleanly" % (len(fails), ROUNDS), file=sys.stderr)
        sys.exit(1)
    print("all %d starts stopped cleanly on an early SIGTERM" % ROUNDS)


main()
