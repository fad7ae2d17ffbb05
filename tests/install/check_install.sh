#!/usr/bin/env bash
# cmake --install as a user does it: the tree holds tally, its core models
# and its manual pages; moved elsewhere, tally still finds the models next to
# it (a model only the installed tree has is found by name), and man renders
# the pages. Usage: check_install.sh BUILD_DIR PROGRAM.elf
set -u
BUILD=$1
ELF=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

cmake --install "$BUILD" --prefix "$WORK/first" >"$WORK/log" 2>&1 || { cat "$WORK/log"; fail "cmake --install"; }
for f in bin/tally share/tally/cores/tally5.ini share/tally/cores/picorv32.ini share/man/man1/tally-run.1 \
         share/man/man1/tally-profile.1 share/man/man7/tally-statmod.7 share/tally/boards/virt.ini \
         share/tally/boards/litex.ini share/man/man7/tally-boards.7; do
  [ -e "$WORK/first/$f" ] || fail "$f not installed"
done
# a model only the installed tree has, and the tree moved after installing
sed 's/^name = sram$/name = probe/' "$WORK/first/share/tally/cores/sram.ini" >"$WORK/first/share/tally/cores/probe.ini"
# ... and a board only the installed tree has (virt's map under another name)
sed 's/^name = virt$/name = probeboard/' "$WORK/first/share/tally/boards/virt.ini" \
  >"$WORK/first/share/tally/boards/probeboard.ini"
mv "$WORK/first" "$WORK/moved"
env -u TALLY_BOARDS_PATH "$WORK/moved/bin/tally" run --board probeboard "$ELF" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ "$rc" -eq 7 ] || fail "tally run --board probeboard: status $rc, expected 7 (the program's): $(cat "$WORK/err")"
env -u TALLY_CORES_PATH "$WORK/moved/bin/tally" run --core probe --stats "$ELF" >"$WORK/out" 2>"$WORK/err"
rc=$?
[ "$rc" -eq 7 ] || fail "tally run --core probe: status $rc, expected 7 (the program's): $(cat "$WORK/err")"
grep -q "probe" "$WORK/err" || fail "the run did not name the core model probe: $(head -3 "$WORK/err")"
# the pages render, with the command's synopsis
MANWIDTH=80 man -l "$WORK/moved/share/man/man1/tally-run.1" >"$WORK/page" 2>"$WORK/man.err" </dev/null || fail "man -l tally-run.1"
grep -q "tally run \[options\] PROGRAM" "$WORK/page" || fail "tally-run.1 lacks the synopsis"
! grep -q '\\fB\|\\e\|\\|' "$WORK/page" || fail "tally-run.1 shows raw markup"
if [ "$fails" -eq 0 ]; then echo "install: ok"; exit 0; fi
echo "install: $fails check(s) failed"
exit 1
