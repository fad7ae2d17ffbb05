#!/usr/bin/env python3
"""The PMU's tests (docs/pmu.md), one mode per law:

    check_pmu.py TALLY range ELF [tally run options...] [-- options of the program's run]
        ELF (range.S) prints what mcycle, minstret and mhpmcounter3..31 counted
        over [kernel_lo, kernel_hi); each must equal the statistics module's
        count of the same signal over the same range (--count SIG@0xLO-0xHI),
        exactly; a counter given an event past the catalog reads back event 0
        and counts nothing. Options after `--` go to the program's run only
        (e.g. the statistics module counting at the same time).
    check_pmu.py TALLY same ELF_A ELF_B [tally run options...]
        the two programs differ only in which CSR some instructions access
        (a PMU CSR in A, mscratch in B): exit status, output, cycles and
        every signal total (--stats-json) must be identical. Reading or
        setting the PMU costs exactly what any CSR instruction costs.
    check_pmu.py TALLY c ELF [tally run options...]
        ELF (measure.c, through tally/pmu.h) prints "event value" lines for
        one call; each value must equal the statistics module's count over
        the range in main from after the resuming `csrc mcountinhibit` to
        the stopping `csrrs mcountinhibit` included, plus its count in work().
    check_pmu.py TALLY run ELF EXIT STDOUT-OR-STDERR-TEXT [tally run options...]
        exit status and a text that must appear in the output.

Expected values are the module's counts or hand derivations, never a
previous run of the PMU itself.
"""
import csv
import json
import os
import struct
import subprocess
import sys
import tempfile


def elf_symbols(path):
    """name -> value of an ELF32 little-endian file's symbol table."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise SystemExit(f"check_pmu.py: {path}: not a little-endian ELF32 file")
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x2e)
    hdrs = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    syms = {}
    for h in hdrs:
        if h[1] != 2:  # SHT_SYMTAB
            continue
        strtab = hdrs[h[6]]
        for off in range(h[4], h[4] + h[5], 16):
            name_off, value = struct.unpack_from("<II", data, off)
            start = strtab[4] + name_off
            name = data[start:data.index(b"\0", start)].decode()
            if name:
                syms[name] = value
    return syms


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def signal_names(tally):
    return [s["name"] for s in json.loads(run([tally, "signals", "--json"]).stdout)]


def module_counts(tally, elf, opts, names, lo, hi):
    """The statistics module's totals of each signal over [lo, hi)."""
    return module_counts_at(tally, elf, opts, names, f"0x{lo:08x}-0x{hi:08x}")


def module_counts_at(tally, elf, opts, names, where):
    """The statistics module's totals of each signal at WHERE (--count SIG@WHERE)."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "c.csv")
        cmd = [tally, "run", "--no-store", "--counters", str(len(names)), "--interval", "1000000",
               "--intervals-csv", path] + opts
        for n in names:
            cmd += ["--count", f"{n}@{where}"]
        r = run(cmd + [elf])
        if r.returncode != 0:
            raise SystemExit(f"FAIL: {' '.join(cmd)} exited {r.returncode}: {r.stderr}")
        with open(path) as f:
            rows = list(csv.reader(f))
    total = next(row for row in rows if row[0] == "total")
    return [int(v) for v in total[3:3 + len(names)]]


def check_range(tally, elf, opts):
    extra = []
    if "--" in opts:
        extra = opts[opts.index("--") + 1:]
        opts = opts[:opts.index("--")]
    syms = elf_symbols(elf)
    lo, hi = syms["kernel_lo"], syms["kernel_hi"]
    names = signal_names(tally)
    r = run([tally, "run"] + opts + extra + [elf])
    if r.returncode != 0:
        print(f"FAIL: the program exited {r.returncode}: {r.stderr}")
        return 1
    lines = r.stdout.split("\n")
    mcycle, minstret = (int(v, 16) for v in lines[0].split())
    counters = []
    for line in lines[1:30]:
        event, value = line.split(":")
        hi_word, lo_word = value.split("_")
        counters.append((int(event, 16), int(hi_word, 16) << 32 | int(lo_word, 16)))
    want = module_counts(tally, elf, opts, names, lo, hi)
    by_name = dict(zip(names, want))
    bad = 0
    checks = [("mcycle", mcycle, by_name["cycle"]), ("minstret", minstret, by_name["instret"])]
    base = int(os.environ.get("PMU_BASE", "0"))
    for i, (event, value) in enumerate(counters):
        n = i + 3
        chosen = base + n - 2
        if chosen <= len(names):
            checks.append((f"mhpmevent{n}", event, chosen))
            checks.append((f"mhpmcounter{n} ({names[chosen - 1]})", value, by_name[names[chosen - 1]]))
        else:
            checks.append((f"mhpmevent{n} (event {chosen} is not legal)", event, 0))
            checks.append((f"mhpmcounter{n} (counts nothing)", value, 0))
    nonzero = 0
    for what, got, exp in checks:
        ok = got == exp
        bad += not ok
        nonzero += exp != 0 and what.startswith("mhpmcounter")
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {got} (module over 0x{lo:08x}-0x{hi:08x}: {exp})")
    print(f"{len(checks) - bad} of {len(checks)} equal; {nonzero} counters with a non-zero count")
    return 1 if bad else 0


def stats(tally, elf, opts):
    r = run([tally, "run", "--stats-json", "-"] + opts + [elf])
    out = r.stdout
    js = json.loads(out[out.index("{\n"):])
    return r.returncode, out[:out.index("{\n")], js


def check_same(tally, a, b, opts):
    ca, oa, ja = stats(tally, a, opts)
    cb, ob, jb = stats(tally, b, opts)
    bad = 0
    pairs = [("exit status", ca, cb), ("output", oa, ob), ("cycles", ja["cycles"], jb["cycles"]),
             ("instructions", ja["instructions"], jb["instructions"])]
    pairs += [(f"signal {k}", v, jb["signals"].get(k)) for k, v in ja["signals"].items()]
    for what, x, y in pairs:
        if x != y:
            bad += 1
            print(f"FAIL {what}: {x!r} with the PMU, {y!r} without")
    print(f"{len(pairs) - bad} of {len(pairs)} identical ({ja['cycles']} cycles, "
          f"{ja['signals']['csr']} CSR instructions)")
    return 1 if bad else 0


def elf_symbol_sizes_and_text(path):
    """(symbols name -> (value, size), loadable bytes by address) of an ELF32 file."""
    with open(path, "rb") as f:
        data = f.read()
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x2e)
    hdrs = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    syms, code = {}, []
    for h in hdrs:
        if h[1] == 1 and h[2] & 4:  # SHT_PROGBITS, SHF_EXECINSTR
            code.append((h[3], data[h[4]:h[4] + h[5]]))
        if h[1] != 2:
            continue
        strtab = hdrs[h[6]]
        for off in range(h[4], h[4] + h[5], 16):
            name_off, value, size = struct.unpack_from("<III", data, off)
            start = strtab[4] + name_off
            name = data[start:data.index(b"\0", start)].decode()
            if name:
                syms[name] = (value, size)
    return syms, code


def instructions(code, lo, hi):
    """(address, 32-bit word or 16-bit half) of the instructions in [lo, hi)."""
    for base, blob in code:
        if not base <= lo < base + len(blob):
            continue
        a = lo
        while a < hi:
            half, = struct.unpack_from("<H", blob, a - base)
            if half & 3 == 3:
                word, = struct.unpack_from("<I", blob, a - base)
                yield a, word, 4
                a += 4
            else:
                yield a, half, 2
                a += 2


def check_c(tally, elf, opts):
    syms, code = elf_symbol_sizes_and_text(elf)
    main_lo, main_size = syms["main"]
    resume = stop = None
    for a, w, n in instructions(code, main_lo, main_lo + main_size):
        if n == 4 and w & 0xfff07fff == 0x32003073:                   # csrc mcountinhibit, rs
            resume = a
        elif n == 4 and w & 0xfff0707f == 0x32002073 and resume:      # csrrs rd, mcountinhibit, rs
            stop = a
            break
    if resume is None or stop is None:
        print("FAIL: no csrc mcountinhibit followed by csrrs mcountinhibit in main")
        return 1
    lo, hi = resume + 4, stop + 4
    r = run([tally, "run"] + opts + [elf])
    if r.returncode != 0:
        print(f"FAIL: the program exited {r.returncode}: {r.stderr}")
        return 1
    names = signal_names(tally)
    got = {}
    for line in r.stdout.splitlines():
        ev, value = line.split()
        if ev != "result":
            got[names[int(ev) - 1]] = int(value)
    wanted = list(got)
    in_main = dict(zip(wanted, module_counts(tally, elf, opts, wanted, lo, hi)))
    in_work = dict(zip(wanted, module_counts_at(tally, elf, opts, wanted, "work")))
    bad = 0
    for name in wanted:
        exp = in_main[name] + in_work[name]
        ok = got[name] == exp and exp > 0
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {got[name]} (module: {in_main[name]} in main "
              f"0x{lo:08x}-0x{hi:08x} + {in_work[name]} in work)")
    return 1 if bad else 0


def check_run(tally, elf, code, text, opts):
    r = run([tally, "run"] + opts + [elf])
    bad = 0
    if r.returncode != code:
        print(f"FAIL exit status {r.returncode}, expected {code}")
        bad += 1
    if text.replace("\\n", "\n") not in r.stdout + r.stderr:
        print(f"FAIL expected {text!r} in the output:\n{r.stdout}{r.stderr}")
        bad += 1
    if not bad:
        print(f"ok: exit {code} and {text!r}")
    return 1 if bad else 0


def main(argv):
    if len(argv) < 4 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 64
    tally, mode = argv[1], argv[2]
    if mode == "range":
        return check_range(tally, argv[3], argv[4:])
    if mode == "same":
        return check_same(tally, argv[3], argv[4], argv[5:])
    if mode == "c":
        return check_c(tally, argv[3], argv[4:])
    if mode == "run":
        return check_run(tally, argv[3], int(argv[4]), argv[5], argv[6:])
    print(f"check_pmu.py: unknown mode '{mode}'", file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv))
