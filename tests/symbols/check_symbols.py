#!/usr/bin/env python3
"""Checks `tally symbols` against tools that share none of its code.

usage: check_symbols.py CASE --tally TALLY --out DIR [--workloads DIR] --tools PREFIX

CASE is one of:
  elf_vs_nm           functions, aliases and labels vs `nm -S --defined-only`
  map_vs_elf          functions from the linker map vs the ELF of the same link
  lines_vs_addr2line  pc -> file:line vs addr2line, at every 2-byte address of code
  command             the table, JSON, options and exit statuses of the command
  bad_maps            damaged, truncated and foreign map files
  bad_programs        missing, foreign, stripped and damaged program files

DIR holds the programs tests/symbols/CMakeLists.txt builds (syms*.elf, .map,
.bin); the shipped workloads (DIR/<flavour>/<name>.elf + .map) are checked too.
Prints one line per failure and a closing "N passed, N failed".
"""
import argparse
import bisect
import glob
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)
    return ok


class Tally:
    def __init__(self, path):
        self.path = path

    def run(self, *args):
        """Runs tally; a crash or a sanitizer report is a failure by itself."""
        p = subprocess.run([self.path, *args], capture_output=True, text=True, errors="replace")
        crashed = p.returncode < 0 or p.returncode >= 128 or re.search(
            r"AddressSanitizer|LeakSanitizer|runtime error", p.stderr)
        check(not crashed, "tally %s crashed (status %d): %s" % (" ".join(args), p.returncode, p.stderr[-500:]))
        return p.returncode, p.stdout, p.stderr

    def json(self, *args):
        rc, out, err = self.run("symbols", "--json", *args)
        if not check(rc == 0, "tally symbols --json %s: status %d: %s" % (" ".join(args), rc, err.strip())):
            return None
        return json.loads(out)


def tool(prefix, name, *args, stdin=None):
    return subprocess.run([prefix + name, *args], input=stdin, capture_output=True, text=True, check=True).stdout


def exec_sections(prefix, elf):
    """{name: (lo, hi)} of the executable sections (readelf -S)."""
    out = {}
    for line in tool(prefix, "readelf", "-SW", elf).splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S*)", line)
        if m and "X" in m.group(4) and "A" in m.group(4) and int(m.group(3), 16):
            lo = int(m.group(2), 16)
            out[m.group(1)] = (lo, lo + int(m.group(3), 16))
    return out


def nm_code_symbols(prefix, elf):
    """[(name, addr, size, global)] of functions and labels in code, per nm."""
    secs = exec_sections(prefix, elf)
    syms = []
    for line in tool(prefix, "nm", "-S", "--defined-only", "-f", "sysv", elf).splitlines():
        f = [x.strip() for x in line.split("|")]
        if len(f) < 7 or f[3] not in ("FUNC", "NOTYPE") or f[6] not in secs:
            continue
        name = f[0]
        if name.startswith("$") or name.startswith(".L"):
            continue
        syms.append((name, int(f[1], 16), int(f[4], 16) if f[4] else 0, f[2] in "TWVU"))
    return syms, secs


def all_names(j):
    """{name: (addr, role)} of a tally symbols --json answer."""
    names = {}
    for f in j["functions"]:
        names.setdefault(f["name"], []).append((f["lo"], "function"))
        for a in f["aliases"]:
            names.setdefault(a, []).append((f["lo"], "alias"))
    for l in j.get("labels", []):
        names.setdefault(l["name"], []).append((l["addr"], "label"))
    return names


def check_ranges(j, what):
    fs = j["functions"]
    ok = True
    for i, f in enumerate(fs):
        nxt = fs[i + 1]["lo"] if i + 1 < len(fs) else None
        good = f["lo"] < f["hi"] and f["size"] == f["hi"] - f["lo"] and (nxt is None or f["hi"] <= nxt)
        d = f.get("declared_size")
        if d:
            good = good and (f["hi"] < f["lo"] + d if f["clipped"] else f["hi"] == f["lo"] + d)
        ok &= check(good, "%s: bad range %s" % (what, f))
    return ok


def programs(a):
    """(elf, map) pairs: the test programs and the shipped workloads."""
    pairs = [(os.path.join(a.out, n + ".elf"), os.path.join(a.out, n + ".map")) for n in ("syms", "syms_plain", "syms_rv32i")]
    if a.workloads:
        for elf in sorted(glob.glob(os.path.join(a.workloads, "*", "*.elf"))):
            pairs.append((elf, elf[:-4] + ".map"))
    return [(e, m if os.path.exists(m) else None) for e, m in pairs]


# ---- elf_vs_nm ----

def case_elf_vs_nm(a, t):
    elfs = [e for e, _ in programs(a)] + [os.path.join(a.out, "syms_nodebug.elf")]
    for elf in elfs:
        j = t.json(elf)
        if not j:
            continue
        what = os.path.relpath(elf, a.out) if elf.startswith(a.out) else elf
        check_ranges(j, what)
        names = all_names(j)
        nm, secs = nm_code_symbols(a.tools, elf)
        nm_at = {}
        for name, addr, size, _ in nm:
            nm_at.setdefault(addr, []).append((name, size))
        missing = [(n, hex(ad)) for n, ad, _, _ in nm if (ad, "function") not in names.get(n, [])
                   and (ad, "alias") not in names.get(n, []) and (ad, "label") not in names.get(n, [])]
        check(not missing, "%s: nm symbols tally does not have: %s" % (what, missing[:8]))
        nm_names = {(n, ad) for n, ad, _, _ in nm}
        invented = [(n, hex(ad)) for n, places in names.items() for ad, _ in places if (n, ad) not in nm_names]
        check(not invented, "%s: names tally has and nm does not: %s" % (what, invented[:8]))
        ends = {hi for lo, hi in secs.values()}
        for f in j["functions"]:
            sizes = [s for _, s in nm_at.get(f["lo"], [])]
            want = max(sizes) if sizes else 0
            check((f["declared_size"] or 0) == want,
                  "%s: %s declared size %s, nm says %d" % (what, f["name"], f["declared_size"], want))
            prim = [s for n, s in nm_at.get(f["lo"], []) if n == f["name"]]
            check(not want or (prim and prim[0] > 0), "%s: primary %s has no size while an alias has" % (what, f["name"]))
        inner = 0
        for l in j["labels"]:
            in_sized = any(f["declared_size"] and f["lo"] < l["addr"] < f["lo"] + f["declared_size"] for f in j["functions"])
            inner += in_sized
            check(in_sized or l["addr"] in ends, "%s: label %s at 0x%x is neither inside a sized function nor at a section end"
                  % (what, l["name"], l["addr"]))
    check_syms_details(a, t)


def check_syms_details(a, t):
    """The cases syms.c was written for."""
    j = t.json(os.path.join(a.out, "syms.elf"))
    if not j:
        return
    f = {x["name"]: x for x in j["functions"]}
    labels = {l["name"]: l["addr"] for l in j["labels"]}

    def has(name, **want):
        got = f.get(name)
        ok = got is not None and all(got[k] == v for k, v in want.items())
        check(ok, "syms.elf: %s: expected %s, got %s" % (name, want, got))
        return got

    has("work", aliases=["work_alias"], binding="global", type="func")
    has("hidden_alias", aliases=["hidden"], binding="global")
    has("weak_fn", binding="weak")
    has("helper_a", binding="local", type="func")
    has("helper_b", binding="local")
    has("split.cold", binding="local")
    has("rare", binding="global")
    nosize, marker, sized = has("asm_nosize", declared_size=None, type="func"), has("asm_marker", type="label"), has("asm_sized", declared_size=6)
    if nosize and marker and sized:
        check(nosize["hi"] == marker["lo"] and marker["hi"] == sized["lo"] and sized["hi"] == sized["lo"] + 6,
              "syms.elf: asm_nosize reaches to asm_marker, asm_marker to asm_sized, asm_sized is 6 bytes")
        check(labels.get("asm_inner") == sized["lo"] + 2 and labels.get("asm_local_inner") == sized["lo"] + 4,
              "syms.elf: asm_inner and asm_local_inner are labels of asm_sized: %s" % labels)
    last = has("asm_last", declared_size=4)
    if last:
        check(last is j["functions"][-1] and labels.get("asm_end") == last["hi"] and labels.get("__text_end") == last["hi"],
              "syms.elf: asm_end and __text_end at the end of the code are labels")


# ---- map_vs_elf ----

def case_map_vs_elf(a, t):
    for elf, mp in programs(a):
        if not check(mp is not None, "%s: no map file next to it" % elf):
            continue
        what = os.path.basename(os.path.dirname(mp)) + "/" + os.path.basename(mp)
        jm, je = t.json("--map", mp, elf), t.json(elf)
        if not jm or not je:
            continue
        check_ranges(jm, what)
        elf_names = all_names(je)
        wrong = []
        for f in jm["functions"]:
            for n in [f["name"]] + f["aliases"]:
                if not any(ad == f["lo"] for ad, _ in elf_names.get(n, [])):
                    wrong.append((n, hex(f["lo"]), f["from"]))
        check(not wrong, "%s: map functions the ELF does not have at that address: %s" % (what, wrong[:8]))
        map_names = all_names(jm)
        nm, secs = nm_code_symbols(a.tools, elf)
        ends = {hi for lo, hi in secs.values()}
        lost = [(n, hex(ad)) for n, ad, _, glob_ in nm
                if glob_ and ad not in ends and not any(x == ad for x, _ in map_names.get(n, []))]
        check(not lost, "%s: global functions of the ELF missing from the map: %s" % (what, lost[:8]))
        code = list(secs.values())
        outside = [f["name"] for f in jm["functions"] if not any(lo <= f["lo"] and f["hi"] <= hi for lo, hi in code)]
        check(not outside, "%s: map functions outside the ELF's code: %s" % (what, outside[:8]))
        check(len(jm["functions"]) >= 10, "%s: only %d functions" % (what, len(jm["functions"])))
    # static functions: named by their sections under -ffunction-sections, invisible without
    full = t.json("--map", os.path.join(a.out, "syms.map"), os.path.join(a.out, "syms.elf"))
    plain = t.json("--map", os.path.join(a.out, "syms_plain.map"), os.path.join(a.out, "syms_plain.elf"))
    if full and plain:
        fm = {f["name"]: f for f in full["functions"]}
        check(all(fm.get(n, {}).get("from") == "section name" for n in ("helper_a", "helper_b", "split.cold", "__ultoa_invert")),
              "syms.map: static functions named after their input sections")
        check(fm.get("work", {}).get("aliases") == ["work_alias"], "syms.map: work [work_alias]")
        check(fm.get("__i_vfprintf", {}).get("aliases") == ["vfprintf"], "syms.map: the --defsym alias vfprintf")
        check("helper_a" not in {f["name"] for f in plain["functions"]}, "syms_plain.map: no static functions")


# ---- lines_vs_addr2line ----

def decoded_rows(prefix, elf):
    """{(addr, basename, line)} from objdump --dwarf=decodedline (binutils' readelf code, not BFD's)."""
    rows = set()
    for line in tool(prefix, "objdump", "--dwarf=decodedline", elf).splitlines():
        m = re.match(r"(\S+)\s+(\d+)\s+(0x[0-9a-f]+)", line)
        if m:
            rows.add((int(m.group(3), 16), os.path.basename(m.group(1)), int(m.group(2))))
    return rows


def case_lines_vs_addr2line(a, t):
    for elf, _ in programs(a):
        j = t.json("--lines", elf)
        if not j:
            continue
        what = os.path.relpath(elf, a.out) if elf.startswith(a.out) else elf
        lines = j["lines"]
        los = [r["lo"] for r in lines]
        check(all(lines[i]["hi"] <= lines[i + 1]["lo"] for i in range(len(lines) - 1)) and all(r["lo"] < r["hi"] for r in lines),
              "%s: line rows sorted and disjoint" % what)
        addrs = [pc for f in j["functions"] for pc in range(f["lo"], f["hi"], 2)]
        out = tool(a.tools, "addr2line", "-e", elf, stdin="\n".join("0x%x" % pc for pc in addrs)).splitlines()
        if not check(len(out) == len(addrs), "%s: addr2line gave %d answers for %d addresses" % (what, len(out), len(addrs))):
            continue
        decoded = None
        same = confirmed = unknown = 0
        bad = []
        for pc, ref in zip(addrs, out):
            ref = re.sub(r" \(discriminator \d+\)$", "", ref)
            i = bisect.bisect_right(los, pc) - 1
            mine = lines[i] if i >= 0 and pc < lines[i]["hi"] else None
            mine_s = "%s:%d" % (mine["file"], mine["line"]) if mine else "??:?"
            if ref.startswith("??:") and mine is None:
                unknown += 1
                continue
            if ref == mine_s:
                same += 1
                continue
            # binutils 2.40's addr2line misreads some DWARF 5 file tables and
            # misses some units; where it differs, objdump's own line decoder
            # must show exactly our row
            if decoded is None:
                decoded = decoded_rows(a.tools, elf)
            ref_line = ref.rsplit(":", 1)[-1]
            if mine and (mine["lo"], os.path.basename(mine["file"]), mine["line"]) in decoded and (
                    ref.startswith("??") or ref_line == str(mine["line"])):
                confirmed += 1
            else:
                bad.append("0x%x addr2line %s, tally %s" % (pc, ref, mine_s))
        check(not bad, "%s: %d differences, e.g. %s" % (what, len(bad), bad[:4]))
        check(same >= 0.75 * len(addrs), "%s: only %d of %d addresses agree with addr2line outright" % (what, same, len(addrs)))
        print("  %-34s %5d addresses: %5d as addr2line, %3d as objdump where addr2line errs, %3d without a line" %
              (what, len(addrs), same, confirmed, unknown))
    rc, out, err = t.run("symbols", "--lines", "--json", os.path.join(a.out, "syms_nodebug.elf"))
    check(rc == 0 and json.loads(out)["lines"] == [] and "no DWARF line table" in err,
          "syms_nodebug.elf: no lines and a note, not an error (%d, %s)" % (rc, err.strip()))


# ---- command ----

ROW = re.compile(r"^0x([0-9a-f]{8})  0x([0-9a-f]{8})  +(\d+)  (\S+)(?: \[(.+)\])?$")


def case_command(a, t):
    elf, mp, binf = (os.path.join(a.out, n) for n in ("syms.elf", "syms.map", "syms.bin"))
    rc, out, err = t.run("symbols", elf)
    rows = out.splitlines()
    check(rc == 0 and rows and rows[0].split() == ["lo", "hi", "size", "name", "[aliases]"], "table header: %r" % rows[:1])
    j = t.json(elf)
    if j:
        parsed = [ROW.match(r) for r in rows[1:]]
        check(all(parsed) and len(parsed) == len(j["functions"]), "every row is 'lo  hi  size  name [aliases]'")
        widths = {len(r) - len(m.group(4)) - (len(m.group(5)) + 3 if m.group(5) else 0) for r, m in zip(rows[1:], parsed) if m}
        check(len(widths) == 1 and rows[0].index("name") == widths.pop(), "names start in one column")
        same = all(m and int(m.group(1), 16) == f["lo"] and int(m.group(2), 16) == f["hi"] and int(m.group(3)) == f["size"]
                   and m.group(4) == f["name"] and (m.group(5) or "") == ", ".join(f["aliases"]) for m, f in zip(parsed, j["functions"]))
        check(same, "table and JSON agree")
        work = [r for r in rows if r.endswith("  work [work_alias]")]
        check(len(work) == 1 and int(ROW.match(work[0]).group(3)) == 32, "the row of work: %s" % work)
    rc2, out2, _ = t.run("symbols", elf, "--json")
    check(rc2 == 0 and json.loads(out2) == j, "options may follow PROGRAM")

    rc, out, err = t.run("symbols", "--lines", elf)
    parts = out.split("\n\n")
    jl = t.json("--lines", elf)
    check(rc == 0 and len(parts) == 2 and parts[1].splitlines()[0].split() == ["lo", "hi", "source"]
          and jl and len(parts[1].splitlines()) - 1 == len(jl["lines"]) > 50, "--lines adds the line table")
    check(bool(re.search(r"^0x[0-9a-f]{8}  0x[0-9a-f]{8}  \S*syms\.c:\d+$", parts[-1], re.M)), "line rows read file:line")

    # the papers' flow: a raw binary and its map
    rc, out_bin, err = t.run("symbols", "--map", mp, binf)
    rc2, out_elf, _ = t.run("symbols", "--map", mp, elf)
    check(rc == 0 and out_bin == out_elf and "work [work_alias]" in out_bin, "--map with the .bin: %d %s" % (rc, err.strip()))
    jm = t.json("--map", mp, binf)
    check(jm is not None and jm["source"] == mp and jm["functions"][0]["from"] == "symbol", "--map --json")

    usage = [
        ([], 64, r"no PROGRAM given"),
        (["--bogus", elf], 64, r"unknown option '--bogus'"),
        ([elf, elf], 64, r"one PROGRAM only"),
        (["--map"], 64, r"--map needs a FILE"),
        (["--help"], 0, None),
        (["-h"], 0, None),
        ([binf], 66, r"syms\.bin: not an ELF file.*--map FILE"),
        (["--map", mp, "--lines", binf], 66, r"syms\.bin: not an ELF file; --lines reads the DWARF"),
        (["--map", os.path.join(a.out, "nonexistent.map"), elf], 66, r"nonexistent\.map: cannot open: No such file"),
        (["--map", mp, os.path.join(a.out, "nonexistent.bin")], 66, r"nonexistent\.bin: cannot open: No such file"),
    ]
    for args, want_rc, want_err in usage:
        rc, out, err = t.run("symbols", *args)
        check(rc == want_rc and (want_err is None or re.search(want_err, err)),
              "tally symbols %s: status %d (expected %d), stderr %r" % (" ".join(args), rc, want_rc, err.strip()))
    rc, out, _ = t.run("symbols", "--help")
    check(out.startswith("usage: tally symbols") and "--map FILE" in out and "--lines" in out and "--json" in out, "--help text")
    rc, out2, _ = t.run("help", "symbols")
    check(rc == 0 and out2 == out, "tally help symbols")
    rc, out, _ = t.run("--help")
    check(re.search(r"^  symbols +list", out, re.M) is not None, "tally --help lists symbols")


# ---- bad_maps ----

def expect_map_error(t, tmp, name, text, where, binary=False, line=None):
    path = os.path.join(tmp, name)
    with open(path, "wb" if binary else "w") as f:
        f.write(text)
    rc, out, err = t.run("symbols", "--map", path, os.path.join(tmp, "prog.bin"))
    m = re.match(r"tally symbols: (.*?):(\d+): (.*)", err)
    ok = rc == 66 and m and m.group(1) == path and (line is None or int(m.group(2)) == line) and re.search(where, m.group(3))
    check(ok, "%s: status %d, stderr %r (expected line %s, /%s/)" % (name, rc, err.strip(), line, where))


def case_bad_maps(a, t):
    with open(os.path.join(a.out, "syms.map")) as f:
        real = f.read()
    lines = real.splitlines(keepends=True)
    tmp = tempfile.mkdtemp(prefix="tally-symbols-")
    try:
        shutil.copy(os.path.join(a.out, "syms.bin"), os.path.join(tmp, "prog.bin"))
        head = next(i for i, l in enumerate(lines) if l.startswith("Linker script and memory map"))
        out_line = next(i for i, l in enumerate(lines) if l.startswith("OUTPUT("))

        rc, _, err = t.run("symbols", "--map", os.path.join(tmp, "missing.map"), os.path.join(tmp, "prog.bin"))
        check(rc == 66 and "missing.map: cannot open" in err, "a missing map: %d %s" % (rc, err.strip()))
        rc, _, err = t.run("symbols", "--map", tmp, os.path.join(tmp, "prog.bin"))
        check(rc == 66 and tmp in err, "a directory as the map: %d %s" % (rc, err.strip()))
        expect_map_error(t, tmp, "empty.map", "", "empty file", line=1)
        rnd = random.Random(7)
        expect_map_error(t, tmp, "garbage.map", bytes(rnd.randrange(256) for _ in range(5000)), "binary data", binary=True)
        words = "".join(" ".join(rnd.choice(["lorem", "0x80000000", ".text", "ipsum", "*fill*", "  "]) for _ in range(8)) + "\n"
                        for _ in range(200))
        expect_map_error(t, tmp, "words.map", words, "no 'Linker script and memory map' section", line=200)
        expect_map_error(t, tmp, "words_in_map.map", "".join(lines[:head + 1]) + words + "".join(lines[head + 1:]), ".")
        expect_map_error(t, tmp, "no_memory_map.map", "".join(lines[:head]), "no 'Linker script and memory map' section")
        expect_map_error(t, tmp, "lld.map", "             VMA              LMA     Size Align Out     In      Symbol\n"
                         "        0        0 80000000     1 . = 0x80000000\n", "lld")
        expect_map_error(t, tmp, "nul.map", real[:len(real) // 2] + "\0" + real[len(real) // 2:], "binary data")

        # truncated: after the header, inside a wrapped name, in an address, just before OUTPUT
        wrapped = next(i for i, l in enumerate(lines) if i > head and re.match(r"^ \.text\.\S+\n$", l))
        addr_line = next(i for i, l in enumerate(lines) if i > head and re.match(r"^ \.text\S*\s+0x", l))
        expect_map_error(t, tmp, "cut_header.map", "".join(lines[:head + 1]), "truncated", line=head + 1)
        expect_map_error(t, tmp, "cut_wrapped.map", "".join(lines[:wrapped + 1]), "not followed by its address", line=wrapped + 1)
        cut = "".join(lines[:addr_line]) + lines[addr_line][:lines[addr_line].index("0x") + 5]
        expect_map_error(t, tmp, "cut_address.map", cut, "truncated", line=addr_line + 1)
        expect_map_error(t, tmp, "cut_output.map", "".join(lines[:out_line]), "OUTPUT", line=out_line)
        for k, frac in enumerate((0.1, 0.3, 0.5, 0.7, 0.9, 0.99)):
            expect_map_error(t, tmp, "cut_%d.map" % k, real[:int(len(real) * frac)], ".")

        # addresses that do not parse, do not fit, overlap, or leave their section
        def edited(i, old, new):
            assert old in lines[i], (lines[i], old)
            return "".join(lines[:i] + [lines[i].replace(old, new, 1)] + lines[i + 1:])
        a0 = re.search(r"0x[0-9a-f]+", lines[addr_line]).group(0)
        expect_map_error(t, tmp, "bad_hex.map", edited(addr_line, a0, "0x80zz0000"), "does not parse", line=addr_line + 1)
        expect_map_error(t, tmp, "too_big.map", edited(addr_line, a0, "0x180000000"), "does not fit in 32 bits", line=addr_line + 1)
        sym_line = next(i for i, l in enumerate(lines) if i > addr_line and re.match(r"^ {16}0x[0-9a-f]+ {16}\S+\n$", l))
        s0 = re.search(r"0x[0-9a-f]+", lines[sym_line]).group(0)
        expect_map_error(t, tmp, "sym_outside.map", edited(sym_line, s0, "0x7ffffff0"), "lies outside its input section", line=sym_line + 1)
        secs = [(i, int(m.group(1), 16), int(m.group(2), 16)) for i, l in enumerate(lines) if i > head
                for m in [re.match(r"^ \.text\S*\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)", l)] if m and int(m.group(2), 16) > 4]
        (i1, lo1, sz1), (i2, lo2, sz2) = secs[0], secs[1]
        size1 = re.findall(r"0x[0-9a-f]+", lines[i1])[1]
        over = edited(i1, " " + size1, " 0x%x" % (lo2 - lo1 + 4))
        expect_map_error(t, tmp, "overlap.map", over, "overlaps .* from line %d" % (i1 + 1), line=i2 + 1)
        # every Nth byte offset (--prefix-step: the README's test command
        # takes every 397th, ~175 runs of tally; the slow set every 37th):
        # an error naming file and line, or (past OUTPUT) success
        bad = 0
        complete = real.index(")", real.index("\nOUTPUT(")) + 1
        for n in list(range(1, len(real), a.prefix_step)) + [complete - 1, complete]:
            path = os.path.join(tmp, "prefix.map")
            with open(path, "w") as f:
                f.write(real[:n])
            rc, _, err = t.run("symbols", "--map", path, os.path.join(tmp, "prog.bin"))
            if n >= complete:
                bad += rc != 0
            elif rc != 66 or not re.match(r"tally symbols: %s:\d+: " % re.escape(path), err):
                bad += 1
                if bad < 4:
                    print("  prefix of %d bytes: status %d, %s" % (n, rc, err.strip()))
        check(bad == 0, "every truncated prefix of syms.map is an error naming FILE:LINE (%d bad)" % bad)
    finally:
        shutil.rmtree(tmp)


# ---- bad_programs ----

def case_bad_programs(a, t):
    tmp = tempfile.mkdtemp(prefix="tally-symbols-")
    try:
        elf = os.path.join(a.out, "syms.elf")
        with open(elf, "rb") as f:
            data = f.read()

        def expect(args, want_rc, want_err, what):
            rc, out, err = t.run("symbols", *args)
            check(rc == want_rc and re.search(want_err, err), "%s: status %d (expected %d), stderr %r" % (what, rc, want_rc, err.strip()))
            return rc, out

        def write(name, content):
            p = os.path.join(tmp, name)
            with open(p, "wb") as f:
                f.write(content)
            return p

        expect([os.path.join(tmp, "missing.elf")], 66, r"missing\.elf: cannot open: No such file", "a missing program")
        expect([tmp], 66, re.escape(tmp), "a directory")
        expect([write("empty.elf", b"")], 66, r"empty\.elf: not an ELF file", "an empty file")
        expect([write("garbage.elf", bytes(random.Random(3).randrange(256) for _ in range(4096)))], 66, r"not an ELF file", "garbage")
        expect([write("head.elf", data[:40])], 66, r"head\.elf: ", "an ELF cut inside its header")
        expect([write("half.elf", data[:len(data) // 2])], 66, r"half\.elf: ", "an ELF cut in half")
        expect([sys.executable], 66, r"not a 32-bit ELF", "a host (64-bit) program")
        expect([os.path.join(a.out, "syms_stripped.elf")], 66, r"no symbol table \(stripped\?\).*--map", "a stripped ELF")
        obj = os.path.join(tmp, "syms.o")
        subprocess.run([a.tools + "gcc", "-march=rv32imac", "-mabi=ilp32", "-c", "-x", "c", "-", "-o", obj],
                       input="int f(int x) { return x + 1; }\n", text=True, check=True)
        expect([obj], 66, r"not an executable.*link it first", "an object file")
        nofunc = os.path.join(tmp, "nofunc.elf")
        subprocess.run([a.tools + "objcopy", "-w", "--strip-symbol=*", "--keep-symbol=stdout", elf, nofunc], check=True)
        rc, out = expect([nofunc], 0, r"no function symbols", "an ELF whose symbol table has no functions")
        check(out.splitlines()[1:] == [], "... lists nothing: %r" % out[:200])
        # damaged files: flip bytes; tally reads them or refuses them, never crashes
        rnd = random.Random(11)
        statuses = {}
        for k in range(60):
            b = bytearray(data)
            for _ in range(1 + k % 8):
                pos = rnd.randrange(len(b)) if k % 3 else rnd.randrange(min(len(b), 64))
                b[pos] = rnd.randrange(256)
            p = write("fuzz.elf", bytes(b))
            rc, _, _ = t.run("symbols", "--lines", p)
            statuses[rc] = statuses.get(rc, 0) + 1
        check(set(statuses) <= {0, 66}, "damaged ELF files: statuses %s" % statuses)
    finally:
        shutil.rmtree(tmp)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case")
    ap.add_argument("--tally", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--workloads", default="")
    ap.add_argument("--tools", default="riscv64-unknown-elf-")
    ap.add_argument("--prefix-step", type=int, default=397,
                    help="bad_maps: try the prefixes of syms.map every N bytes")
    a = ap.parse_args()
    case = globals().get("case_" + a.case)
    if not case:
        print("unknown case", a.case)
        return 2
    case(a, Tally(a.tally))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
