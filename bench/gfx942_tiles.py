#!/usr/bin/env python3
"""ktc's AMDGPU code for the 2-D tile kernels beside Triton's own (issue 17).

The tiled softmax (examples/kernels/seeds.h, softmax_tiled) and the tiled
transpose (examples/kernels/transpose.h) are compiled by ktc (the examples'
--emit=mlir, specialised as a launch on the shape named below would
specialise them, then ktc-compile --emit=asm) and by Triton (the same kernels
written in Triton below, cross-compiled for AMD with triton.compile and the
same specialisation, tile and num_warps), for gfx942 and gfx1100. From each
code object's assembly it counts registers, LDS, scratch and the memory,
cross-lane and barrier instructions, and writes
docs/bench/gfx942-tiles-vs-triton.md.

Run after scripts/build.sh, with Triton installed (no GPU needed):
    python3 bench/gfx942_tiles.py [arch ...]        (default gfx942 gfx1100)
KTC_BIN=<dir> takes ktc's binaries from elsewhere (default build/bin);
KTC_TILES_OUT=<file> writes the table there instead; KTC_TILES_ASM=<dir>
keeps each kernel's assembly there (<kernel>-<shape>-<arch>-<ktc|triton>.s).
"""
import collections, datetime, json, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("KTC_BIN") or os.path.join(ROOT, "build", "bin")
OUT = os.environ.get("KTC_TILES_OUT") or os.path.join(
    ROOT, "docs", "bench", "gfx942-tiles-vs-triton.md")
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="ktc-tiles-"))
# FP contraction on, Triton's default through 3.9 (which warns it will change).
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

# What the tables say (written by hand for the run at 43d7b10 with Triton
# 3.9.0; re-read it against the tables when regenerating).
NOTES = """\
## Reading the tables

"Triton" below is 3.9.0, and the numbers gfx942's, unless said otherwise.

- **No scratch, no spills** anywhere, in ktc or Triton: every case has 0
  scratch bytes and 0 scratch instructions. Both use 16-byte global accesses
  (`dwordx4`/`b128`) exactly where the specialisation allows them (the
  16-divisible shapes) and 4-byte ones where it does not (1823 x 781,
  513 x 1537); the counts match Triton's in every case. Triton (3.9 and
  3.6) emits `buffer_` loads and stores for the 1 x 16384 softmax, ktc
  `global_`.
- **Tiled softmax, 4 x 1024 tile:** ktc gives each of the 4 waves one row,
  so both row reductions stay inside a wave (4 DPP steps and 2
  `ds_bpermute` each on gfx942, 1 on gfx1100; no LDS, no barrier);
  Triton's layout
  (`warpsPerCTA = [1, 4]`) spreads every row over all 4 waves, so its
  reductions cross waves through 64 B of LDS and 3 barriers (64 DPP
  instructions on gfx942). ktc's kernel is about a third of Triton's
  instructions (222 against 667 on gfx942, 408 against 1110 on gfx1100),
  with 2 to 17 fewer VGPRs, except 1823 x 781 on gfx1100 (53 against 49).
- **Division:** ktc's seeds spell `fdiv`, which ktc lowers on AMDGPU to one
  `v_rcp_f32` of the row sum and a multiply per element (within 2 ulp,
  docs/numerics.md); Triton's f32 `/` (and `tl.math.fdiv`) on AMD is the
  IEEE division sequence per element (`v_div_scale` x2, `v_rcp`,
  `v_div_fmas`, `v_div_fixup`: 16 `v_rcp_f32` and 32 `v_div_scale_f32` a
  thread at 4 x 1024 on gfx942). That accounts for much of the instruction
  gap: it is a looser division, not the same code done better.
- **Tiled softmax, 1 x 16384 tile, 16 waves:** here the row crosses waves
  in both compilers. Each wave's partial goes through LDS once: ktc writes
  one copy per wave (the lanes of a wave hold the same partial after the
  butterflies; 64 B of LDS, as Triton) and every thread reads the 16
  partials with 4 broadcast `ds_read_b128` (8 for the two reductions);
  Triton reads one partial a lane and finishes with DPP. ktc has more
  VGPRs on gfx942 (42 against Triton's 32; on gfx1100 fewer, 56 against
  58), one more barrier, and more `s_waitcnt` (16 against 9 on gfx942),
  and fewer instructions (282 against 477), because of the division. (Until
  bef7520 every lane wrote its own slot: 4096 B of LDS and 18 reads.)
- **Transpose, 64 x 64 tile:** both go through LDS, exactly the tile
  (16384 B): ktc swizzles each LDS row's 16-byte chunks (XOR with the row;
  until 48dfe90 it padded each row by 4 floats, 17408 B), writes the loaded
  rows with `ds_write_b128` and reads columns in pairs
  (`ds_read2st64_b32`); Triton writes with `ds_write2st64_b32` and reads
  with `ds_read2_b32`. See the tables for the counts. ktc has one barrier
  more (2 against 1): the second, after the reads, only protects LDS that
  is never written again in this kernel, but leaving it out made the
  8192² transpose 3.5% slower on an H200 (docs/bench/h200/barrier-ab.md).
  At 513 x 1537 (only the pointers aligned) both access LDS 4 bytes at a
  time.
- **next_free_vgpr of ktc's transpose** (129 on gfx942, 193 on gfx1100,
  against `.vgpr_count` 20 to 43) is not a register ktc uses: plain `llc`
  gives the same on ktc's LLVM IR (the `.vgpr_count` metadata, which
  ktc's `--info` reports, is the registers used). On gfx942 it is the
  smallest count that allows no more waves than the LDS already allows:
  at 17408 B a CU holds 3 workgroups of 4 waves, 3 waves a SIMD, and 129
  VGPRs (allocated as 136; 512 / 136 = 3) allow 3 where 128 would allow
  4. Other tiles of ktc's transpose (`transpose --block-m --block-n`)
  agree: 32 x 64 (8320 B, 7 waves a SIMD) declares 65, 64 x 128
  (33024 B, 1 wave) 257, and 32 x 32 (4224 B, no LDS limit under the 8
  waves) 12, its `.vgpr_count`. So the backend (ktc's LLVM) writes the
  LDS limit into the descriptor's VGPRs, at no cost in occupancy; Triton's
  own LLVM does not (its next_free_vgpr is its `.vgpr_count`).
- **Triton 3.6.0** (the last column; the version the H200 benchmarks ran):
  the same shape of code with more LDS traffic in the 4 x 1024 softmax
  (5 barriers, 8 LDS writes and 10 reads, 689 instructions on gfx942),
  33 VGPRs and 546 instructions at 1 x 16384, and a transpose that writes
  its tile to LDS with 16 `ds_write_b32` and reads it with 8
  `ds_read2st64_b32` (216 instructions, 27 VGPRs); at 513 x 1537 on
  gfx1100 it needs 83 VGPRs (3.9: 45, ktc: 39).
"""


# --- Triton's spelling of the two kernels -----------------------------------

@triton.jit
def softmax_tiled(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # BLOCK_M rows of the matrix a program, each whole (BLOCK_N >= n_cols).
    r = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    c = tl.arange(0, BLOCK_N)[None, :]
    inside = (r < n_rows) & (c < n_cols)
    x = tl.load(in_ptr + r * in_stride + c, mask=inside, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=1)[:, None])
    tl.store(out_ptr + r * out_stride + c, e / tl.sum(e, axis=1)[:, None],
             mask=inside)


@triton.jit
def transpose(out_ptr, in_ptr, M, N, in_stride, out_stride,
              BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    # One BLOCK_M x BLOCK_N tile of the M x N input a program, read along its
    # rows and written along its columns of the N x M output.
    m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    inside = (m[:, None] < M) & (n[None, :] < N)
    tile = tl.load(in_ptr + m[:, None] * in_stride + n[None, :], mask=inside)
    tl.store(out_ptr + n[None, :] * out_stride + m[:, None], tile, mask=inside)


SOFTMAX_ARGS = ["out_ptr", "in_ptr", "in_stride", "out_stride", "n_rows", "n_cols"]
TRANSPOSE_ARGS = ["out_ptr", "in_ptr", "M", "N", "in_stride", "out_stride"]


def softmax_case(rows, cols):
    """The tiled softmax as examples/softmax launches it on rows x cols."""
    block_n = 1 << (cols - 1).bit_length()
    block_m = 1 if block_n >= 4096 else min(4, 4096 // block_n)  # tiledRows
    warps = 4 if block_n <= 8192 else 16  # fused_num_warps for >= 4096 cols
    values = [None, None, cols, cols, rows, cols]
    return dict(kernel="softmax_tiled", fn=softmax_tiled, args=SOFTMAX_ARGS,
                values=values, constexprs={"BLOCK_M": block_m, "BLOCK_N": block_n},
                warps=warps, shape=f"{rows} x {cols}",
                tile=f"{block_m} x {block_n}",
                mlir=["softmax", "--variant=tiled", f"--rows={rows}",
                      f"--cols={cols}", "--emit=mlir"])


def transpose_case(rows, cols):
    """The transpose as examples/transpose launches it on a rows x cols input."""
    values = [None, None, rows, cols, cols, rows]
    return dict(kernel="transpose", fn=transpose, args=TRANSPOSE_ARGS,
                values=values, constexprs={"BLOCK_M": 64, "BLOCK_N": 64},
                warps=4, shape=f"{rows} x {cols}", tile="64 x 64",
                mlir=["transpose", f"--rows={rows}", f"--cols={cols}",
                      "--emit=mlir"])


CASES = [softmax_case(4096, 1024), softmax_case(1823, 781),
         softmax_case(4096, 16384), transpose_case(8192, 8192),
         transpose_case(513, 1537)]


def divisible(case):
    """Triton's (and ktc's launch's) specialisation: pointers 16-byte aligned
    (a fresh allocation), integers divisible by 16 where they are."""
    return [i for i, v in enumerate(case["values"]) if v is None or v % 16 == 0]


# --- Counting -----------------------------------------------------------------

def keep(asm, case, arch, who):
    folder = os.environ.get("KTC_TILES_ASM")
    if folder:
        os.makedirs(folder, exist_ok=True)
        shape = case["shape"].replace(" x ", "x")
        with open(os.path.join(folder, f"{case['kernel']}-{shape}-{arch}-{who}.s"), "w") as f:
            f.write(asm)


def stats(asm, arch):
    body = [l.strip() for l in asm.splitlines()
            if l.startswith("\t") and not l.strip().startswith((".", ";", "//"))]
    ops = [l.split()[0] for l in body if l]
    cnt = lambda p: sum(1 for o in ops if re.fullmatch(p, o))
    grep = lambda p: sum(1 for l in body if re.search(p, l))

    def meta(key, default="-"):
        m = re.search(r"\.%s:\s+(\d+)" % key, asm)
        return int(m.group(1)) if m else default

    def kinds(pattern):
        c = collections.Counter(o for o in ops if re.fullmatch(pattern, o))
        return " ".join(f"{k}×{v}" for k, v in sorted(c.items())) or "-"

    gfx9 = arch.startswith("gfx9")
    ld = "(global|buffer)_load_" + ("dword" if gfx9 else "b")
    st = "(global|buffer)_store_" + ("dword" if gfx9 else "b")
    x4, x2, x1 = ("x4", "x2", "") if gfx9 else ("128", "64", "32")
    ds_read = r"ds_(read|load)\w*"
    ds_write = r"ds_(write|store)\w*"
    nfv = re.search(r"\.amdhsa_next_free_vgpr\s+(\d+)", asm)
    return {
        "wave size": meta("wavefront_size"),
        "VGPRs": meta("vgpr_count"),
        "AGPRs": meta("agpr_count") if gfx9 else "n/a",
        "next_free_vgpr (descriptor)": int(nfv.group(1)) if nfv else "-",
        "SGPRs": meta("sgpr_count"),
        "VGPR / SGPR spills": f"{meta('vgpr_spill_count')} / {meta('sgpr_spill_count')}",
        "scratch bytes": meta("private_segment_fixed_size"),
        "scratch instructions": cnt(r"scratch_\w+") + grep(r"^buffer_\w+.*off, s\[0:3\]"),
        "LDS bytes": meta("group_segment_fixed_size"),
        "instructions": len(body),
        "global loads 16 / 8 / 4 B": f"{cnt(ld + x4)} / {cnt(ld + x2)} / {cnt(ld + x1)}",
        "global stores 16 / 8 / 4 B":
            f"{cnt(st + x4)} / {cnt(st + x2)} / {cnt(st + x1)}",
        "of those, buffer_ (not global_)": cnt(r"buffer_(load|store)_\w+")
            - grep(r"^buffer_\w+.*off, s\[0:3\]"),
        "LDS reads": f"{cnt(ds_read)}: {kinds(ds_read)}",
        "LDS writes": f"{cnt(ds_write)}: {kinds(ds_write)}",
        "DPP instructions": grep(r"\b(dpp|row_shr|row_shl|row_ror|row_bcast|row_mirror|"
                                 r"row_half_mirror|row_share|row_xmask|quad_perm)\b"),
        "ds_swizzle / ds_bpermute / permlane": " / ".join(
            str(cnt(p)) for p in (r"ds_swizzle_b32", r"ds_b?permute_b32", r"v_permlane\w+")),
        "s_barrier": cnt(r"s_barrier\w*"),
        "v_exp_f32": cnt(r"v_exp_f32\w*"),
        "v_rcp_f32 / v_div_scale_f32": " / ".join(
            str(cnt(p)) for p in (r"v_rcp_f32\w*", r"v_div_scale_f32\w*")),
        "s_waitcnt": cnt(r"s_waitcnt\w*"),
    }


# --- The two compilers ------------------------------------------------------

def ktc(case, arch):
    mlir = subprocess.run([os.path.join(BIN, case["mlir"][0])] + case["mlir"][1:],
                          check=True, capture_output=True, text=True).stdout
    for i in divisible(case):  # what a launch writes (lib/Runtime/Compile.cpp)
        mlir, n = re.subn(r"(%%arg%d: [^,)]+)" % i,
                          r"\1 {ktc.divisibility = 16 : i32}", mlir, count=1)
        assert n == 1, f"argument {i} not found in {case['mlir']}"
    asm = subprocess.run([os.path.join(BIN, "ktc-compile"), "-", f"--target={arch}",
                          f"--num-warps={case['warps']}", "--emit=asm"],
                         input=mlir, check=True, capture_output=True, text=True).stdout
    keep(asm, case, arch, "ktc")
    return stats(asm, arch)


def triton_(case, arch):
    sig = {a: ("*fp32" if v is None else "i32")
           for a, v in zip(case["args"], case["values"])}
    sig.update({k: "constexpr" for k in case["constexprs"]})
    attrs = {(i,): [["tt.divisibility", 16]] for i in divisible(case)}
    src = ASTSource(fn=case["fn"], signature=sig, constexprs=case["constexprs"],
                    attrs=attrs)
    wave = 64 if arch.startswith("gfx9") else 32
    try:
        k = triton.compile(src, target=GPUTarget("hip", arch, wave),
                           options={"num_warps": case["warps"]})
    except Exception as e:  # say so in the table, invent nothing
        return f"could not compile it: {type(e).__name__}: {str(e).splitlines()[0][:200]}"
    keep(k.asm["amdgcn"], case, arch, "triton")
    st = stats(k.asm["amdgcn"], arch)
    # Triton's LDS is one dynamic block (its size is the launch's, in the
    # metadata), so the code object's fixed group segment reads 0.
    st["LDS bytes"] = k.metadata.shared
    return st


def key(case, arch):
    return f"{case['kernel']}-{case['shape'].replace(' x ', 'x')}-{arch}"


def triton_json(archs):
    """--triton-json: this interpreter's Triton only, as JSON on stdout (what
    KTC_TILES_TRITON_ALSO reads from a second Triton)."""
    json.dump({"version": triton.__version__,
               "stats": {key(c, a): triton_(c, a) for c in CASES for a in archs}},
              sys.stdout)


def other_triton(archs):
    """Triton's numbers from the interpreter KTC_TILES_TRITON_ALSO names (a
    second virtual environment with another Triton), or None."""
    python = os.environ.get("KTC_TILES_TRITON_ALSO")
    if not python:
        return None
    out = subprocess.run([python, os.path.abspath(__file__), "--triton-json"] + archs,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    args = sys.argv[1:]
    if args[:1] == ["--triton-json"]:
        return triton_json(args[1:] or ["gfx942", "gfx1100"])
    archs = args or ["gfx942", "gfx1100"]
    other = other_triton(archs)
    head = subprocess.run(["git", "-C", BIN, "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    names = [f"Triton {triton.__version__}"] + (
        [f"Triton {other['version']}"] if other else [])
    lines = [
        "# ktc vs Triton: AMDGPU code for the 2-D tile kernels",
        "",
        f"Generated by `bench/gfx942_tiles.py` on {datetime.date.today()}: ktc "
        f"at {head or '?'} (binaries from `{os.path.relpath(BIN, ROOT)}`), "
        f"{' and '.join(names)} (pip, cross-compiled without a GPU, FP "
        "contraction on). "
        "Each kernel is specialised as a launch on the shape named would "
        "specialise it (Triton's rule, which ktc's launch follows): pointers "
        "16-byte aligned, each integer argument divisible by 16 where it is. "
        "Registers, LDS and scratch are the code object's metadata "
        "(`.vgpr_count`, `.agpr_count`, `.sgpr_count`, `.group_segment_fixed_size`, "
        "`.private_segment_fixed_size`; Triton's LDS is its launch's dynamic "
        "shared memory, from its metadata); next_free_vgpr is the kernel "
        "descriptor's, which sets what the hardware allocates. Instruction "
        "counts are lines of the kernel's assembly; loads and stores are "
        "counted by width (16/8/4 bytes).",
        "",
        "Regenerate (Triton from PyPI; no GPU needed; the second Triton, "
        "3.6.0, is the one the H200 benchmarks ran, and is optional):",
        "",
        "    python3 -m venv /tmp/triton && /tmp/triton/bin/pip install triton",
        "    python3 -m venv /tmp/triton36 && /tmp/triton36/bin/pip install triton==3.6.0",
        "    KTC_TILES_TRITON_ALSO=/tmp/triton36/bin/python \\",
        "        /tmp/triton/bin/python bench/gfx942_tiles.py gfx942 gfx1100",
        "",
        NOTES,
    ]
    for case in CASES:
        for arch in archs:
            columns = [ktc(case, arch), triton_(case, arch)]
            if other:
                columns.append(other["stats"][key(case, arch)])
            lines += [f"## {case['kernel']}, {case['tile']} tile, "
                      f"{case['shape']} f32, {case['warps']} warps, {arch}", ""]
            spec = ", ".join(case["args"][i] for i in divisible(case))
            lines += [f"Divisible by 16: {spec}.", ""]
            for name, col in zip(names, columns[1:]):
                if isinstance(col, str):  # say so, invent nothing
                    lines += [f"{name}: {col}.", ""]
            columns = [c if isinstance(c, dict) else {} for c in columns]
            lines += ["| | ktc | " + " | ".join(names) + " |",
                      "|---" * (len(names) + 2) + "|"]
            for k, value in columns[0].items():
                lines.append(f"| {k} | {value} | " +
                             " | ".join(str(c.get(k, "-")) for c in columns[1:]) + " |")
            lines.append("")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
