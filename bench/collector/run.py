#!/usr/bin/env python3
"""Runs the store and collector benchmarks and writes their section of
bench/results.md ("## Collector and store"), leaving the rest of the file as
it is. See bench/collector/README.md.

  bench/collector/run.py                      # build/ , 5 runs each
  bench/collector/run.py --build build-x --runs 7
"""
import argparse
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import write_section  # noqa: E402
HEADING = "## Collector and store"
TARGET = 100000  # packets per second (issue: the collector stores at least this many)


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, check=True, **kw).stdout


def machine():
    lscpu = sh(["lscpu"])
    model = re.search(r"Model name:\s*(.+)", lscpu)
    kernel = platform.release()
    try:
        sqlite = sh(["sqlite3", "--version"]).split()[0]
    except (OSError, subprocess.CalledProcessError):
        sqlite = "unknown"
    return {
        "cpu": model.group(1).strip() if model else platform.processor(),
        "nproc": sh(["nproc"]).strip(),
        "kernel": kernel,
        "sqlite": sqlite,
        "rmem_max": open("/proc/sys/net/core/rmem_max").read().strip(),
    }


def load():
    return open("/proc/loadavg").read().split()[0]


def run_bench(exe, args):
    print("+", exe, *args, flush=True)
    p = subprocess.run([exe] + args, capture_output=True, text=True)
    sys.stderr.write(p.stderr)
    if p.returncode != 0:
        raise SystemExit(f"{exe} failed with status {p.returncode}")
    return p.stdout


def num(text):
    return f"{float(text):,.0f}"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(REPO, "build"), help="build directory (default build/)")
    ap.add_argument("--runs", type=int, default=5, help="runs per measurement (default 5, at least 3)")
    ap.add_argument("--intervals", type=int, default=200000, help="intervals per store measurement")
    ap.add_argument("--packets", type=int, default=200000, help="DATA packets per end-to-end run")
    ap.add_argument("--rates", default="0,100000,150000", help="offered packet rates, 0 = unpaced")
    ap.add_argument("--output", default=os.path.join(REPO, "bench", "results.md"))
    opt = ap.parse_args(argv)
    if opt.runs < 3:
        ap.error("--runs: at least 3")
    bench = os.path.join(opt.build, "bench")
    exes = {b: os.path.join(bench, b) for b in ("store_bench", "layouts", "e2e")}
    for b, exe in exes.items():
        if not os.access(exe, os.X_OK):
            raise SystemExit(f"no {exe}: build it first (cmake --build {opt.build} --target bench_{b})")
    m = machine()
    load0 = load()
    scratch = tempfile.mkdtemp(prefix="bench-collector-", dir=opt.build)  # on the disk the store uses
    try:
        store = run_bench(exes["store_bench"], [scratch, "--intervals", str(opt.intervals), "--runs", str(opt.runs),
                                                "--batches", "256,1024,4096,16384"])
        layouts = run_bench(exes["layouts"], [scratch, str(opt.intervals), str(opt.runs)])
        e2e = run_bench(exes["e2e"], [scratch, "--packets", str(opt.packets), "--runs", str(opt.runs),
                                      "--rates", opt.rates])
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    load1 = load()

    batch_rows = re.findall(r"batch (\d+): median (\d+) intervals/s \(min (\d+), max (\d+)\)", store)
    layout_rows = dict(re.findall(r"^(\w+) (\d+)$", layouts, re.M))
    e2e_rows = re.findall(r"sender (\w+) rate (\d+): median (\d+) packets/s stored \(min (\d+), max (\d+)\); "
                          r"collector CPU ([\d.]+) us/packet; verdict (\d+) ms after the last packet; resend requests (\d+) resent (\d+) gone (\d+) over (\d+) runs; "
                          r"complete (\d+)/(\d+); rcvbuf (\d+)", e2e)
    if not batch_rows or not layout_rows or not e2e_rows:
        raise SystemExit("could not read the benchmarks' output:\n" + store + layouts + e2e)

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    try:
        rev = sh(["git", "-C", REPO, "describe", "--always", "--dirty"]).strip()
    except (OSError, subprocess.CalledProcessError):
        rev = "unknown"
    out = [HEADING, "",
           "Written by `bench/collector/run.py` (see bench/collector/README.md); rerun it to update.", "",
           f"- date: {now}",
           f"- machine: {m['cpu']}, {m['nproc']} cores (`nproc`), Linux {m['kernel']}; SQLite {m['sqlite']}",
           f"- load average (1 min) before / after: {load0} / {load1} — the machine is shared; "
           "figures taken under load are lower than on an idle machine",
           f"- tally source: git {rev}",
           f"- command: `bench/collector/run.py --runs {opt.runs} --intervals {opt.intervals} "
           f"--packets {opt.packets} --rates {opt.rates}`",
           f"- method: medians of {opt.runs} runs, the variants alternating within each run; "
           "a fresh SQLite file on the build directory's disk for every measurement",
           "",
           f"### Store: `store_add_interval`, 16 counters per interval ({opt.intervals:,} intervals)",
           "",
           "Through the store's API as the collector calls it (one call per DATA packet, then `store_flush`),",
           "by transaction size (`store_set_batch`; the default is 4096):",
           "",
           "| rows per transaction | median intervals/s | min | max |",
           "|--:|--:|--:|--:|"]
    out += [f"| {b} | {num(med)} | {num(lo)} | {num(hi)} |" for b, med, lo, hi in batch_rows]
    rows = float(layout_rows.get("rows", "nan"))
    out += ["",
            "Layouts in plain SQLite (same settings, `bench/collector/layouts.c`): the peer is the obvious",
            "schema, a row per (interval, counter) value:",
            "",
            "| layout | median intervals/s | vs a row per value |",
            "|---|--:|--:|"]
    names = {"rows": "a row per value (17 inserts per interval)", "blob": "one row, values as a binary blob",
             "json": "one row, values as a JSON array (the store's)"}
    for k in ("rows", "blob", "json"):
        if k in layout_rows:
            out.append(f"| {names[k]} | {num(layout_rows[k])} | {float(layout_rows[k]) / rows:.2f} |")
    out += ["",
            f"### End to end: loopback UDP into SQLite ({opt.packets:,} DATA packets of 16 counters per run)",
            "",
            "Sender and collector in two processes (`bench/collector/e2e.c`). *link*: the real board link,",
            "one send per packet, as a simulated board sends; *blast*: the stream encoded beforehand and sent",
            "32 packets per `sendmmsg`, so the sender is not the limit. Rate 0 is unpaced; otherwise the DATA",
            "packets are paced at the offered rate. *stored/s*: DATA packets over the time from the first",
            "packet to the collector's committed verdict. *complete*: runs whose verdict was complete and whose",
            "stored sums, read back, equal the sender's own totals. *requests*: RESEND packets the collector",
            "sent because it saw a gap (the socket dropped packets), summed over the runs; *resent*: packets",
            "the sender sent again (the board link also repeats its final packet until acknowledged).",
            "",
            "*per CPU-second*: 10^6 / (collector CPU µs per packet), what one core given to the collector",
            "alone would store; it depends far less on the machine's other load than the wall-clock rate.",
            "",
            "*tail*: median time from the last DATA packet sent to the verdict (the final packet, the check",
            "of every interval against the board's totals, the commit); a paced run's stored/s is at most the",
            "offered rate, less this tail spread over the run.",
            "",
            "| sender | offered/s | median stored/s | min | max | tail ms | collector CPU µs/packet | per CPU-second "
            "| requests | resent | complete |",
            "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"]
    best = 0.0
    for sender, rate, med, lo, hi, cpu, tail, requests, resent, gone, runs, comp, total, rcvbuf in e2e_rows:
        offered = "unpaced" if rate == "0" else num(rate)
        out.append(f"| {sender} | {offered} | {num(med)} | {num(lo)} | {num(hi)} | {tail} | {cpu} | "
                   f"{1e6 / float(cpu):,.0f} "
                   f"| {int(requests):,} | {int(resent):,} | {comp}/{total} |")
        if comp == total and int(requests) == 0:
            best = max(best, float(med))
    rcv = int(e2e_rows[0][13])
    out += ["",
            f"Collector receive buffer: {rcv:,} bytes (`net.core.rmem_max` = {int(m['rmem_max']):,}).",
            "",
            f"Target: at least {TARGET:,} packets/s stored without loss. Best median with every run complete "
            f"and no resend request: **{best:,.0f} packets/s** "
            f"({'meets' if best >= TARGET else 'below'} the target).",
            ""]
    section = "\n".join(out)
    write_section(opt.output, HEADING, section)
    print(f"wrote {opt.output}")
    print(section)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
