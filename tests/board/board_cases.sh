#!/usr/bin/env bash
# Boards (docs/boards.md) as a user meets them: --board by name, by path
# and through TALLY_BOARDS_PATH, a program linked for the litex board, and
# the errors for a wrong name, a damaged board file and a program linked
# for another memory map. Expected outputs and statuses are worked out by
# hand from the programs' sources (tests/programs/litex_hello.c,
# uart_hello.S). Usage: board_cases.sh TALLY PROGRAMS_DIR SOURCE_DIR CASE
set -u
TALLY=$1
P=$2
SRC=$3
CASE=$4
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
  if grep -qE 'AddressSanitizer|runtime error|LeakSanitizer' "$WORK/err" || { [ "$rc" -ge 128 ] && [ "$rc" -ne 130 ]; }; then
    echo "FAIL: crashed (status $rc)"; cat "$WORK/err"; fails=$((fails + 1))
  fi
}

# litex_hello.c: sums 1..10 (55), prints through the UART transmit register
# at 0xF0001000 and returns 7, which litex_crt.S stores to the finisher at
# 0xF0000000 as (7 << 16) | 0x3333.
LITEX_OUT="litex: sum 1..10 = 55"

case_litex_run() {
  run run --board litex "$P/litex_hello.elf"
  expect_rc 7; expect_out "$LITEX_OUT"; no_crash
  run run --board "$SRC/boards/litex.ini" "$P/litex_hello.elf"
  expect_rc 7; expect_out "$LITEX_OUT"
  # timed, on a core model with caches: the same output and status
  run run --board litex --core tally5 "$P/litex_hello.elf"
  expect_rc 7; expect_out "$LITEX_OUT"
  run run --board litex --core picorv32 "$P/litex_hello.elf"
  expect_rc 7; expect_out "$LITEX_OUT"
}

case_litex_raw() {
  # --raw loads at the board's RAM base (0x40000000) and starts there
  run run --board litex --raw "$P/litex_hello.bin"
  expect_rc 7; expect_out "$LITEX_OUT"
  run run --board litex --load-addr 0x40000000 "$P/litex_hello.bin"
  expect_rc 7; expect_out "$LITEX_OUT"
  # on virt the same bytes land at 0x80000000, where their absolute
  # addresses (0x4000xxxx) are no RAM: the first access faults
  run run --raw "$P/litex_hello.bin"
  expect_rc 125; no_crash
  # uart_hello.bin is linked for virt: --raw puts it at 0x80000000
  run run --raw "$P/uart_hello.bin"
  expect_rc 3; expect_out "hello from the uart"
}

case_boards_path() {
  mkdir -p "$WORK/b"
  cp "$SRC/boards/litex.ini" "$WORK/b/myboard.ini"
  TALLY_BOARDS_PATH="$WORK/b" run run --board myboard "$P/litex_hello.elf"
  expect_rc 7; expect_out "$LITEX_OUT"
  # the shipped ones are still found after TALLY_BOARDS_PATH
  TALLY_BOARDS_PATH="$WORK/b" run run --board litex "$P/litex_hello.elf"
  expect_rc 7
  TALLY_BOARDS_PATH="$WORK/b" run run --board nope "$P/litex_hello.elf"
  expect_rc 64; expect_err "shipped boards: litex, myboard, virt"
}

case_virt_default() {
  # virt is the default: the same output, status and every count
  run run "$P/uart_hello.elf"
  expect_rc 3; expect_out "hello from the uart"
  run run --board virt "$P/uart_hello.elf"
  expect_rc 3; expect_out "hello from the uart"
  "$TALLY" run --core tally5 --stats-json "$WORK/a.json" "$P/uart_hello.elf" >/dev/null 2>&1
  "$TALLY" run --board virt --core tally5 --stats-json "$WORK/b.json" "$P/uart_hello.elf" >/dev/null 2>&1
  "$TALLY" run --board "$SRC/boards/virt.ini" --core tally5 --stats-json "$WORK/c.json" "$P/uart_hello.elf" >/dev/null 2>&1
  cmp -s "$WORK/a.json" "$WORK/b.json" && cmp -s "$WORK/a.json" "$WORK/c.json" ||
    { echo "FAIL: --board virt changes the statistics"; diff "$WORK/a.json" "$WORK/b.json" | head; fails=$((fails + 1)); }
  [ -s "$WORK/a.json" ] || { echo "FAIL: no statistics written"; fails=$((fails + 1)); }
}

case_unknown_name() {
  run run --board nope "$P/uart_hello.elf"
  expect_rc 64
  expect_err "tally run: --board nope: unknown board 'nope' \(shipped boards: litex, virt; or give a path to an \.ini file\)"
  run run --board "" "$P/uart_hello.elf"
  expect_rc 64; expect_err "no board named"
}

bad() { # bad NAME CONTENT
  printf "$2" >"$WORK/$1.ini"
}

case_bad_files() {
  bad overlap '[ram]\nbase = 0x80000000\nsize = 128M\n\n[uart]\nbase = 0x80001000\n'
  run run --board "$WORK/overlap.ini" "$P/uart_hello.elf"
  expect_rc 66
  expect_err "overlap\.ini:5: \[uart\] 0x80001000-0x800010ff overlaps \[ram\] 0x80000000-0x87ffffff \(line 1\)"
  bad overlap2 '[ram]\nbase = 0x80000000\nsize = 128M\n[region.io]\nbase = 0x84000000\nsize = 0x1000\n'
  run run --board "$WORK/overlap2.ini" "$P/uart_hello.elf"
  expect_rc 66; expect_err "overlap2\.ini:4: \[region\.io\] 0x84000000-0x84000fff overlaps \[ram\]"
  bad devdev '[ram]\nbase = 0x80000000\nsize = 4K\n[uart]\nbase = 0x10000000\n[finisher]\nbase = 0x10000000\n'
  run run --board "$WORK/devdev.ini" "$P/uart_hello.elf"
  expect_rc 66; expect_err "devdev\.ini:6: \[finisher\] 0x10000000-0x10000fff overlaps \[uart\] 0x10000000-0x100000ff \(line 4\)"
  bad nobase '[ram]\nsize = 128M\n'
  run run --board "$WORK/nobase.ini" "$P/uart_hello.elf"
  expect_rc 66; expect_err "nobase\.ini:1: \[ram\]: no base \(expected base = ADDRESS"
  bad nodevbase '[ram]\nbase = 0x80000000\nsize = 128M\n\n[uart]\n'
  run run --board "$WORK/nodevbase.ini" "$P/uart_hello.elf"
  expect_rc 66; expect_err "nodevbase\.ini:5: \[uart\]: no base"
  bad badnum '[ram]\nbase = 0x8000zz00\nsize = 128M\n'
  run run --board "$WORK/badnum.ini" "$P/uart_hello.elf"
  expect_rc 66; expect_err "badnum\.ini:2: \[ram\] base: '0x8000zz00' is not an address"
  bad badsize '[ram]\nbase = 0x80000000\nsize = lots\n'
  run run --board "$WORK/badsize.ini" "$P/uart_hello.elf"
  expect_rc 66; expect_err "badsize\.ini:3: \[ram\] size: 'lots' is not a size"
  bad badws '[ram]\nbase = 0x80000000\nsize = 1M\nwait_states = -1\n'
  run run --board "$WORK/badws.ini" "$P/uart_hello.elf"
  expect_rc 66; expect_err "badws\.ini:4: \[ram\] wait_states: '-1' is not a count of cycles"
  bad unknown '[ram]\nbase = 0x80000000\nsize = 128M\n[bogus]\n'
  run run --board "$WORK/unknown.ini" "$P/uart_hello.elf"
  expect_rc 66; expect_err "unknown\.ini:4: \[bogus\]: unknown section"
  bad badkey '[ram]\nbase = 0x80000000\nsize = 128M\nspeed = 3\n'
  run run --board "$WORK/badkey.ini" "$P/uart_hello.elf"
  expect_rc 66; expect_err "badkey\.ini:4: \[ram\] speed: unknown key \(expected one of: base, size, wait_states, cacheable\)"
  bad twice '[ram]\nbase = 0x80000000\nsize = 128M\nsize = 64M\n'
  run run --board "$WORK/twice.ini" "$P/uart_hello.elf"
  expect_rc 66; expect_err "twice\.ini:4: \[ram\] size: set twice \(first on line 3\)"
  bad noram '[board]\nname = x\n'
  run run --board "$WORK/noram.ini" "$P/uart_hello.elf"
  expect_rc 66; expect_err "noram\.ini: no \[ram\] section"
  bad unaligned '[ram]\nbase = 0x80000800\nsize = 128M\n'
  run run --board "$WORK/unaligned.ini" "$P/uart_hello.elf"
  expect_rc 66; expect_err "unaligned\.ini:2: \[ram\]: base 0x80000800.*multiples of 4 KiB"
  bad past '[ram]\nbase = 0xF0000000\nsize = 512M\n'
  run run --board "$WORK/past.ini" "$P/uart_hello.elf"
  expect_rc 66; expect_err "past\.ini:3: \[ram\]: base 0xf0000000 \+ size 0x20000000 reaches past the 32-bit address space"
  run run --board "$WORK/missing.ini" "$P/uart_hello.elf"
  expect_rc 66; expect_err "missing\.ini: cannot open"
  run run --board /dev/zero "$P/uart_hello.elf"
  expect_rc 66; no_crash
}

case_outside_ram() {
  # uart_hello is linked at 0x80000000 (virt); litex's RAM is 0x40000000-0x50000000
  run run --board litex "$P/uart_hello.elf"
  expect_rc 66
  expect_err "uart_hello\.elf: segment 1 \(0x80000000-0x80000055\) is outside the RAM of board litex \(0x40000000-0x50000000\)"
  expect_err "--board"
  # and the other way round: the virt board's message
  run run "$P/litex_hello.elf"
  expect_rc 66; expect_err "is below RAM \(0x80000000-0x88000000\)"
  # a RAM size the board's map has no room for: litex's IO region starts at 0x80000000
  run run --board litex --ram-size 2048Mi "$P/litex_hello.elf"
  expect_rc 64; expect_err "RAM of 2147483648 bytes.*overlaps"
}

case_no_semihosting() {
  # virt's map without semihosting: stdin_count.elf's start-up asks for its
  # command line by semihosting, which is now a plain ebreak (breakpoint)
  sed 's/^enabled = yes$/enabled = no/' "$SRC/boards/virt.ini" >"$WORK/nosemi.ini"
  run run "$P/stdin_count.elf"
  grep -q breakpoint "$WORK/err" && { echo "FAIL: a breakpoint on virt"; fails=$((fails + 1)); }
  run run --board "$WORK/nosemi.ini" "$P/stdin_count.elf"
  expect_rc 125; expect_err "breakpoint"; no_crash
}

case_uncached_ram() {
  # virt's map with RAM that is not cacheable: no access reaches a cache,
  # so the counts are those of the same core with its caches turned off.
  # uart_hello.S retires 112 instructions (3 set-up, 5 per character of the
  # 20 of "hello from the uart\n", 2 at the NUL, 3 for the drain, 4 to
  # exit), each one fetched from memory, and reads the message's 21 bytes
  # (NUL included) from RAM: 133 memory reads (the LSR read is a device's).
  sed 's/^cacheable = yes/cacheable = no/' "$SRC/boards/virt.ini" >"$WORK/unc.ini"
  "$TALLY" run --board "$WORK/unc.ini" --core tally5 --stats-json "$WORK/a.json" "$P/uart_hello.elf" >/dev/null 2>&1
  "$TALLY" run --core tally5 --set icache.enabled=false --set dcache.enabled=false --stats-json "$WORK/b.json" \
    "$P/uart_hello.elf" >/dev/null 2>&1
  cmp -s "$WORK/a.json" "$WORK/b.json" ||
    { echo "FAIL: uncached RAM differs from a core without caches"; diff "$WORK/a.json" "$WORK/b.json" | head; fails=$((fails + 1)); }
  for want in '"instructions": 112' '"icache.access": 0' '"dcache.read_hit": 0' '"dcache.read_miss": 0' '"mem.read": 133'; do
    grep -q "$want" "$WORK/a.json" || { echo "FAIL: no $want"; fails=$((fails + 1)); }
  done
}

cycles_of() { # cycles_of JSON
  sed -n 's/^  "cycles": \([0-9]*\),$/\1/p' "$1"
}

case_wait_states() {
  # Uncached RAM with 2 wait states on virt's map: each of the 133 memory
  # reads of uart_hello (see uncached_ram) is one bus beat and takes 2
  # cycles more; its device accesses are outside every region. 266 more.
  sed 's/^cacheable = yes/cacheable = no/' "$SRC/boards/virt.ini" >"$WORK/u0.ini"
  sed 's/^cacheable = yes/cacheable = no/; s/^wait_states = 0/wait_states = 2/' "$SRC/boards/virt.ini" >"$WORK/u2.ini"
  "$TALLY" run --board "$WORK/u0.ini" --core tally5 --stats-json "$WORK/u0.json" "$P/uart_hello.elf" >/dev/null 2>&1
  "$TALLY" run --board "$WORK/u2.ini" --core tally5 --stats-json "$WORK/u2.json" "$P/uart_hello.elf" >/dev/null 2>&1
  local a b
  a=$(cycles_of "$WORK/u0.json"); b=$(cycles_of "$WORK/u2.json")
  [ -n "$a" ] && [ -n "$b" ] && [ $((b - a)) -eq 266 ] ||
    { echo "FAIL: 2 wait states on 133 reads: $a -> $b cycles, expected 266 more"; fails=$((fails + 1)); }
  # litex with 3 wait states on its IO region: litex_hello makes 22 byte
  # stores to the UART ("litex: sum 1..10 = 55\n") and one to the
  # finisher, all in the region: 69 cycles more, on any core model
  awk '/^\[region.io\]/{io=1} io && /^wait_states = 0/{sub("= 0", "= 3"); io=0} 1' "$SRC/boards/litex.ini" >"$WORK/l3.ini"
  grep -q "^wait_states = 3" "$WORK/l3.ini" || { echo "FAIL: l3.ini not made"; fails=$((fails + 1)); }
  for core in tally5 picorv32; do
    "$TALLY" run --board litex --core $core --stats-json "$WORK/l0.json" "$P/litex_hello.elf" >/dev/null 2>&1
    "$TALLY" run --board "$WORK/l3.ini" --core $core --stats-json "$WORK/l3.json" "$P/litex_hello.elf" >/dev/null 2>&1
    a=$(cycles_of "$WORK/l0.json"); b=$(cycles_of "$WORK/l3.json")
    [ -n "$a" ] && [ -n "$b" ] && [ $((b - a)) -eq 69 ] ||
      { echo "FAIL: $core: 3 wait states on 23 IO stores: $a -> $b cycles, expected 69 more"; fails=$((fails + 1)); }
  done
}

case_picorv32_ram_waits() {
  # PicoRV32's memory is the board's RAM: a board whose RAM has N wait
  # states runs --core picorv32 exactly as picorv32-wsN (the model checked
  # against the RTL at N) runs on virt, every count alike; beyond the
  # 0 to 3 the model is checked at, a clear refusal
  local n
  for n in 1 2 3; do
    sed "s/^wait_states = 0/wait_states = $n/" "$SRC/boards/virt.ini" >"$WORK/p$n.ini"
    "$TALLY" run --board "$WORK/p$n.ini" --core picorv32 --stats-json "$WORK/pb$n.json" "$P/uart_hello.elf" >/dev/null 2>&1
    "$TALLY" run --core picorv32-ws$n --stats-json "$WORK/pc$n.json" "$P/uart_hello.elf" >/dev/null 2>&1
    grep -v '"core"\|"description"\|"name"' "$WORK/pb$n.json" >"$WORK/pb$n.txt"
    grep -v '"core"\|"description"\|"name"' "$WORK/pc$n.json" >"$WORK/pc$n.txt"
    [ -s "$WORK/pb$n.txt" ] && cmp -s "$WORK/pb$n.txt" "$WORK/pc$n.txt" ||
      { echo "FAIL: picorv32 on RAM with $n wait states differs from picorv32-ws$n"; diff "$WORK/pb$n.txt" "$WORK/pc$n.txt" | head; fails=$((fails + 1)); }
  done
  [ "$(cycles_of "$WORK/pb1.json")" != "$(cycles_of "$WORK/pb3.json")" ] ||
    { echo "FAIL: the board's wait states changed nothing"; fails=$((fails + 1)); }
  run run --board "$WORK/p2.ini" --core picorv32-ws2 "$P/uart_hello.elf"
  expect_rc 64; expect_err "4; the PicoRV32 model is checked against the RTL at 0 to 3"
}

case_core_isa() {
  # litex_hello is built for rv32imac: its third instruction is c.jal.
  # LiteX's standard VexRiscv has no C ([core] isa = rv32im) and traps
  # there, as the RTL does (tests/cores/vexriscv isa_c), with a note that
  # says why; its IMAC variant runs it to the end
  run run --board litex --core vexriscv "$P/litex_hello.elf"
  expect_rc 125; expect_err "illegal instruction"; expect_err "c\.jal"
  expect_err "note  core model vexriscv has no C extension: the real core traps here too"
  run run --board litex --core vexriscv-imac "$P/litex_hello.elf"
  expect_rc 7; expect_out "litex: sum 1..10 = 55"
  run run --board litex --core tally5 --set core.isa=rv32imc "$P/litex_hello.elf"
  expect_rc 7
  run run --board litex --core tally5 --set core.isa=rv32ia "$P/litex_hello.elf"
  expect_rc 125; expect_err "note  core model tally5 has no C extension"
  run run --board litex --core tally5 --set core.isa=rv64gc "$P/litex_hello.elf"
  expect_rc 64; expect_err "isa must be one of rv32imac, rv32i, rv32im"
}

case_profile() {
  # tally profile on the litex board: the program's output and status, and
  # main's three calls of put() (litex_hello.c)
  # (the report follows the program's output on stdout)
  run profile --board litex "$P/litex_hello.elf"
  expect_rc 7
  [ "$(head -1 "$WORK/out")" = "$LITEX_OUT" ] || { echo "FAIL: stdout starts '$(head -1 "$WORK/out")'"; fails=$((fails + 1)); }
  grep -qE '^ +[0-9.]+% +[0-9.]+% +3 .* put$' "$WORK/out" || { echo "FAIL: no 'put' with 3 calls"; echo "$out"; fails=$((fails + 1)); }
  run profile --board litex --raw "$P/litex_hello.bin"
  expect_rc 7
  [ "$(head -1 "$WORK/out")" = "$LITEX_OUT" ] || { echo "FAIL: raw: stdout starts '$(head -1 "$WORK/out")'"; fails=$((fails + 1)); }
  run profile --board nope "$P/litex_hello.elf"
  expect_rc 64; expect_err "tally profile: --board nope: unknown board 'nope' \(shipped boards: litex, virt"
  run profile "$P/litex_hello.elf"
  expect_rc 66; expect_err "is below RAM"
}

case_sweep() {
  # every point on the litex board, by --board and by [sweep] board: each
  # point's cycles are tally run's on the same board, core and overrides,
  # and its exit column the program's status (7)
  local want1 want4
  "$TALLY" run --board litex --core tally5 --set icache.size=1K --stats-json "$WORK/r1.json" "$P/litex_hello.elf" >/dev/null 2>&1
  "$TALLY" run --board litex --core tally5 --set icache.size=4K --stats-json "$WORK/r4.json" "$P/litex_hello.elf" >/dev/null 2>&1
  want1=$(cycles_of "$WORK/r1.json"); want4=$(cycles_of "$WORK/r4.json")
  run sweep --board litex -p "$P/litex_hello.elf" -a icache.size=1K,4K --record cycles,exit --db "$WORK/a.db" --csv - -q
  expect_rc 1 # the points exit 7, not 0
  [ "$(sed -n 2p "$WORK/out" | cut -d, -f1-6)" = "0,litex_hello,,1K,$want1,7" ] &&
    [ "$(sed -n 3p "$WORK/out" | cut -d, -f5,6)" = "$want4,7" ] ||
    { echo "FAIL: sweep --board litex: $out (want $want1 and $want4 cycles, exit 7)"; fails=$((fails + 1)); }
  printf '[sweep]\nboard = litex\nrecord = cycles, exit\n[program hello]\nelf = %s\n[axis]\nicache.size = 1K, 4K\n' \
    "$P/litex_hello.elf" >"$WORK/sw.ini"
  run sweep "$WORK/sw.ini" --db "$WORK/b.db" --csv - -q
  expect_rc 1
  [ "$(sed -n 2p "$WORK/out" | cut -d, -f5,6)" = "$want1,7" ] && [ "$(sed -n 3p "$WORK/out" | cut -d, -f5,6)" = "$want4,7" ] ||
    { echo "FAIL: [sweep] board = litex: $out"; fails=$((fails + 1)); }
  run sweep --board nope -p "$P/litex_hello.elf" --db "$WORK/c.db"
  expect_rc 64; expect_err "unknown board 'nope' \(shipped boards: litex, virt"
  run sweep --board litex --one-pass -p "$P/litex_hello.elf" -a icache.size=1K,4K --db "$WORK/d.db"
  expect_rc 64; expect_err "--one-pass: only on the virt board"
}

case_inst() {
  # a program instrumented by tally inst: its runtime makes semihosting
  # calls and lives at 0x88000000; a board without either refuses it
  "$TALLY" inst --points bb --tool bbcount "$P/uart_hello.elf" -o "$WORK/inst.elf" >"$WORK/inst.log" 2>&1 ||
    { echo "FAIL: tally inst: $(cat "$WORK/inst.log")"; fails=$((fails + 1)); return; }
  run run --board litex "$WORK/inst.elf"
  expect_rc 66
  expect_err "inst\.elf: the program is instrumented by tally inst, .*; board litex has no semihosting"
  sed 's/^enabled = yes$/enabled = no/; s/^name = virt$/name = quiet/' "$SRC/boards/virt.ini" >"$WORK/quiet.ini"
  run run --board "$WORK/quiet.ini" "$WORK/inst.elf"
  expect_rc 66; expect_err "board quiet has no semihosting"
  # semihosting, but RAM elsewhere: litex's map with semihosting on
  sed 's/^enabled = no$/enabled = yes/' "$SRC/boards/litex.ini" >"$WORK/semilitex.ini"
  run run --board "$WORK/semilitex.ini" "$WORK/inst.elf"
  expect_rc 66; expect_err "board litex has no RAM there"
  # on virt it runs as the original does (its RAM grows to 256 MiB for the runtime)
  run run --board virt "$WORK/inst.elf"
  expect_rc 3; expect_out "hello from the uart"
}

case_control() {
  # a board waiting for its configuration (tally run --control) on litex;
  # tally config reads the program's functions from its symbols alone, so
  # a program linked for litex names them too: put() is 0x4000xxxx
  local port=$((20000 + RANDOM % 20000)) pid
  "$TALLY" run --board litex --control 127.0.0.1:$port --db "$WORK/c.db" "$P/litex_hello.elf" \
    >"$WORK/out" 2>"$WORK/err" </dev/null &
  pid=$!
  sleep 0.5
  timeout 30 "$TALLY" config --board 127.0.0.1:$port --program "$P/litex_hello.elf" --timer 100 \
    --counter 0=instret@put --start >"$WORK/cfg" 2>&1
  local cfg=$?
  wait $pid
  rc=$?
  [ $cfg -eq 0 ] || { echo "FAIL: tally config: $(cat "$WORK/cfg")"; fails=$((fails + 1)); }
  grep -qE "ARR 0 = 0x4000[0-9a-f]{4}-0x4000[0-9a-f]{4} put" "$WORK/cfg" || { echo "FAIL: put's range: $(cat "$WORK/cfg")"; fails=$((fails + 1)); }
  out=$(cat "$WORK/out"); err=$(cat "$WORK/err")
  expect_rc 7; expect_out "$LITEX_OUT"; expect_err "stored in .*c\.db: complete"
}

"case_$CASE"
exit $((fails > 0))
