#!/usr/bin/env python3
"""Run random RV32IMAC programs on QEMU and on tally and compare them.

usage: run_random.py TALLY SEED_START COUNT [--time-budget S] [options]

For each seed in [SEED_START, SEED_START + COUNT): generate a program with
gen.py, assemble and link it, run it on qemu-system-riscv32 (the reference)
and as `TALLY run prog.elf` (the machine under test), and compare the two
standard outputs byte for byte and the two exit statuses.

TALLY may be the word `qemu`: the machine under test is then a second QEMU
run, which checks that the programs are deterministic and the harness sound.

On a mismatch the harness names the seed, the first differing register (or
scratch word, or the exit status), shrinks the program to the first body item
after which the machines disagree, and keeps everything needed to reproduce it
in KEEP_DIR/seed-N/. Once the time budget is spent no new seed is started;
the summary says how many programs ran.

Exit status: 0 all equal, 1 a mismatch or a bad reference run, 2 usage
error, 77 QEMU or the cross toolchain is missing (CTest's SKIP_RETURN_CODE).
Python 3 standard library only.
"""

import argparse
import concurrent.futures as cf
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True   # keep the source tree clean
import gen  # noqa: E402

SKIP = 77
LINK_LD = os.path.join(HERE, "link.ld")
# No "-serial none" before "-serial chardev:con": each -serial fills the next
# port, so that would leave the virt board's only UART unconnected and every
# UART character lost.
QEMU_ARGS = ["-M", "virt", "-bios", "none", "-nographic", "-monitor", "none",
             "-chardev", "stdio,id=con,mux=on", "-serial", "chardev:con",
             "-semihosting-config", "enable=on,target=native,chardev=con"]
# What a good run of a generated program prints (see gen.py's RUNTIME).
GOOD_OUTPUT = re.compile(
    rb"seed \d+ items \d+\n(x\d\d [0-9a-f]{8}\n){32}mem [0-9a-f]{8}\n"
    rb"trp [0-9a-f]{8} [0-9a-f]{8}\n(w[0-9a-f]{3} [0-9a-f]{8}\n)*end\n\Z")


class Tools:
    def __init__(self, args):
        self.qemu = shutil.which(args.qemu)
        self.as_ = shutil.which(args.cross_prefix + "as")
        self.ld = shutil.which(args.cross_prefix + "ld")
        self.objdump = shutil.which(args.cross_prefix + "objdump")
        self.timeout = args.timeout
        self.exclude = [x for x in args.exclude.split(",") if x]
        self.items = args.items
        if args.tally == "qemu":
            self.dut = [self.qemu] + QEMU_ARGS + ["-kernel"] if self.qemu else None
            self.dut_name = "qemu#2"
        else:
            self.dut = [os.path.abspath(args.tally), "run"] + args.tally_arg
            self.dut_name = "tally"

    def missing(self):
        need = {"qemu-system-riscv32": self.qemu, "cross as": self.as_, "cross ld": self.ld}
        return [k for k, v in need.items() if not v]

    # -- building ---------------------------------------------------------
    def build(self, d, stem, seed, items, dump=False):
        """Writes d/stem.S and d/stem.elf; returns the .elf path."""
        src = os.path.join(d, stem + ".S")
        obj = os.path.join(d, stem + ".o")
        elf = os.path.join(d, stem + ".elf")
        text = gen.Generator(seed, items, self.exclude, dump).program()
        with open(src, "w") as f:
            f.write(text)
        for cmd in ([self.as_, "-march=rv32imac", "-misa-spec=2.2", "-o", obj, src],
                    [self.ld, "-m", "elf32lriscv", "-T", LINK_LD, "-o", elf, obj]):
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if p.returncode != 0:
                raise RuntimeError(f"{os.path.basename(cmd[0])} failed on {src}:\n"
                                   + p.stderr.decode(errors="replace"))
        os.unlink(obj)
        return elf

    # -- running ----------------------------------------------------------
    def _run(self, cmd):
        try:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=self.timeout)
            return p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            return "timeout", e.stdout or b"", e.stderr or b""
        except OSError as e:
            return "cannot run", b"", str(e).encode()

    def run_ref(self, elf):
        return self._run([self.qemu] + QEMU_ARGS + ["-kernel", elf])

    def run_dut(self, elf):
        return self._run(self.dut + [elf])

    def both(self, elf):
        return self.run_ref(elf), self.run_dut(elf)


def same(ref, dut):
    return ref[0] == dut[0] and ref[1] == dut[1]


def ref_ok(ref):
    return ref[0] == 0 and GOOD_OUTPUT.match(ref[1]) is not None


LINE = re.compile(r"(x\d\d|mem|trp|w[0-9a-f]{3}) (.*)\Z")


def first_difference(ref_out, dut_out, dut_name):
    """A line saying where two outputs first part, e.g. the register."""
    a = ref_out.decode(errors="replace").split("\n")
    b = dut_out.decode(errors="replace").split("\n")
    for i in range(max(len(a), len(b))):
        la = a[i] if i < len(a) else "<no more output>"
        lb = b[i] if i < len(b) else "<no more output>"
        if la == lb:
            continue
        m, mb = LINE.match(la), LINE.match(lb)
        if m and mb and m.group(1) == mb.group(1):
            key = m.group(1)
            what = {"mem": "scratch checksum", "trp": "trap count and hash"}.get(
                key, "register " + key)
            if key.startswith("w"):
                what = f"scratch word at offset 0x{key[1:]}"
            return f"{what}: qemu {m.group(2)}, {dut_name} {mb.group(2)}"
        return f"output line {i + 1}: qemu {la!r}, {dut_name} {lb!r}"
    return "outputs equal"


def describe(ref, dut, dut_name):
    """How two runs (status, stdout, stderr) differ, as report lines."""
    out = []
    if ref[0] != dut[0]:
        out.append(f"exit status: qemu {ref[0]}, {dut_name} {dut[0]}")
    if ref[1] != dut[1]:
        out.append("first difference: " + first_difference(ref[1], dut[1], dut_name))
    return out


class Result:
    def __init__(self, seed, status, items=0, detail="", d=None, ref=None, dut=None):
        self.seed, self.status, self.items = seed, status, items
        self.detail, self.dir, self.ref, self.dut = detail, d, ref, dut


def check_seed(tools, work, seed):
    d = os.path.join(work, f"seed-{seed}")
    os.makedirs(d, exist_ok=True)
    items = tools.items
    if items is None:
        items = gen.Generator(seed, None, tools.exclude).items
    try:
        elf = tools.build(d, "prog", seed, items)
    except RuntimeError as e:
        return Result(seed, "build", items, str(e), d)
    ref, dut = tools.both(elf)
    if not ref_ok(ref):
        return Result(seed, "reference", items,
                      f"QEMU status {ref[0]}, output does not look like a finished program",
                      d, ref, dut)
    if same(ref, dut):
        shutil.rmtree(d, ignore_errors=True)
        return Result(seed, "ok", items)
    return Result(seed, "mismatch", items, "", d, ref, dut)


def item_text(src, k):
    """The assembly of body item k in a generated .S file."""
    out, on = [], False
    with open(src) as f:
        for ln in f:
            if ln.startswith(f"/* item {k} */"):
                on = True
                continue
            if on and (ln.startswith("/* item ") or ln.startswith("/* end of body")):
                break
            if on:
                out.append(ln.rstrip("\n"))
    return out


def function_text(src, name):
    """The body of generated function `name` (in .text.fn) of a .S file."""
    out, on = [], False
    with open(src) as f:
        for ln in f:
            if ln.startswith(f"/* function {name},"):
                on = True
            elif on and (ln.startswith("/* function ") or not ln.strip()):
                break
            if on:
                out.append(ln.rstrip("\n"))
    return out


def diagnose(tools, r, shrink):
    """Explain a mismatch; returns the report lines."""
    name = tools.dut_name
    lines = [f"MISMATCH seed {r.seed} ({r.items} items)"]
    lines += ["  " + x for x in describe(r.ref, r.dut, name)]
    err = r.dut[2].decode(errors="replace").strip().splitlines()
    if err:
        lines += [f"  {name} stderr: {ln}" for ln in err[-3:]]
    if r.ref[1] != r.dut[1] and "scratch checksum" in first_difference(r.ref[1], r.dut[1], name):
        dref, ddut = tools.both(tools.build(r.dir, "dump", r.seed, r.items, dump=True))
        words = [b"\n".join(ln for ln in x[1].split(b"\n") if ln.startswith(b"w"))
                 for x in (dref, ddut)]
        lines.append("  with --dump-scratch: " + first_difference(words[0], words[1], name))
    if shrink:
        lines += shrink_report(tools, r)
    return lines


def shrink_report(tools, r):
    """Binary search for the smallest prefix of the body that still differs:
    with hi items the machines disagree, with hi - 1 they agree, so item hi - 1
    is where the disagreement starts."""
    name = tools.dut_name
    lo, hi = 0, r.items
    elf0 = tools.build(r.dir, "min", r.seed, 0)
    ref0, dut0 = tools.both(elf0)
    if not same(ref0, dut0):
        return (["  shrunk: the program differs even with no body items (prologue/epilogue):"]
                + ["    " + x for x in describe(ref0, dut0, name)])
    while hi - lo > 1:
        mid = (lo + hi) // 2
        ref, dut = tools.both(tools.build(r.dir, "min", r.seed, mid))
        if same(ref, dut):
            lo = mid
        else:
            hi = mid
    elf = tools.build(r.dir, "min", r.seed, hi)
    ref, dut = tools.both(elf)
    for stem, data in (("min.qemu", ref[1]), (f"min.{name}", dut[1])):
        with open(os.path.join(r.dir, stem + ".out"), "wb") as f:
            f.write(data)
    if tools.objdump:
        with open(os.path.join(r.dir, "min.dis"), "w") as f:
            subprocess.run([tools.objdump, "-d", elf], stdout=f, stderr=subprocess.DEVNULL)
    out = [f"  shrunk: {hi} items differ, {hi - 1} agree; the difference starts at item {hi - 1}:"]
    src = os.path.join(r.dir, "min.S")
    text = item_text(src, hi - 1)
    out += ["    | " + ln for ln in text]
    for fn in sorted(set(re.findall(r"\bfn\d+\b", "\n".join(text)))):
        out += ["    | " + ln for ln in function_text(src, fn)]
    out += ["  with that prefix: " + x for x in describe(ref, dut, name)]
    excl = f" --exclude {','.join(tools.exclude)}" if tools.exclude else ""
    out.append(f"  (min.S = gen.py --seed {r.seed} --items {hi}{excl})")
    return out


def keep(tools, r, keep_dir, report):
    dest = os.path.join(keep_dir, f"seed-{r.seed}")
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(keep_dir, exist_ok=True)
    shutil.copytree(r.dir, dest)
    if r.ref is not None:
        for stem, res in (("qemu", r.ref), (tools.dut_name, r.dut)):
            if res is None:
                continue
            with open(os.path.join(dest, stem + ".out"), "wb") as f:
                f.write(res[1])
            with open(os.path.join(dest, stem + ".err"), "wb") as f:
                f.write(res[2])
                f.write(f"\n[exit status: {res[0]}]\n".encode())
    if tools.objdump and os.path.exists(os.path.join(dest, "prog.elf")):
        with open(os.path.join(dest, "prog.dis"), "w") as f:
            subprocess.run([tools.objdump, "-d", os.path.join(dest, "prog.elf")],
                           stdout=f, stderr=subprocess.DEVNULL)
    excl = f" --exclude {','.join(tools.exclude)}" if tools.exclude else ""
    report = report + [
        f"  kept in {dest}",
        "  reproduce:",
        f"    python3 {os.path.join(HERE, 'gen.py')} --seed {r.seed} --items {r.items}{excl} -o prog.S",
        "    riscv64-unknown-elf-as -march=rv32imac -misa-spec=2.2 -o prog.o prog.S",
        f"    riscv64-unknown-elf-ld -m elf32lriscv -T {LINK_LD} -o prog.elf prog.o",
        "    qemu-system-riscv32 " + " ".join(QEMU_ARGS) + " -kernel prog.elf",
        "    " + (" ".join(os.path.basename(x) for x in tools.dut) + " prog.elf"
                if tools.dut_name == "tally" else "(the same QEMU command again)"),
    ]
    with open(os.path.join(dest, "report.txt"), "w") as f:
        f.write("\n".join(report) + "\n")
    return report


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Compare tally with QEMU on random programs.",
        epilog="TALLY = 'qemu' compares QEMU with itself (harness self-check).")
    ap.add_argument("tally", help="path of the tally binary, or 'qemu'")
    ap.add_argument("seed_start", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("--time-budget", type=float, default=None, metavar="S",
                    help="start no new seed after S seconds")
    ap.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--keep-dir", default="random-failures",
                    help="where failing programs are kept (default ./random-failures)")
    ap.add_argument("--items", type=int, default=None,
                    help="body items per program (default: 200..2000 from the seed)")
    ap.add_argument("--exclude", default="",
                    help="categories gen.py leaves out: " + ",".join(gen.CATEGORIES))
    ap.add_argument("--tally-arg", action="append", default=[],
                    help="extra argument for `tally run` (repeatable), e.g. --tally-arg=--core=x")
    ap.add_argument("--timeout", type=float, default=20.0, help="per run, seconds")
    ap.add_argument("--keep-going", action="store_true",
                    help="do not stop at the first failing seed")
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--expect-mismatch", action="store_true",
                    help="invert: succeed only if a mismatch is found and reported "
                         "(tests the harness with a deliberately wrong machine)")
    ap.add_argument("--qemu", default="qemu-system-riscv32")
    ap.add_argument("--cross-prefix", default="riscv64-unknown-elf-")
    args = ap.parse_args(argv)

    tools = Tools(args)
    missing = tools.missing()
    if missing:
        print(f"random: SKIP, not found: {', '.join(missing)}")
        return SKIP
    if args.tally != "qemu" and not os.access(tools.dut[0], os.X_OK):
        print(f"random: {args.tally}: not an executable file", file=sys.stderr)
        return 2
    bad = [x for x in tools.exclude if x not in gen.WEIGHTS]
    if bad:
        ap.error(f"unknown categories: {', '.join(bad)}")

    work = tempfile.mkdtemp(prefix="tally-random-")
    t0 = time.monotonic()
    results, stop, budget_hit = [], False, False
    seeds = iter(range(args.seed_start, args.seed_start + args.count))
    try:
        with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
            pending = set()
            while True:
                while not stop and len(pending) < 2 * max(1, args.jobs):
                    if args.time_budget is not None and time.monotonic() - t0 >= args.time_budget:
                        stop = budget_hit = True
                        break
                    seed = next(seeds, None)
                    if seed is None:
                        stop = True
                        break
                    pending.add(ex.submit(check_seed, tools, work, seed))
                if not pending:
                    break
                done, pending = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for f in done:
                    r = f.result()
                    results.append(r)
                    if r.status != "ok" and not args.keep_going:
                        stop = True
        elapsed = time.monotonic() - t0

        failures = sorted((r for r in results if r.status != "ok"), key=lambda r: r.seed)
        for r in failures:
            if r.status == "mismatch":
                report = diagnose(tools, r, not args.no_shrink)
            elif r.status == "reference":
                report = [f"REFERENCE FAILURE seed {r.seed}: {r.detail}",
                          "  (QEMU itself did not finish the program cleanly: a generator bug)",
                          "  qemu output tail: " + repr(r.ref[1][-200:])]
            else:
                report = [f"BUILD FAILURE seed {r.seed}: {r.detail}"]
            report = keep(tools, r, args.keep_dir, report)
            print("\n".join(report))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    ran = len(results)
    seeds_run = sorted(r.seed for r in results)
    mism = sum(r.status == "mismatch" for r in results)
    other = sum(r.status not in ("ok", "mismatch") for r in results)
    rate = ran / elapsed if elapsed > 0 else 0.0
    span = f"seeds {seeds_run[0]}..{seeds_run[-1]}" if seeds_run else "no seeds"
    print(f"random: {ran} programs ({span}) against {tools.dut_name}, "
          f"{mism} mismatches, {other} other failures, {elapsed:.1f} s, "
          f"{rate:.1f} programs/s, {args.jobs} jobs"
          + ("; time budget reached" if budget_hit else ""))
    if args.expect_mismatch:
        ok = mism > 0 and other == 0
        print("random: expected a mismatch: " + ("found and reported" if ok else "NOT FOUND"))
        return 0 if ok else 1
    if ran == 0:
        return 1
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
