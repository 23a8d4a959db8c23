#!/usr/bin/env python3
"""Checks that code quoted in the docs is the code that is compiled.

A fenced block in a Markdown file preceded by the line

    <!-- snippet: PATH NAME -->

must equal the lines of PATH (relative to --root) between `// [NAME]` and
`// [end NAME]`, with their common indentation removed. In a file where
`<!-- snippets: all -->` appears, every ```cpp block must be such a quote.
Exits 1 and names each mismatch.
"""

import argparse
import difflib
import os
import re
import sys

MARK = re.compile(r"^<!-- snippet: (\S+) (\S+) -->\s*$")


def region(path, name):
    lines = open(path, encoding="utf-8").read().splitlines()
    begin = [i for i, l in enumerate(lines) if l.strip() == f"// [{name}]"]
    end = [i for i, l in enumerate(lines) if l.strip() == f"// [end {name}]"]
    if len(begin) != 1 or len(end) != 1 or end[0] <= begin[0]:
        return None
    body = lines[begin[0] + 1:end[0]]
    indent = min((len(l) - len(l.lstrip()) for l in body if l.strip()),
                 default=0)
    return [l[indent:] for l in body]


def blocks(lines):
    """(index of the line before the fence, language, body) per block."""
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\w*)\s*$", lines[i])
        if m:
            j = i + 1
            while j < len(lines) and lines[j].rstrip() != "```":
                j += 1
            yield i - 1, m.group(1), lines[i + 1:j]
            i = j
        i += 1


def check(root, doc):
    lines = open(os.path.join(root, doc), encoding="utf-8").read().splitlines()
    want_all = "<!-- snippets: all -->" in lines
    errors, quoted = [], 0
    for before, lang, body in blocks(lines):
        m = MARK.match(lines[before]) if before >= 0 else None
        if not m:
            if want_all and lang == "cpp":
                errors.append(f"{doc}:{before + 2}: a cpp block that quotes "
                              "no source (add <!-- snippet: PATH NAME -->)")
            continue
        path, name = m.group(1), m.group(2)
        source = region(os.path.join(root, path), name)
        if source is None:
            errors.append(f"{doc}:{before + 1}: no region [{name}] in {path}")
            continue
        quoted += 1
        if body != source:
            diff = "\n".join(difflib.unified_diff(
                source, body, f"{path} [{name}]", doc, lineterm=""))
            errors.append(f"{doc}:{before + 1}: differs from {path} "
                          f"[{name}]:\n{diff}")
    return errors, quoted


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=".")
    parser.add_argument("docs", nargs="+")
    args = parser.parse_args()
    failed = False
    for doc in args.docs:
        errors, quoted = check(args.root, doc)
        for e in errors:
            print(e)
        failed |= bool(errors)
        print(f"{doc}: {quoted} snippets checked, {len(errors)} problems")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
