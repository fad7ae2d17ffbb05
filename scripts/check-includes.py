#!/usr/bin/env python3
"""Keeps the layering of the source tree true, from its #include lines.

usage: check-includes.py [ROOT]    (ROOT: the repository, default: this script's parent)
       check-includes.py --self-test

Rules (each folder's README.md states its own line of them):
  * src/FOLDER may include the src/ folders listed for it in MAY_INCLUDE,
    its own headers, include/tally/ and system headers; nothing else.
  * include/tally/ headers include only include/tally/ and system headers.
  * Nothing else outside src/ includes a header under src/ (the tools, the
    web server, tests/api: clients of the public API), except the white-box
    tests, fuzzers and benchmarks of one module's internals listed in
    WHITE_BOX.

Exit status 0 when every #include obeys, 1 otherwise (each breach printed
as FILE:LINE: what it includes and which rule it breaks).
"""
import os
import re
import sys

# src folder -> the src folders it may include (util: small helpers
# every library folder may use). api is the composition root
# (it wires everything behind the public headers); cli is a client of the
# public API like any other program, and so are serve (the web front end)
# and dvfs (a command of the tally executable: its exit statuses and number
# parsing come from cli.h, the engine only through include/tally/).
MAY_INCLUDE = {
    "api": {"board", "core", "loader", "net", "profile", "report", "statmod", "store", "symbols", "textio", "timing", "util"},
    "board": {"core", "textio", "timing", "util"},
    "cli": set(),
    "core": {"timing", "util"},
    "debug": set(),
    "dvfs": {"cli"},
    "inst": {"core", "symbols", "util"},
    "loader": {"core", "symbols", "util"},
    "net": {"statmod", "store", "util"},
    "profile": {"symbols", "timing", "util"},
    "report": {"store", "symbols", "util"},
    "serve": set(),
    "statmod": {"core", "symbols", "timing", "util"},
    "store": {"util"},
    "sweep": set(),
    "symbols": {"textio", "util"},
    "textio": {"util"},
    "util": set(),
    "timing": {"core", "textio", "util"},
}

# Files outside src/ that test one module from the inside (they put src/ on
# their include path on purpose); a prefix matches a folder.
WHITE_BOX = (
    "tests/unit/", "tests/net/", "tests/store/", "tests/statmod/test_statmod.c", "tests/symbols/",
    "tests/profile/entry_bits.c", "tests/profile/bigblock_paths.c", "tests/profile/gmon_scaled.c", "tests/profile/snapshots.c", "tests/dvfs/test_knap.c", "tests/dvfs/test_svg_escape.c", "fuzz/",
    "bench/collector/",
)

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SOURCES = (".c", ".h", ".inc")


def src_folder_of(target, here, root, src_folders):
    """The src/ folder a quoted include lands in, or None (own folder, tally/, system)."""
    resolved = os.path.normpath(os.path.join(os.path.dirname(here), target))
    rel = os.path.relpath(resolved, root)
    parts = rel.split(os.sep)
    if len(parts) >= 3 and parts[0] == "src" and os.path.exists(resolved):
        return parts[1]
    first = target.split("/")[0]
    if "/" in target and first in src_folders:   # "net/proto.h" with src/ on the include path
        return first
    return None


def check(root):
    src = os.path.join(root, "src")
    src_folders = {d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d))}
    unknown = src_folders - set(MAY_INCLUDE)
    breaches = [f"src/{d}: a folder the layering table does not know (add it to MAY_INCLUDE and its README)"
                for d in sorted(unknown)]
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if not d.startswith(".") and d not in ("build", "node_modules")
                       and not d.startswith("build-")]
        for name in filenames:
            if not name.endswith(SOURCES):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.readlines()
            for n, line in enumerate(lines, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                where = src_folder_of(target, path, root, src_folders)
                if rel.startswith("include/tally/"):
                    if not target.startswith("tally/"):
                        breaches.append(f"{rel}:{n}: includes \"{target}\": public headers include only tally/*.h")
                elif rel.startswith("src/"):
                    own = rel.split(os.sep)[1]
                    if where and where != own and where not in MAY_INCLUDE.get(own, set()):
                        breaches.append(f"{rel}:{n}: includes \"{target}\" (src/{where}): src/{own} may include "
                                        f"{', '.join(sorted(MAY_INCLUDE.get(own, ()))) or 'no other src/ folder'}")
                elif where and not rel.startswith(WHITE_BOX):
                    breaches.append(f"{rel}:{n}: includes \"{target}\" (src/{where}): outside src/, only "
                                    f"include/tally/ (white-box tests are listed in WHITE_BOX)")
    return breaches


def self_test():
    """The checker on a small tree with one breach of each rule: it must find exactly those."""
    import tempfile
    with tempfile.TemporaryDirectory() as root:
        files = {
            "src/core/cpu.h": "", "src/net/udp.h": "", "src/store/store.h": "",
            "src/cli/ok.c": '#include "tally/tally.h"\n#include "cli.h"\n',
            "src/cli/bad.c": '#include "../net/udp.h"\n',                 # cli reaches into net
            "src/store/bad.c": '#include "../core/cpu.h"\n',              # store includes core
            "include/tally/bad.h": '#include "../../src/core/cpu.h"\n',   # a public header leaks
            "tests/api/bad.c": '#include "store/store.h"\n',              # a client reaches in
            "tests/unit/ok.c": '#include "store/store.h"\n',              # a white-box test may
        }
        for name, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(root, name), "w") as f:
                f.write(text)
        found = sorted(b.split(":")[0] for b in check(root))
    want = ["include/tally/bad.h", "src/cli/bad.c", "src/store/bad.c", "tests/api/bad.c"]
    print("check-includes self-test:", "ok" if found == want else f"FAILED: found {found}, want {want}")
    return 0 if found == want else 1


def main(argv):
    if len(argv) > 1 and argv[1] == "--self-test":
        return self_test()
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    breaches = check(root)
    for b in breaches:
        print(b)
    print(f"check-includes: {len(breaches)} breach{'es' if len(breaches) != 1 else ''} of the layering")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
