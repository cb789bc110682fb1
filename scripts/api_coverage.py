#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Which DOCA symbols of a reference softdoca still lacks.

usage: scripts/api_coverage.py REFERENCE_DIR [--build BUILD_DIR] [--modules core,dma,comch]

REFERENCE_DIR holds the API reference in Markdown: an INDEX.md whose table rows are
| `symbol` | kind | `header` | ... and per-library pages whose entries start with
#### `symbol` followed by a **Header:** `name.h` · **Kind:** kind line. Every symbol of the
chosen modules is looked up in include/ (declared: the name appears as a word outside
comments) and, for functions, with --build, in the exported symbols of the built libraries
(implemented). Prints one line per missing symbol and a summary per header; exits 0.
"""
import argparse
import os
import re
import subprocess
import sys

MODULES = {
    "core": re.compile(r"^doca_(buf|buf_inventory|buf_array|ctx|dev|error|types|compat|version|build_config|"
                       r"mmap|mmap_advise|pe|graph|log|bitfield|sync_event|clock)\.h$"),
    "dma": re.compile(r"^doca_dma\.h$"),
    "comch": re.compile(r"^doca_comch(_producer|_consumer)?\.h$"),
    "argp": re.compile(r"^doca_argp\.h$"),
}

ROW = re.compile(r"^\|\s*`([A-Za-z_][A-Za-z0-9_]*)`\s*\|\s*(\w+)\s*\|\s*`([a-z0-9_]+\.(?:h|cuh))`")
HEAD = re.compile(r"^####\s+`([A-Za-z_][A-Za-z0-9_]*)`")
META = re.compile(r"\*\*Header:\*\*\s*`([a-z0-9_]+\.(?:h|cuh))`(?:.*\*\*Kind:\*\*\s*([a-z ]+))?")
KINDS = {"fn": "function", "dfn": "function", "ty": "type", "k": "constant", "m": "macro"}


def reference(ref_dir):
    """{symbol: (kind, header)} from INDEX.md and every page's entries."""
    syms = {}
    for name in sorted(os.listdir(ref_dir)):
        if not name.endswith(".md"):
            continue
        lines = open(os.path.join(ref_dir, name), encoding="utf-8").read().splitlines()
        for i, line in enumerate(lines):
            m = ROW.match(line)
            if m:
                syms.setdefault(m.group(1), (KINDS.get(m.group(2), m.group(2)), m.group(3)))
                continue
            m = HEAD.match(line)
            if not m:
                continue
            for nxt in lines[i + 1:i + 6]:
                mm = META.search(nxt)
                if mm:
                    kind = (mm.group(2) or "").strip().split(" ")[0] or "symbol"
                    syms.setdefault(m.group(1), (kind, mm.group(1)))
                    break
    return syms


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def declared_words(inc_dirs):
    """Every word of the headers (outside comments), and the header-inline functions."""
    words, inline = set(), set()
    for d in inc_dirs:
        for root, _, files in os.walk(d):
            for f in files:
                if f.endswith((".h", ".cuh")):
                    text = strip_comments(open(os.path.join(root, f), encoding="utf-8").read())
                    words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
                    inline.update(re.findall(r"static\s+inline[^;{(]*?\b([A-Za-z_]\w*)\s*\(", text))
    return words, inline


def exported(build_dir):
    names = set()
    for root, _, files in os.walk(build_dir):
        for f in files:
            if re.match(r"libdoca_[a-z_]+\.so$", f):
                out = subprocess.run(["nm", "-D", "--defined-only", os.path.join(root, f)],
                                     capture_output=True, text=True, check=False).stdout
                names.update(line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip())
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reference")
    ap.add_argument("--build")
    ap.add_argument("--modules", default="core,dma,comch")
    args = ap.parse_args()
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    mods = [MODULES[m] for m in args.modules.split(",")]
    syms = {s: kh for s, kh in reference(args.reference).items() if any(r.match(kh[1]) for r in mods)}
    incs = [os.path.join(top, "include")]
    if args.build:  # generated headers (doca_version.h, doca_build_config.h)
        incs += [os.path.join(args.build, "include", "dpu"), os.path.join(args.build, "include", "host")]
    words, inline = declared_words([d for d in incs if os.path.isdir(d)])
    if args.build and os.path.isfile(os.path.join(args.build, "include", "doca_version.h")):
        text = strip_comments(open(os.path.join(args.build, "include", "doca_version.h"), encoding="utf-8").read())
        words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))
        inline.update(re.findall(r"static\s+inline[^;{(]*?\b([A-Za-z_]\w*)\s*\(", text))
    libs = exported(args.build) if args.build else None
    per_header = {}
    for sym in sorted(syms, key=lambda s: (syms[s][1], s)):
        kind, header = syms[sym]
        total, missing = per_header.setdefault(header, [0, 0])
        per_header[header][0] += 1
        why = None
        if sym not in words:
            why = "not declared"
        elif libs is not None and kind == "function" and sym not in libs and sym not in inline:
            why = "declared, not exported by any library"
        if why:
            per_header[header][1] += 1
            print(f"{header}: {sym} ({kind}): {why}")
    print()
    t = m = 0
    for header, (total, missing) in sorted(per_header.items()):
        print(f"{header:28} {total - missing:4}/{total:<4} present")
        t += total
        m += missing
    print(f"{'all':28} {t - m:4}/{t:<4} present, {m} missing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
