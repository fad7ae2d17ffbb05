#!/bin/sh
# run_dvfs_svg.sh TALLY PHASETEST.elf
# tally dvfs --svg on phasetest.elf, with run_dvfs_regions.sh's options
# (loops A and B chosen by the descent) and with run_dvfs.sh's (function
# regions) on a copy whose phase_kernel symbol is renamed to k<&>"'x
# (objcopy --redefine-sym: a name from the ELF full of XML's special
# characters). Checked:
# - --help names --svg; a path in a missing folder and a folder as the
#   path exit 73 before any run (no OUT.elf, no SVG left behind);
# - the SVG parses as XML (python3 xml.etree) and the renamed symbol comes
#   back from the parser exactly, while the file never holds it raw;
# - the law of the picture, against the numbers of the report's text (not
#   the SVG's own labels): in the measured panel one bar per row of the
#   report's measured table, column (time, energy) and program (original,
#   DVFS'd), every bar's height proportional to 100% + the percentage the
#   report prints for that row and column (100% for the original's), all
#   the original's bars the same height, all bars on one base line; the
#   same in the references panel against the report's references lines.
set -eu
tally=$1
command -v riscv64-unknown-elf-gcc >/dev/null 2>&1 || { echo "no cross compiler for tally inst: skipped"; exit 77; }
command -v riscv64-unknown-elf-objcopy >/dev/null 2>&1 || { echo "no objcopy: skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
elf=$dir/orig.elf
cp "$2" "$elf"
fail() { echo "FAIL: $*"; exit 1; }
status() { set +e; "$@" >"$dir/cli.out" 2>&1; s=$?; set -e; echo $s; }

[ "$(status "$tally" dvfs --help)" = 0 ] || fail "--help"
grep -q -- "--svg FILE" "$dir/cli.out" || fail "--help does not name --svg"
[ "$(status "$tally" dvfs --svg "$dir/missing/x.svg" "$elf" -o "$dir/x.elf")" = 73 ] ||
  { cat "$dir/cli.out"; fail "--svg in a missing folder: want 73"; }
grep -q "missing/x.svg" "$dir/cli.out" || fail "the error does not name the file"
mkdir "$dir/folder"
[ "$(status "$tally" dvfs --svg "$dir/folder" "$elf" -o "$dir/x.elf")" = 73 ] || fail "--svg a folder: want 73"
[ ! -e "$dir/x.elf" ] && [ ! -e "$dir/missing" ] && [ -z "$(ls "$dir/folder")" ] ||
  fail "something was left behind after a refused --svg"

opts="--core dsp500 --min-misses 40 --min-mpc 0.004 --min-relocks 0 --max-slowdown 100"
"$tally" dvfs $opts --descent-only --svg "$dir/loops.svg" "$elf" -o "$dir/loops.elf" >"$dir/loops.txt" ||
  { cat "$dir/loops.txt"; fail "tally dvfs --svg (loops)"; }
weird='k<&>"'"'"'x'
riscv64-unknown-elf-objcopy --redefine-sym "phase_kernel=$weird" "$elf" "$dir/weird.elf"
forced="--core dsp500 --regions functions --no-oracle --min-misses 50 --min-mpc 0.004 --min-relocks 0 --max-slowdown 100"
"$tally" dvfs $forced --no-readd --svg "$dir/weird.svg" "$dir/weird.elf" -o "$dir/weird-dvfs.elf" \
  >"$dir/weird.txt" || { cat "$dir/weird.txt"; fail "tally dvfs --svg (renamed symbol)"; }
grep -qF "$weird" "$dir/weird.txt" || { cat "$dir/weird.txt"; fail "the renamed function was not chosen"; }
! grep -qF "$weird" "$dir/weird.svg" || fail "the SVG holds the name unescaped"

python3 - "$dir" "$weird" <<'PY'
import re, sys
import xml.etree.ElementTree as ET
d, weird = sys.argv[1], sys.argv[2]
NS = "{http://www.w3.org/2000/svg}"
fails = []

def report_rows(txt):
    """(measured rows, reference rows): (time %, energy %) of each, from the text."""
    lines = open(txt).read().split("\n")
    i = next(k for k, l in enumerate(lines) if l.startswith("measured on tally"))
    measured = []
    for l in lines[i + 4:]:
        if l.startswith("references"):
            break
        t, e = l.split()[-2:]
        measured.append((100 + float(t.rstrip("%")), 100 + float(e.rstrip("%"))))
    refs = []
    for l in lines[lines.index("references (whole run):") + 1:]:
        if not l.startswith("  ") or "points:" in l or "saves" in l:
            break
        m = re.search(r"time +([-+][0-9.]+)%  energy +([-+][0-9.]+)%", l)
        refs.append((100 + float(m.group(1)), 100 + float(m.group(2))) if m else (100.0, 100.0))
    return measured, refs

def check(name, svg, txt, oracle):
    root = ET.parse(svg).getroot()  # raises on a file that is not XML
    measured, refs = report_rows(txt)
    if not oracle:
        refs = refs[:-1]  # the report's oracle line stands for the tool's choice; the picture leaves it out
    bars = [r for r in root.iter(NS + "rect") if r.get("data-panel")]
    for panel, rows, which in (("measured", measured, ("original", "dvfs")), ("refs", refs, ("ref",))):
        pb = [b for b in bars if b.get("data-panel") == panel]
        if len(pb) != 2 * len(which) * len(rows):
            fails.append("%s %s: %d bars for %d report rows" % (name, panel, len(pb), len(rows)))
            continue
        base = {round(float(b.get("y")) + float(b.get("height")), 3) for b in pb}
        if len(base) != 1:
            fails.append("%s %s: bars on different base lines %s" % (name, panel, base))
        hundred = [float(b.get("height")) for b in pb if b.get("data-which") == "original"] or \
                  [float(b.get("height")) for b in pb if b.get("data-row") == "0"]
        if max(hundred) - min(hundred) > 1e-9:
            fails.append("%s %s: the 100%% bars differ in height %s" % (name, panel, hundred))
        k = hundred[0] / 100  # pixels per percent
        for b in pb:
            row, col = int(b.get("data-row")), 0 if b.get("data-what") == "time" else 1
            want = 100.0 if b.get("data-which") == "original" else rows[row][col]
            h = float(b.get("height"))
            # the report prints 2 decimals: +-0.005 percentage points
            if abs(h - k * want) > k * 0.0051 + 1e-3:
                fails.append("%s %s row %d %s %s: height %.4f, want %.4f (%.2f%%)" % (
                    name, panel, row, b.get("data-what"), b.get("data-which"), h, k * want, want))
    texts = ["".join(t.itertext()) for t in root.iter()]
    return texts

check("loops", d + "/loops.svg", d + "/loops.txt", True)
texts = check("renamed", d + "/weird.svg", d + "/weird.txt", False)
if not any(t == weird for t in texts) or not any(t.startswith(weird + ",") for t in texts):
    fails.append("the renamed symbol %r does not come back from the XML parser as a label and a title" % weird)
if fails:
    print("\n".join(fails))
    sys.exit(1)
print("svg ok")
PY
