#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""help2man.py - a program's --help text becomes its man page and its bash completion.

    help2man.py man  PROGRAM NAME SECTION VERSION OUT [EXTRA]   # troff man page
    help2man.py bash PROGRAM NAME OUT                           # bash completion (complete -F)

The --help text is the single source: softdoca's tools print it in man-page shape (NAME,
SYNOPSIS, DESCRIPTION, OPTIONS, EXIT STATUS ... headings at column 0, indented bodies); programs
built on doca_argp print "Usage: ..." followed by "DOCA Flags:" / "Program Flags:" groups. Option
lines look like "  -p, --pci-addr ADDR   description" in both. Nothing is invented: a page holds
what --help says, with the version and date of this build, and the sections of EXTRA (man-shaped
text, for a program whose --help is doca_argp's): its DESCRIPTION after the SYNOPSIS, the others
at the end.
"""
import datetime
import os
import re
import subprocess
import sys

OPT = re.compile(r"^\s{1,8}((?:-[A-Za-z0-9],\s*)?--?[A-Za-z0-9][-A-Za-z0-9_]*(?:[ =]<?[A-Za-z][-A-Za-z0-9_.|]*>?)?(?:\s*\|\s*--?[a-z][-a-z]*)?)\s{2,}(.*)$")


def help_text(program):
    env = dict(os.environ)
    env.setdefault("DOCA_LOG_LEVEL", "disable")
    r = subprocess.run([program, "--help"], capture_output=True, text=True, env=env, timeout=30)
    text = r.stdout if r.stdout.strip() else r.stderr
    if not text.strip():
        sys.exit(f"help2man: {program} --help printed nothing")
    return text


def esc(s):
    s = s.replace("\\", "\\e")
    s = re.sub(r"^([.'])", r"\\&\1", s)
    return s.replace("-", "\\-")


def sections(text, name):
    """[(heading, [lines])]: man-shaped help as is; argp help mapped to SYNOPSIS + OPTIONS."""
    lines = text.rstrip("\n").split("\n")
    out = []
    if lines and lines[0].startswith("Usage:"):
        out.append(("NAME", [f"    {name} - {argp_summary(name)}"]))
        out.append(("SYNOPSIS", ["    " + lines[0][len("Usage:"):].strip()]))
        cur = None
        for l in lines[1:]:
            if re.match(r"^[A-Z][A-Za-z ]+:$", l):
                cur = (l[:-1].upper(), [])
                out.append(cur)
            elif cur is not None:
                cur[1].append(l)
        return out
    cur = None
    for l in lines:
        if re.match(r"^[A-Z][A-Z ]+$", l):
            cur = (l.strip(), [])
            out.append(cur)
        elif cur is not None:
            cur[1].append(l)
    return out


def argp_summary(name):
    known = {"doca_dma_copy": "copy a file between the host and the DPU with DOCA DMA"}
    return known.get(name, "a softdoca program")


def options(text):
    """Every option the text names: long ones anywhere (synopsis too), short ones on option lines."""
    opts = set(re.findall(r"(?<![\w-])--[a-z][-a-z0-9]*", text))
    for l in text.split("\n"):
        m = OPT.match(l)
        if m:
            opts.update(re.findall(r"(?<![\w-])-[A-Za-z0-9](?![\w-])", m.group(1)))
    return sorted(opts)


def man(program, name, section, version, out, extra=None):
    text = help_text(program)
    secs = sections(text, name)
    if extra:
        with open(extra) as f:
            more = sections(f.read(), name)
        at = next((i + 1 for i, (h, _) in enumerate(secs) if h == "SYNOPSIS"), len(secs))
        secs = secs[:at] + [x for x in more if x[0] == "DESCRIPTION"] + secs[at:] + \
            [x for x in more if x[0] != "DESCRIPTION"]
    date = datetime.date.fromtimestamp(int(os.environ.get("SOURCE_DATE_EPOCH", "0")) or None).isoformat() \
        if os.environ.get("SOURCE_DATE_EPOCH") else datetime.date.today().isoformat()
    r = [f'.TH "{name.upper()}" "{section}" "{date}" "softdoca {version}" "softdoca manual"']
    for head, body in secs:
        r.append(f".SH {esc(head)}")
        para = []
        in_opt = False
        for l in body:
            m = OPT.match(l)
            if m:
                if para:
                    r.append(esc(" ".join(para)))
                    para = []
                r.append(".TP")
                r.append(f"\\fB{esc(m.group(1).strip())}\\fR")
                r.append(esc(m.group(2).strip()))
                in_opt = True
            elif l.strip() == "":
                if para:
                    r.append(esc(" ".join(para)))
                    para = []
                r.append(".PP")
                in_opt = False
            elif in_opt and len(l) - len(l.lstrip()) >= 10:
                r.append(esc(l.strip()))  # an option's description goes on
            elif head == "SYNOPSIS":
                r.append(".br")
                r.append(f"\\fB{esc(l.strip())}\\fR")
            else:
                in_opt = False
                para.append(l.strip())
        if para:
            r.append(esc(" ".join(para)))
    r.append(".SH SEE ALSO")
    r.append("doca_caps(1), doca\\-env(1), softdoca\\-trace(1); the README of softdoca")
    with open(out, "w") as f:
        f.write("\n".join(x for x in r if x is not None) + "\n")


def option_values(text):
    """{option: kind} for every option the text shows with a value: 'pci' (a device address),
    'file' (a path), 'choice W1 W2 ...' (a synopsis lists the words: "--proto udp|tcp") or 'word'
    (anything else: nothing to complete). Option lines give the value
    after the names ("-f, --file <str>", "-j, --json FILE"); a synopsis may too ("--diff B.json").
    Each line is judged whole, so that a short name goes with its long one."""
    groups = []
    for l in text.split("\n"):
        m = OPT.match(l)
        if m:
            toks = [t for t in re.split(r"[,\s|]+", m.group(1).strip()) if t]
            values = [t for t in toks if not t.startswith("-")]
            if values:
                groups.append(([t for t in toks if t.startswith("-")], values[0]))
    for n, v in re.findall(r"(?<![\w-])(--[a-z][-a-z0-9]*)[ =](<[a-z]+>|[A-Z][A-Za-z0-9_.:]*)", text):
        if not any(n in names for names, _ in groups):
            groups.append(([n], v))
    choices = {n: v.split("|") for n, v in
               re.findall(r"(?<![\w-])(--[a-z][-a-z0-9]*)[ =]([a-z0-9]+(?:\|[a-z0-9]+)+)\b", text)}
    kinds = {}
    for names, v in groups:
        listed = [choices[n] for n in names if n in choices]
        if listed:
            kind = "choice " + " ".join(listed[0])
        elif {"--pci-addr", "--rep-pci"} & set(names):
            kind = "pci"
        elif re.search(r"file|path|dir|\.json", v, re.I) or {"--file", "--dest", "--diff"} & set(names):
            kind = "file"
        else:
            kind = "word"
        for n in names:
            kinds[n] = kind
    return kinds


def subcommands(text, name):
    """The words a synopsis puts right after the program's name ("softdoca-wire send -p PCI"):
    a program with subcommands takes one of them first."""
    syn = "\n".join(dict(sections(text, name)).get("SYNOPSIS", []))
    return sorted(set(re.findall(rf"^\s*{re.escape(name)} ([a-z][a-z0-9-]*)\b", syn, re.M)))


def bash(program, name, out):
    text = help_text(program)
    opts = options(text)
    kinds = option_values(text)
    fn = "_softdoca_" + re.sub(r"[^A-Za-z0-9]", "_", name)
    actions = {
        "pci": "COMPREPLY=($(compgen -W \"$(doca_caps --list-devs 2>/dev/null | "
               "sed -n 's/^\\(PCI: \\)\\{0,1\\}\\([0-9a-f:.]*\\).*/\\2/p')\" -- \"$cur\"))",
        "file": "COMPREPLY=($(compgen -f -- \"$cur\"))",
        "word": "COMPREPLY=()",
    }
    for kind in set(kinds.values()):
        if kind.startswith("choice "):
            actions[kind] = f"COMPREPLY=($(compgen -W \"{kind[7:]}\" -- \"$cur\"))"
    cases = ""
    for kind in sorted(actions):
        names = sorted(n for n, k in kinds.items() if k == kind)
        if names:
            cases += f"\t{'|'.join(names)})\n\t\t{actions[kind]}\n\t\treturn ;;\n"
    subs = subcommands(text, name)
    first = (f"\tif [[ $COMP_CWORD == 1 && $cur != -* ]]; then\n"
             f"\t\tCOMPREPLY=($(compgen -W \"{' '.join(subs)}\" -- \"$cur\"))\n\t\treturn\n\tfi\n"
             if subs else "")
    body = f"""# bash completion for {name} (generated from `{name} --help` by scripts/help2man.py)
{fn}()
{{
	local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}}
	case $prev in
{cases}	esac
{first}	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "{' '.join(opts)}" -- "$cur"))
	else
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
}}
complete -F {fn} {name}
"""
    with open(out, "w") as f:
        f.write(body)


if __name__ == "__main__":
    if len(sys.argv) in (7, 8) and sys.argv[1] == "man":
        man(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == "bash":
        bash(*sys.argv[2:])
    else:
        sys.exit(__doc__)
