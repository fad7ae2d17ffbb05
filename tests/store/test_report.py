#!/usr/bin/env python3
"""`tally report` and the store file as other readers see it.

fill_store writes three runs of hand-chosen values (see fill_store.c); the
figures below are worked out by hand from those values, never copied from
tally's output:

  run 1001 (complete), 4 intervals x 4 counters:
    interval 0: 100000  1200        65000  7   cycles 0-100000
    interval 1: 100000  1300        70000  0   cycles 100000-200000 (two chunks)
    interval 2: 100000  4294967295* 80000  3   cycles 200000-300000 (* saturated)
    interval 3:  45000    12        30000  0   cycles 300000-345000
    sums:       345000  4294969807 245000 10   = the board's totals
    packets: 5 stored, 2 repeats ignored
  run 8194 (incomplete): intervals 0,1,3,4 of 5, values (10,1) (20,2) (40,4)
    (50,5); board totals 150, 15; stored sums 120, 12
  run 18446744069414584321 (0xFFFFFFFF00000001, running): values 7, 8

The sqlite3 command-line tool reads the same file on its own (json_each over
the interval values) and must find the same sums. Damaged and foreign files
must give a clear error and no crash.
"""
import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import tempfile
import sys

FAILS = []

RUN_A, RUN_B, RUN_C = 1001, 8194, 0xFFFFFFFF00000001
A_VALUES = [[100000, 1200, 65000, 7], [100000, 1300, 70000, 0],
            [100000, 4294967295, 80000, 3], [45000, 12, 30000, 0]]
A_CYCLES = [(0, 100000), (100000, 200000), (200000, 300000), (300000, 345000)]
A_SUMS = [345000, 4294969807, 245000, 10]
A_LABELS = ["cycles in main", "data-cache read misses in MixColumns",
            "instructions retired anywhere",
            'instruction-cache misses in the "hot" loop, 0x80000100-0x80000180']


def check(ok, what):
    if not ok:
        FAILS.append(what)
        print("FAIL:", what)


def run(cmd, env=None):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=30, env=env)
    crashed = p.returncode < 0 or "AddressSanitizer" in p.stderr or "runtime error" in p.stderr
    check(not crashed, f"{' '.join(cmd)} crashed: status {p.returncode}\n{p.stderr}")
    return p


def report(args, db):
    return run([ARGS.tally, "report", "--db", db] + args)


def test_list(db):
    p = report([], db)
    check(p.returncode == 0, f"list: status {p.returncode}: {p.stderr}")
    lines = p.stdout.splitlines()
    check(len(lines) == 4, f"list: a header and 3 runs, got {lines}")
    check(lines[0].split()[:3] == ["run", "id", "program"], f"list header: {lines[0]}")
    rows = [l.split() for l in lines[1:]]
    want = [(f"0x{RUN_A:016x}", "aes.elf", "tally5", "4", "complete"),
            (f"0x{RUN_B:016x}", "crc32.elf", "tally3", "4 of 5", "incomplete"),
            (f"0x{RUN_C:016x}", "hanoi.elf", "tally5", "2", "running")]
    for row, (rid, prog, core, ivs, status) in zip(rows, want):
        check(row[0] == rid and row[1] == prog and row[2] == core and row[-1] == status,
              f"list row {row} != {rid} {prog} {core} ... {status}")
        check(" ".join(row[5:-1]) == ivs, f"list row {row}: intervals {ivs}")
    # aligned: every row's status starts in the same column
    check(len({l.index(w[-1]) for l, w in zip(lines[1:], want)}) == 1, f"list columns aligned:\n{p.stdout}")

    p = report(["--json"], db)
    runs = json.loads(p.stdout)["runs"]
    # ids are strings written as the table writes them: a JSON number loses 64-bit ids in most readers
    check([r["run_id"] for r in runs] == [f"0x{i:016x}" for i in (RUN_A, RUN_B, RUN_C)],
          f"list --json: ids, in order, as 0x strings: {[r['run_id'] for r in runs]}")
    check(runs[0]["received"] == 5 and runs[0]["duplicates"] == 2, "run A: 5 received, 2 repeats")
    check(runs[1]["intervals_sent"] == 5 and runs[1]["intervals_stored"] == 4, "run B: 4 of 5")
    check(runs[2]["finished"] is None and runs[2]["status"] == "running", "run C running")

    p = report(["--csv"], db)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    check([r["run_id"] for r in rows] == [f"0x{i:016x}" for i in (RUN_A, RUN_B, RUN_C)], "list --csv ids")
    check(rows[1]["status"] == "incomplete" and "resend" in rows[1]["note"], "list --csv: B's note")


def test_table(db):
    p = report([str(RUN_A)], db)
    out = p.stdout
    check(p.returncode == 0, f"run A table: status {p.returncode}")
    check("INCOMPLETE" not in out, "run A is whole: no banner")
    for label in A_LABELS:
        check(label in out, f"run A table names '{label}'")
    lines = out.splitlines()
    # the interval rows: index, from, to, then the four counters, separators in
    rows = {}
    for l in lines:
        w = l.split()
        if len(w) >= 7 and w[0].isdigit() and w[0] in "0123":
            rows[int(w[0])] = w
    check(sorted(rows) == [0, 1, 2, 3], f"run A: four interval rows\n{out}")
    for i, w in rows.items():
        nums = [int(x.rstrip("*").replace(",", "")) for x in w[1:7]]
        check(nums == list(A_CYCLES[i]) + A_VALUES[i], f"interval {i}: {w}")
    check(rows.get(2, [""] * 5)[4] == "4,294,967,295*", "the saturated value is marked and has separators")
    check("saturated" in out, "the saturation mark is explained")
    for label, total in zip(A_LABELS, A_SUMS):
        line = next((l for l in lines if label in l and l.strip().startswith("#") and
                     l.rstrip().endswith(f"{total:,}")), None)
        check(line is not None and line.split()[-2:] == [f"{total:,}"] * 2,
              f"totals row for '{label}': board and stored {total:,}")
    check("complete: 4 intervals" in out, "run A verdict")
    # columns aligned: every interval row has the same length
    check(len({len(l) for i, l in enumerate(lines) if l.split()[:1] in (["0"], ["1"], ["2"], ["3"])
               and len(l.split()) >= 7}) == 1, "interval rows aligned")

    p = report([str(RUN_B)], db)
    check(p.returncode == 2, f"run B: status 2 (not whole), got {p.returncode}")
    first = [l for l in p.stdout.splitlines() if l.startswith("INCOMPLETE: ")]
    check(len(first) == 2, f"run B: the banner before the data and with the totals\n{p.stdout}")
    check(first and "no answer to the resend request for seq 2" in first[0], "run B banner has the note")
    check("(interval 2 missing)" in p.stdout, "run B shows the gap where it is")
    check("not the run's totals" in p.stdout, "run B says its sums are partial")
    check("complete:" not in p.stdout, "run B is not called complete")

    p = report(["latest"], db)
    check(p.returncode == 2 and f"run 0x{RUN_C:016x}:" in p.stdout, "latest is run C")
    check("INCOMPLETE: not finished" in p.stdout, "run C: not finished banner")
    p = report([hex(RUN_C)], db)
    check(p.returncode == 2 and f"run 0x{RUN_C:016x}:" in p.stdout, "a run id in hex")

    p = report([str(RUN_A), "--totals"], db)
    check("interval" not in p.stdout.split("totals")[0].split("counters")[1] and "4,294,969,807" in p.stdout,
          "--totals: no interval rows, the totals")
    p = report([str(RUN_A), "--intervals"], db)
    check("board total" not in p.stdout and "4,294,967,295*" in p.stdout, "--intervals: no totals")


def test_csv(db):
    p = report([str(RUN_A), "--csv"], db)
    check(p.returncode == 0 and p.stderr == "", f"run A csv: {p.returncode} {p.stderr}")
    rows = list(csv.reader(io.StringIO(p.stdout)))
    check(rows[0] == ["interval", "cycle_begin", "cycle_end"] + A_LABELS + ["saturated"],
          f"csv header (a quoted label with a comma and quotes): {rows[0]}")
    body = rows[1:]
    check(len(body) == 4, "csv: 4 interval rows")
    for i, r in enumerate(body):
        check([int(x) for x in r[:7]] == [i, *A_CYCLES[i]] + A_VALUES[i], f"csv row {i}: {r}")
        check(r[7] == ("1" if i == 2 else ""), f"csv row {i} saturated column: {r[7]!r}")
    sums = [sum(int(r[3 + k]) for r in body) for k in range(4)]
    check(sums == A_SUMS, f"csv sums {sums}")

    p = report([str(RUN_A), "--csv", "--totals"], db)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    check([int(r["board_total"]) for r in rows] == A_SUMS and [int(r["stored_sum"]) for r in rows] == A_SUMS,
          "csv totals")
    check(rows[1]["signal"] == "dcache.read_miss" and rows[1]["where"] == "MixColumns"
          and rows[1]["saturated_intervals"] == "1", f"csv totals row 1: {rows[1]}")

    p = report([str(RUN_B), "--csv"], db)
    check(p.returncode == 2, "run B csv: status 2")
    check("INCOMPLETE: no answer to the resend request for seq 2" in p.stderr, f"run B csv banner on stderr: {p.stderr}")
    rows = list(csv.reader(io.StringIO(p.stdout)))
    check([r[0] for r in rows[1:]] == ["0", "1", "3", "4"], "run B csv: the stored intervals only")


def test_json(db):
    p = report([str(RUN_A), "--json"], db)
    d = json.loads(p.stdout)
    check(d["whole"] is True and d["banner"] is None and d["run"]["status"] == "complete", "run A json verdict")
    check(d["run"]["module"] == {"counters": 4, "width": 32, "arrs": 16} and d["run"]["period"] == 100000,
          "run A json module")
    check([c["label"] for c in d["counters"]] == A_LABELS, "run A json labels")
    check(d["counters"][1]["lo"] == 0x80000100 and d["counters"][1]["hi"] == 0x80000180
          and d["counters"][2]["anywhere"] is True, "run A json ranges")
    ivs = d["intervals"]
    check([iv["values"] for iv in ivs] == A_VALUES, "run A json values")
    check([(iv["cycle_begin"], iv["cycle_end"]) for iv in ivs] == A_CYCLES, "run A json cycles")
    check([iv["saturated"] for iv in ivs] == [[], [], [1], []], "run A json saturation")
    check([c["board"] for c in d["totals"]["counters"]] == A_SUMS
          and [c["stored"] for c in d["totals"]["counters"]] == A_SUMS, "run A json totals")

    p = report([str(RUN_B), "--json"], db)
    check(p.returncode == 2, "run B json: status 2")
    d = json.loads(p.stdout)
    check(d["whole"] is False and d["banner"].startswith("INCOMPLETE: "), "run B json not whole")
    check(d["totals"]["missing"] == 1 and [c["stored"] for c in d["totals"]["counters"]] == [120, 12]
          and [c["board"] for c in d["totals"]["counters"]] == [150, 15], "run B json totals")

    p = report([str(RUN_C), "--json", "--totals"], db)
    d = json.loads(p.stdout)
    check("intervals" not in d and d["totals"]["board_known"] is False
          and d["totals"]["counters"][0]["stored"] == 15 and d["totals"]["counters"][0]["board"] is None,
          "run C json --totals")


def sqlite_rows(db, query):
    p = run([ARGS.sqlite3, "-readonly", "-batch", "-csv", db, query])
    check(p.returncode == 0, f"sqlite3 {query}: {p.stderr}")
    return list(csv.reader(io.StringIO(p.stdout)))


def test_sqlite3(db):
    if not ARGS.sqlite3:
        print("note: no sqlite3 tool; the independent read is skipped")
        return
    # the raw tables, taken apart by SQLite's own JSON reader
    got = sqlite_rows(db, "SELECT i.first_counter + v.key, sum(v.value), count(DISTINCT i.interval) "
                          "FROM intervals AS i, json_each(i.vals) AS v WHERE i.run_id = 1001 GROUP BY 1 ORDER BY 1")
    check([[int(x) for x in r] for r in got] == [[k, A_SUMS[k], 4] for k in range(4)], f"sqlite3 sums A: {got}")
    got = sqlite_rows(db, "SELECT counter, sum(value) FROM interval_values WHERE run_id = 8194 GROUP BY 1")
    check(got == [["0", "120"], ["1", "12"]], f"sqlite3 view sums B: {got}")
    got = sqlite_rows(db, "SELECT counter, board_total, stored_sum FROM totals WHERE run_id = 1001 ORDER BY 1")
    check([[int(x) for x in r] for r in got] == [[k, A_SUMS[k], A_SUMS[k]] for k in range(4)], f"sqlite3 totals: {got}")
    got = sqlite_rows(db, "SELECT status, received, duplicates, intervals_sent FROM runs ORDER BY ord")
    check(got == [["complete", "5", "2", "4"], ["incomplete", "4", "0", "5"], ["running", "2", "0", ""]],
          f"sqlite3 runs: {got}")
    # the 64-bit id is stored as its two's complement
    got = sqlite_rows(db, "SELECT run_id FROM runs ORDER BY ord DESC LIMIT 1")
    check(int(got[0][0]) % 2**64 == RUN_C, f"sqlite3 run id: {got}")
    got = sqlite_rows(db, "SELECT saturated FROM intervals WHERE run_id = 1001 AND saturated IS NOT NULL")
    check(got == [["[1]"]], f"sqlite3 saturation: {got}")
    got = sqlite_rows(db, "PRAGMA journal_mode")
    check(got == [["wal"]], f"journal mode: {got}")


def test_bad(work):
    def refused(path, words, what):
        p = report([], path)
        check(p.returncode == 66, f"{what}: status 66, got {p.returncode}")
        check(all(w in p.stderr for w in words) and path in p.stderr, f"{what}: stderr {p.stderr!r} lacks {words}")

    refused(os.path.join(work, "none.db"), ["No such file"], "a missing store")
    junk = os.path.join(work, "junk.db")
    with open(junk, "wb") as f:
        f.write(b"PK\x03\x04 not a database at all " * 200)
    refused(junk, ["not a tally store", "file is not a database"], "a file that is not SQLite")
    other = os.path.join(work, "other.db")
    if ARGS.sqlite3:
        if os.path.exists(other):
            os.unlink(other)
        run([ARGS.sqlite3, other, "CREATE TABLE t(x); INSERT INTO t VALUES(1);"])
        refused(other, ["not a tally store"], "another program's SQLite file")
    # a good store with a page in its middle overwritten
    torn = os.path.join(work, "torn.db")
    shutil.copy(os.path.join(work, "big.db"), torn)
    size = os.path.getsize(torn)
    with open(torn, "r+b") as f:
        f.seek(size // 2)
        f.write(b"\xa5" * 8192)
    for args in ([], ["1001"], ["1001", "--json"], ["1001", "--csv"]):
        p = report(args, torn)
        check(p.returncode in (0, 2, 66), f"torn store, report {args}: status {p.returncode}")
        if p.returncode == 66:
            check("torn.db" in p.stderr, f"torn store error names the file: {p.stderr}")
    p = report(["12345"], os.path.join(work, "a.db"))
    # ids are printed one way everywhere: 12345 is 0x3039
    check(p.returncode == 66 and "no run 0x0000000000003039" in p.stderr, f"an unknown run: {p.stderr}")
    p = report(["notanumber"], os.path.join(work, "a.db"))
    check(p.returncode == 64, "a bad run id is a usage error")
    p = report(["--csv", "--json"], os.path.join(work, "a.db"))
    check(p.returncode == 64, "--csv with --json is a usage error")
    p = run([ARGS.tally, "report", "--help"])
    check(p.returncode == 0 and "usage: tally report" in p.stdout and "tally.db" in p.stdout, "--help")
    # the default store: $TALLY_DB, else ./tally.db in the working directory
    env = dict(os.environ, TALLY_DB=os.path.join(work, "a.db"))
    p = run([ARGS.tally, "report"], env=env)
    check(p.returncode == 0 and "aes.elf" in p.stdout, "TALLY_DB names the default store")
    env.pop("TALLY_DB")
    p = subprocess.run([ARGS.tally, "report"], capture_output=True, text=True, cwd=work, env=env, timeout=30)
    check(p.returncode == 66 and "tally.db" in p.stderr, f"./tally.db is the default: {p.stderr}")


def test_edited(work, db):
    """Rows of complete run A changed after it was closed: the list must give
    the same verdict as the detail (not whole), whatever row was touched."""
    if not ARGS.sqlite3:
        print("skip: no sqlite3 tool to edit a store")
        return
    edits = {"deleted": "DELETE FROM intervals WHERE run_id = 1001 AND interval = 2",
             "changed": "UPDATE intervals SET vals = '[1,2,3,4]' WHERE run_id = 1001 AND interval = 3"}
    for what, sql in edits.items():
        path = os.path.join(work, f"edited-{what}.db")
        shutil.copy(db, path)
        p = run([ARGS.sqlite3, path, sql])
        check(p.returncode == 0, f"{what}: sqlite3 edit: {p.stderr}")
        p = report([str(RUN_A)], path)
        check(p.returncode == 2 and "INCOMPLETE" in p.stdout, f"{what}: detail not whole: {p.returncode}")
        p = report([], path)
        row = [l.split() for l in p.stdout.splitlines() if l.startswith(f"0x{RUN_A:016x}")]
        check(p.returncode == 0 and row and row[0][-1] == "incomplete",
              f"{what}: the list calls run A incomplete like its detail: {p.stdout}")
        runs = json.loads(report(["--json"], path).stdout)["runs"]
        check(runs[0]["status"] == "incomplete" and "do not check" in (runs[0]["note"] or ""),
              f"{what}: list --json status and note: {runs[0]}")
        # the untouched runs keep their own verdicts
        check([r["status"] for r in runs[1:]] == ["incomplete", "running"], f"{what}: others: {runs[1:]}")


def test_readonly(work, db):
    """A store the user may not write (nobody, file 0444 in a 0555 directory)
    is read, or refused for permission, never called 'not a tally store'."""
    if os.geteuid() != 0 or not shutil.which("setpriv"):
        print("skip: read-only store test needs root and setpriv to become nobody")
        return
    ro = os.path.join(work, "ro")
    shutil.rmtree(ro, ignore_errors=True)
    os.makedirs(ro)
    path = os.path.join(ro, "a.db")
    shutil.copy(db, path)
    os.chmod(path, 0o444)
    os.chmod(ro, 0o555)
    as_nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    probe = subprocess.run(as_nobody + [ARGS.tally, "--help"], capture_output=True, timeout=30)
    if probe.returncode != 0:
        print("skip: nobody cannot run the tally binary here")
        return
    p = run(as_nobody + [ARGS.tally, "report", "--db", path])
    check("not a tally store" not in p.stderr, f"read-only store called not a tally store: {p.stderr}")
    check(p.returncode == 0 and f"0x{RUN_A:016x}" in p.stdout, f"read-only store listed: {p.returncode} {p.stderr}")
    p = run(as_nobody + [ARGS.tally, "report", "--db", path, str(RUN_A)])
    check(p.returncode == 0 and "INCOMPLETE" not in p.stdout, f"read-only store, run A: {p.returncode} {p.stderr}")
    # the commands that write into a store refuse it for what it is: read-only to this user
    srv = tempfile.mkdtemp(prefix="tally-ro-serve-")
    os.chmod(srv, 0o777)
    for cmd in (["collect", "--listen", "127.0.0.1:0", "--idle-timeout", "0.2"],
                ["serve", "--listen", "127.0.0.1:0", "--dir", os.path.join(srv, "d")]):
        p = run(as_nobody + [ARGS.tally] + cmd + ["--db", path])
        check(p.returncode != 0 and "not a tally store" not in p.stderr and "read-only to this user" in p.stderr and
              path in p.stderr, f"tally {cmd[0]} on a read-only store: {p.returncode} {p.stderr}")
    shutil.rmtree(srv, ignore_errors=True)
    # with a -wal beside it that nobody may not share, the refusal says permission
    os.chmod(ro, 0o755)
    with open(path + "-wal", "wb"):
        pass
    os.chmod(ro, 0o555)
    p = run(as_nobody + [ARGS.tally, "report", "--db", path])
    check(p.returncode in (0, 66) and "not a tally store" not in p.stderr, f"read-only with -wal: {p.stderr}")
    if p.returncode == 66:
        check("permission" in p.stderr and path in p.stderr, f"read-only with -wal says permission: {p.stderr}")
    os.chmod(ro, 0o755)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--tally", required=True)
    ap.add_argument("--fill", required=True)
    ap.add_argument("--sqlite3", default="")
    ap.add_argument("--dir", required=True)
    ARGS = ap.parse_args()
    ARGS.tally, ARGS.fill = os.path.abspath(ARGS.tally), os.path.abspath(ARGS.fill)
    if ARGS.sqlite3 and not os.path.exists(ARGS.sqlite3):
        ARGS.sqlite3 = ""
    work = ARGS.dir
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    db = os.path.join(work, "a.db")
    p = run([ARGS.fill, db])
    if p.returncode != 0:
        print(p.stderr)
        return 1
    # a bigger store to damage: run A's file plus many intervals
    p = run([ARGS.fill, os.path.join(work, "big.db")])
    if ARGS.sqlite3:
        run([ARGS.sqlite3, os.path.join(work, "big.db"),
             "WITH RECURSIVE k(i) AS (SELECT 100 UNION ALL SELECT i + 1 FROM k WHERE i < 3000) "
             "INSERT INTO intervals SELECT 1001, i, i, i * 10, i * 10 + 10, 0, 4, '[1,2,3,4]', NULL FROM k"])
    test_list(db)
    test_table(db)
    test_csv(db)
    test_json(db)
    test_sqlite3(db)
    test_bad(work)
    test_edited(work, db)
    test_readonly(work, db)
    print(f"{'FAILED' if FAILS else 'ok'}: {len(FAILS)} failures")
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
