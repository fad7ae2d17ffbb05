#!/usr/bin/env python3
"""tally serve and boards (docs/boards.md, docs/tally-serve.md): /api/info
lists the shipped boards; an upload's `board` field is the board it is
checked on and runs on, so a program linked for litex prints through its
UART and exits through its finisher with the status worked out by hand
(tests/programs/litex_hello.c: "litex: sum 1..10 = 55", status 7), with
the cycles `tally run --board litex` counts; a run request's `board`
overrides it: on virt the same program is refused by the loader, naming
the RAM; an unknown board or a path is refused before a child starts, and
so is the upload of a litex program without its board.

usage: serve_board.py TALLY PROGRAMS_DIR WORK_DIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "serve"))
from serve_harness import Server, check, done, event, fresh_dir  # noqa: E402

TALLY, PROGS, WORK = sys.argv[1:4]
ELF = os.path.join(PROGS, "litex_hello.elf")


def main():
    fresh_dir(WORK)
    s = Server(TALLY, os.path.join(WORK, "a"))
    try:
        st, info = s.json("GET", "/api/info")
        check(st == 200 and {"virt", "litex"} <= set(info.get("boards", [])), "boards in /api/info: %s" % info.get("boards"))
        with open(ELF, "rb") as f:
            elf = f.read()
        st, p = s.upload({"kind": "elf", "elf": elf})
        check(st == 422 and "below RAM" in p.get("error", ""), "litex_hello.elf checked on virt: %d %s" % (st, p))
        st, p = s.upload({"kind": "elf", "elf": elf, "board": "nope"})
        check(st == 422 and "unknown board 'nope'" in p.get("error", ""), "upload for board nope: %d %s" % (st, p))
        st, p = s.upload({"kind": "elf", "elf": elf, "board": "litex"})
        check(st == 201 and p.get("board") == "litex", "upload litex_hello.elf for litex: status %d %s" % (st, p))
        check({f["name"] for f in p.get("functions", [])} >= {"main", "put", "_start"}, "functions: %s" % p)
        st, r = s.json("POST", "/api/jobs", {"program": p["id"], "core": "tally5", "pairs": ["cycle"]})
        check(st == 200 and "job" in r, "a run on litex: %d %s" % (st, r))
        final, ev = s.wait_job(r["job"])
        end = event(ev, "end") or {}
        out = "".join(e["s"] for e in ev if e["t"] == "out")
        check(out == "litex: sum 1..10 = 55\n", "program output on litex: %r" % out)
        check(end.get("stop") == "exit" and end.get("exit_code") == 7, "exit on litex: %s" % end)
        stats = os.path.join(WORK, "stats.json")
        subprocess.run([TALLY, "run", "--board", "litex", "--core", "tally5", "--stats-json", stats, ELF],
                       capture_output=True)
        with open(stats) as f:
            want = json.load(f)["cycles"]
        check(end.get("cycles") == want, "cycles %s, tally run --board litex says %s" % (end.get("cycles"), want))
        for board, words in [("nope", "unknown board 'nope' (shipped boards:"), ("../boards/litex.ini", "shipped board"),
                             (7, "shipped board")]:
            st, _, b = s.request("POST", "/api/jobs", {"program": p["id"], "board": board})
            check(st == 400 and words.encode() in b, "board %r: status %d %s" % (board, st, b[:200]))
        st, r = s.json("POST", "/api/jobs", {"program": p["id"], "core": "tally5", "board": "virt"})
        check(st == 200 and "job" in r, "a run on virt: %d %s" % (st, r))
        final, ev = s.wait_job(r["job"])
        check("below RAM" in json.dumps(ev) and not event(ev, "end"),
              "on virt the litex program is refused: %s %s" % (final, ev[-3:]))
    finally:
        s.stop()
    done()


if __name__ == "__main__":
    main()
