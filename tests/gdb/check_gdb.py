#!/usr/bin/env python3
"""The GDB stub's tests (docs/tally-gdb.md), one mode each; exit 77 (skip)
when gdb-multiarch is not installed.

    check_gdb.py TALLY GDB session ELF [tally run options...]
        GDB (batch) stops at work's first instruction and at its return
        address: the cycles and instructions between the two stops
        (monitor cycles, monitor instret) must equal the statistics
        module's cycle@work and instret@work, and so must monitor count
        cycle@work and instret@work at the second stop; monitor stats at
        the first stop says the cycles and instructions monitor cycles
        and monitor instret say; registers and memory read
        there must be what the program holds (a0 = the argument 2048, the
        word at &data[0] = 1, set by main; the CSRs misa and mstatus by the
        spec's encoding); a write watchpoint on data[5]
        must stop with its old and new values (36, then 333, by hand from
        measure.c); the program's output, exit
        status and --stats-json totals must be those of a run without GDB.
    check_gdb.py TALLY GDB step ELF SOURCE
        GDB stops at the line of SOURCE that calls work (a line breakpoint),
        then at work, and steps three instructions there (the first
        compressed, the next 4-byte ones; none jumps, n > 0): each stepi
        must land on the address GDB's own disassembler gives as the next.
    check_gdb.py TALLY GDB interrupt ELF
        a raw client continues a program that never ends, with no breakpoint
        and with one that is never reached, sends Ctrl-C (0x03) and must get
        the stop reply S02 each time; then kills it (tally ends with 124).
    check_gdb.py TALLY GDB hw ELF
        hardware breakpoints and watchpoints are the core's debug triggers:
        on tally5 (4 triggers) hbreak *work stops at work's address (nm)
        and a write watchpoint on data[5] (two chained triggers) stops with
        36, then 333 (measure.c), the totals those of a run without GDB; with
        [core] triggers = 1 the 4-byte watchpoint cannot be inserted (GDB
        says so) and a 1-byte one on data[5]'s low byte stops (36, then 77 =
        333 & 0xff); with triggers = 0 hbreak cannot be inserted, and the
        program then runs to its end once it is deleted.
    check_gdb.py TALLY GDB watch ELF
        read and access watchpoints with exact stop pcs. At work's entry,
        rwatch data[5] and awatch data[6]; by hand from measure.c, work's
        loop reads data[5] (36), writes it (333: the rwatch must not fire),
        reads data[6] (43) and writes it (111 + 3 * 43 = 240), and nothing
        touches either again. GDB must stop after the loop's load, after
        it again, after its store, then see the exit; the addresses
        after the load and the store come from objdump's disassembly of
        work. Cycles and signal totals are those of a run without GDB.
    check_gdb.py TALLY GDB csr ELF
        CSR writes from GDB reach the program (tests/gdb/csr.c, whose
        comment derives what each read must see). At at_write GDB sets
        mcycle 5000, minstret 7, mscratch, mhpmevent4 = 2 (instret),
        mhpmcounter4 1000, mhpmcounter5 0xdeadbeef (event 0), mhpmevent6 = 1
        with mcountinhibit 0x40 and mhpmcounter6 99; the program must print
        5000, 8, the mscratch value, 2, 1007 (7 instructions later),
        0xdeadbeef, 99, 0x40, 1. GDB reads back what it wrote, and a write
        of the read-only mhartid is refused.
    check_gdb.py TALLY GDB traps ELF
        stepping into trap handlers (tests/programs/traps.S; addresses from
        nm): stepi over its ecall stops at trap_entry, the handler's first
        instruction, with mcause 11 and mepc at the ecall; a breakpoint on
        trap_entry stops the ebreak (3), the illegal instruction (2), the
        load fault (5) and the first timer interrupt (0x80000007, mepc
        tag_irq1) there; with `awatch irq_seen` set, stepi over the csrsi
        that lets the second interrupt in stops at tag_irq2 (the store to
        irq_seen), and the next stepi is the interrupt's entry, not the
        watchpoint: at trap_entry, mepc tag_irq2; continuing, the
        watchpoint stops once, after the store (New value = 2). The stack
        pointer is the program's at every stop (the handler's first
        instruction, addi sp, has not run). The program ends with status 0.
    check_gdb.py TALLY GDB attach ELF
        without --gdb-wait the program runs at once; GDB attaches to it
        (ELF never ends) and stops it where it is: instructions had run
        before (monitor instret > 0), and the cycles, the instructions and
        the pc at that stop are those of a run without GDB stopped by
        --max-insns after the same number of instructions (a law: stopping
        between two instructions changes no cycle). GDB kills it: 124.
    check_gdb.py TALLY GDB nowait ELF
        --gdb without --gdb-wait, and no GDB ever comes: the program runs
        to its end as without --gdb (output, exit status, cycles, every
        signal total), and tally said where GDB may attach. Bad uses are
        refused with 64: --gdb-wait without --gdb, port 0, a bad address,
        a port already taken.
    check_gdb.py TALLY GDB garbage ELF
        a client that sends garbage, a bad checksum and a packet cut in the
        middle, then goes away: tally neither crashes nor hangs (it ends
        with 124, "GDB killed it or went away").
"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def module_count(tally, elf, opts, spec):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "c.csv")
        subprocess.run([tally, "run", "--no-store", "--count", spec, "--interval", "1000000",
                        "--intervals-csv", path] + opts + [elf], capture_output=True, check=True, timeout=60)
        with open(path) as f:
            total = [l for l in f.read().splitlines() if l.startswith("total,")][0]
        return int(total.split(",")[3])


def session(tally, gdb, elf, opts):
    port = free_port()  # GDB retries until tally listens (tcp connect-timeout)
    with tempfile.TemporaryDirectory() as d:
        stats = os.path.join(d, "s.json")
        cmd = [tally, "run", "--gdb", str(port), "--gdb-wait", "--stats-json", stats] + opts + [elf]
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        first = p.stderr.readline()  # "tally: waiting for GDB on ...": it listens
        if "waiting for GDB" not in first:
            print(f"FAIL: tally did not wait for GDB: {first}")
            p.kill()
            return 1
        script = os.path.join(d, "g.gdb")
        with open(script, "w") as f:
            f.write(f"""set pagination off
set confirm off
set tcp connect-timeout 10
target remote 127.0.0.1:{port}
break *work
continue
printf "A0 %d\\n", $a0
printf "DATA0 %d\\n", *(int *)&data
printf "MISA %x\\n", $misa
printf "MSTATUS %x\\n", $mstatus
monitor cycles
monitor instret
monitor stats
watch data[5]
continue
printf "WPC %x\\n", $pc
delete 2
break *$ra
continue
monitor cycles
monitor instret
monitor count cycle@work
monitor count instret@work
stepi
stepi
delete
continue
""")
        g = subprocess.run([gdb, "-batch", "-nx", "-x", script, elf], capture_output=True, text=True, timeout=120)
        out, err = p.communicate(timeout=60)
        with open(stats) as f:
            js = json.load(f)
    lines = g.stdout.splitlines()
    # GDB writes monitor output to its stderr, the rest to its stdout
    nums = [int(l) for l in g.stderr.splitlines() + lines if l.strip().isdigit()]
    vals = dict(l.split() for l in lines if l.startswith(("A0 ", "DATA0 ", "MISA ", "MSTATUS ")))
    bad = 0

    def check(what, got, exp):
        nonlocal bad
        ok = got == exp
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {got!r} (expected {exp!r})")

    if len(nums) != 6:
        print(f"FAIL: expected six monitor numbers from GDB, got:\n{g.stdout}\n{g.stderr}")
        return 1
    cycles_work = module_count(tally, elf, opts, "cycle@work")
    instret_work = module_count(tally, elf, opts, "instret@work")
    check("cycles from work's entry to its return", nums[2] - nums[0], cycles_work)
    check("instructions from work's entry to its return", nums[3] - nums[1], instret_work)
    check("monitor count cycle@work after it returned", nums[4], cycles_work)
    check("monitor count instret@work after it returned", nums[5], instret_work)
    check("a0 at work's entry", vals.get("A0"), "2048")
    check("data[0] at work's entry", vals.get("DATA0"), "1")
    # misa: MXL 1 (bit 30) and the extensions A, C, I, M (bits 0, 2, 8, 12);
    # mstatus: MPP = 3 (machine mode only) and nothing else set by the program
    # monitor stats at work's entry: --stats's report of the run so far
    stat = [l.split() for l in g.stderr.splitlines() + lines if l.strip().startswith(("cycles ", "instructions "))]
    check("monitor stats: cycles and instructions at the stop", [int(x[1].replace(",", "")) for x in stat[:2]],
          nums[:2])
    check("CSR misa", vals.get("MISA"), "40001105")
    check("CSR mstatus", vals.get("MSTATUS"), "1800")
    # data[5] = 5 * 7 + 1 = 36 before work; work's sums s: 3, 27, 72, 138, 225, 333
    check("watchpoint on data[5]", "Old value = 36" in g.stdout and "New value = 333" in g.stdout, True)
    wpc = [int(l.split()[1], 16) for l in lines if l.startswith("WPC ")]
    check("watchpoint stop pc: after work's store (objdump)", wpc, [after_access(elf, "work", ("sw", "c.sw"))])
    check("GDB saw the exit", "exited normally" in g.stdout, True)
    # the statistics go to a file, so that stdout is the program's alone
    stats = os.path.join(tempfile.mkdtemp(prefix="tally-gdb-"), "plain.json")
    plain = subprocess.run([tally, "run", "--stats-json", stats] + opts + [elf], capture_output=True, text=True,
                           timeout=60)
    with open(stats) as f:
        pj = json.load(f)
    check("exit status", p.returncode, plain.returncode)
    check("output", out, plain.stdout)
    check("cycles", js["cycles"], pj["cycles"])
    check("every signal total", js["signals"], pj["signals"])
    return 1 if bad else 0


def after_access(elf, func, mnemonics):
    """The address after the first instruction of func whose mnemonic is
    one of mnemonics, from objdump."""
    dis = subprocess.run(["riscv64-unknown-elf-objdump", "-d", "-M", "no-aliases", elf], capture_output=True,
                         text=True, check=True).stdout
    inside = False
    for line in dis.splitlines():
        if line.endswith(f"<{func}>:"):
            inside = True
        elif inside and not line.strip():
            break
        elif inside:
            parts = line.split("\t")
            if len(parts) >= 3 and parts[2].strip() in mnemonics:
                return int(parts[0].strip().rstrip(":"), 16) + len(parts[1].strip().replace(" ", "")) // 2
    return None


def watch(tally, gdb, elf):
    port = free_port()
    with tempfile.TemporaryDirectory() as d:
        stats = os.path.join(d, "s.json")
        p = subprocess.Popen([tally, "run", "--core", "tally5", "--gdb", str(port), "--gdb-wait", "--stats-json",
                              stats, elf], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        p.stderr.readline()
        script = os.path.join(d, "g.gdb")
        with open(script, "w") as f:
            f.write(f"set pagination off\nset confirm off\ntarget remote 127.0.0.1:{port}\nbreak *work\ncontinue\n"
                    "rwatch data[5]\nawatch data[6]\n" + "continue\nprintf \"PC %x\\n\", $pc\n" * 3 + "continue\n")
        g = subprocess.run([gdb, "-batch", "-nx", "-x", script, elf], capture_output=True, text=True, timeout=120)
        p.communicate(timeout=30)
        with open(stats) as f:
            js = json.load(f)
    pcs = [int(l.split()[1], 16) for l in g.stdout.splitlines() if l.startswith("PC ")]
    load = after_access(elf, "work", ("lw", "c.lw"))
    store = after_access(elf, "work", ("sw", "c.sw"))
    bad = 0

    def check(what, got, exp):
        nonlocal bad
        ok = got == exp
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {got!r}" + ("" if ok else f" (expected {exp!r})"))

    text = g.stdout
    check("stop pcs (after the load, after it again, after the store)", [hex(p) for p in pcs],
          [hex(load), hex(load), hex(store)])
    check("read watchpoint on data[5]", "Hardware read watchpoint 2: data[5]\n\nValue = 36" in text, True)
    check("access watchpoint reads data[6]", "Hardware access (read/write) watchpoint 3: data[6]\n\nValue = 43" in text,
          True)
    check("access watchpoint writes data[6]", "Old value = 43\nNew value = 240" in text, True)
    check("the write of data[5] went by the read watchpoint", text.count("watchpoint 2: data[5]\n\nValue"), 1)
    check("GDB saw the exit", "exited normally" in text, True)
    plain, pj = plain_stats(tally, elf, ["--core", "tally5"])
    check("cycles", js["cycles"], pj["cycles"])
    check("every signal total", js["signals"], pj["signals"])
    if bad:
        print(text, g.stderr)
    return 1 if bad else 0


def hw_session(tally, gdb, elf, opts, commands):
    """Runs GDB (batch) on tally run --gdb with commands after the
    connection; returns GDB's output (stdout and stderr) and tally's stats."""
    port = free_port()
    with tempfile.TemporaryDirectory() as d:
        stats = os.path.join(d, "s.json")
        p = subprocess.Popen([tally, "run", "--gdb", str(port), "--gdb-wait", "--stats-json", stats] + opts + [elf],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        p.stderr.readline()
        # a failing command ends its script in batch mode: the parts go in
        # scripts of their own, run one after the other
        args = []
        for i, part in enumerate((f"set pagination off\nset confirm off\ntarget remote 127.0.0.1:{port}\n"
                                  + commands).split("#NEXT\n")):
            script = os.path.join(d, f"g{i}.gdb")
            with open(script, "w") as f:
                f.write(part)
            args += ["-x", script]
        g = subprocess.run([gdb, "-batch", "-nx"] + args + [elf], capture_output=True, text=True, timeout=120)
        p.communicate(timeout=30)
        js = None
        if os.path.exists(stats):
            with open(stats) as f:
                js = json.load(f)
    return g.stdout + g.stderr, js


def hw(tally, gdb, elf):
    bad = 0

    def check(what, got, exp):
        nonlocal bad
        ok = got == exp
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {got!r}" + ("" if ok else f" (expected {exp!r})"))

    work = nm_symbols(elf)["work"]
    text, js = hw_session(tally, gdb, elf, ["--core", "tally5"],
                          "hbreak *work\ncontinue\nprintf \"PC %x\\n\", $pc\ndelete\n"
                          "watch data[5]\ncontinue\ncontinue\n")
    pcs = [int(l.split()[1], 16) for l in text.splitlines() if l.startswith("PC ")]
    check("tally5: hbreak *work stops at work", [hex(p) for p in pcs], [hex(work)])
    check("tally5: GDB calls it a hardware breakpoint", "Hardware assisted breakpoint 1" in text, True)
    check("tally5: watch data[5]: 36, then 333", "Old value = 36\nNew value = 333" in text, True)
    check("tally5: GDB saw the exit", "exited normally" in text, True)
    plain, pj = plain_stats(tally, elf, ["--core", "tally5"])
    check("tally5: cycles", js and js["cycles"], pj["cycles"])
    check("tally5: every signal total", js and js["signals"], pj["signals"])
    if bad:
        print(text)

    before = bad
    text, _ = hw_session(tally, gdb, elf, ["--core", "tally5", "--set", "core.triggers=1"],
                         "break *work\ncontinue\nwatch data[5]\ncontinue\n#NEXT\ndelete 2\n"
                         "watch *(char *)&data[5]\ncontinue\ncontinue\n")
    check("triggers = 1: a 4-byte watchpoint cannot be inserted", "Could not insert hardware watchpoint" in text
          or "Could not insert hardware breakpoints" in text, True)
    check("triggers = 1: a 1-byte one stops: 36, then 77", "Old value = 36 '$'\nNew value = 77 'M'" in text, True)
    check("triggers = 1: GDB saw the exit", "exited normally" in text, True)
    if bad > before:
        print(text)

    before = bad
    text, _ = hw_session(tally, gdb, elf, ["--core", "tally5", "--set", "core.triggers=0"],
                         "hbreak *work\ncontinue\n#NEXT\ndelete\ncontinue\n")
    check("triggers = 0: hbreak cannot be inserted", "Cannot insert hardware breakpoint 1" in text, True)
    check("triggers = 0: GDB saw the exit", "exited normally" in text, True)
    if bad > before:
        print(text)
    return 1 if bad else 0


def nm_symbols(elf):
    """name -> address, from the binutils' nm (not GDB's own reading)."""
    for nm in ("riscv64-unknown-elf-nm", "nm"):
        try:
            out = subprocess.run([nm, elf], capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            continue
        return dict((f[2], int(f[0], 16)) for f in (l.split() for l in out.splitlines()) if len(f) == 3)
    return {}


def traps(tally, gdb, elf):
    sym = nm_symbols(elf)
    port = free_port()
    p = subprocess.Popen([tally, "run", "--core", "tally5", "--gdb", str(port), "--gdb-wait", elf],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    p.stderr.readline()
    show = 'printf "STOP %x %x %x %x\\n", $pc, $mcause, $mepc, $sp\n'
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "g.gdb")
        with open(script, "w") as f:
            f.write(f"set pagination off\nset confirm off\ntarget remote 127.0.0.1:{port}\n"
                    # stepi over an ecall
                    "break *tag_ecall\ncontinue\n" + show + "stepi\n" + show + "delete\n"
                    # a breakpoint on the handler's first instruction: the ebreak, the illegal
                    # instruction, the load fault, the first interrupt
                    "break *trap_entry\n" + ("continue\n" + show) * 4 + "delete\n"
                    # stepi over the csrsi that lets the second interrupt in, then into it, with an
                    # access watchpoint on the store the interrupt comes before
                    "awatch *(int *)&irq_seen\nbreak *(tag_irq2 - 4)\ncontinue\n" + show + ("stepi\n" + show) * 2 +
                    # the handler touches no irq_seen: the next stop is after the store
                    "delete 4\ncontinue\n" + show + 'printf "SEEN %d\\n", *(int *)&irq_seen\n' +
                    "delete\ncontinue\n")
        g = subprocess.run([gdb, "-batch", "-nx", "-x", script, elf], capture_output=True, text=True, timeout=120)
    p.communicate(timeout=30)
    stops = [tuple(int(x, 16) for x in l.split()[1:]) for l in g.stdout.splitlines() if l.startswith("STOP ")]
    h, sp0 = sym.get("trap_entry"), stops[0][3] if stops else None
    # (pc, mcause, mepc) at each stop, by the program's design (tests/programs/traps.S); the stack
    # pointer is the program's own at every stop: the handler's first instruction (addi sp) never ran
    want = [(sym.get("tag_ecall"), None, None), (h, 11, sym.get("tag_ecall")),
            (h, 3, sym.get("tag_ebreak")), (h, 2, sym.get("tag_illegal")), (h, 5, sym.get("tag_load")),
            (h, 0x80000007, sym.get("tag_irq1")),
            (sym.get("tag_irq2") - 4, None, None), (sym.get("tag_irq2"), None, None), (h, 0x80000007, sym.get("tag_irq2")),
            (sym.get("tag_irq2") + 4, None, None)]
    bad = len(stops) != len(want)
    for i, w in enumerate(want):
        got = stops[i] if i < len(stops) else None
        ok = got is not None and got[0] == w[0] and (w[1] is None or got[1:3] == w[1:]) and got[3] == sp0
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} stop {i + 1}: pc, mcause, mepc, sp "
              f"{' '.join('%x' % x for x in got) if got else '-'}, expected "
              f"{' '.join('-' if x is None else '%x' % x for x in w)} sp {sp0:x}")
    seen = [l for l in g.stdout.splitlines() if l.startswith("SEEN ")]
    # a watchpoint stop shows "Value = N" (an access that changed nothing) or "Old value"/"New value"
    reports = [l for l in g.stdout.splitlines() if l.startswith(("Value = ", "Old value = "))]
    ok = seen == ["SEEN 2"] and reports == ["Old value = 0"] and "New value = 2" in g.stdout.split("STOP")[-2]
    bad += not ok
    print(f"{'ok  ' if ok else 'FAIL'} the access watchpoint stops once, after the store of 2: {seen} {reports}")
    ok = p.returncode == 0 and "exited normally" in g.stdout
    bad += not ok
    print(f"{'ok  ' if ok else 'FAIL'} the program ran to its end: exit {p.returncode}")
    if bad:
        print(g.stdout, g.stderr)
    return 1 if bad else 0


def csr(tally, gdb, elf):
    port = free_port()
    p = subprocess.Popen([tally, "run", "--core", "tally5", "--gdb", str(port), "--gdb-wait", elf],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    p.stderr.readline()
    writes = [("mcycle", 5000), ("minstret", 7), ("mscratch", 0x12345678), ("mhpmevent4", 2),
              ("mhpmcounter4", 1000), ("mhpmcounter5", 0xdeadbeef), ("mhpmevent6", 1), ("mcountinhibit", 0x40),
              ("mhpmcounter6", 99)]
    with tempfile.TemporaryDirectory() as d:
        first, second = os.path.join(d, "a.gdb"), os.path.join(d, "b.gdb")
        with open(first, "w") as f:
            f.write(f"set pagination off\nset confirm off\ntarget remote 127.0.0.1:{port}\n"
                    "break *at_write\ncontinue\n")
            f.write("".join(f"set ${n} = {v}\n" for n, v in writes))
            f.write("".join(f'printf "BACK {n} %u\\n", ${n}\n' for n, _ in writes))
            f.write("set $mhartid = 5\n")  # refused: the rest of this file is skipped
        with open(second, "w") as f:
            f.write("continue\n")
        g = subprocess.run([gdb, "-batch", "-nx", "-x", first, "-x", second, elf], capture_output=True, text=True,
                           timeout=120)
    out, err = p.communicate(timeout=30)
    got = dict((l.split()[0], int(l.split()[1], 16)) for l in out.splitlines() if len(l.split()) == 2)
    back = dict((l.split()[1], int(l.split()[2])) for l in g.stdout.splitlines() if l.startswith("BACK "))
    expected = {"mcycle": 5000, "minstret": 8, "mscratch": 0x12345678, "mhpmevent4": 2, "mhpmcounter4": 1007,
                "mhpmcounter5": 0xdeadbeef, "mhpmcounter6": 99, "mcountinhibit": 0x40, "mhpmevent6": 1}
    bad = 0
    for name, exp in expected.items():
        ok = got.get(name) == exp
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} the program reads {name}: {got.get(name)} (expected {exp})")
    ok = back == dict(writes)
    bad += not ok
    print(f"{'ok  ' if ok else 'FAIL'} GDB reads back what it wrote: {back}")
    ok = 'Could not write register "mhartid"' in g.stderr
    bad += not ok
    print(f"{'ok  ' if ok else 'FAIL'} a write of the read-only mhartid is refused")
    ok = p.returncode == 0 and "exited normally" in g.stdout
    bad += not ok
    print(f"{'ok  ' if ok else 'FAIL'} the program ran to its end: exit {p.returncode}")
    if bad:
        print(g.stdout, g.stderr, err)
    return 1 if bad else 0


def plain_stats(tally, elf, opts):
    """A run without GDB: (its process, its --stats-json)."""
    with tempfile.TemporaryDirectory() as d:
        stats = os.path.join(d, "plain.json")
        p = subprocess.run([tally, "run", "--stats-json", stats] + opts + [elf], capture_output=True, text=True,
                           timeout=60)
        with open(stats) as f:
            return p, json.load(f)


def attach(tally, gdb, elf):
    port = free_port()
    p = subprocess.Popen([tally, "run", "--core", "tally5", "--gdb", str(port), elf], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    first = p.stderr.readline()
    if "GDB may attach" not in first:
        print(f"FAIL: tally did not say GDB may attach: {first!r}")
        p.kill()
        return 1
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "g.gdb")
        with open(script, "w") as f:
            f.write(f"set pagination off\nset confirm off\nset tcp connect-timeout 10\n"
                    f"target remote 127.0.0.1:{port}\nprintf \"PC %x\\n\", $pc\n"
                    "monitor instret\nmonitor cycles\nkill\n")
        g = subprocess.run([gdb, "-batch", "-nx", "-x", script, elf], capture_output=True, text=True, timeout=120)
    out, err = p.communicate(timeout=30)
    nums = [int(l) for l in g.stderr.splitlines() + g.stdout.splitlines() if l.strip().isdigit()]
    pcs = [l.split()[1] for l in g.stdout.splitlines() if l.startswith("PC ")]
    if len(nums) != 2 or len(pcs) != 1:
        print(f"FAIL: expected a pc and two monitor numbers from GDB, got:\n{g.stdout}\n{g.stderr}")
        return 1
    instret, cycles = nums
    bad = 0

    def check(what, ok, text):
        nonlocal bad
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {text}")

    check("the program ran before GDB attached", instret > 0, f"{instret} instructions")
    check("killed by GDB", p.returncode == 124 and "GDB killed it" in err, f"exit {p.returncode}")
    plain, js = plain_stats(tally, elf, ["--core", "tally5", "--max-insns", str(instret)])
    check("cycles at the stop = a run stopped after as many instructions", js["cycles"] == cycles,
          f"{cycles} vs {js['cycles']}")
    check("pc at the stop = that run's next pc", f"next pc 0x{int(pcs[0], 16):08x}" in plain.stderr,
          f"0x{pcs[0]} vs {plain.stderr.strip().splitlines()[-1]}")
    return 1 if bad else 0


def nowait(tally, elf):
    port = free_port()
    with tempfile.TemporaryDirectory() as d:
        stats = os.path.join(d, "s.json")
        p = subprocess.run([tally, "run", "--core", "tally5", "--gdb", str(port), "--stats-json", stats, elf],
                           capture_output=True, text=True, timeout=60)
        with open(stats) as f:
            js = json.load(f)
    plain, pj = plain_stats(tally, elf, ["--core", "tally5"])
    bad = 0
    for what, got, exp in (("said where GDB may attach", "GDB may attach on" in p.stderr, True),
                           ("exit status", p.returncode, plain.returncode), ("output", p.stdout, plain.stdout),
                           ("cycles", js["cycles"], pj["cycles"]), ("every signal total", js["signals"], pj["signals"])):
        ok = got == exp
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {got!r}" + ("" if ok else f" (expected {exp!r})"))
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    for opts, words in ((["--gdb-wait"], "--gdb-wait needs --gdb"), (["--gdb", "0"], "expected PORT"),
                        (["--gdb", "1.2.3:99"], "expected PORT"),
                        (["--gdb", str(taken.getsockname()[1])], "cannot listen")):
        p = subprocess.run([tally, "run"] + opts + [elf], capture_output=True, text=True, timeout=60)
        ok = p.returncode == 64 and words in p.stderr and not p.stdout
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {' '.join(opts)}: exit {p.returncode}, {p.stderr.strip()!r}")
    taken.close()
    return 1 if bad else 0


def garbage(tally, elf):
    port = free_port()
    p = subprocess.Popen([tally, "run", "--gdb", str(port), "--gdb-wait", elf], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    s = None
    for _ in range(100):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=1)
            break
        except OSError:
            time.sleep(0.05)
    if s is None:
        print("FAIL: tally never listened")
        p.kill()
        return 1
    s.sendall(b"\x00\xff+-garbage$g#00$" + b"m" * 10000 + b"#00$qSupported#37$m80000000,ffffffff#00")
    s.sendall(b"$m80000000,4#")  # cut in the middle
    time.sleep(0.2)
    s.close()
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        print("FAIL: tally hangs after the client went away")
        return 1
    ok = p.returncode == 124 and "GDB killed it or went away" in err
    print(f"{'ok  ' if ok else 'FAIL'} exit {p.returncode}: {err.strip().splitlines()[-1] if err.strip() else ''}")
    return 0 if ok else 1


def rsp(data):
    return b"$" + data + b"#%02x" % (sum(data) & 0xff)


def read_reply(s):
    """The data of the next packet from the stub (acks skipped)."""
    buf = b""
    while True:
        chunk = s.recv(4096)
        if not chunk:
            return None
        buf += chunk
        start = buf.find(b"$")
        if start >= 0 and b"#" in buf[start:] and len(buf) >= buf.index(b"#", start) + 3:
            return buf[start + 1:buf.index(b"#", start)]


def interrupt(tally, elf):
    port = free_port()
    p = subprocess.Popen([tally, "run", "--core", "sram", "--gdb", str(port), "--gdb-wait", elf], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    p.stderr.readline()
    s = socket.create_connection(("127.0.0.1", port), timeout=20)
    bad = 0
    for setup in (b"", b"Z0,70000000,4"):
        if setup:
            s.sendall(rsp(setup))
            if read_reply(s) != b"OK":
                bad += 1
        s.sendall(rsp(b"c"))
        time.sleep(0.3)
        s.sendall(b"\x03")
        reply = read_reply(s)
        ok = reply == b"S02"
        bad += not ok
        print(f"{'ok  ' if ok else 'FAIL'} Ctrl-C{' with a breakpoint' if setup else ''}: {reply!r}")
    s.sendall(rsp(b"k"))
    s.close()
    out, err = p.communicate(timeout=30)
    ok = p.returncode == 124
    bad += not ok
    print(f"{'ok  ' if ok else 'FAIL'} killed: exit {p.returncode}")
    return 1 if bad else 0


def step(tally, gdb, elf, source):
    with open(source) as f:
        line = next(i + 1 for i, l in enumerate(f) if "int r = work(N);" in l)
    port = free_port()
    p = subprocess.Popen([tally, "run", "--core", "tally5", "--gdb", str(port), "--gdb-wait", elf], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    p.stderr.readline()
    with tempfile.TemporaryDirectory() as d:
        script = os.path.join(d, "g.gdb")
        with open(script, "w") as f:
            f.write(f"set pagination off\nset confirm off\ntarget remote 127.0.0.1:{port}\n"
                    f"break {os.path.basename(source)}:{line}\ncontinue\nbreak *work\ncontinue\n"
                    + "x/2i $pc\nstepi\n" * 3 + "x/2i $pc\nkill\n")
        g = subprocess.run([gdb, "-batch", "-nx", "-x", script, elf], capture_output=True, text=True, timeout=120)
    p.communicate(timeout=30)
    bad = 0
    at_line = f"main () at {source}:{line}" in g.stdout or f"measure.c:{line}" in g.stdout
    print(f"{'ok  ' if at_line else 'FAIL'} stopped at line {line} of {os.path.basename(source)}")
    bad += not at_line
    # pairs of "=> ADDR" (where it is) and the following "   ADDR" (the next instruction)
    here = [int(l.split()[1], 16) for l in g.stdout.splitlines() if l.startswith("=> ")]
    nxt = [int(l.split()[0], 16) for l in g.stdout.splitlines() if l.startswith("   0x")]
    if len(here) != 4 or len(nxt) != 4:
        print(f"FAIL: expected four disassemblies:\n{g.stdout}\n{g.stderr}")
        return 1
    sizes = []
    for i in range(3):
        ok = here[i + 1] == nxt[i]
        bad += not ok
        sizes.append(nxt[i] - here[i])
        print(f"{'ok  ' if ok else 'FAIL'} stepi from 0x{here[i]:08x} ({nxt[i] - here[i]} bytes) to 0x{here[i + 1]:08x}")
    ok = 2 in sizes and 4 in sizes
    bad += not ok
    print(f"{'ok  ' if ok else 'FAIL'} stepped compressed and 4-byte instructions: {sizes}")
    return 1 if bad else 0


def main(argv):
    if len(argv) < 5 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 64
    tally, gdb, mode, elf = argv[1:5]
    if not gdb or not os.path.exists(gdb):
        print("gdb-multiarch is not installed: skipped (scripts/install-deps.sh installs it)")
        return 77
    if mode == "session":
        return session(tally, gdb, elf, argv[5:])
    if mode == "step":
        return step(tally, gdb, elf, argv[5])
    if mode == "interrupt":
        return interrupt(tally, elf)
    if mode == "watch":
        return watch(tally, gdb, elf)
    if mode == "hw":
        return hw(tally, gdb, elf)
    if mode == "csr":
        return csr(tally, gdb, elf)
    if mode == "traps":
        return traps(tally, gdb, elf)
    if mode == "attach":
        return attach(tally, gdb, elf)
    if mode == "nowait":
        return nowait(tally, elf)
    if mode == "garbage":
        return garbage(tally, elf)
    print(f"check_gdb.py: unknown mode '{mode}'", file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv))
