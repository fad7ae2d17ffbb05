#!/usr/bin/env bash
# A hostile guest (escape.elf) against tally's host-file policy.
# Usage: sandbox_cases.sh TALLY ESCAPE_ELF CASE
# The work directory holds root/ (the guest's directory) and, beside it,
# files the guest must never reach. Every case checks both what the guest
# reports and the host files themselves afterwards.
set -u
TALLY=$1
ELF=$2
CASE=$3
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fails=0
ROOT=$WORK/root

setup() {
  mkdir -p "$ROOT/sub"
  echo "inside" >"$ROOT/notes.txt"
  echo "inner" >"$ROOT/sub/inner.txt"
  echo "SECRET" >"$WORK/outside.txt"
  ln -s "$WORK/outside.txt" "$ROOT/link_out"        # absolute symlink out
  ln -s ../outside.txt "$ROOT/link_up"              # relative symlink out
  ln -s .. "$ROOT/dir_up"                           # a directory symlink out
  ln -s "$WORK/created_outside" "$ROOT/dangling"    # creating through it would land outside
  ln -s /proc/self "$ROOT/proc_self"
  mkfifo "$ROOT/fifo"
}

run() { # run ARGS... (in $ROOT unless RUN_DIR is set); sets rc, out, err
  (cd "${RUN_DIR:-$ROOT}" && timeout 30 "$TALLY" "$@" >"$WORK/out" 2>"$WORK/err" </dev/null)
  rc=$?
  out=$(cat "$WORK/out")
  err=$(cat "$WORK/err")
}
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
expect_rc() { [ "$rc" -eq "$1" ] || { fail "exit status $rc, expected $1"; echo "stderr: $err"; }; }
expect_line() { grep -qxF -- "$1" "$WORK/out" || { fail "guest output lacks '$1'"; echo "stdout: $out"; }; }
expect_refused() { grep -qE -- "^$1: refused, errno [0-9]+$" "$WORK/out" || { fail "'$1' was not refused"; echo "stdout: $out"; }; }
expect_err() { grep -qE -- "$1" "$WORK/err" || { fail "stderr lacks /$1/"; echo "stderr: $err"; }; }
expect_file() { [ "$(cat "$1" 2>/dev/null)" = "$2" ] || fail "$1 holds '$(cat "$1" 2>/dev/null)', expected '$2'"; }
expect_absent() { [ ! -e "$1" ] || fail "$1 was created"; }
no_secret() { ! grep -q SECRET "$WORK/out" || fail "the guest read a file outside its directory"; }

setup

case_default_read() {
  # Default policy: read-only, under the working directory.
  run run "$ELF" r:notes.txt r:sub/inner.txt r:./notes.txt w:new.txt a:notes.txt u:notes.txt
  expect_rc 0
  expect_line "r notes.txt: opened, read 7 bytes 'inside'"
  expect_line "r sub/inner.txt: opened, read 6 bytes 'inner'"
  expect_line "r ./notes.txt: opened, read 7 bytes 'inside'"
  expect_refused "w new.txt"
  expect_refused "a notes.txt"
  expect_refused "u notes.txt"
  expect_absent "$ROOT/new.txt"
  expect_file "$ROOT/notes.txt" "inside"
  expect_err "semihosting: refused 'new.txt'.*--semihost-files"
}

case_escapes() {
  # Every way out of the directory, for reading.
  run run "$ELF" r:../outside.txt "r:$WORK/outside.txt" r:/etc/passwd r:/proc/self/environ \
    r:link_out r:link_up r:dir_up/outside.txt r:sub/../../outside.txt r:sub/../notes.txt \
    r:proc_self/environ r:fifo r:sub r:
  expect_rc 0
  for p in ../outside.txt "$WORK/outside.txt" /etc/passwd /proc/self/environ link_out link_up \
           dir_up/outside.txt sub/../../outside.txt sub/../notes.txt proc_self/environ fifo sub; do
    expect_refused "r $p"
  done
  expect_refused "r "
  no_secret
  ! grep -q "root:" "$WORK/out" || fail "the guest read /etc/passwd"
}

case_rw() {
  # --semihost-files rw: create, truncate and append inside; nothing outside.
  echo "old" >"$ROOT/trunc.txt"
  run run --semihost-files rw "$ELF" w:new.txt a:notes.txt w:trunc.txt w:sub/made.txt \
    w:../outside.txt a:../outside.txt w:dangling w:dir_up/created_outside w:link_out a:link_up \
    "w:$WORK/abs_outside" w:sub/../x u:/proc/self/mem u:proc_self/mem w:fifo
  expect_rc 0
  expect_line "w new.txt: opened, wrote 6 bytes"
  expect_line "a notes.txt: opened, wrote 6 bytes"
  expect_line "w trunc.txt: opened, wrote 6 bytes"
  expect_line "w sub/made.txt: opened, wrote 6 bytes"
  expect_file "$ROOT/new.txt" "PWNED"
  expect_file "$ROOT/notes.txt" "inside
PWNED"
  expect_file "$ROOT/trunc.txt" "PWNED"
  for p in ../outside.txt dangling dir_up/created_outside link_out "$WORK/abs_outside" sub/../x; do
    expect_refused "w $p"
  done
  expect_refused "a ../outside.txt"
  expect_refused "a link_up"
  expect_refused "u /proc/self/mem"
  expect_refused "u proc_self/mem"
  expect_refused "w fifo"
  expect_file "$WORK/outside.txt" "SECRET"
  expect_absent "$WORK/created_outside"
  expect_absent "$WORK/abs_outside"
  expect_absent "$ROOT/x"
}

case_none() {
  # --semihost-files none: no host file at all; the console still works
  # (the guest's report lines come through the :tt handle).
  run run --semihost-files none "$ELF" r:notes.txt w:new.txt
  expect_rc 0
  expect_refused "r notes.txt"
  expect_refused "w new.txt"
  expect_absent "$ROOT/new.txt"
}

case_root() {
  # --semihost-root DIR: names resolve under DIR, wherever tally runs.
  RUN_DIR=$WORK run run --semihost-root "$ROOT" "$ELF" r:notes.txt r:outside.txt r:../outside.txt
  expect_rc 0
  expect_line "r notes.txt: opened, read 7 bytes 'inside'"
  expect_refused "r outside.txt"
  expect_refused "r ../outside.txt"
  no_secret
}

case_store() {
  # The store tally is writing, and its SQLite side files, are never the
  # guest's, even with rw (truncating it would lose every earlier run).
  run run --count cycle --interval 100000 --db tally.db --semihost-files rw "$ELF" \
    r:tally.db w:tally.db a:tally.db-wal w:tally.db-journal u:tally.db-shm w:./sub/../tally.db
  expect_rc 0
  for p in "r tally.db" "w tally.db" "a tally.db-wal" "w tally.db-journal" "u tally.db-shm"; do
    expect_refused "$p"
  done
  expect_absent "$ROOT/tally.db-journal"
  # the store still holds the run, complete
  run report --db tally.db
  expect_rc 0
  expect_line_re() { grep -qE -- "$1" "$WORK/out" || { fail "report lacks /$1/"; echo "stdout: $out"; }; }
  expect_line_re "complete"
  # a second run into the same store, with a symlink to it
  ln -s tally.db "$ROOT/store_link"
  run run --count cycle --interval 100000 --db tally.db --semihost-files rw "$ELF" w:store_link r:store_link
  expect_refused "w store_link"
  expect_refused "r store_link"
}

case_store_symlink() {
  # --db (or $TALLY_DB) through a symbolic link: the store is the file the
  # link leads to, protected under every name that reaches it, its side
  # files beside the target included.
  mkdir -p "$ROOT/data"
  ln -s data/real.db "$ROOT/link.db"
  run run --count cycle --interval 100000 --db link.db "$ELF" r:data/real.db r:link.db
  expect_rc 0
  expect_refused "r data/real.db"
  expect_refused "r link.db"
  run run --count cycle --interval 100000 --db link.db --semihost-files rw "$ELF" \
    w:data/real.db u:data/real.db w:data/real.db-journal a:data/real.db-wal
  expect_rc 0
  for p in "w data/real.db" "u data/real.db" "w data/real.db-journal" "a data/real.db-wal"; do
    expect_refused "$p"
  done
  # the environment's store, through a link from outside the directory
  ln -s "$ROOT/data/real.db" "$WORK/env.db"
  TALLY_DB=$WORK/env.db run run --count cycle --interval 100000 --semihost-files rw "$ELF" w:data/real.db r:data/real.db
  expect_rc 0
  expect_refused "w data/real.db"
  expect_refused "r data/real.db"
  # every run is still there, complete
  run report --db data/real.db
  expect_rc 0
  n=$(grep -c complete "$WORK/out")
  [ "$n" -eq 3 ] || fail "the store lists $n complete runs, expected 3"
}

case_trace_rw() {
  # The trace files tally writes, under rw: the guest neither reads,
  # truncates nor appends to them; they hold tally's lines only.
  run run --trace trace.txt --trace-count 50 --cycle-trace ctrace.bin --core tally5 --semihost-files rw "$ELF" \
    w:trace.txt a:trace.txt u:trace.txt r:trace.txt w:ctrace.bin a:ctrace.bin
  expect_rc 0
  for p in "w trace.txt" "a trace.txt" "u trace.txt" "r trace.txt" "w ctrace.bin" "a ctrace.bin"; do
    expect_refused "$p"
  done
  ! grep -q PWNED "$ROOT/trace.txt" "$ROOT/ctrace.bin" || fail "the guest wrote into a trace"
  n=$(grep -vc '^#' "$ROOT/trace.txt")   # the header, then one line per instruction
  [ "$n" -eq 50 ] || fail "trace.txt has $n instruction lines, expected 50"
  # a trace reached through a link, and a --stats-json output made after the run
  ln -s trace.txt "$ROOT/trace_link"
  run run --trace trace_link --trace-count 5 --stats-json stats.json --core tally5 --semihost-files rw "$ELF" \
    w:trace.txt r:trace_link w:stats.json
  expect_rc 0
  expect_refused "w trace.txt"
  expect_refused "r trace_link"
  expect_refused "w stats.json"
  grep -q '^{' "$ROOT/stats.json" || fail "stats.json is not tally's"
}

case_key_read() {
  # The --key file, under the default policy (read): never the guest's,
  # neither by its name nor through a link to it.
  printf 'SECRETKEY0123456789abcdef' >"$ROOT/run.key"
  ln -s run.key "$ROOT/key_link"
  run run --collector 127.0.0.1:9 --key run.key --count cycle --interval 100000 "$ELF" r:run.key r:key_link
  expect_refused "r run.key"
  expect_refused "r key_link"
  ! grep -q SECRETKEY "$WORK/out" || fail "the guest read the key"
}

case_devices() {
  # With the whole filesystem as root, devices, FIFOs and /proc stay out.
  run run --semihost-root / --semihost-files rw "$ELF" r:dev/zero u:dev/null r:proc/self/environ u:proc/self/mem \
    r:sys/kernel/hostname
  expect_rc 0
  for p in "r dev/zero" "u dev/null" "r proc/self/environ" "u proc/self/mem" "r sys/kernel/hostname"; do
    expect_refused "$p"
  done
}

case_bad_root() {
  run run --semihost-root "$WORK/missing" "$ELF" r:notes.txt
  expect_rc 66
  expect_err "--semihost-root.*$WORK/missing"
  run run --semihost-root "$ROOT/notes.txt" "$ELF" r:notes.txt
  expect_rc 66
  expect_err "not a directory"
  run run --semihost-files all "$ELF"
  expect_rc 64
  expect_err "--semihost-files wants none, read or rw"
}

case_"$CASE"
[ "$fails" -eq 0 ] && echo "ok: $CASE" || exit 1
