#!/usr/bin/env python3
"""The progress line of tally run and tally profile as a user sees it
(docs/tally-run.md and docs/profile.md, "Progress"): the profile_* cases run
tally profile, whose line is the same module's.

Usage: progress_check.py CASE --tally TALLY --program console_phases.elf
                         [--qemu-run scripts/qemu-run.sh] [--core-dir cores]

The program (tests/programs/console_phases.c) prints "phase 1\\n", computes,
prints "prompt: " (no newline) and flushes, computes, "answer\\n", computes,
"to stderr\\n" (picolibc's semihosting console sends stderr to the same
console handle, which tally and QEMU both show on stdout), computes,
"done 1\\n" (an LCG with an odd multiplier and increment flips its low bit
every step; 4 * TURNS steps from x = 1 leave it 1). With TURNS (the tty
case, which checks that no line tears the prompt) each stretch of computing
is longer than one of tally run's slices (20M instructions), so the run
loop stops inside each of them, the prompt's included; the other cases run
shorter.

A terminal is a pseudo-terminal in raw mode (no newline translation), so
the bytes read from it are exactly the bytes tally wrote. On it the line is
"\\rTEXT\\033[K" and is taken down with "\\r\\033[K".
"""
import argparse
import fcntl
import os
import re
import struct
import subprocess
import sys
import termios
import tty

TURNS = "6000000"        # 4 stretches of about 24M instructions (4 instructions a turn): each longer than a slice
SHORT_TURNS = "3000000"  # 48M instructions in all: several slices
TINY_TURNS = "1500000"   # 24M: more than one slice
EXPECTED = b"phase 1\nprompt: answer\nto stderr\ndone 1\n"
CLEAR = b"\r\x1b[K"
DRAW = re.compile(rb"\r(tally: [^\r\n\x1b]*)\x1b\[K")
FIELDS = re.compile(r"tally: ([\d,]+) cycles, ([\d,]+) insns, ([\d.]+) MIPS, ([\d.]+) (us|ms|s) simulated"
                    r"(?:, ([\d.]+)% of --max-insns)?$")
# -v's summary, and the engine's line when the translator ran
SUMMARY = re.compile(rb"tally: ([\d,]+) instructions in [\d.]+ s \([\d.]+ MIPS\)\n(tally: engine [^\n]*\n)?")

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def num(s):
    return int(s.replace(",", ""))


def run_on_pty(cmd, stdout_to_pty=True, cols=200):
    """Runs cmd with stderr (and stdout unless told) on a raw
    pseudo-terminal of `cols` columns: (status, terminal bytes, stdout
    bytes when it was a pipe)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stderr=slave,
                            stdout=slave if stdout_to_pty else subprocess.PIPE)
    os.close(slave)
    term = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every copy of the slave is closed
            break
        if not chunk:
            break
        term += chunk
    os.close(master)
    out = proc.stdout.read() if proc.stdout else b""
    return proc.wait(), term, out


def tokens(term):
    """The terminal's bytes as ('draw', text), ('clear', None) and
    ('byte', b) items, in order."""
    items, i = [], 0
    while i < len(term):
        if term.startswith(CLEAR, i):
            items.append(("clear", None))
            i += len(CLEAR)
            continue
        m = DRAW.match(term, i)
        if m:
            items.append(("draw", m.group(1).decode()))
            i = m.end()
            continue
        items.append(("byte", term[i:i + 1]))
        i += 1
    return items


def check_terminal(items, what):
    """The laws of the line on a terminal shared with other output: a
    drawn line is taken down before any other byte, never drawn after an
    unfinished line; returns the other bytes and the lines' texts."""
    shown, last, other, draws = False, b"\n", b"", []
    for kind, val in items:
        if kind == "draw":
            check(last == b"\n", f"{what}: a progress line drawn after an unfinished line {other[-20:]!r}")
            shown = True
            draws.append(val)
        elif kind == "clear":
            shown = False
        else:
            check(not shown, f"{what}: byte {val!r} written over a progress line not taken down (after {other[-20:]!r})")
            shown = False  # report once
            last = val
            other += val
    check(not shown, f"{what}: the progress line is still on the terminal at the end")
    return other, draws


def parse_draws(draws, what):
    rows = []
    for d in draws:
        m = FIELDS.match(d)
        check(m is not None, f"{what}: progress line {d!r} is not 'N cycles, N insns, M MIPS, T simulated'")
        if m:
            rows.append(m)
    return rows


def sim_seconds(value, unit):
    return float(value) * {"us": 1e-6, "ms": 1e-3, "s": 1.0}[unit]


def check_functional_laws(rows, final_insns, what):
    """Functional mode: one cycle per instruction (the program never
    sleeps), at the board's 100 MHz (docs/tally-run.md); the counts only
    grow and never pass the run's total."""
    prev = 0
    for m in rows:
        cycles, insns = num(m.group(1)), num(m.group(2))
        check(cycles == insns, f"{what}: functional run shows {cycles} cycles for {insns} instructions")
        check(prev <= insns <= final_insns, f"{what}: instructions {insns} after {prev}, final {final_insns}")
        t, want = sim_seconds(m.group(4), m.group(5)), cycles / 100e6
        check(abs(t - want) <= 0.0051 * want + 1e-6, f"{what}: {m.group(0)!r}: simulated time {t} s, {want} s expected")
        prev = insns


def base_cmd(a, *opts, turns=TURNS, command="run"):
    return [a.tally, command, *opts, "--progress-every", "0.001", a.program, turns]


def case_tty(a):
    """stdout and stderr on one terminal, the line on by default."""
    rc, term, _ = run_on_pty(base_cmd(a, "-v"))
    check(rc == 0, f"exit status {rc}")
    other, draws = check_terminal(tokens(term), "tty")
    m = SUMMARY.fullmatch(other[len(EXPECTED):])
    check(other.startswith(EXPECTED) and m, f"the terminal's other bytes {other!r}: the program's output, then -v's line")
    check(len(draws) >= 3, f"only {len(draws)} progress lines in a run of 4 stretches")
    if m:
        check_functional_laws(parse_draws(draws, "tty"), num(m.group(1).decode()), "tty")


def case_split(a):
    """stdout a pipe, stderr a terminal: stdout is the program's output,
    byte for byte, as QEMU shows it; the terminal has only the line."""
    rc, term, out = run_on_pty(base_cmd(a, turns=SHORT_TURNS), stdout_to_pty=False)
    check(rc == 0, f"exit status {rc}")
    check(out == EXPECTED, f"stdout {out!r}, expected {EXPECTED!r}")
    if a.qemu_run:
        q = subprocess.run([a.qemu_run, a.program, SHORT_TURNS], stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
        check(q.returncode == 0 and q.stdout == out, f"QEMU's stdout {q.stdout!r} (status {q.returncode}), tally's {out!r}")
    other, draws = check_terminal(tokens(term), "split")
    check(other == b"", f"stderr holds more than the line: {other!r}")
    check(len(draws) >= 3, f"only {len(draws)} progress lines")


def case_narrow(a):
    """A line never wraps (a wrapped line cannot be taken back): at most
    one column short of the terminal's width."""
    rc, term, _ = run_on_pty(base_cmd(a, turns=SHORT_TURNS), cols=40)
    check(rc == 0, f"exit status {rc}")
    other, draws = check_terminal(tokens(term), "narrow")
    check(other == EXPECTED, f"the program's output {other!r}")
    check(draws and all(len(d) <= 39 for d in draws), f"lines longer than 39 columns: {[d for d in draws if len(d) > 39]}")


def case_max_insns(a):
    """With --max-insns the line says how much of it is done."""
    bound = 40_000_000
    rc, term, _ = run_on_pty(base_cmd(a, "--max-insns", "40M", turns=SHORT_TURNS))
    check(rc == 124, f"exit status {rc}, expected 124 (--max-insns)")
    other, draws = check_terminal(tokens(term), "max_insns")
    rows = parse_draws(draws, "max_insns")
    check(len(rows) >= 3, f"only {len(rows)} progress lines")
    for m in rows:
        want = 100.0 * num(m.group(2)) / bound
        check(m.group(6) is not None and abs(float(m.group(6)) - want) <= 0.051,
              f"{m.group(0)!r}: {want:.2f}% of --max-insns expected")
    check(b"stopped: --max-insns reached after 40,000,000 instructions" in other, f"the stop report: {other!r}")


def case_timed(a):
    """On a core model: at least a cycle per instruction (tally5 issues one
    instruction a cycle at most), at the model's frequency_mhz."""
    mhz = None
    with open(os.path.join(a.core_dir, "tally5.ini")) as f:
        for line in f:
            m = re.match(r"\s*frequency_mhz\s*=\s*([\d.]+)", line)
            if m:
                mhz = float(m.group(1))
    check(mhz, "no frequency_mhz in tally5.ini")
    # shorter: the core model is slower; past 20M instructions a slice has ended
    rc, term, _ = run_on_pty(base_cmd(a, "--core", "tally5", turns=SHORT_TURNS))
    check(rc == 0, f"exit status {rc}")
    other, draws = check_terminal(tokens(term), "timed")
    check(other == EXPECTED, f"the program's output {other!r}")
    rows = parse_draws(draws, "timed")
    check(len(rows) >= 3, f"only {len(rows)} progress lines")
    for m in rows:
        cycles, insns = num(m.group(1)), num(m.group(2))
        check(cycles >= insns, f"{m.group(0)!r}: fewer cycles than instructions")
        t, want = sim_seconds(m.group(4), m.group(5)), cycles / (mhz * 1e6)
        check(abs(t - want) <= 0.0051 * want + 1e-6, f"{m.group(0)!r}: simulated time {want} s expected")


def run_plain(a, *opts, merged=False, turns=TURNS, command="run"):
    """Without a terminal: (status, stdout, stderr)."""
    cmd = base_cmd(a, *opts, turns=turns, command=command)
    if merged:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        return p.returncode, p.stdout, b""
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True)
    return p.returncode, p.stdout, p.stderr


def case_pipe(a):
    """Without a terminal nothing changes: the same bytes as --no-progress,
    and no line (the update period is short enough for one to show at the
    end of the first slice, before the program's last line)."""
    plain = run_plain(a, turns=TINY_TURNS)
    off = run_plain(a, "--no-progress", turns=TINY_TURNS)
    check(plain == off, f"without a terminal: {plain!r:.400}, with --no-progress: {off!r:.400}")
    check(plain == (0, EXPECTED, b""), f"status, stdout, stderr: {plain!r:.400}")
    check(run_plain(a, "--quiet", turns=TINY_TURNS) == off, "--quiet differs from --no-progress here")


def case_log(a):
    """--progress into a file shared with the program's output: whole
    lines, never inside one of the program's."""
    rc, both, _ = run_plain(a, "--progress", merged=True, turns=SHORT_TURNS)
    check(rc == 0, f"exit status {rc}")
    lines = both.split(b"\n")
    ours = [ln for ln in lines if ln.startswith(b"tally: ")]
    rest = b"\n".join(ln for ln in lines if not ln.startswith(b"tally: "))
    check(rest == EXPECTED, f"the program's output {rest!r} once the progress lines are out")
    check(b"\r" not in both and b"\x1b" not in both, "terminal controls in a log")
    check(len(ours) >= 3, f"only {len(ours)} progress lines")
    parse_draws([ln.decode() for ln in ours], "log")


def case_options(a):
    """The option errors and --help."""
    for opts, what in ((["-q", "-v"], "--verbose"), (["--quiet", "--progress"], "--progress")):
        p = subprocess.run([a.tally, "run", *opts, a.program], capture_output=True)
        check(p.returncode == 64 and f"--quiet and {what} contradict each other".encode() in p.stderr,
              f"{opts}: status {p.returncode}, stderr {p.stderr!r}")
    p = subprocess.run([a.tally, "run", "--progress-every", "0", a.program], capture_output=True)
    check(p.returncode == 64 and b"--progress-every wants seconds > 0, got '0'" in p.stderr,
          f"--progress-every 0: status {p.returncode}, stderr {p.stderr!r}")
    h = subprocess.run([a.tally, "run", "--help"], capture_output=True).stdout
    for opt in (b"--progress ", b"--no-progress", b"--progress-every", b"--quiet"):
        check(opt in h, f"--help does not mention {opt!r}")


# tally profile's report: its first line names the program, the core and
# the run's totals (docs/profile.md)
PROFILE_HEAD = re.compile(rb"\ntally profile: \S+ on core (\w+): ([\d,]+) cycles, ([\d,]+) instructions")


def case_profile_tty(a):
    """tally profile on a terminal: the line on by default, taken down
    before each of the program's bytes and before the report; the report
    follows the program's output whole, and no line shows more than the
    run's totals in it (the counts only grow, at least a cycle an
    instruction on tally5)."""
    rc, term, _ = run_on_pty(base_cmd(a, "--top", "3", command="profile"))
    check(rc == 0, f"exit status {rc}")
    other, draws = check_terminal(tokens(term), "profile_tty")
    check(other.startswith(EXPECTED), f"the terminal's bytes {other[:200]!r}: the program's output first")
    m = PROFILE_HEAD.match(other, len(EXPECTED))
    check(m is not None, f"the report right after the program's output: {other[len(EXPECTED):][:200]!r}")
    check(b"\x1b" not in other and b"\r" not in other, "terminal controls left in the program's output or the report")
    rows = parse_draws(draws, "profile_tty")
    check(len(rows) >= 3, f"only {len(rows)} progress lines in a run of 4 stretches")
    if m:
        total_cycles, total_insns = num(m.group(2).decode()), num(m.group(3).decode())
        prev = (0, 0)
        for r in rows:
            cycles, insns = num(r.group(1)), num(r.group(2))
            check(cycles >= insns, f"{r.group(0)!r}: fewer cycles than instructions")
            check(prev <= (cycles, insns) and cycles <= total_cycles and insns <= total_insns,
                  f"{r.group(0)!r} after {prev}, the report's totals {total_cycles} cycles, {total_insns} insns")
            prev = (cycles, insns)


def case_profile_bound(a):
    """tally profile stopped by --max-insns while the line is on the
    terminal (40M of 48M instructions: inside the last stretch, after
    "to stderr"): the line is taken down before the note on stderr and the
    report, and says how much of --max-insns is done."""
    bound = 40_000_000
    rc, term, _ = run_on_pty(base_cmd(a, "--max-insns", "40M", "--top", "3", command="profile", turns=SHORT_TURNS))
    check(rc == 124, f"exit status {rc}, expected 124 (--max-insns)")
    other, draws = check_terminal(tokens(term), "profile_bound")
    printed = EXPECTED[:EXPECTED.index(b"done")]
    note = b"tally profile: the run ended early (--max-insns reached); profiling what ran\n"
    check(other.startswith(printed + note), f"the terminal's bytes {other[:200]!r}: the program's output, then the note")
    m = PROFILE_HEAD.match(other, len(printed + note))
    check(m is not None and num(m.group(3).decode()) == bound,
          f"the report after the note, with {bound} instructions: {other[len(printed + note):][:200]!r}")
    rows = parse_draws(draws, "profile_bound")
    check(len(rows) >= 3, f"only {len(rows)} progress lines")
    for r in rows:
        want = 100.0 * num(r.group(2)) / bound
        check(r.group(6) is not None and abs(float(r.group(6)) - want) <= 0.051,
              f"{r.group(0)!r}: {want:.2f}% of --max-insns expected")


def case_profile_pipe(a):
    """tally profile without a terminal: stdout and stderr byte for byte
    as with --no-progress and --quiet, and the program's output ahead of
    the report."""
    plain = run_plain(a, command="profile", turns=TINY_TURNS)
    off = run_plain(a, "--no-progress", command="profile", turns=TINY_TURNS)
    check(plain == off, f"without a terminal: {plain!r:.400}, with --no-progress: {off!r:.400}")
    check(plain[0] == 0 and plain[2] == b"", f"status {plain[0]}, stderr {plain[2]!r:.400}")
    check(plain[1].startswith(EXPECTED) and PROFILE_HEAD.match(plain[1], len(EXPECTED)),
          f"stdout {plain[1][:200]!r}: the program's output, then the report")
    check(run_plain(a, "--quiet", command="profile", turns=TINY_TURNS) == off, "--quiet differs from --no-progress here")


def case_profile_log(a):
    """tally profile --progress into a file shared with the program's
    output and the report: whole lines, none inside the program's."""
    rc, both, _ = run_plain(a, "--progress", merged=True, command="profile", turns=SHORT_TURNS)
    check(rc == 0, f"exit status {rc}")
    lines = both.split(b"\n")
    ours = [ln for ln in lines if ln.startswith(b"tally: ")]
    rest = b"\n".join(ln for ln in lines if not ln.startswith(b"tally: "))
    check(rest.startswith(EXPECTED) and PROFILE_HEAD.match(rest, len(EXPECTED)),
          f"the program's output, then the report, once the progress lines are out: {rest[:200]!r}")
    check(b"\r" not in both and b"\x1b" not in both, "terminal controls in a log")
    check(len(ours) >= 3, f"only {len(ours)} progress lines")
    parse_draws([ln.decode() for ln in ours], "profile_log")


def help_paragraphs(text, options):
    """Each option's help (its line and the indented ones after it), with
    the spacing folded: the two commands align their columns differently."""
    out, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"\s+(?:-\w, )?(--[\w-]+)", line)
        if m:
            cur = m.group(1) if m.group(1) in options else None
            if cur:
                out[cur] = line.strip()
        elif cur and line.startswith(" "):
            out[cur] += " " + line.strip()
        else:
            cur = None
    return {k: " ".join(v.split()) for k, v in out.items()}


def case_profile_options(a):
    """tally profile's option errors, and its --help words the progress
    options as tally run's does."""
    p = subprocess.run([a.tally, "profile", "--quiet", "--progress", a.program], capture_output=True)
    check(p.returncode == 64 and b"tally profile: --quiet and --progress contradict each other" in p.stderr,
          f"--quiet --progress: status {p.returncode}, stderr {p.stderr!r}")
    p = subprocess.run([a.tally, "profile", "--progress-every", "0", a.program], capture_output=True)
    check(p.returncode == 64 and b"tally profile: --progress-every wants seconds > 0, got '0'" in p.stderr,
          f"--progress-every 0: status {p.returncode}, stderr {p.stderr!r}")
    opts = ("--quiet", "--progress", "--no-progress", "--progress-every")
    run_h = help_paragraphs(subprocess.run([a.tally, "run", "--help"], capture_output=True, text=True).stdout, opts)
    prof_h = help_paragraphs(subprocess.run([a.tally, "profile", "--help"], capture_output=True, text=True).stdout, opts)
    for o in opts:
        check(o in prof_h and prof_h.get(o) == run_h.get(o),
              f"{o}: tally profile --help says {prof_h.get(o)!r}, tally run --help {run_h.get(o)!r}")


CASES = {n[5:]: f for n, f in globals().items() if n.startswith("case_")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=sorted(CASES))
    ap.add_argument("--tally", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--qemu-run")
    ap.add_argument("--core-dir")
    a = ap.parse_args()
    CASES[a.case](a)
    print(f"progress {a.case}: {'FAIL' if failures else 'ok'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
