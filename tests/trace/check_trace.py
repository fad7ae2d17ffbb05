#!/usr/bin/env python3
"""tests/trace: the instruction trace of `tally run --trace` (docs/tally-trace.md).

check_trace.py CASE TALLY ELF [PROGRAM ARGS...]   (exit 77: a needed tool is missing)

  same     a traced run (the whole program) against an untraced one on the
           tally5 core model: stdout, exit status and the --stats-json
           report (cycles, instructions, every signal's total) identical;
           and the trace's own laws: one line per retired instruction and
           per instruction that took an exception (`trap`), each line
           issued on the cycle the previous one ended, the cycles taken
           adding up to the run's total, every signal's counts on the lines
           adding up to its total.
  module   the same with the statistics module counting (cycle@main,
           dcache.read_miss anywhere, instret@FUNCTION, interval 997): its
           table and every interval (--intervals-csv) identical too.
  qemu     the pcs of a functional trace against the pcs QEMU executes
           (qemu-system-riscv32 -singlestep -d exec,nochain: one translation
           block per instruction, one log line each).
  objdump  the mnemonic and symbol of every traced pc against
           riscv64-unknown-elf-objdump -d -M no-aliases on the same ELF;
           and every load's and store's MEMORY field against the address
           made of objdump's operand (imm(reg)) and the register's value as
           the trace's own REGISTERS fields left it (a register counts once
           the trace has shown it written).
  errors   bad uses say what and where, with tally run's exit statuses:
           64 for --trace-count 0, an unknown --trace-from function,
           --trace-from or --trace-count without --trace; 73 for a FILE that cannot be made.
  binary   --trace-format bin, read back by `tally trace --print`: the
           very text --trace writes, byte for byte (the whole program
           functional and on tally5, and a --trace-from main window), and
           under a quarter of its size for the whole program (smaller for
           the window, where each instruction's text is new); a binary trace cut in half prints
           the lines before the cut and fails with 65 ("cut short"), 20
           single-bit changes give lines or 65, never a crash, a text
           file given as a binary one, bytes after the end record, a bad
           --trace-format and a binary trace to stdout are refused.
  traps    tests/trace/traps.S (an ecall, an ebreak, an illegal instruction,
           a load fault, two timer interrupts): each exception's line is
           followed by the handler's first instruction's, the handler is
           entered 6 times, `trap` is on the 4 raising instructions' lines
           and `interrupt` on 2 lines at the handler's entry (tally5).
  roundtrip  the binary trace printed back is the text one, byte for byte
           (functional and tally5), for a program too small for `binary`'s
           size bound.
  window   --trace-from FUNCTION --trace-count 40: the first line is at the
           function's address in the ELF's symbol table (nm), 40 lines; the
           program then runs on to the end an untraced run reaches.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# The RVC forms whose spec names (which objdump prints) tally's disassembler
# writes as the general compressed instruction they are special cases of.
RVC_SPEC_NAMES = {"c.bnez": "c.bne", "c.beqz": "c.beq", "c.addi16sp": "c.addi", "c.addi4spn": "c.addi",
                  "c.swsp": "c.sw", "c.lwsp": "c.lw"}
# objdump's loads and stores: (MEMORY kind, bytes)
MEM_OPS = {"lb": ("r", 1), "lbu": ("r", 1), "lh": ("r", 2), "lhu": ("r", 2), "lw": ("r", 4),
           "sb": ("w", 1), "sh": ("w", 2), "sw": ("w", 4),
           "c.lw": ("r", 4), "c.lwsp": ("r", 4), "c.sw": ("w", 4), "c.swsp": ("w", 4)}
LINE = re.compile(r"^(\d+) \+(\d+) ([0-9a-f]{8}) (\S+): (.*?) \|(.*?)\|(.*?)\|(.*)$")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, timeout=240, **kw)


def parse_trace(path):
    rows = []
    with open(path) as f:
        head = f.readline()
        if not head.startswith("# tally trace 1:"):
            fail("trace header: %r" % head)
        for n, line in enumerate(f, 2):
            m = LINE.match(line.rstrip("\n"))
            if not m:
                fail("%s:%d: not a trace line: %r" % (path, n, line))
            rows.append(m.groups())
    return rows


def stats(tally, elf, args, extra, tmp, name):
    js = os.path.join(tmp, name + ".json")
    p = run([tally, "run", "--core", "tally5", "--stats-json", js] + extra + [elf] + args)
    with open(js) as f:
        return p, json.load(f)


def case_module(tally, elf, args, tmp):
    func = os.environ.get("TRACE_FUNCTION", "main")
    count = ["--no-store", "--count", "cycle@main", "--count", "dcache.read_miss", "--count",
             "instret@" + func, "--interval", "997", "--show-intervals", "all"]
    case_same(tally, elf, args, tmp, count)


def case_same(tally, elf, args, tmp, extra=()):
    trace = os.path.join(tmp, "t.txt")
    csv0, csv1 = os.path.join(tmp, "plain.csv"), os.path.join(tmp, "traced.csv")
    more0 = list(extra) + (["--intervals-csv", csv0] if extra else [])
    more1 = list(extra) + (["--intervals-csv", csv1] if extra else [])
    p0, j0 = stats(tally, elf, args, more0, tmp, "plain")
    p1, j1 = stats(tally, elf, args, more1 + ["--trace", trace, "--trace-count", "1G"], tmp, "traced")
    if (p0.returncode, p0.stdout) != (p1.returncode, p1.stdout):
        fail("status or output differ: %d vs %d" % (p0.returncode, p1.returncode))
    if extra:
        if p0.stderr != p1.stderr or b"total" not in p0.stderr:
            fail("the module's table differs:\n%s\n---\n%s" % (p0.stderr.decode(), p1.stderr.decode()))
        with open(csv0, "rb") as a, open(csv1, "rb") as b:
            if a.read() != b.read():
                fail("--intervals-csv differs")
    for k in sorted(set(j0) | set(j1)):
        if k in ("wall_seconds", "seconds", "mips") or "wall" in k:
            continue
        if j0.get(k) != j1.get(k):
            fail("--stats-json '%s' differs: %r untraced, %r traced" % (k, j0.get(k), j1.get(k)))
    rows = parse_trace(trace)
    cycles = find_number(j0, "cycles")
    instret = find_number(j0, "instructions")
    taken = sum(int(r[1]) for r in rows)
    if taken != cycles:
        fail("trace cycles add up to %d, the run took %d" % (taken, cycles))
    # an instruction that takes an exception has its line but does not retire
    exceptions = j0["signals"]["trap"]
    if len(rows) != instret + exceptions:
        fail("%d trace lines, %d instructions retired and %d exceptions taken" % (len(rows), instret, exceptions))
    at = int(rows[0][0])
    for i, r in enumerate(rows):
        if int(r[0]) != at:
            fail("line %d issues at cycle %s, the line before ended at %d" % (i + 2, r[0], at))
        at += int(r[1])
    # every signal the lines show adds up to its total in the run
    sums = {}
    for r in rows:
        for name, n in signal_counts(r[7]):
            sums[name] = sums.get(name, 0) + n
    for name, total in j0["signals"].items():
        if name in ("cycle", "instret"):
            continue
        if sums.get(name, 0) != total:
            fail("signal %s: the lines add up to %d, the run's total is %d" % (name, sums.get(name, 0), total))
    print("ok: %d lines, %d cycles, %d exceptions, every signal adding up, identical to the untraced run" %
          (len(rows), cycles, exceptions))


def signal_counts(field):
    """(name, count) of a line's SIGNALS field: `name` or `name*N`."""
    for w in field.split():
        name, _, n = w.partition("*")
        yield name, int(n) if n else 1


def find_number(j, key):
    """The report's integer under `key` (top level or one level down)."""
    if isinstance(j.get(key), int):
        return j[key]
    for v in j.values():
        if isinstance(v, dict) and isinstance(v.get(key), int):
            return v[key]
    fail("no '%s' in --stats-json: keys %s" % (key, sorted(j)))


def case_qemu(tally, elf, args, tmp):
    qemu = shutil.which("qemu-system-riscv32")
    if not qemu:
        print("SKIP: qemu-system-riscv32 not installed")
        sys.exit(77)
    trace = os.path.join(tmp, "t.txt")
    run([tally, "run", "--trace", trace, "--trace-count", "1G", elf] + args)
    ours = [int(r[2], 16) for r in parse_trace(trace)]
    log = os.path.join(tmp, "qemu.log")
    semi = "enable=on,target=native,chardev=con,arg=" + ",arg=".join([os.path.basename(elf)] + args)  # argv[0]: the base name, as tally passes it
    p = run([qemu, "-M", "virt", "-bios", "none", "-nographic", "-monitor", "none",
             "-chardev", "stdio,id=con,mux=on", "-serial", "chardev:con", "-semihosting-config", semi,
             "-singlestep", "-d", "exec,nochain", "-D", log, "-kernel", elf], stdin=subprocess.DEVNULL)
    theirs = []
    with open(log) as f:
        for line in f:
            m = re.match(r"Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/", line)
            if m:
                theirs.append(int(m.group(1), 16))
    # QEMU's virt board runs its reset vector (at 0x1000) before jumping to the ELF's entry
    while theirs and theirs[0] < 0x80000000:
        theirs.pop(0)
    n = min(len(ours), len(theirs))
    if n == 0 or abs(len(ours) - len(theirs)) > 2:
        fail("%d pcs traced, QEMU executed %d (exit %d)" % (len(ours), len(theirs), p.returncode))
    for i in range(n):
        if ours[i] != theirs[i]:
            fail("instruction %d: tally at %08x, QEMU at %08x" % (i, ours[i], theirs[i]))
    print("ok: %d pcs in QEMU's order (tally %d, QEMU %d)" % (n, len(ours), len(theirs)))


def symbols(elf):
    """name -> address, from nm."""
    out = {}
    for line in run([tool("nm"), elf]).stdout.decode().splitlines():
        f = line.split()
        if len(f) == 3:
            out[f[2]] = int(f[0], 16)
    return out


def case_traps(tally, elf, args, tmp):
    """tests/trace/traps.S: where each trap's lines are, by its design
    (its comment) and nm's addresses, functional and on tally5."""
    sym = symbols(elf)
    handler = sym["trap_entry"]
    raisers = [sym[t] for t in ("tag_ecall", "tag_ebreak", "tag_illegal", "tag_load")]
    resumed = [sym[t] for t in ("tag_irq1", "tag_irq2")]
    for opts in ([], ["--core", "tally5"]):
        trace = os.path.join(tmp, "t.txt")
        p = run([tally, "run", "--trace", trace] + opts + [elf] + args)
        if p.returncode != 0:
            fail("%s: exit %d: %s" % (" ".join(opts), p.returncode, p.stderr.decode()))
        rows = parse_trace(trace)
        pcs = [int(r[2], 16) for r in rows]
        # each exception: the raising instruction's line, then the handler's first instruction's
        for pc in raisers:
            at = [i for i, x in enumerate(pcs) if x == pc]
            if len(at) != 1 or at[0] + 1 >= len(pcs) or pcs[at[0] + 1] != handler:
                fail("%s: the line of %08x (%d of them) is not followed by the handler's first "
                     "instruction %08x" % (" ".join(opts), pc, len(at), handler))
        # 6 entries into the handler, and no line but the handler's own there
        entries = [i for i, x in enumerate(pcs) if x == handler]
        if len(entries) != 6:
            fail("%s: %d lines at the handler's entry %08x, want 6 (4 exceptions, 2 interrupts)" %
                 (" ".join(opts), len(entries), handler))
        for pc in resumed:
            if pcs.count(pc) != 1:
                fail("%s: %08x (where the interrupts return) has %d lines, want 1" % (" ".join(opts), pc,
                                                                                    pcs.count(pc)))
        if opts:
            traps = [pcs[i] for i, r in enumerate(rows) if "trap" in dict(signal_counts(r[7]))]
            irqs = [pcs[i] for i, r in enumerate(rows) if "interrupt" in dict(signal_counts(r[7]))]
            if traps != raisers:
                fail("the lines with `trap` are at %s, want %s" % (hexes(traps), hexes(raisers)))
            if irqs != [handler, handler]:
                fail("the lines with `interrupt` are at %s, want the handler's entry twice" % hexes(irqs))
    print("ok: 4 exceptions and 2 interrupts, each with the handler's first instruction on its own line")


def hexes(pcs):
    return " ".join("%08x" % x for x in pcs)


def tool(name):
    for t in ("riscv64-unknown-elf-" + name, name):
        if shutil.which(t):
            return t
    print("SKIP: %s not installed" % name)
    sys.exit(77)


def case_objdump(tally, elf, args, tmp):
    trace = os.path.join(tmp, "t.txt")
    run([tally, "run", "--trace", trace, "--trace-count", "20000", elf] + args)
    dump = run([tool("objdump"), "-d", "-M", "no-aliases", elf]).stdout.decode()
    mnem, ops, func = {}, {}, None
    aliases = {}
    for line in run([tool("nm"), elf]).stdout.decode().splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "TtWw":
            aliases.setdefault(int(f[0], 16), set()).add(f[2])
    for line in dump.splitlines():
        m = re.match(r"^([0-9a-f]{8}) <(.*)>:$", line)
        if m:
            func = (m.group(2), int(m.group(1), 16))
            continue
        m = re.match(r"^\s*([0-9a-f]+):\s+[0-9a-f]+\s+(\S+)\s*(\S*)", line)
        if m and func:
            mnem[int(m.group(1), 16)] = (m.group(2), func)
            ops[int(m.group(1), 16)] = m.group(3)
    checked = accesses = 0
    regs = {"zero": 0}
    for r in parse_trace(trace):
        pc = int(r[2], 16)
        mem = MEM_OPS.get(mnem.get(pc, ("",))[0])
        o = re.search(r"(-?\d+)\((\w+)\)$", ops.get(pc, ""))
        if mem and o and o.group(2) in regs:
            want_mem = "%s 0x%08x/%d" % (mem[0], (regs[o.group(2)] + int(o.group(1))) & 0xffffffff, mem[1])
            if r[6].strip() != want_mem:
                fail("%08x %s %s: trace memory '%s', objdump and the registers say '%s'" %
                     (pc, mnem[pc][0], ops[pc], r[6].strip(), want_mem))
            accesses += 1
        for w in r[5].split():
            name, val = w.split("=")
            regs[name] = int(val, 16)
        pc = int(r[2], 16)
        if pc not in mnem:
            fail("pc %08x not in objdump's disassembly" % pc)
        want, (fname, fstart) = mnem[pc]
        got = r[4].split()[0]
        if got != want and got != RVC_SPEC_NAMES.get(want):
            fail("%08x: trace says '%s', objdump says '%s'" % (pc, r[4], want))
        # a function with two names (malloc, __malloc_malloc): objdump shows one, tally may show the other
        names = aliases.get(fstart, set()) | {fname}
        off = "" if pc == fstart else "+0x%x" % (pc - fstart)
        if r[3] not in {n + off for n in names}:
            fail("%08x: trace symbol '%s', objdump '%s%s'" % (pc, r[3], fname, off))
        checked += 1
    if accesses < 100:
        fail("only %d loads and stores checked" % accesses)
    print("ok: %d lines agree with objdump, %d memory addresses" % (checked, accesses))


def case_window(tally, elf, args, tmp, func="main"):
    trace = os.path.join(tmp, "t.txt")
    nm = run([tool("nm"), elf]).stdout.decode()
    addr = None
    for line in nm.splitlines():
        f = line.split()
        if len(f) == 3 and f[2] == func and f[1] in "Tt":
            addr = int(f[0], 16)
    if addr is None:
        fail("no %s in nm's output" % func)
    p = run([tally, "run", "--trace", trace, "--trace-from", func, "--trace-count", "40", elf] + args)
    rows = parse_trace(trace)
    if len(rows) != 40 or int(rows[0][2], 16) != addr or rows[0][3] != func:
        fail("window: %d lines, first at %s %s (want 40 lines from %08x %s); exit %d" %
             (len(rows), rows[0][2] if rows else "-", rows[0][3] if rows else "-", addr, func, p.returncode))
    plain = run([tally, "run", elf] + args)
    if (p.returncode, p.stdout) != (plain.returncode, plain.stdout):
        fail("after the window the program did not run on to its end as without a trace (exit %d, %d)" %
             (p.returncode, plain.returncode))
    print("ok: 40 lines from %s at %08x, then the program ran on to its end" % (func, addr))


def case_errors(tally, elf, args, tmp):
    bad = [(["--trace", "-", "--trace-count", "0"], 64, "--trace-count"),
           (["--trace", "-", "--trace-from", "no_such_function"], 64, "no_such_function"),
           (["--trace-from", "main"], 64, "--trace"),
           (["--trace-count", "5"], 64, "--trace"),
           (["--trace", os.path.join(tmp, "no", "such", "dir", "t.txt")], 73, "cannot create")]
    for opts, status, words in bad:
        p = run([tally, "run"] + opts + [elf] + args)
        err = p.stderr.decode()
        if p.returncode != status or words not in err or p.stdout:
            fail("%s: exit %d (want %d), stderr %r" % (" ".join(opts), p.returncode, status, err))
    print("ok: %d bad uses refused" % len(bad))


def case_roundtrip(tally, elf, args, tmp):
    """The binary trace printed back is the text one (a small program,
    where the binary form's size is no point)."""
    for opts in (["--core", "tally5"], []):
        roundtrip(tally, elf, args, tmp, opts)
    print("ok: the binary traces print as the text ones, functional and tally5")


def roundtrip(tally, elf, args, tmp, opts):
    """(text bytes, binary bytes) after checking that `tally trace --print`
    of the binary trace is the text trace, byte for byte."""
    text, binary, back = (os.path.join(tmp, n) for n in ("t.txt", "t.bin", "back.txt"))
    a = run([tally, "run", "--trace", text] + opts + [elf] + args)
    b = run([tally, "run", "--trace", binary, "--trace-format", "bin"] + opts + [elf] + args)
    if (a.returncode, a.stdout) != (b.returncode, b.stdout):
        fail("%s: the binary-traced run differs from the text-traced one" % " ".join(opts))
    p = run([tally, "trace", "--print", binary, "-o", back])
    with open(text, "rb") as f:
        want = f.read()
    with open(back, "rb") as f:
        got = f.read()
    if p.returncode != 0 or got != want or not want.count(b"\n") > 1:
        fail("%s: tally trace --print (exit %d, %s) is not the text trace (%d vs %d bytes)" %
             (" ".join(opts), p.returncode, p.stderr.decode().strip(), len(got), len(want)))
    return len(want), os.path.getsize(binary)


def case_binary(tally, elf, args, tmp):
    sizes = []
    for opts in (["--core", "tally5"], [], ["--core", "tally5", "--trace-from", "main", "--trace-count", "500"]):
        sizes.append(roundtrip(tally, elf, args, tmp, opts))
        # a short window is mostly each instruction's first sight (its text)
        share = 4 if "--trace-from" not in opts else 1
        if share * sizes[-1][1] >= sizes[-1][0]:
            fail("%s: the binary trace is %d bytes, the text %d: not under 1/%d" % (" ".join(opts), sizes[-1][1],
                                                                               sizes[-1][0], share))
    text, binary = os.path.join(tmp, "t.txt"), os.path.join(tmp, "t.bin")
    with open(text, "rb") as f:
        want = f.read()
    # damaged input: cut in half, not a binary trace, bytes after the end
    with open(binary, "rb") as f:
        data = f.read()
    cut, junk = os.path.join(tmp, "cut.bin"), os.path.join(tmp, "junk.bin")
    with open(cut, "wb") as f:
        f.write(data[:len(data) // 2])
    with open(junk, "wb") as f:
        f.write(data + b"x")
    p = run([tally, "trace", "--print", cut])
    lines = p.stdout.decode().splitlines(keepends=True)
    if p.returncode != 65 or "cut short" not in p.stderr.decode() or not lines or \
            "".join(lines) != want.decode()[:len("".join(lines))]:
        fail("a cut binary trace: exit %d, %r, %d lines" % (p.returncode, p.stderr.decode(), len(lines)))
    # untrusted input: any byte changed gives lines or a refusal (65), never a crash
    flipped = os.path.join(tmp, "flipped.bin")
    for k in range(20):
        at = (k * 7919 + 13) % len(data)
        with open(flipped, "wb") as f:
            f.write(data[:at] + bytes([data[at] ^ (1 << (k % 8))]) + data[at + 1:])
        p = run([tally, "trace", "--print", flipped])
        if p.returncode not in (0, 65):
            fail("byte %d changed: tally trace --print ended with %d: %r" % (at, p.returncode, p.stderr.decode()))
    for path, words in ((text, "not a tally binary trace"), (junk, "bytes after the end record")):
        p = run([tally, "trace", "--print", path])
        if p.returncode != 65 or words not in p.stderr.decode():
            fail("%s: exit %d, %r" % (words, p.returncode, p.stderr.decode()))
    for opts, status, words in ((["run", "--trace", "-", "--trace-format", "bin", elf], 64, "not '-'"),
                                (["run", "--trace", text, "--trace-format", "xml", elf], 64, "text or bin"),
                                (["run", "--trace-format", "bin", elf], 64, "--trace FILE"),
                                (["trace"], 64, "--print FILE"),
                                (["trace", "--print", os.path.join(tmp, "none.bin")], 66, "cannot read")):
        p = run([tally] + opts + (args if opts[0] == "run" else []))
        if p.returncode != status or words not in p.stderr.decode():
            fail("%s: exit %d (want %d), %r" % (" ".join(opts), p.returncode, status, p.stderr.decode()))
    print("ok: binary traces print as the text ones (%s bytes, text vs binary); damage and bad uses refused" %
          ", ".join("%d/%d" % s for s in sizes))


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        sys.exit(2)
    case, tally, elf, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    cases = {"same": case_same, "module": case_module, "qemu": case_qemu, "objdump": case_objdump, "window": case_window, "errors": case_errors,
             "binary": case_binary, "traps": case_traps, "roundtrip": case_roundtrip}
    with tempfile.TemporaryDirectory() as tmp:
        cases[case](tally, elf, args, tmp)


if __name__ == "__main__":
    main()
