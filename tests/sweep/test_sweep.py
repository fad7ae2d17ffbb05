#!/usr/bin/env python3
"""tests/sweep: `tally sweep` against separate `tally run`s and the laws of
its outputs (one case per invocation, --case NAME).

  local   a tiny sweep (2 x 2 I-cache points of hanoi): every point's cycles,
          instructions and signals equal a separate `tally run --stats-json`
          with the same --set options; the Pareto front and the best point
          obey their definitions (computed here from the CSV); CSV and JSON
          agree; a second run of the same sweep runs nothing.
  resume  a sweep killed (SIGKILL) after its first stored point, started
          again: it runs exactly the points the file lacked, and the results
          equal an uninterrupted sweep's, point for point.
  plot    scripts/sweep-plot.py draws an SVG of a sweep's JSON (well-formed,
          one line per --by value, named in the legend); a metric the JSON
          lacks is refused with 65. Skipped (77) without matplotlib.
  slurm   a real one-node Slurm cluster (munged, slurmctld, slurmd started
          here as root on free ports, state in the work folder): `tally sweep
          SPEC --slurm 3` submits a job array and a merge job; the merged
          file's results equal a local run's, point for point. Skipped (77)
          without root or slurm-wlm/munge.
  errors  bad spec lines name file and line (66), bad options are usage
          errors (64), --help exits 0.
  onepass `--one-pass` on two workloads (hanoi, code-bound; aes, with its
          tables), I-cache sizes x ways (x line sizes for hanoi) on SRAM:
          every point's cycles, instructions and every signal equal a
          separate `tally run --stats-json` with the same --set options,
          energy to the export's 3 decimals; sweeps outside the exact family
          (SDRAM row misses, a write buffer, LRR) are refused with 64 naming
          why, and store nothing; so is a program whose path follows mcycle
          (programs/timed_path.c), caught by the real run of one point.
  progress the progress bar on a terminal (a pty): an update at the start
          and one per point, its fill and count, an ETA, 0 s at the end;
          none off a terminal.
  counters statistics-module counters as metrics (cycle@move_disc, ...):
          each point's totals equal a separate `tally run --count`'s;
          cache_bytes is the I- plus the D-cache's size (by hand); the
          best point by one is the smallest; --one-pass and an unknown
          signal are refused with 64 and store nothing.
  onepass_d `--one-pass` over D-cache axes on a streaming workload (crc32)
          and one with reuse (matmul): write-back LRU sizes x ways (x line
          sizes, from one reference with the shortest line), direct-mapped
          write-through sizes x line sizes (no write buffer), I- and
          D-cache axes together; every point equals a separate `tally run`
          in every signal, the axes visibly change misses, write-backs and
          cycles; a multi-way write-through cache, LRR, a core without a
          D-cache and SDRAM are refused with 64 naming the parameter.
"""
import argparse
import csv
import io
import json
import math
import os
import signal
import sqlite3
import subprocess
import sys
import time


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def sweep(a, *args, check=True):
    p = subprocess.run([a.tally, "sweep", *args], capture_output=True, text=True, cwd=a.work, timeout=300)
    if check and p.returncode != 0:
        fail(f"tally sweep {' '.join(args)}: exit {p.returncode}\n{p.stderr}")
    return p


def rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def case_local(a):
    db = os.path.join(a.work, "local.db")
    spec = ["-p", f"{a.elf} 6", "-a", "icache.size=1K,4K", "-a", "icache.ways=1,2",
            "--record", "cycles,instructions,icache.miss,mem.read", "--pareto", "cycles,icache.miss",
            "--objective", "icache.miss", "--db", db, "-j", "2"]
    out = sweep(a, *spec, "--csv", "-", "--json", "res.json", "-q").stdout
    table = rows(out)
    if len(table) != 4:
        fail(f"expected 4 points, got {len(table)}")
    # each point equals a separate run with the same options
    for r in table:
        sets = [f"icache.size={r['icache.size']}", f"icache.ways={r['icache.ways']}"]
        argv = [a.tally, "run", "--core", "tally5"]
        for s in sets:
            argv += ["--set", s]
        sj = os.path.join(a.work, "run.json")
        p = subprocess.run(argv + ["--stats-json", sj, a.elf, "6"], capture_output=True, text=True, timeout=120)
        if p.returncode != 0:
            fail(f"tally run {sets}: exit {p.returncode}")
        d = json.load(open(sj))
        got = {"cycles": d["cycles"], "instructions": d["instructions"],
               "icache.miss": d["signals"]["icache.miss"], "mem.read": d["signals"]["mem.read"]}
        for k, v in got.items():
            if int(r[k]) != v:
                fail(f"point {r['point']} {sets}: {k} {r[k]} in the sweep, {v} from tally run")
        if r["exit"] != "0":
            fail(f"point {r['point']}: exit {r['exit']}")
    # a bigger cache never misses more here: a sanity check that axes reach the model
    by = {(r["icache.size"], r["icache.ways"]): int(r["icache.miss"]) for r in table}
    if not by[("4K", "2")] < by[("1K", "1")]:
        fail(f"4K 2-way misses {by[('4K', '2')]} not below 1K direct-mapped {by[('1K', '1')]}")
    # Pareto law and best point, from the definitions
    pts = [(int(r["cycles"]), int(r["icache.miss"]), r["point"]) for r in table]
    front = {p[2] for p in pts
             if not any(q[0] <= p[0] and q[1] <= p[1] and (q[0] < p[0] or q[1] < p[1]) for q in pts)}
    j = json.load(open(os.path.join(a.work, "res.json")))
    jfront = {str(p["point"]) for p in j["points"] if p["pareto"]}
    if front != jfront or not front:
        fail(f"Pareto front {sorted(jfront)} in JSON, {sorted(front)} by definition")
    for p in j["points"]:
        r = table[p["point"]]
        for k, v in p["metrics"].items():
            if str(v) != r[k]:
                fail(f"point {p['point']} {k}: JSON {v}, CSV {r[k]}")
    text = sweep(a, *spec).stdout
    pareto_part = text.split("Pareto front")[1].split("best point")[0]
    shown = {ln.split()[0] for ln in pareto_part.splitlines()[2:] if ln.strip()}
    if shown != front:
        fail(f"printed front {sorted(shown)}, expected {sorted(front)}")
    best = min(pts, key=lambda p: p[1])
    best_line = text.split("best point by icache.miss:")[1].splitlines()[2]
    if best_line.split()[0] != best[2]:
        fail(f"best point printed {best_line.split()[0]}, expected {best[2]}")
    # everything was stored: nothing runs again
    again = sweep(a, *spec, "-q")
    if "running 0 of 4 points (4 already in" not in again.stderr:
        fail(f"a finished sweep ran again: {again.stderr}")
    programs(a)


def programs(a):
    """Two programs: a Pareto front and a best point per program (a point is
    never weighed against another program's), in the table, the CSV's front
    column and the JSON, by their definitions; over all programs each
    configuration's geometric mean of each metric relative to point 0's
    configuration, from the CSV's values."""
    crc = os.path.join(os.path.dirname(a.elf), "crc32.elf")
    spec = ["-p", f"{a.elf} 6", "-p", crc, "-a", "icache.size=512,1K", "-a", "icache.ways=1,2",
            "--db", os.path.join(a.work, "programs.db")]
    text = sweep(a, *spec, "--csv", "programs.csv", "--json", "programs.json").stdout
    table = rows(open(os.path.join(a.work, "programs.csv")).read())
    j = json.load(open(os.path.join(a.work, "programs.json")))
    progs = ["hanoi", "crc32"]
    if len(table) != 8 or [r["program"] for r in table] != ["hanoi"] * 4 + ["crc32"] * 4:
        fail(f"two programs of four points each: {[r['program'] for r in table]}")
    front, best = set(), {}
    for g in progs:
        pts = [(int(r["cycles"]), float(r["energy_uj"]), r["point"]) for r in table if r["program"] == g]
        front |= {p[2] for p in pts
                  if not any(q[0] <= p[0] and q[1] <= p[1] and (q[0] < p[0] or q[1] < p[1]) for q in pts)}
        best[g] = min(pts, key=lambda p: (p[0], int(p[2])))[2]
    if {r["point"] for r in table if r["front"] == "1"} != front or len(front) < 2:
        fail(f"CSV front column {[r['front'] for r in table]}, fronts by definition {sorted(front)}")
    if {str(p["point"]) for p in j["points"] if p["pareto"]} != front:
        fail(f"JSON pareto flags, fronts by definition {sorted(front)}")
    shown = {ln.split()[0] for ln in text.split("Pareto front")[1].split("best point")[0].splitlines()[2:] if ln.strip()}
    if shown != front or "one front per program" not in text:
        fail(f"printed fronts {sorted(shown)}, expected {sorted(front)}")
    if {b["program"]: str(b["point"]) for b in j["best"]} != best:
        fail(f"JSON best {j['best']}, by definition {best}")
    for g in progs:
        line = text.split(f"best point of {g} by cycles:")[1].splitlines()[2]
        if line.split()[0] != best[g]:
            fail(f"best point of {g} printed {line.split()[0]}, expected {best[g]}")
    agg = j["aggregate"]["configs"]
    if j["aggregate"]["baseline"] != "icache.size=512 icache.ways=1" or len(agg) != 4:
        fail(f"aggregate over the 4 configurations against point 0's: {j['aggregate']}")
    printed = text.split("over all 2 programs")[1].splitlines()[2:6]
    for c, (got, out) in enumerate(zip(agg, printed)):
        for m in ("cycles", "energy_uj"):
            logs = [math.log(float(table[4 * g + c][m]) / float(table[4 * g][m])) for g in range(2)]
            want = math.exp(sum(logs) / 2)
            # cycles are exact integers; energy_uj is written with 3 decimals, so within their rounding
            tol = 1e-6 if m == "cycles" else 2e-3
            if abs(got["geomean"][m] - want) > tol or got["programs"] != 2:
                fail(f"{got['config']}: geometric mean of {m} {got['geomean'][m]}, {want} by definition")
            col = ["cycles", "instructions", "energy_uj"].index(m) - 3  # from the end: a name has spaces
            if out.split()[col] != "%.4f" % got["geomean"][m] or abs(float(out.split()[col]) - want) > tol + 1e-4:
                fail(f"printed {out!r}: {m} {out.split()[col]}, want {want:.4f}")


def count(db):
    if not os.path.exists(db):
        return 0
    try:
        c = sqlite3.connect(db, timeout=10)
        n = c.execute("SELECT count(*) FROM sweep_point").fetchone()[0]
        c.close()
        return n
    except sqlite3.Error:
        return 0


def case_resume(a):
    spec = ["-p", f"{a.elf} 16", "-a", "icache.size=512,1K,2K,4K,8K,16K", "--record",
            "cycles,instructions,icache.miss,dcache.read_miss", "-j", "1", "-q"]
    whole = os.path.join(a.work, "whole.db")
    cut = os.path.join(a.work, "cut.db")
    ref = sweep(a, *spec, "--db", whole, "--csv", "-").stdout
    p = subprocess.Popen([a.tally, "sweep", *spec, "--db", cut], cwd=a.work, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while count(cut) < 1 and time.time() < deadline and p.poll() is None:
        time.sleep(0.005)
    p.send_signal(signal.SIGKILL)
    p.wait()
    before = count(cut)
    if not 1 <= before < 6:
        fail(f"the killed sweep had stored {before} of 6 points (expected some, not all)")
    r = sweep(a, *spec, "--db", cut, "--csv", "-")
    want = f"running {6 - before} of 6 points ({before} already in"
    if want not in r.stderr:
        fail(f"resume: expected '{want}', got: {r.stderr}")
    if r.stdout != ref:
        fail(f"resumed results differ from an uninterrupted sweep:\n{r.stdout}\n---\n{ref}")


def case_errors(a):
    def expect(status, args, words):
        p = sweep(a, *args, check=False)
        if p.returncode != status or any(w not in p.stderr for w in words):
            fail(f"tally sweep {args}: exit {p.returncode}, stderr {p.stderr!r}; expected {status} and {words}")
    bad = os.path.join(a.work, "bad.ini")
    with open(bad, "w") as f:
        f.write("[sweep]\ncore = tally5\n\n[axis]\nicache.size = 1K\nnokey = 3\n")
    expect(66, [bad], [f"{bad}:6", "nokey"])
    with open(bad, "w") as f:
        f.write("[program x]\nargs = 1\n[sweep]\nobjective = cycles\n")
    expect(66, [bad], [bad, "has no 'elf ='"])
    with open(bad, "w") as f:
        f.write("[weird]\na = b\n")
    expect(66, [bad], [f"{bad}:2", "unknown section"])
    expect(66, [os.path.join(a.work, "missing.ini")], ["missing.ini"])
    expect(64, ["-a", "icache.size"], ["icache.size", "section.key=value"])
    expect(64, ["-j", "0", "-p", a.elf], ["--jobs"])
    expect(64, [], ["no points"])
    expect(64, ["-p", a.elf, "--objective", "bogus", "--db", "e.db"], ["unknown metric 'bogus'"])
    expect(66, ["-p", "/nonexistent.elf", "--db", "e2.db"], ["/nonexistent.elf"])
    vals = ",".join(str(i) for i in range(100))
    expect(64, ["-p", a.elf, "-a", "icache.ways=" + vals, "-a", "dcache.ways=" + vals,
                "-a", "icache.line=" + ",".join(["16"] * 200), "--db", "e3.db"],
           ["2000000 points (at most 1000000)"])
    huge = [x for i in range(12) for x in ("-a", f"s{i}.k=" + ",".join(["1"] * 1000))]
    expect(64, ["-p", a.elf, *huge, "--db", "e4.db"], ["more points than can be counted"])
    # a value given twice is one simulation, stored once, shown twice
    dup = rows(sweep(a, "-p", f"{a.elf} 5", "-a", "icache.line=16,16,32", "--db", "dup.db", "--csv", "-", "-q").stdout)
    if [r["icache.line"] for r in dup] != ["16", "16", "32"] or dup[0]["cycles"] != dup[1]["cycles"]:
        fail(f"duplicate axis value: {dup}")
    h = sweep(a, "--help")
    if "usage: tally sweep" not in h.stdout:
        fail("--help prints no usage")


def case_plot(a):
    import xml.etree.ElementTree as ET
    plot = os.path.join(a.repo, "scripts", "sweep-plot.py")
    if subprocess.run(["/usr/bin/python3", "-c", "import matplotlib"], capture_output=True).returncode != 0:
        print("skipped: no matplotlib for /usr/bin/python3 (python3-matplotlib)")
        sys.exit(77)
    sweep(a, "-p", f"{a.elf} 5", "-a", "icache.size=1K,2K,4K", "-a", "icache.ways=1,2", "-q", "--json", "s.json")
    svg = os.path.join(a.work, "s.svg")
    p = subprocess.run([plot, "s.json", "cycles", "icache.size", "--by", "icache.ways", "-o", svg],
                       cwd=a.work, capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        fail(f"sweep-plot: exit {p.returncode}: {p.stderr}")
    root = ET.parse(svg).getroot()
    if not root.tag.endswith("svg"):
        fail(f"{svg}: root element {root.tag}")
    text = open(svg).read()
    for w in ("hanoi icache.ways=1", "hanoi icache.ways=2"):
        if w not in text:
            fail(f"{svg}: no legend entry '{w}'")
    p = subprocess.run([plot, "s.json", "nope", "icache.size", "-o", svg], cwd=a.work, capture_output=True, text=True)
    if p.returncode != 65 or "nope" not in p.stderr:
        fail(f"sweep-plot with an unknown metric: exit {p.returncode}, {p.stderr!r}")


SLURM_CONF = """ClusterName=tallytest
SlurmctldHost={host}
SlurmctldPort={p1}
SlurmdPort={p2}
AuthType=auth/munge
AuthInfo=socket={d}/munge.sock
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
SlurmUser=root
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName={host} CPUs=2 State=UNKNOWN
PartitionName=debug Nodes={host} Default=YES MaxTime=INFINITE State=UP
"""


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def case_slurm(a):
    import shutil
    need = ["mungekey", "munged", "slurmctld", "slurmd", "sbatch", "squeue"]
    if os.geteuid() != 0 or any(shutil.which(x) is None for x in need):
        print("skipped: needs root and slurm-wlm + munge (scripts/install-deps.sh)")
        sys.exit(77)
    d = os.path.join(a.work, "cluster")
    os.makedirs(os.path.join(d, "state"))
    os.makedirs(os.path.join(d, "spool"))
    host = subprocess.run(["hostname", "-s"], capture_output=True, text=True).stdout.strip()
    conf = os.path.join(d, "slurm.conf")
    with open(conf, "w") as f:
        f.write(SLURM_CONF.format(host=host, p1=free_port(), p2=free_port(), d=d))
    env = dict(os.environ, SLURM_CONF=conf)
    try:
        subprocess.run(["mungekey", "-c", "-k", f"{d}/munge.key"], check=True, capture_output=True)
        os.chmod(f"{d}/munge.key", 0o600)
        subprocess.run(["munged", "--force", "--key-file", f"{d}/munge.key", "--socket", f"{d}/munge.sock",
                        "--pid-file", f"{d}/munged.pid", "--log-file", f"{d}/munged.log",
                        "--seed-file", f"{d}/munge.seed"], check=True, capture_output=True)
        subprocess.run(["slurmctld", "-f", conf], check=True, capture_output=True, env=env)
        subprocess.run(["slurmd", "-f", conf], check=True, capture_output=True, env=env)
        spec = os.path.join(a.work, "tiny.ini")
        with open(spec, "w") as f:
            f.write(f"[sweep]\nrecord = cycles, instructions, icache.miss, dcache.read_miss\n"
                    f"[program hanoi]\nelf = {a.elf}\nargs = 7\n"
                    "[axis]\nicache.size = 512, 1K, 2K\nicache.ways = 1, 2\n")
        deadline = time.time() + 60
        while time.time() < deadline:   # the node registers with the controller
            p = subprocess.run(["sinfo", "-h", "-o", "%t"], capture_output=True, text=True, env=env)
            if p.stdout.strip() == "idle":
                break
            time.sleep(0.5)
        else:
            fail(f"the one-node cluster did not come up: {p.stdout} {p.stderr}")
        p = subprocess.run([a.tally, "sweep", spec, "--slurm", "3", "--db", "slurm.db"], cwd=a.work,
                           capture_output=True, text=True, env=env, timeout=60)
        if p.returncode != 0:
            fail(f"--slurm: exit {p.returncode}: {p.stderr}")
        jobs = open(os.path.join(a.work, "slurm.db.slurm", "jobs")).read().split()
        if jobs[2:] != ["3", "6"]:
            fail(f"jobs file {jobs}: expected 3 tasks for 6 points")
        deadline = time.time() + 90
        while time.time() < deadline:
            q = subprocess.run(["squeue", "-h", "-j", f"{jobs[0]},{jobs[1]}"], capture_output=True, text=True,
                               env=env)
            if q.returncode == 0 and not q.stdout.strip():
                break
            time.sleep(0.5)
        else:
            fail(f"the jobs did not finish: {q.stdout}")
        st = subprocess.run([a.tally, "sweep", spec, "--status", "--db", "slurm.db", "-q"], cwd=a.work,
                            capture_output=True, text=True, env=env)
        if (st.returncode != 0 or f"job array {jobs[0]} (3 tasks)" not in st.stdout
                or "task 2: 2 points done" not in st.stdout or "slurm.db: 6 of 6 points merged" not in st.stdout):
            fail(f"--status: exit {st.returncode}: {st.stdout} {st.stderr}")
        merged = sweep(a, spec, "--no-run", "--db", "slurm.db", "--csv", "-", "-q").stdout
        local = sweep(a, spec, "--db", "local.db", "--csv", "-", "-q").stdout
        if len(rows(merged)) != 6 or merged != local:
            fail(f"merged Slurm results differ from a local run:\n{merged}\n---\n{local}")
        for i in range(3):
            log = open(os.path.join(a.work, "slurm.db.slurm", f"task-{i}.log")).read()
            if "running 2 of 2 points" not in log:
                fail(f"task {i} did not run its slice of 2 points: {log}")
    finally:
        for name in ("slurmd", "slurmctld", "munged"):
            try:
                os.kill(int(open(os.path.join(d, name + ".pid")).read()), signal.SIGTERM)
            except (OSError, ValueError):
                pass


def run_stats(a, elf, args, sets, core="tally5"):
    argv = [a.tally, "run", "--core", core]
    for x in sets:
        argv += ["--set", x]
    sj = os.path.join(a.work, "run.json")
    p = subprocess.run(argv + ["--stats-json", sj, elf, *args], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        fail(f"tally run {sets}: exit {p.returncode}\n{p.stderr}")
    with open(sj) as f:
        return json.load(f)


def onepass_equals_runs(a, elf, args, axes, base=("memory.type=sram",), core="tally5", varies=("icache.miss",)):
    """A --one-pass sweep of elf against one tally run per point; each
    signal of `varies` must take more than one value over the points (so
    that the axes are seen to matter)."""
    base = list(base)
    signals = list(run_stats(a, elf, args, base, core)["signals"])
    db = os.path.join(a.work, os.path.basename(elf) + ".db")
    spec = ["-p", " ".join([elf, *args]), "--core", core, "--record", ",".join(["cycles", "instructions"] + signals),
            "--db", db, "--one-pass", "--json", "op.json", "-q"]
    for x in base:
        spec += ["--set", x]
    for ax in axes:
        spec += ["-a", ax]
    sweep(a, *spec)
    with open(os.path.join(a.work, "op.json")) as f:
        pts = json.load(f)["points"]
    os.remove(db)  # the next call may sweep the same program again
    want = 1
    for ax in axes:
        want *= len(ax.split("=")[1].split(","))
    if len(pts) != want:
        fail(f"{elf}: {len(pts)} points, expected {want}")
    for p in pts:
        sets = base + [f"{k}={v}" for k, v in p["axes"].items()]
        d = run_stats(a, elf, args, sets, core)
        m = p["metrics"]
        got = {"cycles": d["cycles"], "instructions": d["instructions"], **d["signals"]}
        for k, v in got.items():
            if m.get(k) != v:
                fail(f"{os.path.basename(elf)} {core} {sets}: {k} {m.get(k)} from --one-pass, {v} from tally run")
        if abs(m["energy_uj"] - d["energy_j"]["total"] * 1e6) > 0.0006:
            fail(f"{sets}: energy {m['energy_uj']} uJ from --one-pass, {d['energy_j']['total'] * 1e6} from tally run")
    for sig in varies:
        if len({p["metrics"][sig] for p in pts}) < 2:
            fail(f"{os.path.basename(elf)} {axes}: {sig} is the same at every point")
    return len(pts)


def case_onepass(a):
    wl = os.path.dirname(a.elf)
    n = onepass_equals_runs(a, a.elf, ["10"], ["icache.line=16,32", "icache.size=256,1K,4K", "icache.ways=1,4"])
    n += onepass_equals_runs(a, os.path.join(wl, "aes.elf"), ["20"], ["icache.size=512,2K,8K", "icache.ways=1,2,8"])
    refused = [(["--core", "tally5"], "SDRAM"),
               (["--core", "tally5-wt", "--set", "memory.type=sram"], "write buffer"),
               (["--set", "memory.type=sram", "-a", "icache.replacement=lru,lrr"], "not LRU")]
    for extra, why in refused:
        db = os.path.join(a.work, "refused.db")
        p = sweep(a, "-p", f"{a.elf} 6", "-a", "icache.size=512,1K", *extra, "--one-pass", "--db", db, "-q",
                  check=False)
        if p.returncode != 64 or why not in p.stderr:
            fail(f"--one-pass {extra}: exit {p.returncode}, {p.stderr!r}, expected 64 naming {why!r}")
        if count(db) != 0:
            fail(f"--one-pass {extra} stored points although refused")
    # a program whose path follows the cycle count: in the family by its
    # model, so only the real run of one point can catch it
    timed = os.path.join(a.programs, "timed_path.elf")
    db = os.path.join(a.work, "timed.db")
    p = sweep(a, "-p", timed, "-a", "icache.size=256,1K,4K", "--set", "memory.type=sram", "--one-pass",
              "--db", db, "-q", check=False)
    if p.returncode != 64 or "differs from its real run" not in p.stderr:
        fail(f"--one-pass on a time-dependent program: exit {p.returncode}, {p.stderr!r}")
    if count(db) != 0:
        fail("--one-pass stored points of a time-dependent program")
    print(f"{n} points equal their separate runs")


def case_onepass_d(a):
    """--one-pass over D-cache axes, on a streaming workload (crc32 over
    8 KiB: each line is written, then read, once) and one with reuse
    (matmul 20: rows and columns used again): write-back LRU sizes x ways
    (x line sizes), direct-mapped write-through sizes (with I-cache sizes
    for matmul), I- and D-cache axes together; every point against a
    separate tally run."""
    wl = os.path.dirname(a.elf)
    crc, mm = os.path.join(wl, "crc32.elf"), os.path.join(wl, "matmul.elf")
    wb = ("dcache.read_miss", "dcache.write_hit", "writeback", "cycles")
    n = onepass_equals_runs(a, crc, ["8"], ["dcache.size=256,1K,4K", "dcache.ways=1,2,8"], varies=wb[:1] + wb[2:])
    n += onepass_equals_runs(a, mm, ["20"], ["dcache.line=16,32", "dcache.size=256,1K,4K", "dcache.ways=1,4"],
                             varies=wb)
    wt = ("memory.type=sram", "dcache.write_buffer=0", "dcache.ways=1")
    for elf, args, more in ((crc, ["8"], []), (mm, ["20"], ["icache.size=256,4K"])):
        n += onepass_equals_runs(a, elf, args, more + ["dcache.line=16,32", "dcache.size=256,1K,4K"], base=wt,
                                 core="tally5-wt", varies=("dcache.read_miss", "dcache.write_hit", "cycles"))
    n += onepass_equals_runs(a, mm, ["20"], ["icache.size=256,1K", "icache.ways=1,2", "dcache.size=256,2K"],
                             varies=("icache.miss",) + wb)
    refused = [(["--core", "tally5-wt", "--set", "dcache.write_buffer=0", "-a", "dcache.ways=1,2"], "dcache.ways"),
               (["--set", "dcache.replacement=lrr", "-a", "dcache.ways=2,4"], "dcache.replacement"),
               (["--core", "picorv32"], "dcache.enabled"),
               (["--set", "memory.type=sdram"], "SDRAM")]
    for extra, why in refused:
        db = os.path.join(a.work, "refused.db")
        p = sweep(a, "-p", f"{mm} 20", "-a", "dcache.size=1K,2K", "--set", "memory.type=sram", *extra, "--one-pass",
                  "--db", db, "-q", check=False)
        if p.returncode != 64 or why not in p.stderr:
            fail(f"--one-pass {extra}: exit {p.returncode}, {p.stderr!r}, expected 64 naming {why!r}")
        if count(db) != 0:
            fail(f"--one-pass {extra} stored points although refused")
    print(f"{n} points equal their separate runs")


def case_counters(a):
    """Statistics-module counters as metrics (SIGNAL@FUNCTION in record and
    objective): every point's totals equal the totals of a separate `tally
    run --count` with the same --set options; the best point by such a
    counter is the smallest; --one-pass and an unknown counter signal are
    refused with 64 before anything is stored."""
    counters = ["cycle@move_disc", "icache.miss@move_disc", "dcache.write_hit@move_disc"]
    db = os.path.join(a.work, "counters.db")
    spec = ["-p", f"{a.elf} 6", "-a", "icache.size=256,4K", "-a", "dcache.size=256,4K",
            "--record", ",".join(["cycles", "cache_bytes"] + counters), "--objective", "icache.miss@move_disc",
            "--pareto", "cycles,cache_bytes", "--db", db, "-j", "2"]
    p = sweep(a, *spec, "--csv", "-")
    out = sweep(a, *spec, "--no-run", "--csv", "-", "-q").stdout
    table = rows(out)
    if len(table) != 4:
        fail(f"expected 4 points, got {len(table)}")
    for r in table:
        argv = [a.tally, "run", "--core", "tally5", "--set", f"icache.size={r['icache.size']}",
                "--set", f"dcache.size={r['dcache.size']}", "--interval", "50000", "--db", os.path.join(a.work, "r.db")]
        for c in counters:
            argv += ["--count", c]
        iv = os.path.join(a.work, "iv.csv")
        q = subprocess.run(argv + ["--intervals-csv", iv, a.elf, "6"], capture_output=True, text=True, timeout=120)
        if q.returncode != 0:
            fail(f"tally run {argv}: exit {q.returncode}\n{q.stderr}")
        total = [line.split(",") for line in open(iv) if line.startswith("total,")][0]
        want = [int(v) for v in total[3:3 + len(counters)]]
        got = [int(float(r[c])) for c in counters]
        if got != want:
            fail(f"point {r['point']}: counters {got} from tally sweep, {want} from tally run --count")
        size = {"256": 256, "4K": 4096}
        if int(r["cache_bytes"]) != size[r["icache.size"]] + size[r["dcache.size"]]:
            fail(f"point {r['point']}: cache_bytes {r['cache_bytes']}, expected the I- plus the D-cache's size")
    if len({r["icache.miss@move_disc"] for r in table}) < 2:
        fail("the I-cache size does not change icache.miss@move_disc: the check would be weak")
    best = min(table, key=lambda r: float(r["icache.miss@move_disc"]))
    if f"--set icache.size={best['icache.size']}" not in p.stdout.split("best point")[-1]:
        fail(f"best point by icache.miss@move_disc is not point {best['point']}:\n{p.stdout}")
    for extra, why in ((["--one-pass", "--set", "memory.type=sram"], "cannot be derived"),
                       (["--record", "cycles,nosuch@move_disc"], "nosuch")):
        bad = os.path.join(a.work, "bad.db")
        q = sweep(a, "-p", f"{a.elf} 6", "-a", "icache.size=256,4K", "--record", "cycles,cycle@move_disc", *extra,
                  "--db", bad, "-q", check=False)
        if q.returncode != 64 or why not in q.stderr or count(bad) != 0:
            fail(f"{extra}: exit {q.returncode}, {q.stderr!r}, expected 64 naming {why!r} and nothing stored")
    print("4 points' counters equal tally run --count")


def case_progress(a):
    """The progress bar: on a terminal (stderr a pty), an update at the
    start (ETA ?) and one per finished point, k/N points with 30 * k // N
    '#' of 30, an ETA in seconds once a point is done, the last at N/N
    with ETA 0 s; not a terminal: no bar, only the first line."""
    import pty
    import re
    db = os.path.join(a.work, "progress.db")
    argv = [a.tally, "sweep", "-p", f"{a.elf} 6", "-a", "icache.size=256,512,1K,4K", "--db", db, "-j", "1", "-q"]
    master, slave = pty.openpty()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=slave, cwd=a.work)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    if p.wait(timeout=120) != 0:
        fail(f"tally sweep on a terminal: exit {p.returncode}: {out!r}")
    bars = re.findall(r"\[(#*) *\] (\d+)/4 points, \d+ s, ETA ([^\r\n]*?) ?(?=\r|\n|$)", out.decode())
    if [int(b[1]) for b in bars] != [0, 1, 2, 3, 4]:
        fail(f"expected an update at the start and one per point, 0/4 .. 4/4: {out!r}")
    if bars[0][2] != "?":
        fail(f"before any point is done the ETA is {bars[0][2]!r}, expected ?")
    for fill, done, eta in bars:
        if len(fill) != 30 * int(done) // 4 or (done != "0" and not re.fullmatch(r"\d+ s", eta)):
            fail(f"update {done}/4: {len(fill)} '#' (expected {30 * int(done) // 4}), ETA {eta!r}")
    if bars[-1][2] != "0 s":
        fail(f"the last update's ETA is {bars[-1][2]!r}, expected 0 s")
    argv[argv.index(db)] = os.path.join(a.work, "progress2.db")
    q = subprocess.run(argv, capture_output=True, text=True, cwd=a.work, timeout=120)
    if q.returncode != 0 or "[" in q.stderr or "running 4 of 4 points" not in q.stderr:
        fail(f"not a terminal: expected no bar: {q.stderr!r}")
    print("4 updates on a terminal, none elsewhere")


def case_stop(a):
    """A point that never ends: SIGINT (then, in a second sweep, SIGTERM)
    ends the sweep within seconds with status 130, the finished point kept
    and the unfinished one not stored."""
    forever = os.path.join(a.test_programs, "forever.elf")
    for sig in (signal.SIGINT, signal.SIGTERM):
        db = os.path.join(a.work, f"stop{int(sig)}.db")
        p = subprocess.Popen([a.tally, "sweep", "-p", forever, "-p", f"{a.elf} 4", "-j", "2", "-q", "--db", db],
                             cwd=a.work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 60
        while count(db) < 1 and time.time() < deadline and p.poll() is None:
            time.sleep(0.02)
        if p.poll() is not None or count(db) != 1:
            fail(f"{sig.name}: before the signal the sweep had ended ({p.poll()}) or stored {count(db)} points")
        t0 = time.time()
        p.send_signal(sig)
        try:
            _, err = p.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            fail(f"{sig.name}: the sweep with a never-ending point did not stop within 10 s")
        took = time.time() - t0
        if p.returncode != 130 or "finished points are kept" not in err:
            fail(f"{sig.name}: exit {p.returncode}, stderr {err!r}; expected 130 and 'finished points are kept'")
        if count(db) != 1:
            fail(f"{sig.name}: {count(db)} points stored, expected the finished one alone")
        print(f"{sig.name}: stopped in {took:.2f} s")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tally", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--programs", help="tests/sweep's own guest programs (built)")
    ap.add_argument("--test-programs", help="tests/programs (built): forever.elf")
    ap.add_argument("--case", required=True, choices=["local", "resume", "plot", "slurm", "errors", "onepass", "onepass_d", "counters", "progress", "stop"])
    ap.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    a = ap.parse_args()
    a.work = os.path.join(a.work, a.case)
    os.makedirs(a.work, exist_ok=True)
    import shutil
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)
    globals()["case_" + a.case](a)
    print("ok")


if __name__ == "__main__":
    main()
