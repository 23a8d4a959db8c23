"""Writes .mlir text nested `depth` levels deep, of the kind named:
attr (lists in an attribute), region (ops in regions), type (types in
types), ptr (ktc pointers to pointers), minus (unary minus in an affine
map), scf (scf.if in scf.if, a valid kernel-like function)."""
import sys

kind, depth = sys.argv[1], int(sys.argv[2])
if kind == "attr":
    text = "module attributes {ktc.x = " + "[" * depth + "]" * depth + "} {}\n"
elif kind == "region":
    text = '"test.op"() ({\n' * depth + "}) : () -> ()\n" * depth
elif kind == "type":
    text = ("func.func private @f() -> " + "tuple<" * depth + "i32" +
            ">" * depth + "\n")
elif kind == "ptr":
    text = ("func.func private @f(%a: " + "!ktc.ptr<" * depth + "f32" +
            ">" * depth + ")\n")
elif kind == "minus":
    text = ("#m = affine_map<(d0) -> (" + "- " * depth + "d0)>\n"
            "module attributes {ktc.x = #m} {}\n")
elif kind == "scf":
    text = ("func.func @f(%c: i1) attributes {ktc.kernel} {\n" +
            "scf.if %c {\n" * depth + "}\n" * depth + "return\n}\n")
else:
    sys.exit("unknown kind " + kind)
sys.stdout.write(text)
