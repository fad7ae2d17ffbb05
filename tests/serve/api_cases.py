#!/usr/bin/env python3
"""tally serve's JSON API with real requests on loopback: every endpoint,
the limits (upload size, instruction budget, CPU time, runs at once) and
the refusals (cross-site requests, wrong Host, missing token, bad uploads,
hostile requests, a guest reaching for host files).

Expected values come from elsewhere: function ranges from binutils' nm,
source files from addr2line, the run's cycles from `tally run --stats-json`
(the command line, a separate path through the library), stored runs from
`tally report --json`, the number of intervals from ceil(cycles / interval),
and the laws of docs/statmod.md (a counter's intervals sum to its total;
(cycle, function) equals the profile's self cycles of that function).

usage: api_cases.py TALLY WORKLOADS_DIR SERVE_PROGRAMS_DIR WORK_DIR [SANITIZED: ON/OFF]
"""
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_harness import Server, check, done, event, fresh_dir, tally_report_json  # noqa: E402

SOURCE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__)))), "target")
TALLY, WL, PROGS, WORK = sys.argv[1:5]
SANITIZED = len(sys.argv) > 5 and sys.argv[5] == "ON"
AES = os.path.join(WL, "aes.elf")
AES_MAP = os.path.join(WL, "aes.map")
INTERVAL = 20000


def nm_function(elf, name):
    """(lo, hi) of a function from riscv64-unknown-elf-nm -S."""
    out = subprocess.run(["riscv64-unknown-elf-nm", "-S", elf], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[3] == name:
            return int(f[0], 16), int(f[0], 16) + int(f[1], 16)
    raise SystemExit("nm does not list " + name)


def addr2line_file(elf, addr):
    out = subprocess.run(["riscv64-unknown-elf-addr2line", "-e", elf, hex(addr)], capture_output=True, text=True,
                         check=True).stdout
    return out.split(":")[0]


def read(path):
    with open(path, "rb") as f:
        return f.read()


def case_info(s):
    st, info = s.json("GET", "/api/info")
    check(st == 200, "GET /api/info: status %d" % st)
    listed = subprocess.run([TALLY, "signals"], capture_output=True, text=True).stdout.splitlines()[1:]
    check(len(info["signals"]) == len(listed), "the catalog has %d signals, tally signals lists %d"
          % (len(info["signals"]), len(listed)))
    check({"tally5", "picorv32", "sram", "tally5-wt"} <= set(info["cores"]), "shipped cores: %s" % info["cores"])
    dc = [x for x in info["signals"] if x["name"] == "dcache.read_miss"]
    check(dc and dc[0]["noun"] == "data-cache read misses", "plain words of dcache.read_miss: %s" % dc)


def case_upload_elf(s):
    st, p = s.upload({"kind": "elf", "elf": read(AES)})
    check(st == 201, "upload aes.elf: status %d %s" % (st, p))
    f = {x["name"]: x for x in p.get("functions", [])}
    lo, hi = nm_function(AES, "MixColumns")
    m = f.get("MixColumns", {})
    check((m.get("lo"), m.get("hi"), m.get("size")) == (lo, hi, hi - lo),
          "MixColumns range %s, nm says [%#x, %#x)" % (m, lo, hi))
    check(m.get("file") == addr2line_file(AES, lo), "MixColumns source file %s, addr2line says %s"
          % (m.get("file"), addr2line_file(AES, lo)))
    st, again = s.json("GET", "/api/programs/%d" % p["id"])
    check(st == 200 and again == p, "GET /api/programs/%d gives the upload's description" % p["id"])
    check(p.get("name") == "elf.dat" and p.get("warnings") == [],
          "the program named after the uploaded file (elf.dat), no warnings for an ELF: %s %s" % (p.get("name"), p.get("warnings")))
    st, _ = s.json("GET", "/api/programs/999999")
    check(st == 404, "unknown program: status %d" % st)
    return p["id"]


def case_upload_bin(s):
    binf = os.path.join(WORK, "aes.bin")
    subprocess.run(["riscv64-unknown-elf-objcopy", "-O", "binary", AES, binf], check=True)
    st, p = s.upload({"kind": "bin", "bin": read(binf), "map": read(AES_MAP), "load_addr": "0x80000000"})
    check(st == 201, "upload aes.bin + aes.map: status %d %s" % (st, p))
    f = {x["name"]: x for x in p.get("functions", [])}
    # a map names global functions only (aes.c's static ones are not in it without -ffunction-sections)
    for name in ("main", "memcpy"):
        lo, _ = nm_function(AES, name)
        check(f.get(name, {}).get("lo") == lo, "%s from the map starts at %s, nm says %#x" % (name, f.get(name), lo))
    check(p.get("load_addr") == 0x80000000 and p.get("kind") == "bin", "raw upload description %s" % p)
    return p["id"], binf


def case_bad_uploads(s, binf):
    bad = [
        ({"kind": "elf", "elf": b"hello, not a program\n" * 10}, "not an ELF"),
        ({"kind": "elf", "elf": read("/bin/true")}, "64-bit ELF"),
        ({"kind": "elf"}, "no program"),
        ({"kind": "bin", "bin": read(binf), "load_addr": "0x80000000"}, "needs its linker map"),
        ({"kind": "bin", "bin": read(binf), "map": b"this is no map\n" * 5, "load_addr": "0x80000000"}, ".map file"),
        ({"kind": "bin", "bin": read(binf), "map": read(AES_MAP), "load_addr": "banana"}, "not an address"),
        ({"kind": "bin", "bin": read(binf), "map": read(AES_MAP), "load_addr": "0x10"}, ""),
    ]
    for parts, words in bad:
        st, r = s.upload(parts)
        msg = r.get("error", "")
        check(st == 422 and words in msg, "bad upload %s: status %d, message %r (want %r)"
              % (sorted(parts), st, msg, words))
        check(s.work not in msg and "/srv/" not in msg, "an error names a server path: %r" % msg)
    left = os.listdir(os.path.join(s.work, "srv", "programs"))
    check(len(left) == 2, "refused uploads leave nothing behind: %s" % left)


def case_refusals(s):
    st, _, b = s.request("POST", "/api/jobs", {"program": 1}, headers={"X-Tally": None})
    check(st == 403 and b"X-Tally" in b, "change without X-Tally: status %d" % st)
    st, _, _ = s.request("GET", "/api/info", headers={"Origin": "http://evil.example"})
    check(st == 403, "foreign Origin: status %d" % st)
    st, _, _ = s.request("POST", "/api/jobs", {"program": 1}, headers={"Sec-Fetch-Site": "cross-site"})
    check(st == 403, "Sec-Fetch-Site cross-site: status %d" % st)
    st, _, _ = s.request("GET", "/api/info", headers={"Host": "evil.example:80"})
    check(st == 421, "DNS rebinding (foreign Host): status %d" % st)
    st, _, _ = s.request("GET", "/../../../etc/passwd")
    check(st == 404, "a path outside the page: status %d" % st)
    st, _, b = s.request("GET", "/")
    check(st == 200 and b"<title>tally</title>" in b, "the page itself: status %d" % st)
    st = s.oversized(3 << 20)
    check(st == 413, "upload over --max-upload by its Content-Length: status %d" % st)
    body = (b"--xyz\r\nContent-Disposition: form-data; name=\"elf\"; filename=\"a\"\r\n\r\n" + b"\0" * (3 << 20)
            + b"\r\n--xyz--\r\n")
    st = s.oversized(0, body)
    check(st == 413, "upload over --max-upload, chunked: status %d" % st)
    for req, words in [({"program": 999}, "no such program"), ({"program": 1, "core": "../../etc/passwd"}, "core"),
                       ({"program": 1, "max_insns": 10 ** 12}, "max_insns"), ({"program": 1, "sets": ["a;rm"]}, "sets"),
                       ({"program": 1, "interval": -5}, "interval"), ("[1,2", "not JSON")]:
        st, _, b = s.request("POST", "/api/jobs", req.encode() if isinstance(req, str) else req,
                             ctype="application/json" if isinstance(req, str) else None)
        check(st == 400 and words.encode() in b, "bad run request %r: status %d %s" % (req, st, b[:200]))
    st, _ = s.json("GET", "/api/nothing")
    check(st == 404, "unknown API path: status %d" % st)


def cli_cycles(args):
    """Cycles, instructions and exit status of the same program from the command line, with the same
    command line as the server gives it (argv[0] "program": its length moves the stack, hence cycles)."""
    out = os.path.join(WORK, "stats.json")
    shutil.copy(AES, os.path.join(WORK, "program"))
    rc = subprocess.run([TALLY, "run", "--core", "tally5", "--stats-json", out, "program"] + args,
                        capture_output=True, cwd=WORK).returncode
    with open(out) as f:
        j = json.load(f)
    return j, rc


def case_measured_run(s, prog):
    req = {"program": prog, "core": "tally5", "args": ["20"], "interval": INTERVAL, "profile": True,
           "pairs": ["cycle@main", "dcache.read_miss@MixColumns", "instret"]}
    st, r = s.json("POST", "/api/jobs", req)
    check(st == 200 and "job" in r, "start a run: %d %s" % (st, r))
    final, ev = s.wait_job(r["job"])
    end = event(ev, "end") or {}
    check(final["state"] == "done", "run state %s (%s), events %s" % (final["state"], final["reason"],
                                                                   [e for e in ev if e["t"] in ("error", "warning")]))
    out = "".join(e["s"] for e in ev if e["t"] == "out")
    check("aes: OK" in out, "program output: %r" % out)
    stats, rc = cli_cycles(["20"])
    check(end.get("stop") == "exit" and end.get("exit_code") == rc == 0, "exit: %s / CLI %d" % (end.get("stop"), rc))
    check(end.get("cycles") == stats.get("cycles"), "cycles %s, tally run --stats-json says %s"
          % (end.get("cycles"), stats.get("cycles")))
    rows = [row for e in ev if e["t"] == "iv" for row in e["rows"]]
    want = -(-end.get("cycles", 0) // INTERVAL)
    check(len(rows) == want, "%d intervals sent to the page, ceil(cycles / interval) = %d" % (len(rows), want))
    totals = [t["total"] for t in end.get("totals", [])]
    sums = [sum(row[2 + i] for row in rows) for i in range(3)]
    check(sums == totals, "intervals sum to the totals: %s vs %s" % (sums, totals))
    check(len(totals) == 3 and totals[2] == end.get("insns"), "instret anywhere %s = instructions %s"
          % (totals[2:], end.get("insns")))
    check([t["label"] for t in end.get("totals", [])] == ["cycles in main's own code", "data-cache read misses in MixColumns's own code",
                                                            "instructions retired"],
          "plain words: %s" % [t["label"] for t in end.get("totals", [])])
    st, _, pb = s.request("GET", "/api/jobs/%d/profile" % r["job"])
    check(st == 200, "profile: status %d" % st)
    prof = json.loads(pb) if st == 200 else {"functions": [], "total_cycles": 0}
    check(sum(f["self"][0] for f in prof["functions"]) == prof["total_cycles"] == end.get("cycles"),
          "profile self cycles add up to the run's cycles")
    main = [f for f in prof["functions"] if f["name"] == "main"]
    check(main and totals and main[0]["self"][0] == totals[0], "(cycle, main) %s = main's self cycles %s"
          % (totals[:1], main[0]["self"][0] if main else None))
    check(prof.get("lines") and any(row[4].startswith("aes.c:") for row in prof["code"].get("MixColumns", [])),
          "annotated MixColumns has aes.c lines")
    check_sources(prof)
    time.sleep(0.5)  # the run's kept profile is linked when the reader thread has seen the worker end
    st, _, kept = s.request("GET", "/api/runs/%s/profile" % end.get("run_id"))
    check(st == 200 and kept == pb, "the stored run keeps its profile: status %d, %s bytes of %d" % (st, len(kept), len(pb)))
    return end.get("run_id"), totals, len(rows)


def check_sources(prof):
    """--source-dir: each annotated instruction's source text is the line addr2line names, read here from
    the file; files outside the folder (the C library's) have no text."""
    src = prof.get("sources") or {}
    rows = [r for r in prof["code"].get("MixColumns", []) if len(r) >= 10 and r[9]]
    check(rows and len(rows) == len(prof["code"]["MixColumns"]), "MixColumns' rows name their file and line: %d" % len(rows))
    for r in rows[:40]:
        want_file, want_line = addr2line_file(AES, r[0]), None
        out = subprocess.run(["riscv64-unknown-elf-addr2line", "-e", AES, hex(r[0])], capture_output=True, text=True).stdout
        want_file, _, want_line = out.strip().rpartition(":")
        want_line = int(want_line.split()[0]) if want_line.split() and want_line.split()[0].isdigit() else None
        text = src.get(r[8])
        check(r[8] == want_file and r[9] == want_line and text is not None,
              "%#x at %s:%s, addr2line says %s:%s" % (r[0], r[8], r[9], want_file, want_line))
        if text is not None and r[8] == want_file:
            with open(want_file, encoding="ascii", errors="replace") as f:
                lines = f.read().split("\n")
            check(text[r[9] - 1] == lines[r[9] - 1].replace("\r", " "), "line %d of %s" % (r[9], want_file))
    outside = [k for k, v in src.items() if not os.path.realpath(k).startswith(SOURCE_DIR + os.sep)]
    check(outside and all(src[k] is None for k in outside), "no text for files outside --source-dir: %s" % outside[:3])


def case_many_intervals(s, prog):
    """17,000-odd intervals come to the page in several events, each one once, and cycles anywhere sum to
    the run's cycles."""
    st, r = s.json("POST", "/api/jobs", {"program": prog, "pairs": ["cycle"], "interval": 100, "args": ["20"]})
    final, ev = s.wait_job(r["job"])
    end = event(ev, "end") or {}
    rows = [row for e in ev if e["t"] == "iv" for row in e["rows"]]
    n_iv = len([e for e in ev if e["t"] == "iv"])
    check(n_iv > 4, "intervals come in several events: %d" % n_iv)
    check([row[0] for row in rows] == list(range(len(rows))), "each interval once, in order")
    check(len(rows) == -(-end.get("cycles", 0) // 100), "%d intervals for %s cycles at 100" % (len(rows), end.get("cycles")))
    check(sum(row[2] for row in rows) == end.get("cycles"), "cycles anywhere sum to the run's cycles")


def case_bad_pair(s, prog):
    st, r = s.json("POST", "/api/jobs", {"program": prog, "pairs": ["nosuch@main"], "interval": 1000})
    final, ev = s.wait_job(r["job"])
    err = event(ev, "error") or {}
    check(final["state"] == "failed" and "unknown signal 'nosuch'" in err.get("msg", ""),
          "a pair with an unknown signal: %s %s" % (final["state"], err))
    st, r = s.json("POST", "/api/jobs", {"program": prog, "pairs": ["cycle@NoSuchFunction"], "interval": 1000})
    final, ev = s.wait_job(r["job"])
    err = event(ev, "error") or {}
    check(final["state"] == "failed" and "NoSuchFunction" in err.get("msg", ""),
          "a pair with an unknown function: %s %s" % (final["state"], err))


def case_task_pairs(s):
    """Pairs with a task (SIGNAL@%TASK, SIGNAL@FUNC%TASK) on the RTOS pipeline:
    their totals are `tally profile --tasks`' per-task figures (the same
    command line as the server gives), with the task in the end's totals
    and in the stored run's events."""
    rtos = os.path.join(WL, "rtos_pipeline.elf")
    st, p = s.upload({"kind": "elf", "elf": read(rtos)})
    check(st == 201, "upload rtos_pipeline.elf: status %d %s" % (st, p))
    if st != 201:
        return
    req = {"program": p["id"], "core": "tally5", "args": ["100"], "interval": INTERVAL,
           "pairs": ["cycle", "cycle@%producer", "instret@produce%producer"]}
    st, r = s.json("POST", "/api/jobs", req)
    check(st == 200 and "job" in r, "start a task run: %d %s" % (st, r))
    if st != 200:
        return
    final, ev = s.wait_job(r["job"])
    end = event(ev, "end") or {}
    check(final["state"] == "done", "task run state %s (%s)" % (final["state"], final["reason"]))
    got = [(t.get("task"), t["total"]) for t in end.get("totals", [])]
    out = os.path.join(WORK, "tasks.json")
    shutil.copy(rtos, os.path.join(WORK, "program"))
    subprocess.run([TALLY, "profile", "-q", "--core", "tally5", "--tasks", "--json", out, "program", "100"],
                   capture_output=True, cwd=WORK)
    with open(out) as f:
        prof = json.load(f)
    prod = next((t for t in prof["tasks"]["list"] if t["name"] == "producer"), None)
    fn = next((f for f in prod["functions"] if f["name"] == "produce"), None) if prod else None
    want = [(None, prof["totals"]["cycle"]), ("producer", prod["total"]["cycle"] if prod else None),
            ("producer", fn["self"]["instret"] if fn else None)]
    check(got == want, "task pairs' totals %s, tally profile --tasks says %s" % (got, want))
    time.sleep(0.5)
    st, one = s.json("GET", "/api/runs/%s" % end.get("run_id"))
    check(st == 200 and [e.get("task") for e in one.get("events", []) if e.get("enabled")] == [None, "producer", "producer"],
          "the stored run's events keep their tasks: %s" % one.get("events"))


def case_stored(s, run_id, totals, nrows):
    time.sleep(0.5)  # the collector closes the run on the final record; it may be a moment behind
    st, lst = s.json("GET", "/api/runs")
    check(st == 200 and any(x["id"] == run_id for x in lst.get("runs", [])), "run %s listed" % run_id)
    mine = next((x for x in lst.get("runs", []) if x["id"] == run_id), {})
    check(mine.get("program") == "elf.dat" and mine.get("pairs") == ["cycle@main", "dcache.read_miss@MixColumns", "instret"]
          and mine.get("sets") is None and mine.get("profile") is True and isinstance(mine.get("cycles"), int),
          "the run listed with what the page kept: %s" % mine)
    order = [x["id"] for x in lst.get("runs", [])]
    listed = subprocess.run([TALLY, "report", "--db", s.db], capture_output=True, text=True).stdout
    cli = [ln.split()[0] for ln in listed.splitlines()[1:] if ln.startswith("0x")]
    check(order == cli, "the API lists runs in tally report's order: %s, CLI %s" % (order, cli))
    st, r = s.json("PUT", "/api/runs/%s/note" % run_id, {"note": "first try"})
    check(st == 200 and r.get("note") == "first try", "PUT note: %d %s" % (st, r))
    st, one = s.json("GET", "/api/runs/%s" % run_id)
    check(one.get("user_note") == "first try", "the note kept with the run: %s" % one.get("user_note"))
    for bad, want in (({"note": 5}, 400), ({"note": "x" * 501}, 400), ("not json", 400)):
        st, r = s.json("PUT", "/api/runs/%s/note" % run_id, bad) if not isinstance(bad, str) else \
            (lambda t: (t[0], t[2]))(s.request("PUT", "/api/runs/%s/note" % run_id, bad.encode()))
        check(st == want, "a bad note %r: status %d" % (str(bad)[:20], st))
    st, r = s.json("PUT", "/api/runs/0x0000000000000001/note", {"note": "x"})
    check(st == 404, "a note for no run: %d" % st)
    st, r = s.json("GET", "/api/runs/0x0000000000000001/profile")
    check(st == 404, "the profile of no run: %d" % st)
    st, one = s.json("GET", "/api/runs/%s" % run_id)
    check(st == 200, "GET /api/runs/%s: %d %s" % (run_id, st, one))
    rep = tally_report_json(TALLY, s.db, run_id)
    if st != 200 or not rep:
        return
    enabled = [c["index"] for c in rep["counters"] if c["enabled"]]
    cli = [rep["totals"]["counters"][i]["stored"] for i in enabled]
    check(cli == totals, "tally report totals %s = the run's %s" % (cli, totals))
    check([one["totals"]["stored"][i] for i in enabled] == cli, "API stored totals = tally report's")
    check(one["totals"]["whole"] and one["status"] == "complete", "stored run whole and complete: %s" % one["status"])
    check(len(one["rows"]) == nrows == rep["run"]["intervals_stored"], "stored intervals %d = %d live = %d in report"
          % (len(one["rows"]), nrows, rep["run"]["intervals_stored"]))
    st, h, csv = s.request("GET", "/api/runs/%s/export?format=csv" % run_id)
    want = subprocess.run([TALLY, "report", run_id, "--db", s.db, "--csv"], capture_output=True).stdout
    check(st == 200 and csv == want, "CSV export equals tally report --csv (status %d)" % st)
    check("attachment" in (h.get("Content-Disposition") or ""), "CSV is a download")
    st, _, js = s.request("GET", "/api/runs/%s/export?format=json" % run_id)
    want = subprocess.run([TALLY, "report", run_id, "--db", s.db, "--json"], capture_output=True).stdout
    check(st == 200 and json.loads(js) == json.loads(want), "JSON export equals tally report --json")
    st, _ = s.json("GET", "/api/runs/%s/export?format=xml" % run_id)
    check(st == 400, "unknown export format: %d" % st)
    st, _ = s.json("DELETE", "/api/runs/%s" % run_id)
    check(st == 200, "delete: %d" % st)
    st, _ = s.json("GET", "/api/runs/%s" % run_id)
    check(st == 404, "deleted run gone: %d" % st)
    st, _ = s.json("DELETE", "/api/runs/%s" % run_id)
    check(st == 404, "delete twice: %d" % st)


def case_cli_run_listed(s):
    """A run made by tally run --count into the same store shows up in the list and opens."""
    out = subprocess.run([TALLY, "run", "--core", "tally5", "--count", "cycle@MixColumns", "--interval", "500000",
                          "--db", s.db, AES, "5"], capture_output=True, text=True)
    check(out.returncode == 0, "tally run --count: %d %s" % (out.returncode, out.stderr))
    rep = tally_report_json(TALLY, s.db, "latest")
    if not rep:
        return
    rid = rep["run"]["run_id"]  # a string, "0x" and 16 hex digits, as every format writes run ids
    if not isinstance(rid, str):
        rid = "0x%016x" % (rid % (1 << 64))
    st, lst = s.json("GET", "/api/runs")
    check(any(x["id"] == rid and x["program"] == AES for x in lst.get("runs", [])), "CLI run %s listed" % rid)
    st, one = s.json("GET", "/api/runs/%s" % rid)
    check(st == 200 and one["totals"]["stored"][0] == rep["totals"]["counters"][0]["stored"],
          "CLI run opens with its total")


def case_host_files(s):
    st, p = s.upload({"kind": "elf", "elf": read(os.path.join(PROGS, "host_files.elf"))})
    st, r = s.json("POST", "/api/jobs", {"program": p["id"]})
    final, ev = s.wait_job(r["job"])
    out = "".join(e["s"] for e in ev if e["t"] == "out")
    # the program's own report, one line per attempt; the library's notices
    # of each refusal ("tally: semihosting: refused ...") come on top
    mine = [l for l in out.splitlines() if not l.startswith("tally: semihosting: refused")]
    check(sum(l.endswith(": refused") for l in mine) == 3 and "OPENED" not in out,
          "guest's host-file opens: %r" % out)
    check(not os.path.exists("/tmp/tally-serve-guest-was-here"), "guest created a file in /tmp")
    jobdir = os.path.join(s.work, "srv", "jobs", str(r["job"]))
    check(not os.path.exists(os.path.join(jobdir, "guest-was-here")), "guest created a file in its folder")


def case_limits(s):
    st, p = s.upload({"kind": "elf", "elf": read(os.path.join(PROGS, "spin.elf"))})
    spin = p["id"]
    st, r = s.json("POST", "/api/jobs", {"program": spin, "max_insns": 1000000})
    final, ev = s.wait_job(r["job"])
    end = event(ev, "end") or {}
    check(end.get("stop") == "limit" and end.get("insns") == 1000000, "instruction budget: %s" % end)
    st, r = s.json("POST", "/api/jobs", {"program": spin})
    final, ev = s.wait_job(r["job"], timeout=30)
    check(final["state"] == "stopped" and "CPU-time limit" in final["reason"], "CPU limit: %s %s"
          % (final["state"], final["reason"]))
    jobs = [s.json("POST", "/api/jobs", {"program": spin, "pairs": ["cycle"], "interval": 100000})[1].get("job")
            for _ in range(2)]
    st, r = s.json("POST", "/api/jobs", {"program": spin})
    check(st == 503 and "try again" in r.get("error", ""), "a third run at once: %d %s" % (st, r))
    st, _ = s.json("GET", "/api/info")
    check(st == 200, "the server answers while runs go on")
    for j in jobs:
        s.json("POST", "/api/jobs/%d/stop" % j)
    for j in jobs:
        final, ev = s.wait_job(j, timeout=10)
        check(final["state"] == "stopped" and final["reason"] == "stopped by the user", "stop: %s" % final)
        end = event(ev, "end") or {}
        check(end.get("stop") == "cancelled", "a stopped run ends cancelled: %s" % end.get("stop"))
        time.sleep(0.3)
        st, run = s.json("GET", "/api/runs/%s" % end.get("run_id"))
        check(st == 200 and run.get("status") == "incomplete" and "did not run to its end" in (run.get("note") or ""),
              "a stopped run is stored incomplete, saying why: %s %s" % (run.get("status"), run.get("note")))
    st, _ = s.json("POST", "/api/jobs/99999/stop")
    check(st == 404, "stop an unknown run: %d" % st)


def case_token(tmp):
    """(hardening.py token: short tokens refused, random ones made)"""
    s = Server(TALLY, fresh_dir(tmp), "--token", "s3cret-s3cret-s3cret")
    try:
        st, _ = s.json("GET", "/api/info")
        check(st == 401, "no token: %d" % st)
        st, _ = s.json("GET", "/api/info", headers={"X-Tally-Token": "wrong!-wrong!-wrong"})
        check(st == 401, "wrong token: %d" % st)
        st, _ = s.json("GET", "/api/info", headers={"X-Tally-Token": "s3cret-s3cret-s3cret"})
        check(st == 200, "token in a header: %d" % st)
        st, _ = s.json("GET", "/api/info?token=s3cret-s3cret-s3cret")
        check(st == 200, "token in the address: %d" % st)
    finally:
        s.stop()
    h = subprocess.run([TALLY, "serve", "--help"], capture_output=True, text=True)
    check(h.returncode == 0 and "--listen" in h.stdout, "tally serve --help")
    u = subprocess.run([TALLY, "serve", "--listen", "nonsense"], capture_output=True, text=True)
    check(u.returncode == 64 and "ADDRESS:PORT" in u.stderr, "bad --listen: %d %s" % (u.returncode, u.stderr))


def case_wall(tmp):
    # instruction and cycle limits far beyond what a second can run, so that the wall-time limit is the
    # one that stops it (the translator runs spin.elf's loop at about 2 G instructions a second: the
    # default 2 G limit came first)
    s = Server(TALLY, fresh_dir(tmp), "--wall-limit", "1", "--cpu-limit", "60",
               "--max-insns", "1000000000000000", "--max-cycles", "1000000000000000")
    try:
        st, p = s.upload({"kind": "elf", "elf": read(os.path.join(PROGS, "spin.elf"))})
        st, r = s.json("POST", "/api/jobs", {"program": p["id"]})
        final, _ = s.wait_job(r["job"], timeout=20)
        check(final["state"] == "stopped" and final["reason"] == "stopped at its wall-time limit",
              "wall-time limit: %s" % final)
    finally:
        s.stop()


def case_memory(tmp):
    """Release builds only (the sanitizer build sets no address-space limit): a limit too small for the
    board's 128 MiB of RAM refuses the upload's check with a message saying so; the server lives on."""
    s = Server(TALLY, fresh_dir(tmp), "--mem-limit", "64Mi")
    try:
        st, r = s.upload({"kind": "elf", "elf": read(AES)})
        check(st == 422 and "--mem-limit" in r.get("error", ""), "memory limit: %d %s" % (st, r))
        st, _ = s.json("GET", "/api/info")
        check(st == 200, "the server answers after a run ran out of memory")
    finally:
        s.stop()


def main():
    fresh_dir(WORK)
    # instruction and cycle limits beyond what 2 s of CPU can run (case_limits' CPU-time case: the translator
    # runs spin.elf at about 2 G instructions a second)
    s = Server(TALLY, os.path.join(WORK, "a"), "--max-upload", "2Mi", "--cpu-limit", "2", "--wall-limit", "20",
               "--max-insns", "100G", "--max-cycles", "1000G", "--source-dir", SOURCE_DIR)
    try:
        case_info(s)
        prog = case_upload_elf(s)
        _, binf = case_upload_bin(s)
        case_bad_uploads(s, binf)
        case_refusals(s)
        run_id, totals, nrows = case_measured_run(s, prog)
        if run_id:
            case_stored(s, run_id, totals, nrows)
        case_bad_pair(s, prog)
        case_task_pairs(s)
        case_many_intervals(s, prog)
        case_cli_run_listed(s)
        case_host_files(s)
        case_limits(s)
    finally:
        s.stop()
    case_token(os.path.join(WORK, "t"))
    case_wall(os.path.join(WORK, "w"))
    if not SANITIZED:
        case_memory(os.path.join(WORK, "m"))
    done()


if __name__ == "__main__":
    main()
