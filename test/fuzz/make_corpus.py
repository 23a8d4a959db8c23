#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora.

  make_corpus.py parse SRC_ROOT OUT_DIR   every lit test and example kernel
      (test/**/*.mlir, examples/**/*.mlir) split on `// -----`, without its
      full-line comments (RUN/CHECK lines), one file per distinct chunk.
  make_corpus.py builder OUT_DIR          kernels for ktc-fuzz-builder in its
      byte encoding (test/fuzz/BuilderFuzzer.cpp): a few written by hand,
      the rest pseudo-random from a fixed seed.

The output is the same on every run; stale files in OUT_DIR are removed.
"""

import hashlib
import pathlib
import random
import sys

MAX_SEED = 16 * 1024  # the parse fuzzer ignores larger inputs


def write_all(out_dir, blobs):
    out = pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    names = set()
    for blob in blobs:
        name = hashlib.sha1(blob).hexdigest()
        names.add(name)
        path = out / name
        if not path.exists() or path.read_bytes() != blob:
            path.write_bytes(blob)
    for old in out.iterdir():
        if old.name not in names:
            old.unlink()
    return len(names)


def parse_seeds(src_root):
    root = pathlib.Path(src_root)
    files = sorted(list((root / "test").rglob("*.mlir")) +
                   list((root / "examples").rglob("*.mlir")))
    blobs = []
    for f in files:
        for chunk in f.read_text().split("// -----"):
            lines = [l for l in chunk.splitlines()
                     if not l.lstrip().startswith("//")]
            text = "\n".join(lines).strip() + "\n"
            if text.strip() and len(text) <= MAX_SEED:
                blobs.append(text.encode())
    return blobs


# The opcodes of BuilderFuzzer.cpp's `enum Op`, in order.
OPS = ["ProgramId", "NumPrograms", "Arange", "Binary", "Unary", "Extremum",
       "Where", "Math", "Cast", "ExpandDims", "BroadcastTo", "Full", "Reduce",
       "Load", "Store", "ForRange", "If", "DeclareVar", "AssignVar", "Cdiv",
       "IllTyped", "Query"]
OP = {name: i for i, name in enumerate(OPS)}

# Header: what (launch = 4, GPU asm too = 7), grid x, grid y, C, B, F, n, m,
# s, flag, then six buffer seeds.
LAUNCH = [4, 1, 0, 3, 1, 0, 12, 12, 0, 1, 5, 6, 7, 8, 9, 10]
GPU = [7, 1, 1, 5, 0, 2, 10, 8, 1, 0, 1, 2, 3, 4, 5, 6]


def program(*ops):
    out = []
    for op in ops:
        if isinstance(op, str):
            out.append(OP[op])
        else:
            out.extend(op)
    return bytes(out)


def builder_seeds():
    hand = [
        # vector add: offsets, two loads, an add, a store
        LAUNCH, program("Arange", [2, 5], "Load", [0, 0, 0],
                        "Load", [1, 1, 0], "Binary", [9, 0, 9, 1, 0]),
        # a masked load with 'other' and a reduction
        LAUNCH, program("Arange", [2, 4], "Binary", [9, 0, 0, 0, 5],
                        "Load", [0, 0, 2, 9, 1, 1, 1], "Reduce", [9, 0, 0, 2]),
        # a loop carrying a Var, then exp
        GPU, program("DeclareVar", [1, 2], "ForRange", [0, 3, 0, 2],
                     "AssignVar", [0, 9, 0], "Math", [9, 0, 0]),
        # 2-D: expand_dims both ways, broadcast, sum over axis 1
        LAUNCH, program("Arange", [2, 3], "ExpandDims", [9, 0, 1],
                        "ExpandDims", [9, 1, 0], "Binary", [9, 0, 9, 1, 0],
                        "Reduce", [9, 0, 2, 2]),
        # if_ on the flag argument, both branches storing
        LAUNCH, program("If", [0, 2, 2], "Store", [5, 0, 1, 0],
                        "Store", [5, 0, 1, 1]),
        # misuse: a pointer plus a float, then an empty Value
        LAUNCH, program("IllTyped", [0, 2], "IllTyped", [0, 4]),
    ]
    blobs = [bytes(hand[i]) + hand[i + 1] for i in range(0, len(hand), 2)]
    rng = random.Random(20240607)
    for _ in range(60):
        header = bytes(rng.randrange(256) for _ in range(16))
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(8, 160)))
        blobs.append(header + body)
    return blobs


def main(argv):
    if len(argv) == 4 and argv[1] == "parse":
        n = write_all(argv[3], parse_seeds(argv[2]))
    elif len(argv) == 3 and argv[1] == "builder":
        n = write_all(argv[2], builder_seeds())
    else:
        sys.exit(__doc__)
    print(f"make_corpus.py: {n} seeds in {argv[-1]}")


if __name__ == "__main__":
    main(sys.argv)
