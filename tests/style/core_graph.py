#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""
core_graph.py - fails when the core's files call or include each other in a circle.

Call graph: for every object file of libdoca_common built from src/core/ or src/ctxmods/
(meson's object dir, found from the library file), `nm` gives the symbols it defines and the
ones it leaves undefined; file A -> file B when A uses a symbol B defines. Include graph: file
-> file for each #include "..." among those directories' .c and .h files. Any strongly
connected component of more than one file, in either graph, is printed and fails the test.

usage: core_graph.py SRC_DIR LIBDOCA_COMMON_PATH   (exit 0: no circle, 1: a circle, 77: no nm)
"""
import os
import re
import shutil
import subprocess
import sys

DIRS = ("core", "ctxmods")


def sccs(nodes, edges):
    """Tarjan's algorithm, iterative; returns the components of more than one node."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def object_files(lib):
    objdir = lib + ".p"
    if not os.path.isdir(objdir):
        cands = [d for d in os.listdir(os.path.dirname(lib)) if d.startswith(os.path.basename(lib)) and d.endswith(".p")]
        if not cands:
            sys.exit("core_graph: no object directory next to %s" % lib)
        objdir = os.path.join(os.path.dirname(lib), cands[0])
    objs = {}
    for name in os.listdir(objdir):
        for d in DIRS:
            pre = ".._" + d + "_"
            if name.startswith(pre) and name.endswith(".c.o"):
                objs[d + "/" + name[len(pre):-2]] = os.path.join(objdir, name)
    return objs


def nm(path):
    out = subprocess.run(["nm", path], check=True, capture_output=True, text=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == "U":
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in "TDBRVWGS" and parts[1].isupper():
            defined.add(parts[2])
    return defined, undefined


def call_graph(objs):
    syms = {f: nm(p) for f, p in objs.items()}
    owner = {}
    for f, (d, _) in syms.items():
        for s in d:
            owner[s] = f
    edges = {f: set() for f in objs}
    for f, (_, u) in syms.items():
        for s in u:
            if s in owner and owner[s] != f:
                edges[f].add(owner[s])
    return edges


INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def include_graph(src):
    files = {}
    for d in DIRS:
        p = os.path.join(src, d)
        if not os.path.isdir(p):
            continue
        for n in sorted(os.listdir(p)):
            if n.endswith((".c", ".h")):
                files[d + "/" + n] = os.path.join(p, n)
    byname = {}
    for f in files:
        byname.setdefault(os.path.basename(f), f)
    edges = {f: set() for f in files}
    for f, p in files.items():
        with open(p, encoding="utf-8") as fh:
            text = fh.read()
        for inc in INC.findall(text):
            local = os.path.normpath(os.path.join(os.path.dirname(f), inc))
            if local in files:
                edges[f].add(local)
            elif os.path.basename(inc) in byname and "/" not in inc:
                edges[f].add(byname[inc])
    return edges


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, lib = sys.argv[1], sys.argv[2]
    if shutil.which("nm") is None:
        print("core_graph: no nm on this machine: skip")
        return 77
    objs = object_files(lib)
    if len(objs) < 5:
        sys.exit("core_graph: only %d core object files found for %s" % (len(objs), lib))
    calls = call_graph(objs)
    incs = include_graph(src)
    bad = 0
    for kind, edges in (("call", calls), ("include", incs)):
        for comp in sccs(set(edges), edges):
            bad += 1
            print("core_graph: %s circle among %s; make one of them depend on the others only "
                  "through a hook they register (see docs/architecture.md)" % (kind, " ".join(comp)))
            for f in comp:
                print("  %s -> %s" % (f, " ".join(sorted(e for e in edges[f] if e in comp))))
    print("core_graph: %d object files, %d source files, %d circle(s)" % (len(objs), len(incs), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
