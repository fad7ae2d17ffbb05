#!/usr/bin/env python3
"""Embench-IoT and CoreMark on the PicoRV32 RTL testbench and on tally.

    embench.py --tally TALLY --tb-dir TB_DIR --work WORK [--csv OUT]
               [--configs imc,im,imc-fast,i] [--opts O2,Os] [--waits 0,1,2,3]
               [--programs NAME,...]

Builds Embench-IoT (https://github.com/embench/embench-iot) and CoreMark
(https://github.com/eembc/coremark) for the testbench's memory map
(tests/cores/picorv32/link.ld and crt0.S: code at 0x80000000, main's return
value to the finisher at 0x100000), runs each program on the RTL testbench
(TB_DIR/CONFIG/tb, rtl/cores/picorv32/build.sh) and on tally at W = 0..3 wait
states, and prints program, config, W, RTL cycles, tally cycles, both instret,
the difference (tally - RTL) and the exit status (0: the program's own check
passed; RTL/tally when they differ). Exit status 0 only when every run is
exact in cycles, instret and exit status. Nothing third-party is written
outside WORK.

Sources: --embench and --coremark name git directories (default: the
read-only mirrors under /work/.mirror); their HEAD is exported to
WORK/src. Size: every Embench program runs with LOCAL_SCALE_FACTOR 1,
GLOBAL_SCALE_FACTOR 1 and WARMUP_HEAT 1 (one warm-up and one timed call of
the benchmark body); CoreMark with ITERATIONS=1 (barebones port, a clock
that reads 0, output discarded): 11 thousand (statemate) to 60 million
(xgboost at W = 3) cycles a run. C library: picolibc
(--specs=picolibc.specs); rv32imc code links rv32imac's multilib (there is
no rv32imc one) and the ELF is refused if it holds an A instruction.

Configurations, the code each runs and tally's core for it (as
tests/cores/picorv32/CMakeLists.txt pairs them):
  imc       rv32imc  picorv32, picorv32-ws1..3
  im        rv32im   picorv32, picorv32-ws1..3
  imc-fast  rv32imc  picorv32-fast --set memory.wait_states=W
  i         rv32i    picorv32, picorv32-ws1..3 (no tally core leaves out
                     MUL/DIV: rv32i code never reaches them)
"""
import argparse
import csv
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
PICO_TESTS = os.path.join(TOP, "tests", "cores", "picorv32")
CC = "riscv64-unknown-elf-gcc"
ARCH = {"imc": "rv32imc", "im": "rv32im", "imc-fast": "rv32imc", "i": "rv32i"}
# The toolchain's newlib multilib each -march links with (no rv32imc one:
# rv32imac's C library; the ELF is checked for A-extension instructions).
LIBARCH = {"rv32imc": "rv32imac", "rv32im": "rv32im", "rv32i": "rv32i"}

BOARDSUPPORT = """/* embench.py: the PicoRV32 testbench's board: nothing to do. */
void initialise_board (void) {}
void start_trigger (void) {}
void stop_trigger (void) {}
"""


def export(gitdir, dest):
    if os.path.isdir(dest):
        return
    os.makedirs(dest)
    archive = subprocess.Popen(["git", "--git-dir", gitdir, "archive", "HEAD"], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", dest], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        sys.exit(f"embench.py: git archive of {gitdir} failed")


def prepare(work, embench_git, coremark_git):
    src = os.path.join(work, "src")
    emb = os.path.join(src, "embench")
    cm = os.path.join(src, "coremark")
    export(embench_git, emb)
    export(coremark_git, cm)
    board = os.path.join(src, "board")
    os.makedirs(board, exist_ok=True)
    for name, text in (("boardsupport.c", BOARDSUPPORT), ("boardsupport.h", ""), ("config.h", ""),
                       ("chipsupport.h", "")):
        with open(os.path.join(board, name), "w") as f:
            f.write(text)
    # CoreMark's barebones port with a clock that reads 0 and no output.
    port = os.path.join(src, "coremark-port")
    os.makedirs(port, exist_ok=True)
    for name in ("core_portme.c", "core_portme.h", "ee_printf.c", "cvt.c"):
        with open(os.path.join(cm, "barebones", name)) as f:
            text = f.read()
        text = re.sub(r'#error \\\n[^\n]*\n', "return 0;\n", text)
        text = re.sub(r'#error "You must implement the method uart_send_char[^\n]*\n', "(void)c;\n", text)
        with open(os.path.join(port, name), "w") as f:
            f.write(text)
    progs = {}
    for d in sorted(glob.glob(os.path.join(emb, "src", "*"))):
        if os.path.isdir(d):
            progs[os.path.basename(d)] = ("embench", d)
    progs["coremark"] = ("coremark", cm)
    return src, progs


def scaled_sources(src, name, d):
    """The program's C files with LOCAL_SCALE_FACTOR 1 (copies in WORK)."""
    out = os.path.join(src, "scaled", name)
    os.makedirs(out, exist_ok=True)
    files = []
    for p in sorted(glob.glob(os.path.join(d, "*"))):
        base = os.path.basename(p)
        if not base.endswith((".c", ".h")):
            continue
        with open(p) as f:
            text = f.read()
        text = re.sub(r"#define\s+LOCAL_SCALE_FACTOR\s+\d+", "#define LOCAL_SCALE_FACTOR 1", text)
        q = os.path.join(out, base)
        if not os.path.exists(q) or open(q).read() != text:
            with open(q, "w") as f:
                f.write(text)
        if base.endswith(".c"):
            files.append(q)
    return out, files


def build(src, work, name, kind, d, arch, opt):
    elf = os.path.join(work, "elf", f"{name}-{opt}-{arch}.elf")
    if os.path.exists(elf):
        return elf
    os.makedirs(os.path.dirname(elf), exist_ok=True)
    if kind == "embench":
        sdir, files = scaled_sources(src, name, d)
        sup = os.path.join(src, "embench", "support")
        board = os.path.join(src, "board")
        cflags = ["-I", sdir, "-I", sup, "-I", board, "-DHAVE_BOARDSUPPORT_H", "-DGLOBAL_SCALE_FACTOR=1",
                  "-DWARMUP_HEAT=1"]
        files = files + [os.path.join(sup, f) for f in ("main.c", "beebsc.c", "board.c", "chip.c")]
    else:
        port = os.path.join(src, "coremark-port")
        cflags = ["-include", "stddef.h", "-include", "time.h", "-I", d, "-I", port, "-DITERATIONS=1", "-DPERFORMANCE_RUN=1", "-DHAS_FLOAT=0",
                  "-DMAIN_HAS_NOARGC=1", f'-DFLAGS_STR="-{opt} -march={arch}"']
        files = [os.path.join(d, f) for f in ("core_list_join.c", "core_main.c", "core_matrix.c", "core_state.c",
                                              "core_util.c")] + \
                [os.path.join(port, f) for f in ("core_portme.c", "ee_printf.c")]
    objs = []
    odir = os.path.join(work, "obj", f"{name}-{opt}-{arch}")
    os.makedirs(odir, exist_ok=True)
    for i, f in enumerate(files):
        o = os.path.join(odir, f"{i}-{os.path.basename(f)}.o")
        subprocess.run([CC, "--specs=picolibc.specs", f"-march={arch}", "-mabi=ilp32", f"-{opt}", "-w", "-c", f, "-o", o] + cflags, check=True)
        objs.append(o)
    lib = LIBARCH[arch]
    cmd = [CC, "--specs=picolibc.specs", f"-march={lib}", "-mabi=ilp32", f"-{opt}", "-nostartfiles", "-T", os.path.join(PICO_TESTS, "link.ld"),
           "-Wl,--no-warn-rwx-segments", os.path.join(PICO_TESTS, "crt0.S")] + objs + ["-lm", "-lc", "-lgcc", "-o", elf]
    subprocess.run(cmd, check=True)
    dis = subprocess.run(["riscv64-unknown-elf-objdump", "-d", elf], stdout=subprocess.PIPE, text=True).stdout
    if re.search(r"\t(lr|sc|amo[a-z]+)\.w", dis):
        os.unlink(elf)
        sys.exit(f"embench.py: {elf}: A-extension instructions from the C library")
    return elf


def rtl(tb, elf, w):
    r = subprocess.run([tb, elf, "-w", str(w)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    m = re.search(r"cycles (\d+) instret (\d+) exit (\S+)", r.stdout)
    if not m:
        return None, None, "tb: " + (r.stdout + r.stderr).strip()[-200:]
    return int(m.group(1)), int(m.group(2)), m.group(3)


def tally(exe, cfg, w, elf, work, engine):
    if cfg == "imc-fast":
        cmd = [exe, "run", "--core", "picorv32-fast", "--set", f"memory.wait_states={w}"]
    else:
        cmd = [exe, "run", "--core", "picorv32" if w == 0 else f"picorv32-ws{w}"]
    if engine:
        cmd += ["--engine", engine]
    stats = os.path.join(work, "stats.json")
    cmd += ["--stats-json", stats, elf]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        with open(stats) as f:
            rep = json.load(f)
        os.unlink(stats)
    except (OSError, ValueError):
        return None, None, "tally: " + r.stderr.strip()[-200:]
    return rep.get("cycles"), rep.get("instructions"), r.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tally", required=True)
    ap.add_argument("--tb-dir", required=True, help="build.sh's OUT_DIR: CONFIG/tb under it")
    ap.add_argument("--work", required=True)
    ap.add_argument("--embench", default="/work/.mirror/embench+embench-iot/repo")
    ap.add_argument("--coremark", default="/work/.mirror/eembc+coremark/repo")
    ap.add_argument("--configs", default="imc,im,imc-fast,i")
    ap.add_argument("--opts", default="O2,Os")
    ap.add_argument("--waits", default="0,1,2,3")
    ap.add_argument("--programs", default="")
    ap.add_argument("--engine", default="", help="tally's --engine (default: tally's own)")
    ap.add_argument("--csv", default="", help="also write the rows to this CSV")
    args = ap.parse_args()
    work = os.path.abspath(args.work)
    os.makedirs(work, exist_ok=True)
    src, progs = prepare(work, args.embench, args.coremark)
    names = [p for p in args.programs.split(",") if p] or list(progs)
    rows = []
    fmt = "{:<16} {:<9} {:<3} {:<2} {:>10} {:>10} {:>9} {:>9} {:>8} {:>8} {:>6}"
    print(fmt.format("program", "config", "opt", "W", "rtl_cyc", "tally_cyc", "rtl_ins", "tally_ins", "diff", "diff%", "exit"))
    sys.stdout.flush()
    for cfg in args.configs.split(","):
        tb = os.path.join(args.tb_dir, cfg, "tb")
        arch = ARCH[cfg]
        for name in names:
            kind, d = progs[name]
            for opt in args.opts.split(","):
                elf = build(src, work, name, kind, d, arch, opt)
                for w in [int(x) for x in args.waits.split(",")]:
                    rc, ri, rexit = rtl(tb, elf, w)
                    tc, ti, texit = tally(args.tally, cfg, w, elf, work, args.engine)
                    if rc is None or tc is None:
                        print(f"{name:<16} {cfg:<9} {opt:<3} {w:<2} FAIL {rexit if rc is None else texit}")
                        rows.append([name, cfg, opt, arch, w, rc, tc, ri, ti, "", "", ""])
                        continue
                    diff = tc - rc
                    shown = rexit if str(texit) == rexit else f"{rexit}/{texit}"
                    print(fmt.format(name, cfg, opt, w, rc, tc, ri, ti, diff, f"{100.0 * diff / rc:+.3f}", shown))
                    sys.stdout.flush()
                    rows.append([name, cfg, opt, arch, w, rc, tc, ri, ti, diff, rexit, texit])
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            wr = csv.writer(f)
            wr.writerow(["program", "config", "opt", "march", "W", "rtl_cycles", "tally_cycles", "rtl_instret",
                         "tally_instret", "diff", "rtl_exit", "tally_exit"])
            wr.writerows(rows)
    done = [r for r in rows if r[9] != ""]
    exact = sum(1 for r in done if r[9] == 0 and r[7] == r[8] and str(r[11]) == r[10])
    print(f"{exact} of {len(rows)} runs exact (cycles, instret and exit status)")
    return 0 if exact == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
