#!/usr/bin/env python3
"""A manual page (man(7) roff) from one of docs/*.md, for `cmake --install`.

Usage: md2man.py PAGE.md NAME SECTION OUT

The docs are plain Markdown: headings, paragraphs, lists, tables and code
blocks. Headings become sections (.SH, .SS), code blocks are shown as they
are (.nf/.fi), a table's rows become indented paragraphs, and inline
markup is dropped to its text (links keep their text, code its words)."""
import re
import sys


def escape(text):
    text = text.replace("\\", "\\e")
    # a line starting with . or ' would be a request
    return re.sub(r"^([.'])", r"\\&\1", text)


def inline(text):
    text = text.replace("\\|", "|")                             # a table cell's escaped bar
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)      # [text](link)
    text = re.sub(r"\*\*([^*]+)\*\*", r"\\fB\1\\fR", escape(text))
    text = re.sub(r"`([^`]+)`", r"\\fB\1\\fR", text)
    text = re.sub(r"(?<![\w*])\*([^*\s][^*]*)\*(?![\w*])", r"\\fI\1\\fR", text)
    return text


def convert(lines, name, section):
    out = [f'.TH "{name.upper()}" "{section}" "" "tally" "tally manual"']
    in_code = False
    for line in lines:
        line = line.rstrip("\n")
        if line.startswith("```"):
            out.append(".fi" if in_code else ".nf")
            in_code = not in_code
            continue
        if in_code:
            out.append(escape(line))
            continue
        m = re.match(r"^(#+)\s+(.*)$", line)
        if m:
            level = len(m.group(1))
            title = inline(m.group(2))
            out.append(f'.SH "{title.upper()}"' if level <= 2 else f'.SS "{title}"')
            continue
        if re.match(r"^\|[-| :]+\|$", line):
            continue                                           # a table's rule
        if line.startswith("|"):
            cells = [inline(c.strip()) for c in line.strip("|").split(" | ")]
            out.append(".TP")
            out.append(cells[0])
            out.append(" \\(em ".join(cells[1:]) if len(cells) > 1 else "")
            continue
        m = re.match(r"^\s*(?:[-*]|\d+\.)\s+(.*)$", line)
        if m:
            out.append(".IP \\(bu 2")
            out.append(inline(m.group(1)))
            continue
        if not line.strip():
            out.append(".PP")
            continue
        out.append(inline(line.strip()))
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        return 64
    src, name, section, dst = sys.argv[1:]
    with open(src, encoding="utf-8") as f:
        page = convert(f.readlines(), name, section)
    with open(dst, "w", encoding="utf-8") as f:
        f.write(page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
