#!/usr/bin/env bash
# target/kit/Makefile as a user meets it: a program of their own, in a
# folder of their own, with a warning in it, built by pointing make at the
# kit, and by a copy of the Makefile with TALLY_TARGET set; both run on
# tally with the program's output and status. Usage: check_kit.sh TALLY SOURCE_DIR
set -u
TALLY=$1
SRC=$2
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir -p "$WORK/mine" "$WORK/copy"
cat >"$WORK/mine/hello.c" <<'C'
#include <stdio.h>
int square(int x) { return x * x; }
int main(void) {
  int unused; /* a warning, not an error: the kit does not force -Werror */
  printf("hello %d\n", square(6) + 6);
  return 3;
}
C
cp "$WORK/mine/hello.c" "$WORK/copy/"
make -C "$WORK/mine" -f "$SRC/target/kit/Makefile" >"$WORK/make.log" 2>&1 || { cat "$WORK/make.log"; fail "make with the kit"; }
grep -q "unused variable" "$WORK/make.log" || fail "the warning was not shown: $(cat "$WORK/make.log")"
cp "$SRC/target/kit/Makefile" "$WORK/copy/Makefile"
make -C "$WORK/copy" TALLY_TARGET="$SRC/target" PROG=greet >"$WORK/make2.log" 2>&1 || { cat "$WORK/make2.log"; fail "make with a copy"; }
for elf in "$WORK/mine/hello.elf" "$WORK/copy/greet.elf"; do
  out=$("$TALLY" run "$elf" 2>"$WORK/err"); rc=$?
  [ "$rc" -eq 3 ] && [ "$out" = "hello 42" ] || fail "$elf: status $rc, output '$out': $(cat "$WORK/err")"
done
# with -g the profile has source lines: main's line is found
"$TALLY" profile --lines "$WORK/mine/hello.elf" >"$WORK/prof" 2>&1 || [ $? -eq 3 ] || fail "tally profile --lines"
grep -q "hello.c:5" "$WORK/prof" || fail "no line hello.c:5 in the profile"
[ -f "$WORK/mine/hello.map" ] || fail "no map file"
# a copy without TALLY_TARGET says what to set
make -C "$WORK/copy" TALLY_TARGET="$WORK/nowhere" >"$WORK/make3.log" 2>&1 && fail "make without the kit's folder succeeded"
grep -q "set TALLY_TARGET" "$WORK/make3.log" || fail "no hint to set TALLY_TARGET: $(cat "$WORK/make3.log")"
if [ "$fails" -eq 0 ]; then echo "kit: ok"; exit 0; fi
echo "kit: $fails check(s) failed"
exit 1
