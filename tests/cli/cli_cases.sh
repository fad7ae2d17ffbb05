#!/usr/bin/env bash
# Command-line behaviour of `tally run`: exit statuses, reports, bounds and
# bad input. Usage: cli_cases.sh TALLY PROGRAMS_DIR CASE
# Each case checks the exit status and the words a person would look for.
set -u
TALLY=$1
P=$2
CASE=$3
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fails=0

run() { # run ARGS... ; sets rc, out, err
  "$TALLY" "$@" >"$WORK/out" 2>"$WORK/err" </dev/null
  rc=$?
  out=$(cat "$WORK/out")
  err=$(cat "$WORK/err")
}
expect_rc() { [ "$rc" -eq "$1" ] || { echo "FAIL: exit status $rc, expected $1"; echo "stderr: $err"; fails=$((fails + 1)); }; }
expect_err() { grep -qE -- "$1" "$WORK/err" || { echo "FAIL: stderr lacks /$1/"; echo "stderr: $err"; fails=$((fails + 1)); }; }
expect_out() { [ "$out" = "$1" ] || { echo "FAIL: stdout '$out', expected '$1'"; fails=$((fails + 1)); }; }
no_crash() {
  if grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$WORK/err" || [ "$rc" -ge 128 ] && [ "$rc" -ne 130 ]; then
    echo "FAIL: crashed (status $rc)"; cat "$WORK/err"; fails=$((fails + 1))
  fi
}

case_max_insns() {
  # forever.S: li, then 4 instructions per turn; the bound stops it exactly.
  run run --max-insns 1001 "$P/forever.elf"
  expect_rc 124
  expect_err "stopped: --max-insns reached after 1,001 instructions"
  # after li + 250 turns (1001 insns) the next instruction is the first addi of the loop
  expect_err "next pc 0x80000004"
  run run --max-insns 1002 "$P/forever.elf"
  expect_err "after 1,002 instructions, next pc 0x80000008"
  run run --max-insns 30M "$P/forever.elf"
  expect_rc 124
  expect_err "after 30,000,000 instructions"
}

case_timeout() {
  local t0=$(date +%s%N)
  run run --timeout 0.5 "$P/forever.elf"
  local ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  expect_rc 124
  expect_err "stopped: --timeout reached"
  [ "$ms" -lt 20000 ] || { echo "FAIL: --timeout 0.5 took ${ms} ms"; fails=$((fails + 1)); }
}

case_trap_illegal() {
  run run "$P/illegal.elf"
  expect_rc 125
  expect_err "trapped: illegal instruction \(mcause 2\)"
  expect_err "<broken\+0x4>"
  # an all-zero word reads as the 16-bit all-zero encoding, which is illegal
  expect_err "insn  0000        \.half 0x0000"
  expect_err "a0 0x00001234"
  expect_err "a1 0xffffffff"
  expect_err "a2 0x0000002a"
  # li a0 (lui+addi), li a1, call (auipc+jalr), addi a2: 6 before the trap
  expect_err "after 6 instructions"
  no_crash
}

case_trap_load() {
  run run "$P/loadfault.elf"
  expect_rc 125
  expect_err "load access fault \(mcause 5\)"
  expect_err "mtval 0x00000000"
  expect_err "lw a0, 0\(t0\)"
}

case_trap_jump() {
  run run "$P/jump_nowhere.elf"
  expect_rc 125
  expect_err "instruction access fault \(mcause 1\)"
  expect_err "at    0x40000000"
  expect_err "not in RAM"
  expect_err "ra 0x80000008"  # lui (0x80000000), jalr (0x80000004): ra = 0x80000008
}

case_trap_ebreak() {
  run run "$P/ebreak.elf"
  expect_rc 125
  expect_err "breakpoint \(mcause 3\)"
  expect_err "mtval 0x80000004"
}

case_wfi_halt() {
  run run "$P/wfi_forever.elf"
  expect_rc 126
  expect_err "wfi with no enabled interrupt"
}

case_sys_time() {
  # SYS_TIME is the simulated clock: 0 at reset, 3 after a wfi sleep to
  # mtime 35,000,000 (3.5 s at 10 MHz), with and without a core model
  for core in "" "--core tally5"; do
    run run $core "$P/sys_time.elf"
    expect_rc 3
  done
}

case_map_always() {
  # --map is read and checked without --count too
  run run --map "$WORK/missing.map" "$P/htif_exit.elf"
  expect_rc 66
  expect_err "missing.map: cannot open"
  echo "not a map" >"$WORK/bad.map"
  run run --map "$WORK/bad.map" "$P/htif_exit.elf"
  expect_rc 66
  expect_err "bad.map:1: .*not a GNU ld map file"
  run run --map /dev/zero "$P/htif_exit.elf"
  expect_rc 66
}

case_core_not_quoted() {
  # a --core file that is not a core model is named, never shown
  # (the secret is the environment's first line: the old message quoted it)
  env -i hunter2=x "$TALLY" run --core /proc/self/environ "$P/htif_exit.elf" >"$WORK/out" 2>"$WORK/err" </dev/null
  rc=$?
  err=$(cat "$WORK/err")
  expect_rc 66
  expect_err "/proc/self/environ:1: not a core model file"
  ! grep -q hunter2 "$WORK/err" || { echo "FAIL: the error quotes the file"; fails=$((fails + 1)); }
}

case_write_errors() {
  # a full disk under the program's stdout, --trace or --cycle-trace: said,
  # and the status of a program that succeeded becomes 70
  "$TALLY" run "$P/console_phases.elf" 1000 >/dev/full 2>"$WORK/err" </dev/null
  rc=$?; err=$(cat "$WORK/err")
  expect_rc 70
  expect_err "the program's output could not be written: No space left on device"
  run run --trace /dev/full "$P/console_phases.elf" 1000
  expect_rc 70
  expect_err "--trace /dev/full: cannot write: No space left on device"
  run run --core tally5 --cycle-trace /dev/full "$P/console_phases.elf" 1000
  expect_rc 70
  expect_err "--cycle-trace /dev/full: cannot write"
  # the same, to stdout ('-') when stdout is the full disk
  "$TALLY" run --trace - "$P/console_phases.elf" 1000 >/dev/full 2>"$WORK/err" </dev/null
  rc=$?; err=$(cat "$WORK/err")
  expect_rc 70
  expect_err "cannot write: No space left on device"
}

case_closed_stdout() {
  # `tally run --count ... | head`: the closed pipe does not kill tally
  # (SIGPIPE), the program runs to its end, the run is stored complete,
  # and EPIPE is said with status 70
  (trap - PIPE; "$TALLY" run --count cycle --interval 1000000 --db "$WORK/p.db" "$P/console_phases.elf" \
     2>"$WORK/err" </dev/null; echo $? >"$WORK/rc") | head -c 1 >/dev/null
  rc=$(cat "$WORK/rc"); err=$(cat "$WORK/err")
  expect_rc 70
  expect_err "the program's output could not be written: Broken pipe"
  expect_err "stored in .*p.db: complete"
  run report --db "$WORK/p.db"
  expect_rc 0
  grep -q "console_phases.elf .* complete" "$WORK/out" || { echo "FAIL: the run is not stored complete"; fails=$((fails + 1)); }
}

case_timeout_waits() {
  # --timeout bounds the wait for --control's START (no tally config comes)
  t0=$(date +%s%N)
  (cd "$WORK" && "$TALLY" run --timeout 1 --control 127.0.0.1:0 --db w.db "$P/forever.elf" >"$WORK/out" 2>"$WORK/err" </dev/null)
  rc=$?; err=$(cat "$WORK/err")
  ms=$((($(date +%s%N) - t0) / 1000000))
  expect_rc 124
  expect_err "--timeout reached while waiting for the configuration"
  [ "$ms" -lt 3000 ] || { echo "FAIL: the wait took $ms ms with --timeout 1"; fails=$((fails + 1)); }
}

case_htif_exit() {
  run run "$P/htif_exit.elf"
  expect_rc 7
  expect_err "reported failure through HTIF tohost: code 7 \(riscv-tests: test 7 failed\)"
  # tohost = 256 << 1 | 1: code 256, whose low byte is 0, is still a failure
  for cmd in run profile; do
    run $cmd "$P/htif_fail256.elf"
    expect_rc 1
    expect_err "^tally $cmd: the program reported failure through HTIF tohost: code 256 \(riscv-tests: test 256 failed\); exit status 1"
  done
}

case_uart_and_finisher() {
  run run "$P/uart_hello.elf"
  expect_rc 3
  expect_out "hello from the uart"
}

case_raw_binary() {
  run run --load-addr 0x80000000 "$P/uart_hello.bin"
  expect_rc 3
  expect_out "hello from the uart"
  run run --load-addr 0x10000000 "$P/uart_hello.bin"
  expect_rc 66
  expect_err "load address 0x10000000 is outside RAM"
}

# A program linked for another memory map, or for more RAM than the board
# has: the message names the fix that works (link with target/tally.ld, or
# the --ram-size that holds the segments: forever.elf's end in link.ld's
# layout is read from its program headers by the test).
case_link_hints() {
  run run "$P/elsewhere.elf"
  expect_rc 66
  expect_err "is below RAM \(0x80000000-0x88000000\): the program is linked for another memory map; link it for tally's board with target/tally.ld"
  # stdin_count.elf (picolibc, about 10 KiB of code and data) on 4 KiB of RAM
  run run --ram-size 4Ki "$P/stdin_count.elf"
  expect_rc 66
  expect_err "beyond RAM \(0x80000000-0x80001000\): give --ram-size [0-9]+Ki or more"
  need=$(sed -nE 's/.*give --ram-size ([0-9]+)Ki or more.*/\1/p' "$WORK/err")
  run run --max-insns 1000 --ram-size "${need:-0}Ki" "$P/stdin_count.elf"
  # the size named holds its segments: it loads (its stack, at the top of
  # tally.ld's 128 MiB, is another matter: it may trap, status 125)
  [ "$rc" -ne 66 ] && [ "$rc" -ne 64 ] || { echo "FAIL: --ram-size ${need}Ki: status $rc: $err"; fails=$((fails + 1)); }
}

case_stdin_eof() {
  # 5 bytes and a newline are read and counted; the reads past the end of
  # input are stopped with status 126
  printf 'hello\n' | "$TALLY" run "$P/stdin_count.elf" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  out=$(cat "$WORK/out")
  err=$(cat "$WORK/err")
  expect_rc 126
  expect_out "line of 5 bytes"
  expect_err "keeps reading past the end of its input"
}

case_sampler() {
  # A sampler that samples every cycle (10 ns at the 100 MHz default clock)
  # must reproduce the exact profile: every function's error is 0.00 points.
  local elf="$P/stdin_count.elf"
  printf 'abc\n' | "$TALLY" profile --sample-every 10ns "$elf" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  [ "$rc" -eq 126 ] || { echo "FAIL: profile exit status $rc"; cat "$WORK/err"; fails=$((fails + 1)); }
  awk '/^PC sampling/{on=1; next} on && /%/ { e=$3; sub("%","",e); if (e+0 > 0.005 || e+0 < -0.005) bad++; n++ }
       END { if (n < 5 || bad) { print "FAIL: " n " sampled rows, " bad " with an error"; exit 1 } }' "$WORK/out" \
    || { fails=$((fails + 1)); sed -n '/^PC sampling/,$p' "$WORK/out" | head -20; }
}

case_verbose() {
  run run -v "$P/uart_hello.elf"
  expect_rc 3
  expect_err "^tally: [0-9,]+ instructions in [0-9.]+ s \([0-9.]+ MIPS\)$"
  expect_err "^tally: engine (jit: [0-9]+ blocks translated in [0-9.]+ ms, [0-9.]+ KiB of code|interp)$"
  run run -v --engine interp "$P/uart_hello.elf"
  expect_err "^tally: engine interp$"
  run run --engine fast "$P/uart_hello.elf"
  expect_rc 64
  expect_err "^tally run: --engine wants interp or jit, got 'fast'$"
}

case_usage() {
  run run
  expect_rc 64
  expect_err "no program given"
  run run --max-insns banana "$P/forever.elf"
  expect_rc 64
  expect_err "--max-insns wants a positive count, got 'banana'"
  run run --timeout -1 "$P/forever.elf"
  expect_rc 64
  run frobnicate
  expect_rc 64
  expect_err "unknown command 'frobnicate'"
  run run --help
  expect_rc 0
  grep -q -- "--max-insns" "$WORK/out" || { echo "FAIL: run --help lacks --max-insns"; fails=$((fails + 1)); }
  run --help
  expect_rc 0
}

# Mistakes on the command line are usage errors (64), said before the run,
# naming the subcommand and pointing to --help; a model file that is wrong
# is bad input (66).
case_usage_mistakes() {
  for cmd in run profile; do
    run $cmd --core nosuch "$P/forever.elf"
    expect_rc 64
    expect_err "^tally $cmd: (--core nosuch: )?unknown core model 'nosuch' \(available: .*tally5"
    run $cmd --core sram --set icache.bogus=1 "$P/forever.elf"
    expect_rc 64
    expect_err "^tally $cmd: .*icache.bogus=1: unknown key"
    run $cmd --core sram --set foo "$P/forever.elf"
    expect_rc 64
    run $cmd --frobnicate "$P/forever.elf"
    expect_rc 64
    expect_err "^tally $cmd: unrecognized option '--frobnicate'"
    expect_err "tally $cmd --help"
    # an option of tally's after PROGRAM goes to the program, with a hint
    run $cmd --max-insns 1000 "$P/forever.elf" --max-insns 5
    expect_rc 124
    expect_err "^tally $cmd: note: '--max-insns' comes after PROGRAM, so it goes to the program"
  done
  # the program's own options get no hint
  run run --max-insns 1000 "$P/forever.elf" --verbose-ish -x
  expect_rc 124
  ! grep -q "comes after PROGRAM" "$WORK/err" || { echo "FAIL: a hint for the program's own options"; fails=$((fails + 1)); }
  printf '[core]\nnot a key line\n' >"$WORK/bad.ini"
  run run --core "$WORK/bad.ini" "$P/forever.elf"
  expect_rc 66
  expect_err "bad.ini"
}

# Bad input: every malformed file gets status 66 and a message naming the
# file and the problem; nothing crashes.
bad() { # bad FILE PATTERN
  run run "$1"
  expect_rc 66
  expect_err "$2"
  no_crash
}

case_bad_elf() {
  local good="$P/uart_hello.elf"
  bad "$WORK/missing.elf" "missing.elf: cannot open: No such file"
  : >"$WORK/empty.elf"
  bad "$WORK/empty.elf" "empty.elf: not an ELF file"
  echo "just some text" >"$WORK/text.elf"
  bad "$WORK/text.elf" "text.elf: not an ELF file"
  bad "$WORK" "cannot"
  head -c 40 "$good" >"$WORK/trunc-header.elf"
  bad "$WORK/trunc-header.elf" "trunc-header.elf: (truncated|not an ELF|cannot read)"
  head -c 200 "$good" >"$WORK/trunc-body.elf"
  bad "$WORK/trunc-body.elf" "trunc-body.elf: (truncated|cannot)"
  # e_machine (offset 18) = 62: x86-64
  cp "$good" "$WORK/machine.elf"
  printf '\x3e\x00' | dd of="$WORK/machine.elf" bs=1 seek=18 conv=notrunc status=none
  bad "$WORK/machine.elf" "built for x86-64 \(e_machine 62\), not RISC-V"
  # EI_CLASS (offset 4) = 2: ELF64
  cp "$good" "$WORK/class.elf"
  printf '\x02' | dd of="$WORK/class.elf" bs=1 seek=4 conv=notrunc status=none
  bad "$WORK/class.elf" "64-bit ELF"
  # e_type (offset 16) = 1: relocatable
  cp "$good" "$WORK/rel.elf"
  printf '\x01\x00' | dd of="$WORK/rel.elf" bs=1 seek=16 conv=notrunc status=none
  bad "$WORK/rel.elf" "not an executable"
  # e_phoff (offset 28) pointing far past the end of the file
  cp "$good" "$WORK/phoff.elf"
  printf '\x00\x00\x00\x70' | dd of="$WORK/phoff.elf" bs=1 seek=28 conv=notrunc status=none
  bad "$WORK/phoff.elf" "phoff.elf: "
  # a real host executable
  bad /bin/true "64-bit ELF"
  # random bytes after a valid-looking ident
  { head -c 16 "$good"; head -c 4000 /dev/urandom; } >"$WORK/noise.elf"
  run run "$WORK/noise.elf"
  no_crash
  [ "$rc" -ne 0 ] || { echo "FAIL: noise.elf ran"; fails=$((fails + 1)); }
}

# ---- Every stop works in every mode, and keeps what was measured ----------

# run_held ARGS...: tally with stdin a FIFO that stays open and silent (a
# user who never types); sets rc, out, err and ms (tally's own wall time).
run_held() {
  mkfifo "$WORK/in"
  sleep 60 >"$WORK/in" & local holder=$!
  local t0=$(date +%s%N)
  timeout 30 "$TALLY" "$@" <"$WORK/in" >"$WORK/out" 2>"$WORK/err"
  rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
  rm -f "$WORK/in"
  out=$(cat "$WORK/out"); err=$(cat "$WORK/err")
}
# sigint_after SECONDS ARGS...: tally in the background (stdin held open as
# above), SIGINT after SECONDS; sets rc, out, err, ms.
sigint_after() {
  local delay=$1; shift
  mkfifo "$WORK/in"
  sleep 60 >"$WORK/in" & local holder=$!
  local t0=$(date +%s%N)
  "$TALLY" "$@" <"$WORK/in" >"$WORK/out" 2>"$WORK/err" & local pid=$!
  sleep "$delay"
  kill -INT "$pid" 2>/dev/null
  wait "$pid"; rc=$?
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null
  rm -f "$WORK/in"
  out=$(cat "$WORK/out"); err=$(cat "$WORK/err")
}
expect_fast() { [ "$ms" -lt "$1" ] || { echo "FAIL: took ${ms} ms, expected under $1 ms"; fails=$((fails + 1)); }; }

case_stop_sleep_counted() {
  # sleep_long.elf sleeps 2^52 timer ticks in one wfi; at --interval 100 the
  # statistics module has ~4.5e14 intervals to dispatch in it: --timeout 1
  # must still stop the run within seconds, and the store keep the run
  # (incomplete) with every interval dispatched so far.
  run_held run --count cycle --interval 100 --timeout 1 --db "$WORK/s.db" --show-intervals 2 "$P/sleep_long.elf"
  expect_rc 124
  expect_fast 10000
  expect_err "stopped: --timeout reached"
  expect_err "stored in .*s.db: incomplete, [0-9,]+ intervals: the program did not run to its end \(--timeout reached\)"
  run report --db "$WORK/s.db"
  grep -qE "sleep_long.elf .* incomplete" "$WORK/out" || { echo "FAIL: report lacks the run"; cat "$WORK/out"; fails=$((fails + 1)); }
  # the same with Ctrl-C
  sigint_after 1 run --count cycle --interval 100 --db "$WORK/s2.db" --show-intervals 2 "$P/sleep_long.elf"
  expect_rc 130
  expect_fast 10000
  expect_err "stopped: interrupted"
  expect_err "incomplete"
}

case_stop_stdin() {
  # a program blocked reading stdin (SYS_READC) that never gets input
  run_held run --timeout 1 "$P/stdin_count.elf"
  expect_rc 124
  expect_fast 10000
  expect_err "stopped: --timeout reached"
  sigint_after 1 run "$P/stdin_count.elf"
  expect_rc 130
  expect_fast 10000
  expect_err "stopped: interrupted"
}

case_stop_profile() {
  # tally profile stops on --timeout and Ctrl-C too, and prints the profile
  # of what ran; the PC sampler at 10 ns over a 2^52-tick sleep takes its
  # samples at once, not one by one
  run_held profile --sample-every 10ns --timeout 1 "$P/sleep_long.elf"
  expect_rc 124
  expect_fast 10000
  expect_err "the run ended early \(--timeout reached\); profiling what ran"
  grep -q "_start" "$WORK/out" || { echo "FAIL: no profile printed"; fails=$((fails + 1)); }
  sigint_after 1 profile "$P/stdin_count.elf"
  expect_rc 130
  expect_fast 10000
  expect_err "the run ended early \(interrupted\)"
  grep -q "main" "$WORK/out" || { echo "FAIL: no profile printed after Ctrl-C"; fails=$((fails + 1)); }
  run profile --max-insns 1000 "$P/stdin_count.elf"
  expect_rc 124
  expect_err "the run ended early \(--max-insns reached\)"
}

case_uart_eof() {
  # End of input through the UART is no data: the program reads "abc" and
  # never a NUL (which it would report with exit 3); polling on at the end
  # of input is stopped like SYS_READC's reads.
  printf 'abc' >"$WORK/abc"
  "$TALLY" run "$P/uart_read.elf" <"$WORK/abc" >"$WORK/out" 2>"$WORK/err"
  rc=$?; out=$(cat "$WORK/out"); err=$(cat "$WORK/err")
  expect_rc 126
  expect_out "abc"
  expect_err "keeps polling the UART for input after the end of its input"
  # and from a pipe that closes
  printf 'xy' | "$TALLY" run "$P/uart_read.elf" >"$WORK/out" 2>"$WORK/err"
  rc=$?; out=$(cat "$WORK/out")
  expect_rc 126
  expect_out "xy"
}

case_bad_text_inputs() {
  # Core models and maps that have no end or no newline are refused at
  # once, by kind and size (bounded memory: a run that read /dev/zero would
  # hit the ulimit and fail the expectations instead of exhausting the host)
  printf 'x%.0s' $(seq 1 5000) >"$WORK/long.ini"        # one 5,000-byte line
  head -c 2000000 /dev/zero | tr '\0' '\n' >"$WORK/big.ini" # 2 MB of empty lines
  mkfifo "$WORK/fifo.ini"
  # (AddressSanitizer reserves terabytes of address space: no ulimit -v
  # there; the timeout still bounds a reader that would not stop)
  local vlimit=4000000
  ldd "$TALLY" 2>/dev/null | grep -q libasan && vlimit=unlimited
  bounded() { (ulimit -v $vlimit; timeout 20 "$TALLY" "$@") >"$WORK/out" 2>"$WORK/err" </dev/null; rc=$?; err=$(cat "$WORK/err"); }
  bounded run --core /dev/zero "$P/forever.elf"
  expect_rc 66
  expect_err "/dev/zero: not a regular file"
  bounded run --core /dev/urandom "$P/forever.elf"
  expect_rc 66
  expect_err "/dev/urandom: not a regular file"
  bounded run --core "$WORK/fifo.ini" "$P/forever.elf"
  expect_rc 66
  expect_err "fifo.ini: not a regular file"
  bounded run --core "$WORK/long.ini" "$P/forever.elf"
  expect_rc 66
  expect_err "long.ini:1: line too long"
  bounded run --core "$WORK/big.ini" "$P/forever.elf"
  expect_rc 66
  expect_err "big.ini: too large for a core model file \(2000000 bytes"
  bounded symbols --map /dev/zero "$P/forever.elf"
  expect_rc 66
  expect_err "/dev/zero: not a regular file"
  printf 'y%.0s' $(seq 1 70000) >"$WORK/long.map"
  bounded symbols --map "$WORK/long.map" "$P/forever.elf"
  expect_rc 66
  expect_err "long.map:1: line too long"
}

case_empty_arrays() {
  # Empty lists (a program that makes no calls, an ELF with no executable
  # section) once reached qsort(NULL, 0, ...), which the sanitizer build
  # aborts on: this case fails there when one comes back.
  run profile --max-insns 1000 -g "$P/forever.elf"
  expect_rc 124
  no_crash
  run symbols --lines "$P/data_only.elf"
  expect_rc 0
  expect_err "no function symbols in executable sections"
  no_crash
}

case_unterminated_line_str() {
  # A .debug_line_str whose last string has no NUL byte: libdw would read
  # past the section (a heap overflow under ASan, garbage file names in a
  # release build); tally refuses the line table and says why.
  python3 "$(dirname "$0")/../programs/patch_section.py" "$P/stdin_count.elf" "$WORK/dmg.elf" .debug_line_str 0x41
  run symbols --lines "$WORK/dmg.elf"
  expect_rc 66
  expect_err "damaged DWARF: section .debug_line_str does not end with a NUL byte"
  ! grep -q "memcmp.cA" "$WORK/out" || { echo "FAIL: a file name read past its section"; fails=$((fails + 1)); }
  no_crash
  python3 "$(dirname "$0")/../programs/patch_section.py" "$P/stdin_count.elf" "$WORK/dmg2.elf" .debug_str 0x41
  run profile --lines "$WORK/dmg2.elf"
  expect_rc 66
  expect_err "section .debug_str does not end with a NUL byte"
  no_crash
}

case_dvfs_range() {
  # dvfs.elf checks from inside that an in-range switch applies and that
  # 4,294,967 mV and 1,001 MHz are refused (exit 0 when all hold)
  run run --core tally5 "$P/dvfs.elf"
  expect_rc 0
  expect_err "DVFS switch to 50000 kHz, 4294967 mV refused: outside the core model's range 1-1000 MHz, 0.5-1.5 V"
  # a model whose starting point is outside its own range is refused (a
  # --set that makes it so is a usage error)
  run run --core tally5 --set dvfs.max_mhz=50 "$P/dvfs.elf"
  expect_rc 64
  expect_err "outside the \[dvfs\] range"
}

case_option_errors() {
  # a bad value on the command line is a usage error (64); a model file
  # that cannot be read is bad input (66); a JSON file that cannot be
  # written says so (70)
  run run --core nosuch "$P/forever.elf"
  expect_rc 64
  expect_err "--core nosuch"
  run run --core "$WORK/missing.ini" "$P/forever.elf"
  expect_rc 66
  run run --set icache.size=3 "$P/forever.elf"
  expect_rc 64
  expect_err "--set: .*icache"
  run profile --set nosuch.key=1 "$P/forever.elf"
  expect_rc 64
  run run --stats-json /dev/full "$P/../../target/rv32imac/empty.elf"
  expect_rc 70
  expect_err "--stats-json /dev/full: cannot write: No space left on device"
}

case_collector_absent() {
  # a run sent to a collector that is not there is not stored: tally run
  # must say so and not exit 0
  # (its packets go to a spool file under $TMPDIR: here the test's own folder)
  TMPDIR="$WORK" run run --count cycle --interval 100000 --collector 127.0.0.1:9 "$P/../../target/rv32imac/empty.elf"
  expect_rc 69
  expect_err "did not acknowledge its end .*the run is NOT known to be stored"
  expect_err "its packets are kept in $WORK/tally-"
}

"case_$CASE"
if [ "$fails" -eq 0 ]; then echo "cli.$CASE: ok"; exit 0; fi
echo "cli.$CASE: $fails check(s) failed"
exit 1
