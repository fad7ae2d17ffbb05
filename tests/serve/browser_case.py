#!/usr/bin/env python3
"""tally serve's page end to end in Debian's chromium (browser/e2e.mjs),
checked against the command line: the totals the page shows equal
`tally report --json` for the stored run, the plot has ceil(cycles /
interval) points (cycles from `tally run --stats-json` on the same program
and command line), the CSV the page downloads equals `tally report --csv`,
the bad upload's message is on the page; the Sweeps tab's table, sorted
and unsorted, equals `tally sweep --json` of the same file, and its
Pareto front is the front by definition. Screenshots: SHOTS/*.png.

usage: browser_case.py TALLY WORKLOADS_DIR WORK_DIR SHOTS_DIR
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_harness import Server, check, done, fresh_dir, tally_report_json  # noqa: E402

TALLY, WL, WORK, SHOTS = sys.argv[1:5]
HERE = os.path.dirname(os.path.abspath(__file__))
INTERVAL = 100000


def fmt(n):
    return "{:,}".format(n)


def front_of(points):
    """The Pareto front by its definition, from the export's metrics: the
    points that exited 0 and that no such point matches in both metrics
    while beating in one (smaller is better)."""
    ok = [p for p in points if p["metrics"]["exit"] == 0]
    def beats(q, p):
        a, b = q["metrics"]["cycles"], q["metrics"]["energy_uj"]
        x, y = p["metrics"]["cycles"], p["metrics"]["energy_uj"]
        return a <= x and b <= y and (a < x or b < y)
    return sorted(str(p["point"]) for p in ok if not any(beats(q, p) for q in ok))


def same_value(cell, v):
    """A table cell against the JSON export's value: integers shown with
    thousands separators, other numbers as JSON wrote them."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return cell == str(v)
    try:
        return float(cell.replace(",", "")) == v
    except ValueError:
        return False


def check_sweep(seen, exp):
    """The Sweeps tab against `tally sweep --json` of the same file."""
    pts = exp["points"]
    check(seen["sweepList"] == [["1", exp["name"], str(len(pts)), str(len(pts))]], "sweep list: %s" % seen["sweepList"])
    axes = [a["key"] for a in exp["axes"]]
    want_head = ["point", "program"] + axes + exp["metrics"]
    head = [h.rstrip(" ▲▼") for h in seen["sweepTable"][0]]
    check(head == want_head, "sweep table columns %s, want %s" % (head, want_head))
    rows = seen["sweepTable"][1:]
    check([r[0] for r in rows] == [str(p["point"]) for p in pts], "sweep table rows in point order: %s" % [r[0] for r in rows])
    for r, p in zip(rows, pts):
        want = [p["point"], p["program"]] + [p["axes"][k] for k in axes] + [p["metrics"][m] for m in exp["metrics"]]
        check(len(r) == len(want) and all(same_value(c, v) for c, v in zip(r, want)),
              "sweep table row %s, the JSON export says %s" % (r, want))
    by_cycles = [str(p["point"]) for p in sorted(pts, key=lambda p: (p["metrics"]["cycles"], p["point"]))]
    check(seen["sweepByCycles"] == by_cycles, "sorted by cycles: %s, want %s" % (seen["sweepByCycles"], by_cycles))
    check(seen["sweepByCyclesDown"] == by_cycles[::-1], "sorted by cycles, descending: %s" % seen["sweepByCyclesDown"])
    front = front_of(pts)
    check(len(front) >= 1, "a front exists")
    check(sorted(str(p["point"]) for p in pts if p["pareto"]) == front, "the export's pareto flags follow the definition")
    check(sorted(r[0] for r in seen["sweepFront"][1:]) == front, "page front %s, want %s" % (seen["sweepFront"], front))
    check(sorted(seen["sweepBold"]) == front, "front rows in bold: %s" % seen["sweepBold"])
    usable = [p for p in pts if p["metrics"]["exit"] == 0]
    check(seen["sweepScatter"] == {"points": len(usable), "front": len(front)},
          "scatter over the Pareto metrics: %s" % seen["sweepScatter"])
    sizes = next(a["values"] for a in exp["axes"] if a["key"] == "icache.size")
    ways = next(a["values"] for a in exp["axes"] if a["key"] == "icache.ways")
    plot = seen["sweepPlot"]
    check(plot["points"] == len(sizes) and plot["series"] == len(ways)
          and plot["legend"] == ["icache.ways=" + w for w in ways], "sweep plot: %s" % plot)


def main():
    fresh_dir(WORK)
    os.makedirs(SHOTS, exist_ok=True)
    if not shutil.which("chromium") or not os.path.exists("/usr/bin/chromium"):
        raise SystemExit("Debian's chromium is missing: scripts/install-deps.sh installs it")
    subprocess.run([os.path.join(HERE, "browser", "setup.sh")], check=True)
    aes_bin = os.path.join(WORK, "aes.bin")
    subprocess.run(["riscv64-unknown-elf-objcopy", "-O", "binary", os.path.join(WL, "aes.elf"), aes_bin], check=True)
    not_elf = os.path.join(WORK, "notes.txt")
    with open(not_elf, "w") as f:
        f.write("this is not a program\n" * 20)
    sweep_db, sweep_json = os.path.join(WORK, "sweeps.db"), os.path.join(WORK, "sweep.json")
    subprocess.run([TALLY, "sweep", "-p", os.path.join(WL, "hanoi.elf") + " 6", "-a", "icache.size=512,1K,2K",
                    "-a", "icache.ways=1,2", "--db", sweep_db, "--json", sweep_json, "-q"],
                   check=True, capture_output=True)
    s = Server(TALLY, os.path.join(WORK, "srv"), "--sweep-db", sweep_db)
    try:
        r = subprocess.run(["node", os.path.join(HERE, "browser", "e2e.mjs"), s.url + "/", aes_bin,
                            os.path.join(WL, "aes.map"), not_elf, SHOTS],
                           capture_output=True, text=True, timeout=180, cwd=os.path.join(HERE, "browser"))
    finally:
        s.stop()
    if r.returncode != 0:
        print(r.stdout + r.stderr, file=sys.stderr)
        raise SystemExit("the browser script failed")
    seen = json.loads(r.stdout.strip().splitlines()[-1])
    print(json.dumps(seen, indent=1)[:3000])
    # the refused upload's 422 is the one error the browser itself logs
    errors = [m for m in seen["console"] if "status of 422" not in m]
    check(not errors, "errors in the page's console: %s" % errors)
    check("not an ELF file" in seen["badUpload"], "bad upload message: %r" % seen["badUpload"])
    check(seen["uploadErrorHidden"], "the error goes away after a good upload")
    check("main" in seen["functions"] and "memcpy" in seen["functions"], "function table from the map")
    check(seen["pairs"] == ["load@memcpy", "cycle@main"], "pairs picked: %s" % seen["pairs"])
    check(seen["state"] == "done" and "aes: OK" in seen["output"], "run ended well: %s %r" % (seen["state"], seen["output"]))

    # the same program and command line from the command line: argv[0] "program"
    shutil.copy(aes_bin, os.path.join(WORK, "program"))
    stats = os.path.join(WORK, "stats.json")
    subprocess.run([TALLY, "run", "--core", "tally5", "--load-addr", "0x80000000", "--stats-json", stats,
                    "program", "200"], cwd=WORK, capture_output=True)
    with open(stats) as f:
        cycles = json.load(f)["cycles"]
    want_points = -(-cycles // INTERVAL)
    check(seen["points"] == want_points, "plot points %d, ceil(%d cycles / %d) = %d"
          % (seen["points"], cycles, INTERVAL, want_points))
    check(len(seen["fills"]) > 1 and seen["fills"][-1] <= seen["points"] and seen["fills"] == sorted(seen["fills"]),
          "the plot only grows while the run goes on: %s" % seen["fills"][:20])

    rep = tally_report_json(TALLY, s.db, seen["runId"]) or {"counters": [], "totals": {"counters": []}}
    enabled = [c for c in rep["counters"] if c["enabled"]]
    want = [[c["label"], fmt(rep["totals"]["counters"][c["index"]]["stored"])] for c in enabled]
    check(seen["totals"] == want, "page totals %s, tally report says %s" % (seen["totals"], want))
    check(want and want[0][0] == "loads in memcpy's own code" and want[1][0] == "cycles in main's own code", "plain words: %s" % want)
    check(rep.get("whole") is True, "stored run is whole")
    csv = subprocess.run([TALLY, "report", seen["runId"], "--db", s.db, "--csv"], capture_output=True).stdout
    with open(seen["csvPath"], "rb") as f:
        check(f.read() == csv, "downloaded CSV equals tally report --csv")

    cmp = {c["id"]: c for c in seen["compared"]}
    check(set(cmp) == {seen["runId"], seen["runId2"]}, "two runs side by side: %s" % list(cmp))
    first = cmp.get(seen["runId"], {})
    check(first.get("totals") == want and first.get("points") == want_points, "compare view of the first run: %s" % first)
    gone = subprocess.run([TALLY, "report", seen["runId2"], "--db", s.db], capture_output=True, text=True)
    check(gone.returncode != 0 and "no run" in gone.stderr, "the second run was deleted from the page: %s" % gone.stderr)
    check(seen["flameFrames"] > 10 and seen["annotatedRows"] > 0, "profile drawn: %d frames, %d code rows"
          % (seen["flameFrames"], seen["annotatedRows"]))
    with open(sweep_json) as f:
        check_sweep(seen, json.load(f))
    for n in ("serve-bad-upload", "serve-functions", "serve-run", "serve-compare", "serve-profile", "serve-sweep"):
        check(os.path.getsize(os.path.join(SHOTS, n + ".png")) > 10000, "screenshot %s" % n)
    done()


if __name__ == "__main__":
    main()
