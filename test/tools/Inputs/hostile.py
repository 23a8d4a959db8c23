"""Writes N random hostile .mlir files into DIR: nesting of every kind the
parser recurses on (attributes, types, regions, affine expressions, ktc
pointers, dense literals), mixed, at random depths from 1 to 20000, with
random truncation, strings and comments. Seeded: the same files each run."""
import os
import random
import sys

out, count, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(seed)

def piece(depth):
    kind = rng.choice(["attr", "type", "region", "minus", "ptr", "dense",
                       "dict", "paren", "mixed"])
    if kind == "attr":
        return "module attributes {ktc.x = " + "[" * depth + "1" + "]" * depth + "} {}"
    if kind == "type":
        return "func.func private @f() -> " + "tuple<" * depth + "i32" + ">" * depth
    if kind == "region":
        return '"t.op"() ({\n' * depth + "}) : () -> ()\n" * depth
    if kind == "minus":
        return "#m = affine_map<(d0) -> (" + "- " * depth + "d0)>"
    if kind == "ptr":
        return "func.func private @f(%a: " + "!ktc.ptr<" * depth + "f32" + ">" * depth + ")"
    if kind == "dense":
        return ("func.func private @f() attributes {ktc.d = dense<" + "[" * depth +
                "1" + "]" * depth + "> : tensor<1xi32>}")
    if kind == "dict":
        return "module attributes {ktc.x = " + "{a = " * depth + "1" + "}" * depth + "} {}"
    if kind == "paren":
        return "#m = affine_map<(d0) -> (" + "(" * depth + "d0" + ")" * depth + ")>"
    text = ""
    for _ in range(depth):
        text += rng.choice(["[", "(", "{", "<", "tuple<", "- ", '"s[[[', "// ((\n", "->"])
    return "module attributes {ktc.x = " + text

os.makedirs(out, exist_ok=True)
for i in range(count):
    depth = rng.choice([1, 10, 100, 255, 257, 1000, 5000, 20000, rng.randint(1, 20000)])
    text = piece(depth)
    if rng.random() < 0.3:
        text = text[: rng.randint(0, len(text))]
    with open(os.path.join(out, "hostile%04d.mlir" % i), "w") as f:
        f.write(text + "\n")
