"""What the bench scripts share: the host and tool description at the top of
what they write, and the sections of bench/results.md, which several
scripts write into one file without overwriting each other's part.
Standard library only.
"""
import os
import platform
import subprocess


def first_line(cmd):
    """The first line cmd prints (a --version banner), or "unknown": a
    missing tool must not stop a benchmark."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        text = (p.stdout or p.stderr).strip()
        return text.splitlines()[0] if text else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def section_span(text, heading):
    """(begin, end) of the section under the "## ..." line heading: from
    that line to the next "## " line or the end of text; None if absent.
    The heading is looked for after a newline, so the file's first line
    (the "# ..." title of bench/run.py's part) never matches."""
    start = text.find("\n" + heading + "\n")
    if start < 0:
        return None
    nxt = text.find("\n## ", start + len(heading) + 2)
    return start + 1, (nxt + 1 if nxt >= 0 else len(text))


def kept_sections(path, headings):
    """The sections of the file at path under headings, in the order they
    stand there, each ending in one newline; "" if there are none."""
    try:
        with open(path) as f:
            text = f.read()
    except OSError:
        return ""
    spans = sorted(s for s in (section_span(text, h) for h in headings) if s)
    return "\n".join(text[b:e].rstrip() + "\n" for b, e in spans)


def write_section(path, heading, section):
    """Puts section (starting with its heading line) in place of the file's
    section under heading, or at the end; the rest stays as it is."""
    text = open(path).read() if os.path.exists(path) else ""
    span = section_span(text, heading)
    if span:
        b, e = span
        text = text[:b] + section + ("\n" + text[e:] if e < len(text) else "")
    else:
        text = text.rstrip() + "\n\n" + section
    with open(path, "w") as f:
        f.write(text.rstrip() + "\n")
