#!/usr/bin/env python3
"""Runs one timing microbenchmark on tally and checks hand-derived numbers.

    check_run.py TALLY ELF [--core NAME] [--set SEC.KEY=VAL]... EXPECT...

Each EXPECT is NAME=VALUE:
    cycles=N        the run's cycle count ("cycles" of --stats-json)
    instructions=N  the run's instruction count ("instructions")
    exit=N          the exit status (of the process and in the JSON)
    stdout=TEXT     what the program printed, exactly (\\n for newlines)
    <signal>=N      the total of a signal (see `tally signals`), e.g.
                    stall.load_use=16 or dcache.read_miss=32

The expected values come from the derivations in the programs' comments and
docs/timing-tests.md, never from a previous run. Every mismatch is listed;
the exit status is 0 only when all of them hold.
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile

TOP_LEVEL = {"cycles", "instructions"}


def elf_section(path, wanted):
    """The contents of section `wanted` of a little-endian ELF32 file, or None."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise SystemExit(f"check_run.py: {path}: not a little-endian ELF32 file")
    shoff, = struct.unpack_from("<I", data, 0x20)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x2e)
    def header(i):
        return struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize)
    strtab = header(shstrndx)
    for i in range(shnum):
        h = header(i)
        start = strtab[4] + h[0]
        name = data[start:data.index(b"\0", start)].decode()
        if name == wanted:
            return data[h[4]:h[4] + h[5]]
    return None


def check_layout(path):
    """AT label, offset (bench.h) left pairs (address, expected address)."""
    sec = elf_section(path, ".timing_layout") or b""
    bad = 0
    for actual, expected in struct.iter_unpack("<II", sec):
        if actual != expected:
            print(f"FAIL: layout: a label the derivation puts at 0x{expected:08x} is at 0x{actual:08x}")
            bad += 1
    return bad


def parse_expect(text):
    if "=" not in text:
        raise SystemExit(f"check_run.py: bad expectation '{text}' (expected NAME=VALUE)")
    name, value = text.split("=", 1)
    if name == "stdout":
        return name, value.encode().decode("unicode_escape")
    try:
        return name, int(value, 0)
    except ValueError:
        raise SystemExit(f"check_run.py: '{text}': the value is not an integer")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tally")
    ap.add_argument("elf")
    ap.add_argument("--core", default="tally5")
    ap.add_argument("--set", action="append", default=[], dest="sets")
    ap.add_argument("expect", nargs="+")
    args = ap.parse_args()
    expects = [parse_expect(e) for e in args.expect]
    if check_layout(args.elf):
        return 1

    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.json")
        cmd = [args.tally, "run", "--core", args.core]
        for s in args.sets:
            cmd += ["--set", s]
        cmd += ["--stats-json", stats, args.elf]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        try:
            with open(stats) as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            sys.stderr.write(proc.stderr.decode(errors="replace"))
            print(f"FAIL: {' '.join(cmd)}: no statistics ({e}); exit status {proc.returncode}")
            return 1

    print("$ " + " ".join(cmd))
    failures = 0
    for name, want in expects:
        if name == "exit":
            got = proc.returncode
            if report.get("exit_status") != got:
                print(f"FAIL: exit status {got} but the JSON says {report.get('exit_status')}")
                failures += 1
        elif name == "stdout":
            got = proc.stdout.decode(errors="replace")
        elif name in TOP_LEVEL:
            got = report.get(name)
        elif name in report.get("signals", {}):
            got = report["signals"][name]
        else:
            print(f"FAIL: no value named '{name}' in the report")
            failures += 1
            continue
        ok = got == want
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'}  {name:20} expected {want!r:>10}  measured {got!r:>10}")
    if failures:
        sys.stderr.write(proc.stderr.decode(errors="replace"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
