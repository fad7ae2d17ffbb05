#!/usr/bin/env python3
"""tally serve's sweep API (/api/sweeps) over real HTTP on loopback,
against `tally sweep`'s own exports of the same file:

- a spec file with two programs, named configurations (one with its own
  core model), a [set] and two axes: the sweep's JSON from the server
  equals `tally sweep SPEC --json` after parsing, and the list counts its
  points;
- a second sweep in the same file, of two programs of one name (hanoi 4
  and hanoi 5 from -p), run only in part (--slice): listed with the points
  the file holds, its JSON equals `tally sweep --no-run --json`;
- a sweep run into a task file and merged (`--merge`, the Slurm merge
  step) into another file is listed there too, with the same JSON;
- refusals: an unknown sweep or path (404), an id that is not a number
  (400), a POST (405), a server without --sweep-db (an empty list, 404 for
  a sweep), --sweep-db naming a missing file or one that is not SQLite
  (exit 66, the file named); --source-dir naming no folder (exit 66).

usage: sweep_api.py TALLY WORKLOADS_DIR WORK_DIR
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_harness import Server, check, done, fresh_dir  # noqa: E402

TALLY, WL, WORK = sys.argv[1:4]
HANOI = os.path.join(WL, "hanoi.elf")

SPEC = f"""[sweep]
name = two hanoi sizes
record = cycles, icache.miss, dcache.read_miss
pareto = cycles, icache.miss

[program hanoi5]
elf = {HANOI}
args = 5
[program hanoi6]
elf = {HANOI}
args = 6

[set]
icache.line = 16

[config base]
[config wt]
core = tally5-wt
[config 4 ways]
icache.ways = 4

[axis]
icache.size = 512, 2K
dcache.size = 1K, 4K
"""


def tally(*args, check_rc=True):
    r = subprocess.run([TALLY, *args], cwd=WORK, capture_output=True, text=True, timeout=120)
    if check_rc and r.returncode != 0:
        raise SystemExit("tally %s: exit %d\n%s" % (" ".join(args), r.returncode, r.stderr))
    return r


def get_json(s, path):
    st, _, body = s.request("GET", path)
    try:
        return st, json.loads(body)
    except ValueError:
        return st, {"not json": body[:200]}


def export(*args):
    out = os.path.join(WORK, "export.json")
    tally("sweep", *args, "-q", "--json", out)
    with open(out) as f:
        return json.load(f)


def main():
    fresh_dir(WORK)
    spec = os.path.join(WORK, "hanoi.ini")
    with open(spec, "w") as f:
        f.write(SPEC)
    db = os.path.join(WORK, "sweeps.db")
    full = export(spec, "--db", db)
    check(len(full["points"]) == 2 * 3 * 2 * 2, "the spec's 24 points are in the export: %d" % len(full["points"]))
    check(full["name"] == "two hanoi sizes", "the spec's name: %r" % full["name"])
    # a second sweep of the same file, 3 of its 6 points run
    second = ["-p", HANOI + " 4", "-p", HANOI + " 5", "-a", "icache.ways=1,2,4", "-a", "dcache.line=16,32"]
    tally("sweep", *second, "--slice", "4:3", "--db", db, "-q")
    part = export(*second, "--no-run", "--db", db)
    check([p["point"] for p in part["points"]] == [4, 5, 6], "the partial sweep holds points 4-6: %s"
          % [p["point"] for p in part["points"]])
    # a task file merged into a third file, as the Slurm merge step does
    task, merged = os.path.join(WORK, "task.db"), os.path.join(WORK, "merged.db")
    tally("sweep", "-p", HANOI + " 3", "-a", "icache.size=1K,4K", "--db", task, "-q")
    tally("sweep", "--merge", task, "--no-run", "--db", merged, "-q")
    task_json = export("-p", HANOI + " 3", "-a", "icache.size=1K,4K", "--no-run", "--db", task)

    s = Server(TALLY, os.path.join(WORK, "srv"), "--sweep-db", db)
    try:
        st, lst = get_json(s, "/api/sweeps")
        want = [{"id": 1, "name": "two hanoi sizes", "points": 24, "stored": 24},
                {"id": 2, "name": "hanoi, hanoi: icache.ways x dcache.line", "points": 12, "stored": 3}]
        check(st == 200 and lst.get("sweeps") == want, "sweep list %d %s, want %s" % (st, lst, want))
        check(lst.get("db") == db, "the list names the file: %s" % lst.get("db"))
        st, one = get_json(s, "/api/sweeps/1")
        check(st == 200 and one == full, "GET /api/sweeps/1 equals tally sweep --json (%d)" % st)
        st, two = get_json(s, "/api/sweeps/2")
        check(st == 200 and two == part, "GET /api/sweeps/2 equals tally sweep --no-run --json (%d)" % st)
        for path, code in (("/api/sweeps/3", 404), ("/api/sweeps/x", 400), ("/api/sweeps/-1", 400), ("/api/sweeps/1/more", 404)):
            st, body = get_json(s, path)
            check(st == code and "error" in body, "%s: %d %s" % (path, st, body))
        st, _, _ = s.request("POST", "/api/sweeps/1", body=b"{}")
        check(st == 405, "POST /api/sweeps/1 refused: %d" % st)
    finally:
        s.stop()

    s = Server(TALLY, os.path.join(WORK, "srv2"), "--sweep-db", merged)
    try:
        st, lst = get_json(s, "/api/sweeps")
        check(st == 200 and [(x["points"], x["stored"]) for x in lst.get("sweeps", [])] == [(2, 2)],
              "the merged file lists the task's sweep: %s" % lst)
        st, one = get_json(s, "/api/sweeps/1")
        check(st == 200 and one == task_json, "the merged sweep's JSON equals the task file's")
    finally:
        s.stop()

    s = Server(TALLY, os.path.join(WORK, "srv3"))
    try:
        st, lst = get_json(s, "/api/sweeps")
        check(st == 200 and lst == {"db": None, "sweeps": []}, "no --sweep-db: an empty list: %s" % lst)
        st, body = get_json(s, "/api/sweeps/1")
        check(st == 404 and "--sweep-db" in body.get("error", ""), "no --sweep-db: 404 saying why: %s" % body)
    finally:
        s.stop()

    notdb = os.path.join(WORK, "notes.txt")
    with open(notdb, "w") as f:
        f.write("not a database\n" * 100)
    for path in (os.path.join(WORK, "missing.db"), notdb):
        r = tally("serve", "--listen", "127.0.0.1:0", "--sweep-db", path, check_rc=False)
        check(r.returncode == 66 and path in r.stderr, "--sweep-db %s: exit %d, %r" % (path, r.returncode, r.stderr))
    # --source-dir must name a folder (the same refusal, its own option named)
    for path, why in ((os.path.join(WORK, "no-such-folder"), "No such file"), (notdb, "not a folder")):
        r = tally("serve", "--listen", "127.0.0.1:0", "--source-dir", path, check_rc=False)
        check(r.returncode == 66 and "--source-dir " + path in r.stderr and why in r.stderr,
              "--source-dir %s: exit %d, %r" % (path, r.returncode, r.stderr))
    done()


if __name__ == "__main__":
    main()
