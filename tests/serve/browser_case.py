#!/usr/bin/env python3
"""tally serve's page end to end in Debian's chromium (browser/e2e.mjs),
checked against the command line: the totals the page shows equal
`tally report --json` for the stored run, the plot has ceil(cycles /
interval) points (cycles from `tally run --stats-json` on the same program
and command line) and both of its series (cycles, a few misses) span most
of their plot's height in every view, zoom narrows the cycle axis, the
CSV the page downloads equals `tally report --csv`, the bad upload's
message is on the page, a .bin with another program's .map is warned
about; stored runs are listed in `tally report`'s order with their name,
overrides, pairs, cycles and note, two runs with different overrides are
overlaid with the override as their difference and their totals' ratios
against either baseline; the first run's profile reopens after the second
run, its flame graph finds a function; the Sweeps tab's table, sorted and
unsorted, equals `tally sweep --json` of the same file, its fronts are the
fronts by definition, one per program, its axes fitted to the values.
Screenshots: SHOTS/*.png (and docs/images/ when TALLY_UPDATE_SCREENSHOTS=1).

usage: browser_case.py TALLY WORKLOADS_DIR WORK_DIR SHOTS_DIR [DOC_IMAGES_DIR]
"""
import json
import math
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_harness import Server, check, done, fresh_dir, tally_report_json  # noqa: E402

TALLY, WL, WORK, SHOTS = sys.argv[1:5]
DOC_IMAGES = sys.argv[5] if len(sys.argv) > 5 else None
SHOT_NAMES = ("serve-bad-upload", "serve-functions", "serve-run", "serve-compare", "serve-profile", "serve-sweep",
              "serve-sweep-programs", "serve-source")
SOURCE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))), "target")
HERE = os.path.dirname(os.path.abspath(__file__))
INTERVAL = 100000


def fmt(n):
    return "{:,}".format(n)


def front_of(points):
    """The Pareto fronts by their definition, from the export's metrics: the
    points that exited 0 and that no such point of the same program matches
    in both metrics while beating in one (smaller is better)."""
    ok = [p for p in points if p["metrics"]["exit"] == 0]
    progs = sorted(set(p["program"] for p in ok))
    if len(progs) > 1:
        return sorted(sum((front_of([p for p in ok if p["program"] == g]) for g in progs), []))
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
    check(seen["sweepList"][:1] == [["1", exp["name"], str(len(pts)), str(len(pts))]], "sweep list: %s" % seen["sweepList"])
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
    check(sorted(r[0] for r in seen["sweepFront"][1:]) == front, "page front %s, want %s" % (seen["sweepFront"], front))
    check(sorted(seen["sweepBold"]) == front, "front rows in bold: %s" % seen["sweepBold"])
    usable = [p for p in pts if p["metrics"]["exit"] == 0]
    sc = seen["sweepScatter"]
    check((sc["points"], sc["front"]) == (len(usable), len(front)), "scatter over the Pareto metrics: %s" % sc)
    least = min(p["metrics"]["energy_uj"] for p in usable)
    check(0 < sc["yMin"] < least, "the scatter's y axis fitted to the points (from %s, least %s)" % (sc["yMin"], least))
    sizes = next(a["values"] for a in exp["axes"] if a["key"] == "icache.size")
    ways = next(a["values"] for a in exp["axes"] if a["key"] == "icache.ways")
    plot = seen["sweepPlot"]
    check(plot["points"] == len(sizes) * len(ways) and plot["series"] == len(ways)
          and plot["legend"] == ["icache.ways=" + w for w in ways], "sweep plot: %s" % plot)
    least = min(p["metrics"]["cycles"] for p in pts)
    check(0 < plot["yMin"] < least, "the plot's y axis fitted to the values (from %s, least %s)" % (plot["yMin"], least))


def check_sweep2(seen, exp):
    """A sweep of two programs: a front and a best point each, the aggregate."""
    pts = exp["points"]
    progs = sorted(set(p["program"] for p in pts))
    s2 = seen["sweep2"]
    check(len(progs) == 2 and s2["fronts"] == 2, "one front per program: %s fronts for %s" % (s2["fronts"], progs))
    check(sorted(s2["bold"]) == front_of(pts), "front rows in bold %s, want %s" % (s2["bold"], front_of(pts)))
    best = {}
    for g in progs:  # the smallest objective (cycles) on each program's front
        front = [p for p in pts if p["program"] == g and str(p["point"]) in front_of(pts)]
        best[g] = str(min(front, key=lambda p: (p["metrics"]["cycles"], p["point"]))["point"])
    check(sorted(map(tuple, s2["best"])) == sorted(best.items()), "best point per program %s, want %s" % (s2["best"], best))
    check({b["program"]: str(b["point"]) for b in exp["best"]} == best, "tally sweep's best per program: %s" % exp["best"])
    # the aggregate: geometric mean over the programs of cycles relative to the first configuration's
    agg = s2["aggregate"]
    head = agg[0]
    col = head.index("cycles ×")
    configs = {}
    for p in pts:
        configs.setdefault(" ".join("%s=%s" % (a["key"], p["axes"][a["key"]]) for a in exp["axes"]), {})[p["program"]] = p
    names = list(configs)
    base = configs[names[0]]
    for row in agg[1:]:
        c = configs.get(row[0])
        if not c:
            check(False, "aggregate row %s names no configuration" % row)
            continue
        logs = [math.log(c[g]["metrics"]["cycles"] / base[g]["metrics"]["cycles"]) for g in progs]
        want = "%.4f" % math.exp(sum(logs) / len(logs))
        check(row[col] == want, "aggregate of %s: %s, want %s" % (row[0], row[col], want))
        cli = next((g for g in exp["aggregate"]["configs"] if g["config"] == row[0]), None)
        check(cli is not None and "%.4f" % cli["geomean"]["cycles"] == want,
              "tally sweep's geometric mean for %s: %s, the page's %s" % (row[0], cli, want))


def spans(ext, least):
    """Every series drew something spanning at least `least` of its plot's height."""
    return bool(ext) and all(e["top"] is not None and e["bottom"] - e["top"] >= least * e["height"] for e in ext)


def check_plot(seen, want_points, want):
    """Both series visible in every view; the cursor's table; zoom."""
    for view, ext in seen["views"].items():
        check(len(ext) == 2, "view %s draws 2 series: %s" % (view, ext))
        if view.endswith("+log"):  # a series of one value spans nothing on a log scale: drawn is enough
            check(all(e["top"] is not None for e in ext), "view %s: both series drawn: %s" % (view, ext))
        else:
            check(spans(ext, 0.5), "view %s: both series span half their plot or more: %s" % (view, ext))
    check(len(seen["cursorRows"]) == 1 and len(seen["cursorRows"][0]) == 5
          and seen["cursorHead"][3:] == [w[0] for w in want], "the interval table under the cursor: %s %s"
          % (seen["cursorHead"], seen["cursorRows"]))
    if seen["cursorRows"]:
        n = int(seen["cursorRows"][0][1])
        lo, hi = (int(x.replace(",", "")) for x in seen["cursorRows"][0][2].split("–"))
        check(hi - lo <= INTERVAL and hi >= (n + 1) * INTERVAL - INTERVAL and 0 <= n < want_points,
              "the cursor's interval %d spans %d-%d" % (n, lo, hi))
    whole, drag, wheel, reset = seen["rangeWhole"], seen["rangeDragged"], seen["rangeWheeled"], seen["rangeReset"]
    w = whole[1] - whole[0]
    check(whole[0] <= drag[0] < drag[1] <= whole[1] and 0.2 * w < drag[1] - drag[0] < 0.5 * w,
          "a drag over a third zooms to about a third: %s of %s" % (drag, whole))
    check(drag[0] <= wheel[0] < wheel[1] <= drag[1] and wheel[1] - wheel[0] < drag[1] - drag[0],
          "the wheel zooms in further: %s within %s" % (wheel, drag))
    check(reset == whole, "'whole run' shows the whole run again: %s, was %s" % (reset, whole))


def check_runs(seen, db, want, cycles):
    """Stored runs as kept, two overlaid against a baseline, the first one's profile reopened."""
    r1, r2 = seen["runId"], seen["runId2"]
    check(seen["runsOrder"] == [r1, r2], "runs oldest first, in tally report's order: page %s" % seen["runsOrder"])
    head = [h.rstrip(" ▲▼") for h in seen["runsHead"]]
    row1, row2 = dict(zip(head[1:], seen["row1"])), dict(zip(head[1:], seen["row2"]))
    check(row1.get("program") == "aes" and row1.get("core and overrides") == "tally5" and row1.get("pairs") == "2"
          and row1.get("cycles") == fmt(cycles), "the first run as listed: %s (cycles %d)" % (row1, cycles))
    check(row2.get("core and overrides") == "tally5 dcache.size=1K" and row2.get("note") == "smaller d-cache",
          "the second run as listed: %s" % row2)
    check(seen["filtered"] == [r2], "the filter keeps the run with the override: %s" % seen["filtered"])
    check(seen["profileAfterRun2"].startswith("run " + r2), "the profile of the run just done: %r" % seen["profileAfterRun2"])
    ov = seen["overlay"]
    check(len(ov["extents"]) == 4 and spans(ov["extents"], 0.3), "two runs of two series overlaid: %s" % ov)
    check(["dcache.size", "(default)", "1K"] in seen["configDiff"] and len(seen["configDiff"]) == 1,
          "the configurations differ in the override only: %s" % seen["configDiff"])
    t = seen["compareTable"]
    check(t and t[0][:3] == ["event", r1 + " (baseline)", r2] and [row[:2] for row in t[1:]] == want,
          "totals against the first run: %s" % t)
    for row in t[1:]:
        a, b = int(row[1].replace(",", "")), int(row[2].replace(",", ""))
        check(row[3] == ("+" if b > a else "") + fmt(b - a) and row[4] == "%.3f" % (b / a), "difference and ratio: %s" % row)
    check(any(row[3] != "0" for row in t[1:]), "a smaller d-cache changes a total: %s" % t)
    t2 = seen["compareTable2"]
    check(t2 and t2[0][:2] == ["event", r1] and (r2 + " (baseline)") in t2[0], "the second run as baseline: %s" % t2)
    check(seen["profileOf"].startswith("run " + r1), "the first run's profile reopened: %r" % seen["profileOf"])
    check(seen["flameFrames"] > 10 and seen["flameDepth"] >= 4 and seen["flameHeight"] >= 18 * seen["flameDepth"],
          "a flame graph of readable rows: %d frames, %d deep, %d px" % (seen["flameFrames"], seen["flameDepth"], seen["flameHeight"]))
    check(seen["flameFound"] >= 1 and seen["flameHighlighted"] >= 1 and "frames" in seen["flameFoundText"],
          "the flame graph's search finds memcpy: %s %s %r" % (seen["flameFound"], seen["flameHighlighted"], seen["flameFoundText"]))
    check(seen["annotatedRows"] > 0 and "stalls" in seen["annotatedCols"] and "d-cache misses" in seen["annotatedCols"],
          "annotated code with misses and stalls: %d rows, %s" % (seen["annotatedRows"], seen["annotatedCols"]))
    tl = seen["timeline"]
    law = tl["law"]
    check(tl["slices"] == law["slices"] > 100 and tl["drawn"] > 10 and not law["cut"], "the call timeline drawn: %s" % tl)
    check(law["memcpySlices"] == law["memcpyCalls"] and law["memcpySum"] == law["memcpyIncl"],
          "memcpy's calls on the timeline add up to its inclusive cycles: %s" % law)
    check(len(law["top"]) == 1 and law["top"][0][1] == 0 and law["top"][0][2] == law["total"],
          "the entry function's one slice spans the run: %s (total %d)" % (law["top"], law["total"]))
    hv = tl["hover"]
    check(hv is not None and hv[3] == 0 and ("cycles %s to %s" % (fmt(hv[1]), fmt(hv[2]))) in tl["hoverText"],
          "the call under the pointer with its exact cycles: %s %r" % (hv, tl["hoverText"]))
    w, z = tl["whole"], tl["zoomed"]
    check(w[0] <= z[0] < z[1] <= w[1] and z[1] - z[0] < 0.3 * (w[1] - w[0]), "a drag zooms the timeline: %s of %s" % (z, w))
    cg = seen["callgraph"]
    check(cg["nodes"] >= 2 and cg["canvas"] >= 1 and any(a[1] == "memcpy" and a[2] >= 1 for a in cg["arcs"]),
          "the call graph drawn around memcpy: %s" % cg)
    gone = subprocess.run([TALLY, "report", r2, "--db", db], capture_output=True, text=True)
    check(gone.returncode != 0 and "no run" in gone.stderr, "the second run was deleted from the page: %s" % gone.stderr)


def check_source(seen):
    """The ELF's annotated MixColumns: beside the first instruction of each source line, that line's
    text as it is in the file addr2line names."""
    check(seen["sourceShown"] and seen["source"], "the source column is shown: %s" % seen["source"][:3])
    shown = 0
    for addr, where, text in seen["source"]:
        if not text:
            continue
        out = subprocess.run(["riscv64-unknown-elf-addr2line", "-e", os.path.join(WL, "aes.elf"), addr],
                             capture_output=True, text=True).stdout.strip()
        path, _, line = out.rpartition(":")
        line = int(line.split()[0])
        with open(path, encoding="ascii", errors="replace") as f:
            want = f.read().split("\n")[line - 1]
        check(where == "%s:%d" % (os.path.basename(path), line) and text == want,
              "%s: %r at %s, %s:%d has %r" % (addr, text, where, path, line, want))
        shown += 1
    check(shown >= 3, "source text beside %d instructions of MixColumns" % shown)


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
    short_bin = os.path.join(WORK, "aes-short.bin")  # an older, shorter build beside today's .map
    with open(aes_bin, "rb") as f, open(short_bin, "wb") as g:
        g.write(f.read()[:2048])
    sweep_db, sweep_json = os.path.join(WORK, "sweeps.db"), os.path.join(WORK, "sweep.json")
    subprocess.run([TALLY, "sweep", "-p", os.path.join(WL, "hanoi.elf") + " 6", "-a", "icache.size=512,1K,2K",
                    "-a", "icache.ways=1,2", "--db", sweep_db, "--json", sweep_json, "-q"],
                   check=True, capture_output=True)
    sweep2_json = os.path.join(WORK, "sweep2.json")  # two programs: a front each
    subprocess.run([TALLY, "sweep", "-p", os.path.join(WL, "hanoi.elf") + " 6", "-p", os.path.join(WL, "crc32.elf"),
                    "-a", "icache.size=512,1K", "-a", "icache.ways=1,2", "--db", sweep_db, "--json", sweep2_json, "-q"],
                   check=True, capture_output=True)
    s = Server(TALLY, os.path.join(WORK, "srv"), "--sweep-db", sweep_db, "--source-dir", SOURCE_DIR)
    try:
        r = subprocess.run(["node", os.path.join(HERE, "browser", "e2e.mjs"), s.url + "/", aes_bin,
                            os.path.join(WL, "aes.map"), not_elf, SHOTS, short_bin, os.path.join(WL, "aes.elf")],
                           capture_output=True, text=True, timeout=180, cwd=os.path.join(HERE, "browser"))
    finally:
        s.stop()
    if r.returncode != 0:
        print(r.stdout + r.stderr, file=sys.stderr)
        raise SystemExit("the browser script failed")
    seen = json.loads(r.stdout.strip().splitlines()[-1])
    print(json.dumps(seen, indent=1)[:20000])
    # the refused upload's 422 is the one error the browser itself logs
    errors = [m for m in seen["console"] if "status of 422" not in m]
    check(not errors, "errors in the page's console: %s" % errors)
    check("not an ELF file" in seen["badUpload"], "bad upload message: %r" % seen["badUpload"])
    check(seen["uploadErrorHidden"], "the error goes away after a good upload")
    check("past the end of the .bin" in seen["wrongMapWarning"] and "0x80000000-0x80000800" in seen["wrongMapWarning"],
          "a .bin shorter than its .map says is warned about: %r" % seen["wrongMapWarning"])
    check(seen["mapWarningHidden"], "no warning for the .bin with its own .map")
    check("“aes”" in seen["summary"], "the program's name from the upload: %r" % seen["summary"])
    check("main" in seen["functions"] and "memcpy" in seen["functions"], "function table from the map")
    check(seen["pairs"] == ["cycle@main", "dcache.read_miss@memcpy"], "pairs picked: %s" % seen["pairs"])
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
    check(len(want) == 2 and want[0][0].startswith("cycles in main") and "memcpy" in want[1][0],
          "plain words: %s" % want)
    check_plot(seen, want_points, want)
    check(rep.get("whole") is True, "stored run is whole")
    csv = subprocess.run([TALLY, "report", seen["runId"], "--db", s.db, "--csv"], capture_output=True).stdout
    with open(seen["csvPath"], "rb") as f:
        check(f.read() == csv, "downloaded CSV equals tally report --csv")

    check_runs(seen, s.db, want, cycles)
    check_source(seen)
    with open(sweep2_json) as f:
        check_sweep2(seen, json.load(f))
    with open(sweep_json) as f:
        check_sweep(seen, json.load(f))
    for n in SHOT_NAMES:
        check(os.path.getsize(os.path.join(SHOTS, n + ".png")) > 10000, "screenshot %s" % n)
    if DOC_IMAGES and os.environ.get("TALLY_UPDATE_SCREENSHOTS") == "1":
        for n in SHOT_NAMES:
            shutil.copy(os.path.join(SHOTS, n + ".png"), os.path.join(DOC_IMAGES, n + ".png"))
    done()


if __name__ == "__main__":
    main()
