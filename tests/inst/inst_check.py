#!/usr/bin/env python3
"""inst_check.py: one transparency test of `tally inst` (docs/inst-tests.md).

    inst_check.py --tally TALLY --config CONFIG --work DIR PROG.elf [ARGS...]

CONFIG is POINTS-TACTIC (insn-trap, insn-jump, insn-auto, bb-auto, ...).
PROG.elf is a self-checking program (it exits 0 when every check passes)
or a workload run with ARGS (it must exit 0 and print the same).
The test
  1. runs PROG.elf on tally and on QEMU: both must exit 0 (else the program,
     not the instrumenter, is wrong);
  2. instruments it: `tally inst --points P --tactic T --tool none --report`;
  3. checks the report: one line per site, the tactic each site got (trap:
     all trap; jump: jump, or reported as out of reach; auto: jump or trap),
     for insn exactly objdump's instructions, for bb every direct branch or
     jump target among the sites;
  4. checks that nothing moved: every byte of the program's data, and every
     code byte outside the sites, is at the same address with the same value;
  5. runs the output on tally and on QEMU: exit status and stdout must equal
     the original's on the same simulator.
Exit status: 0 pass, 1 fail, 77 skip (no `tally inst` in this build, or no
QEMU). With --tactic jump, `tally inst` may instead refuse the input with
status 65 if it names the sites it cannot reach; that passes, with a note.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elfutil  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
QEMU_RUN = os.path.join(HERE, "..", "..", "scripts", "qemu-run.sh")
RAM_BASE, RAM_DEFAULT = 0x80000000, 128 << 20
SKIP = 77
TIMEOUT = 90      # seconds per run (wall clock, on a loaded machine): the runs need a few
FAILURES = []
PATCHED = set()   # addresses of 4 bytes a jal covers besides the sites' own (--report: "jal at 0x...")

# Mnemonics (as objdump prints them, aliases included) whose last operand
# is a direct target address.
DIRECT = {"beq", "bne", "blt", "bge", "bltu", "bgeu", "beqz", "bnez", "blez", "bgez", "bltz",
          "bgtz", "bgt", "ble", "bgtu", "bleu", "j", "jal"}


def check(cond, what):
    if not cond:
        FAILURES.append(what)
        print("FAIL: " + what)
    return cond


def run(cmd, timeout=120, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def have_inst(tally):
    """True when this tally has the inst subcommand."""
    rc, out, err = run([tally, "inst", "--help"], timeout=30)
    return rc == 0 and b"--points" in out + err


def ram_mib(elf):
    """RAM the program needs, in MiB (at least the board's 128)."""
    need = max(elf.load_end() - RAM_BASE, RAM_DEFAULT)
    mib = 128
    while (mib << 20) < need:
        mib *= 2
    return mib


def run_tally(tally, path, mib, args=()):
    cmd = [tally, "run", "--timeout", str(TIMEOUT)]
    if mib > 128:
        cmd += ["--ram-size", "%dMi" % mib]
    return run(cmd + [path] + list(args))


def qemu_flags(elf):
    """QEMU options an output needs: more RAM when its segments end past
    128 MiB (-m, a power of two), and its entry point as the first pc when
    that is not the RAM base: `-M virt -bios none` starts at 0x80000000 and
    ignores the ELF entry, so the generic loader device sets the pc."""
    flags = []
    mib = ram_mib(elf)
    if mib > 128:
        flags.append("-m %dM" % mib)
    if elf.e_entry != RAM_BASE:
        flags.append("-device loader,addr=0x%x,cpu-num=0" % elf.e_entry)
    return " ".join(flags)


def run_qemu(path, mib, args=()):
    env = dict(os.environ, QEMU_TIMEOUT=str(TIMEOUT))
    extra = qemu_flags(elfutil.Elf32(path))
    if extra:
        env["QEMU_EXTRA_ARGS"] = (env.get("QEMU_EXTRA_ARGS", "") + " " + extra).strip()
    return run(["bash", QEMU_RUN, path] + list(args), env=env)


def disassemble(objdump, path):
    """{address: (length, mnemonic, direct target or None)} for every
    instruction objdump finds in the executable sections."""
    rc, out, err = run([objdump, "-d", path])
    if rc != 0:
        raise SystemExit("objdump failed on %s: %s" % (path, err.decode(errors="replace")))
    insns = {}
    for line in out.decode().splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\s+([0-9a-f]{4,8})\s+(\S+)\s*(.*)$", line)
        if not m:
            continue
        addr, raw, mnem, ops = int(m.group(1), 16), m.group(2), m.group(3), m.group(4)
        target = None
        t = re.match(r"^(?:.*,)?\s*([0-9a-f]+)\s*<", ops)
        if mnem in DIRECT and t:
            target = int(t.group(1), 16)
        insns[addr] = (len(raw) // 2, mnem, target)
    return insns


def zero_halfwords(elf, insns):
    """{address: (2, '.half 0', None)} for the zero halfwords in executable
    sections that objdump shows as no instruction (alignment padding). An
    instrumenter may treat them as (illegal) instructions and make them
    sites: never executed, so harmless, and allowed."""
    pads = {}
    covered = set()
    for a, (n, _, _) in insns.items():
        covered.update(range(a, a + n))
    for lo, hi in elf.exec_ranges():
        sec = [x for x in elf.sections if x["addr"] == lo][0]
        for a in range(lo, hi - 1, 2):
            k = sec["offset"] + a - lo
            if a not in covered and elf.data[k:k + 2] == b"\0\0":
                pads[a] = (2, ".half 0", None)
    return pads


def parse_report(text, insns):
    """{site address: tactic} from `--report`: a table whose header names a
    `tactic` column (columns are separated by two or more spaces), a line
    per site starting with the site's address. Without such a header, any
    line whose first address is an instruction and which names a tactic.
    A site with neither tactic whose line says it is out of reach counts
    as 'unreachable'."""
    sites = {}
    col = None
    for line in text.splitlines():
        fields = re.split(r"\s{2,}", line.strip())
        if col is None and "tactic" in [f.lower() for f in fields]:
            col = [f.lower() for f in fields].index("tactic")
            continue
        addr = None
        for tok in re.findall(r"\b(?:0x)?([0-9a-fA-F]{8})\b", line):
            if int(tok, 16) in insns:
                addr = int(tok, 16)
                break
        if addr is None:
            continue
        low = line.lower()
        if col is not None and len(fields) > col:
            m = re.match(r"(jump|trap)\b", fields[col].lower())
        else:
            m = re.search(r"\b(jump|trap)\b", low)
        if m:
            sites[addr] = m.group(1)
            if m.group(1) == "trap" and re.search(r"always a trap|2-byte", low):
                sites[addr] = "trap-by-nature"
            j = re.search(r"jal at (?:0x)?([0-9a-f]{8})", low)
            if j:
                PATCHED.add(int(j.group(1), 16))
        elif re.search(r"unreach|out of reach|cannot reach|not reach", low):
            sites[addr] = "unreachable"
        else:
            sites[addr] = fields[col].lower() if col is not None and len(fields) > col else "?"
    return sites


def bytes_at(elf, addr, n):
    """n bytes of the loaded image at addr (zeros past a segment's file
    part), or None when no segment covers them."""
    for s in elf.segments:
        if s["type"] == elfutil.PT_LOAD and s["vaddr"] <= addr and addr + n <= s["vaddr"] + s["memsz"]:
            out = b""
            for a in range(addr, addr + n):
                k = a - s["vaddr"]
                out += elf.data[s["offset"] + k:s["offset"] + k + 1] if k < s["filesz"] else b"\0"
            return out
    return None


def check_nothing_moved(orig, out, sites, insns):
    """Data sections are byte-for-byte where they were; code bytes outside
    the sites too (a site's own bytes may become a jump or a trap)."""
    site_bytes = set()
    for a in sites:
        site_bytes.update(range(a, a + insns[a][0]))
    for a in PATCHED:
        site_bytes.update(range(a, a + 4))
    for s in orig.sections:
        if not s["flags"] & elfutil.SHF_ALLOC or s["type"] != 1 or not s["size"]:  # PROGBITS
            continue
        want = orig.data[s["offset"]:s["offset"] + s["size"]]
        got = bytes_at(out, s["addr"], s["size"])
        if not check(got is not None, "section %s (0x%08x) is not loaded in the output" % (s["name"], s["addr"])):
            continue
        if s["flags"] & elfutil.SHF_EXECINSTR:
            bad = [s["addr"] + i for i in range(s["size"])
                   if s["addr"] + i not in site_bytes and got[i] != want[i]]
            check(not bad, "code outside the sites changed in %s, first at 0x%08x (%d bytes)"
                  % (s["name"], bad[0], len(bad)) if bad else "")
        else:
            check(got == want, "data section %s (0x%08x) changed in the output" % (s["name"], s["addr"]))


def semihosting(insns):
    """Addresses of the RISC-V semihosting sequences (slli x0, x0, 0x1f;
    ebreak; srai x0, x0, 7): the host recognises a call by these three
    instructions around the ebreak, so an instrumenter may leave them out."""
    out = set()
    for a, (n, mnem, _) in insns.items():
        if mnem == "ebreak" and insns.get(a - 4, (0, ""))[1] in ("slli", "sll") \
                and insns.get(a + 4, (0, ""))[1] in ("srai", "sra"):
            out.update((a - 4, a, a + 4))
    return out


def check_report(points, tactic, sites, insns, note):
    if not check(sites, "the --report output has no per-site line (address + tactic) that I can read"):
        return
    # a trap "by nature": a 2-byte site no block instruction can carry a jal for,
    # or one the runtime always re-creates itself (CSR, mret, ecall, semihosting)
    nature = [a for a, t in sites.items() if t == "trap-by-nature"]
    bad_nature = [a for a in nature if insns[a][0] == 4 and not re.match(r"csr|mret|ecall|ebreak|sll|unimp|\.", insns[a][1])]
    check(not bad_nature, "4-byte site(s) reported as traps by nature that are not CSR/mret/ecall/ebreak/"
          "semihosting instructions (or invalid ones), first 0x%08x" % bad_nature[0] if bad_nature else "")
    sites = {a: ("trap" if t == "trap-by-nature" else t) for a, t in sites.items()}
    tactics = set(sites.values())
    if tactic == "trap":
        check(tactics == {"trap"}, "--tactic trap, yet sites got %s" % sorted(tactics))
    elif tactic == "jump":
        other = sorted(a for a, t in sites.items() if t not in ("jump", "unreachable") and a not in nature)
        check(not other, "--tactic jump, yet site(s) that a jump can replace got a trap, first 0x%08x"
              % other[0] if other else "")
        check("jump" in tactics, "--tactic jump, yet no site got a jump")
        n = sum(1 for t in sites.values() if t == "unreachable")
        if n:
            note("%d site(s) reported out of the jump's reach" % n)
        note("%d jump site(s), %d trap(s) by nature" % (sum(1 for t in sites.values() if t == "jump"), len(nature)))
    else:
        check(tactics <= {"jump", "trap"}, "--tactic auto, yet sites got %s" % sorted(tactics))
    if points == "insn":
        missing = sorted(set(insns) - set(sites) - semihosting(insns))
        extra = sorted(set(sites) - set(insns))
        check(not missing, "--points insn: %d instruction(s) objdump finds are no site, first 0x%08x"
              % (len(missing), missing[0]) if missing else "")
        check(not extra, "--points insn: site(s) that are no instruction, first 0x%08x"
              % extra[0] if extra else "")
    elif points == "bb":
        targets = sorted({t for (_, _, t) in insns.values() if t is not None and t in insns})
        missing = [t for t in targets if t not in sites]
        check(not missing, "--points bb: %d branch/jump target(s) are no block entry, first 0x%08x"
              % (len(missing), missing[0]) if missing else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tally", required=True)
    ap.add_argument("--config", required=True, help="POINTS-TACTIC, e.g. insn-trap")
    ap.add_argument("--work", required=True, help="directory for the outputs (emptied first)")
    ap.add_argument("--objdump", default=shutil.which("riscv64-unknown-elf-objdump") or "riscv64-unknown-elf-objdump")
    ap.add_argument("--no-qemu", action="store_true", help="tally only (for a quick look by hand)")
    ap.add_argument("elf")
    ap.add_argument("args", nargs="*", help="the program's arguments")
    a = ap.parse_args()
    points, tactic = a.config.rsplit("-", 1)
    name = os.path.basename(a.elf)

    if not have_inst(a.tally):
        print("SKIP: %s has no `tally inst` yet" % a.tally)
        return SKIP
    qemu = None if a.no_qemu else shutil.which(os.environ.get("QEMU_SYSTEM_RISCV32", "qemu-system-riscv32"))
    shutil.rmtree(a.work, ignore_errors=True)
    os.makedirs(a.work)

    orig = elfutil.Elf32(a.elf)
    insns = disassemble(a.objdump, a.elf)
    pads = zero_halfwords(orig, insns)
    # objdump shows a zero halfword between functions as `unimp`: padding,
    # which tally inst leaves out as data outside every function (docs
    # "Code and data"); allowed either way, as the pads above
    def zero_bytes(addr, n):
        for lo, hi in orig.exec_ranges():
            if lo <= addr and addr + n <= hi:
                sec = [x for x in orig.sections if x["addr"] == lo][0]
                k = sec["offset"] + addr - lo
                return orig.data[k:k + n] == b"\0" * n
        return False
    for pad in [x for x, (n, m, _) in insns.items()
                if (m in ("unimp", "c.unimp") or m.startswith(".")) and zero_bytes(x, n)]:
        for h in range(0, insns[pad][0], 2):
            pads[pad + h] = (2, ".half 0", None)
        del insns[pad]
    ref_t = run_tally(a.tally, a.elf, 128, a.args)
    if ref_t[0] != 0:
        print("FAIL: %s fails uninstrumented on tally (status %d): fix the program first\n%s"
              % (name, ref_t[0], ref_t[1].decode(errors="replace")))
        return 1
    ref_q = run_qemu(a.elf, 128, a.args) if qemu else None
    if ref_q and ref_q[0] != 0:
        print("FAIL: %s fails uninstrumented on QEMU (status %d)" % (name, ref_q[0]))
        return 1
    if ref_q and ref_q[1] != ref_t[1]:
        print("FAIL: %s prints differently on tally and QEMU uninstrumented" % name)
        return 1

    out_path = os.path.join(a.work, "out.elf")
    cmd = [a.tally, "inst", "--points", points, "--tactic", tactic, "--tool", "none", "--report",
           a.elf, "-o", out_path]
    print("$ " + " ".join(cmd))
    rc, rep, err = run(cmd)
    with open(os.path.join(a.work, "report.txt"), "wb") as f:
        f.write(rep + b"\n--- stderr ---\n" + err)
    notes = []
    note = notes.append
    if rc == 65 and tactic == "jump":
        text = (rep + err).decode(errors="replace")
        named = [t for t in re.findall(r"\b(?:0x)?([0-9a-fA-F]{8})\b", text) if int(t, 16) in insns]
        check(named, "tally inst refused --tactic jump (65) without naming a site: %s" % text[-500:])
        check(not os.path.exists(out_path), "a refused instrumentation left %s behind" % out_path)
        note("refused: %d site(s) named out of reach" % len(set(named)))
    elif check(rc == 0, "tally inst exited %d: %s" % (rc, err.decode(errors="replace")[-2000:])):
        if check(os.path.exists(out_path), "tally inst exited 0 but wrote no %s" % out_path):
            sites = parse_report(rep.decode(errors="replace") + "\n" + err.decode(errors="replace"),
                                 {**pads, **insns})
            npad = len([x for x in sites if x in pads])
            if npad:
                note("%d site(s) on zero padding between functions" % npad)
            check_report(points, tactic, {k: v for k, v in sites.items() if k not in pads}, insns, note)
            out = elfutil.Elf32(out_path)
            check(out.e_machine == elfutil.EM_RISCV, "the output is not an RISC-V ELF")
            check_nothing_moved(orig, out, sites, {**pads, **insns})
            mib = ram_mib(out)
            if mib > 128:
                note("the output needs %d MiB of RAM" % mib)
            got = run_tally(a.tally, out_path, mib, a.args)
            check(got[0] == ref_t[0], "tally: instrumented %s exits %d, original %d\n%s"
                  % (name, got[0], ref_t[0], (got[1] + got[2]).decode(errors="replace")[-2000:]))
            check(got[1] == ref_t[1], "tally: instrumented %s prints something else" % name)
            if ref_q:
                got = run_qemu(out_path, mib, a.args)
                check(got[0] == ref_q[0], "QEMU: instrumented %s exits %d, original %d\n%s"
                      % (name, got[0], ref_q[0], (got[1] + got[2]).decode(errors="replace")[-2000:]))
                check(got[1] == ref_q[1], "QEMU: instrumented %s prints something else" % name)
    for n in notes:
        print("note: " + n)
    if FAILURES:
        print("%s %s: %d failure(s); outputs in %s" % (name, a.config, len(FAILURES), a.work))
        return 1
    if not qemu:
        print("SKIP: passed on tally; QEMU half not run (--no-qemu, or qemu-system-riscv32 not found)")
        return SKIP
    print("%s %s: pass" % (name, a.config))
    return 0


if __name__ == "__main__":
    sys.exit(main())
