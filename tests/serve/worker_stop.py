#!/usr/bin/env python3
"""serve.worker_stop: a run's worker (tally serve --worker DIR, as the
server starts it) whose program reads its stdin again and again
(tests/programs/read_forever.S; a served run has no stdin) ends on the
server's Stop (SIGTERM) and on its wall-time limit (SIGUSR1) within 2 s,
with an end event that says why. It used to wait inside the read for input
that could never come, until SIGKILL, with no end event.

usage: worker_stop.py TALLY READ_FOREVER_ELF WORK_DIR
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

TALLY, ELF, WORK = sys.argv[1:4]
fails = []
shutil.rmtree(WORK, ignore_errors=True)
for sig, reason in ((signal.SIGTERM, "stopped by the user"), (signal.SIGUSR1, "stopped at its wall-time limit")):
    d = os.path.join(WORK, sig.name)
    os.makedirs(d)
    with open(os.path.join(d, "job.json"), "w") as f:
        json.dump({"program": ELF, "max_insns": 10**12}, f)
    p = subprocess.Popen([TALLY, "serve", "--worker", d], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1)
    t0 = time.time()
    p.send_signal(sig)
    try:
        out, err = p.communicate(timeout=2)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        fails.append(f"{sig.name}: the worker did not end within 2 s")
        continue
    ends = [json.loads(l) for l in out.splitlines() if l.startswith('{"t":"end"')]
    if len(ends) != 1 or ends[0].get("reason") != reason:
        fails.append(f"{sig.name}: end events {ends!r}, expected one with reason '{reason}'; stderr {err!r}")
    else:
        print(f"{sig.name}: ended {time.time() - t0:.2f} s after the signal: {reason}")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
