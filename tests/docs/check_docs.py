#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""check_docs.py SRCDIR [links|env|headers] - the documentation says what the tree has.

links:   every relative link in README.md and docs/*.md names a file that exists, and its
         #anchor, where it gives one, a heading of that file (GitHub's anchors: lower case,
         punctuation dropped, spaces to '-', '-1', '-2' for repeats). Links inside code are not
         links. A link to a directory is fine; http(s) and mailto links are not checked.
env:     every SOFTDOCA_* variable the code reads (getenv()/secure_getenv() of a literal name in
         C, "${SOFTDOCA_..." in shell, os.environ/os.getenv in Python, under src/ tools/ apps/
         bench/ examples/ scripts/ and the top-level scripts) is documented exactly once in
         docs/config.md, as a table row whose first cell names it or as a heading; and
         config.md names no SOFTDOCA_* variable the code does not read, nor does any other page
         (linker version nodes such as SOFTDOCA_PRIVATE excepted).
headers: no public header (include/) makes a promise the code no longer keeps: each phrase of
         STALE below is a sentence that was true once and is not now (GPU data paths that work,
         functions that exist).
Without an argument, all three. Exit 0 when all hold, 1 with one line per fault otherwise.
"""
import os
import re
import sys

# Phrases that must not come back into include/: each was in a header after the call worked.
# (lower case; matched against the header's text with runs of whitespace and '*' folded.)
STALE = [
    # doca_ctx.h, doca_dma.h: doca_ctx_set_datapath_on_gpu() and doca_dma_get_gpu_handle() work
    # (src/core/ctx.c, src/dma/dma_gpu.c)
    "until softdoca has a gpu engine",
    "until softdoca has a gpu",
    # doca_eth_rxq.h, doca_eth_txq.h: GPU queues have handles (src/eth/rxq_gpu.c, txq_gpu.c)
    "not_supported: no gpu data path",
    "or the gpu data path)",
    # doca_eth_txq.h: wait-on-time is NATIVE on GPU send queues (src/eth/txq.c, txq_gpu.c)
    "no wait-on-time on the software nic",
    "always doca_eth_wait_on_time_type_none",
    # words of a promise: what a header says must be what the call does now
    "not implemented yet",
    "not yet implemented",
    "not supported yet",
]

# tests/packaging: the step test.sh runs last reads its own switch.
CODE_DIRS = ["src", "tools", "apps", "bench", "examples", "scripts", "tests/packaging"]
TOP_SCRIPTS = ["demo.sh", "test.sh"]

C_READ = re.compile(r'\b(?:secure_)?getenv\s*\(\s*"(SOFTDOCA_[A-Z0-9_]+)"')
SH_READ = re.compile(r'\$\{?(SOFTDOCA_[A-Z0-9_]+)')
PY_READ = re.compile(r'''(?:environ\s*(?:\.get\s*\(|\[)|getenv\s*\()\s*["'](SOFTDOCA_[A-Z0-9_]+)''')
VAR = re.compile(r'SOFTDOCA_[A-Z0-9_]+')


def strip_code(text):
    """Markdown text with fenced code blocks blanked (lines kept) and inline code removed."""
    out, fence = [], None
    for line in text.split("\n"):
        m = re.match(r'^\s*(```+|~~~+)', line)
        if m:
            mark = m.group(1)[0] * 3
            if fence is None:
                fence = mark
            elif mark == fence:
                fence = None
            out.append("")
            continue
        out.append("" if fence else line)
    return "\n".join(out)


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', s)  # a link's text only
    s = re.sub(r'[^\w\- ]', '', s)  # drops punctuation, backticks included; keeps '_' and '-'
    return s.replace(' ', '-')


def anchors(path):
    with open(path, encoding="utf-8") as f:
        text = strip_code(f.read())
    seen, result = {}, set()
    for line in text.split("\n"):
        m = re.match(r'^(#{1,6})\s+(.*?)\s*#*\s*$', line)
        if not m:
            continue
        base = slug(m.group(2))
        n = seen.get(base, 0)
        seen[base] = n + 1
        result.add(base if n == 0 else "%s-%d" % (base, n))
    return result


def check_links(root):
    faults = []
    pages = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
    cache = {}
    for page in pages:
        with open(os.path.join(root, page), encoding="utf-8") as f:
            text = strip_code(f.read())
        text = re.sub(r'`[^`\n]*`', '', text)
        for lineno, line in enumerate(text.split("\n"), 1):
            for target in re.findall(r'\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)', line):
                if re.match(r'^[a-z][a-z0-9+.-]*:', target):  # http:, https:, mailto:
                    continue
                path, _, frag = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                where = "%s:%d: link %s" % (page, lineno, target)
                if not os.path.exists(os.path.join(root, dest)):
                    faults.append("%s: no file %s" % (where, dest))
                    continue
                if frag:
                    if not dest.endswith(".md"):
                        faults.append("%s: an anchor into %s, which is not a markdown page" % (where, dest))
                        continue
                    if dest not in cache:
                        cache[dest] = anchors(os.path.join(root, dest))
                    if frag not in cache[dest]:
                        faults.append("%s: %s has no heading #%s" % (where, dest, frag))
    return faults, len(pages)


def read_vars(root):
    found = {}
    files = [os.path.join(root, f) for f in TOP_SCRIPTS]
    for d in CODE_DIRS:
        for dirpath, _, names in os.walk(os.path.join(root, d)):
            files += [os.path.join(dirpath, n) for n in names]
    for path in files:
        ext = os.path.splitext(path)[1]
        if ext in (".c", ".h", ".cu", ".cuh", ".cpp"):
            rx = C_READ
        elif ext == ".sh":
            rx = SH_READ
        elif ext == ".py":
            rx = PY_READ
        else:
            continue
        if not os.path.isfile(path):
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for name in rx.findall(f.read()):
                found.setdefault(name, os.path.relpath(path, root))
    return found


def check_env(root):
    faults = []
    read = read_vars(root)
    with open(os.path.join(root, "docs/config.md"), encoding="utf-8") as f:
        text = strip_code(f.read())
    defined = {}
    for line in text.split("\n"):
        names = []
        if re.match(r'^#{1,6}\s', line):
            names = VAR.findall(line)
        elif line.startswith("|"):
            cells = line.strip().strip("|").split("|")
            names = VAR.findall(cells[0]) if cells else []
        for n in set(names):
            defined[n] = defined.get(n, 0) + 1
    mentioned = set(VAR.findall(text))
    for name in sorted(read):
        count = defined.get(name, 0)
        if count != 1:
            faults.append("docs/config.md: %s (read in %s) is documented %d times; document it once, as a table "
                          "row or a heading" % (name, read[name], count))
    for name in sorted(mentioned - set(read)):
        faults.append("docs/config.md: names %s, which no code reads; remove it or read it" % name)
    # The other pages may mention a variable anywhere, but only one that exists. Linker version
    # nodes (SOFTDOCA_PRIVATE in src/*/*.map) are names too, not variables.
    nodes = set()
    for dirpath, _, names in os.walk(os.path.join(root, "src")):
        for n in names:
            if n.endswith(".map"):
                with open(os.path.join(dirpath, n), encoding="utf-8") as f:
                    nodes.update(re.findall(r'^(SOFTDOCA_[A-Z0-9_]+)\s*\{', f.read(), re.M))
    # Compile-time switches a public header tests (#ifdef NAME, defined(NAME)) are names a page
    # may give too (docs/versions.md), but config.md, the page of variables, may not.
    for dirpath, _, names in os.walk(os.path.join(root, "include")):
        for n in names:
            with open(os.path.join(dirpath, n), encoding="utf-8", errors="replace") as f:
                nodes.update(re.findall(r'(?:defined\s*\(\s*|#\s*ifn?def\s+)(SOFTDOCA_[A-Z0-9_]+)', f.read()))
    pages = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
    for page in pages:
        if page == "docs/config.md":
            continue
        with open(os.path.join(root, page), encoding="utf-8") as f:
            for name in sorted(set(VAR.findall(f.read())) - set(read) - nodes):
                faults.append("%s: names %s, which no code reads (a stale or misspelt variable)" % (page, name))
    return faults, len(read)


def check_headers(root):
    faults = []
    inc = os.path.join(root, "include")
    n = 0
    for dirpath, _, names in os.walk(inc):
        for name in sorted(names):
            path = os.path.join(dirpath, name)
            n += 1
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            flat = re.sub(r'[\s*/]+', ' ', text.lower())
            for phrase in STALE:
                if phrase in flat:
                    faults.append("%s: says \"%s\", which is no longer true; say what the call does today" %
                                  (os.path.relpath(path, root), phrase))
    return faults, n


def main():
    if len(sys.argv) < 2:
        print("usage: check_docs.py SRCDIR [links|env|headers]", file=sys.stderr)
        return 2
    root = sys.argv[1]
    which = sys.argv[2:] or ["links", "env", "headers"]
    checks = {"links": (check_links, "pages' relative links resolve"),
              "env": (check_env, "SOFTDOCA_* variables read are each documented once in docs/config.md"),
              "headers": (check_headers, "public headers free of stale promises")}
    bad = 0
    for w in which:
        if w not in checks:
            print("unknown check '%s': use links, env or headers" % w, file=sys.stderr)
            return 2
        faults, n = checks[w][0](root)
        for fault in faults:
            print(fault)
        bad += len(faults)
        print("%s: %d checked, %s" % (w, n, "%d fault(s)" % len(faults) if faults else checks[w][1]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
