#!/usr/bin/env python3
"""ktc's AMDGPU code for the tiled matmul beside Triton's tutorial matmul.

Triton's side is its tutorial matmul (03-matrix-multiplication: grouped
program order, masked K loop, an f32 accumulator stored as f16), exactly as
the anchors compiled it (shared/anchors/triton-ir-next/triton_ir_next.py and
h200-2026-11-25/triton_next_probe.py): f16 operands, pointers, M, N, K and
the leading strides divisible by 16, num_stages 2, cross-compiled for AMD
with triton.compile (no GPU needed). ktc's side is examples/matmul's kernel
(`matmul --emit=asm` with the same tile, group, waves and stages, on a
4096^3 f16 problem: the code that launch runs, specialised as Triton's
plain columns are); where ktc cannot compile it, or the program is not
built, its column says so with the first line of the error.

From each code object's assembly it reads registers (VGPR, AGPR, SGPR),
scratch, LDS and the occupancy they allow, and counts MFMA/WMMA, LDS and
global memory instructions, in the whole kernel and in its main loop (the
innermost loop with the most matrix instructions: the K loop). It checks
Triton 3.6's numbers against the anchors (the issue's targets) and writes
docs/bench/gfx942-matmul-vs-triton.md.

Run after the build (no GPU needed):
    KTC_MATMUL_TRITON_ALSO=/tmp/triton36/bin/python \\
        /tmp/tritonvenv/bin/python bench/gfx942_matmul.py [arch ...]
(default: every arch of CONFIGS). KTC_BIN=<dir> takes ktc's binaries from elsewhere
(default build/bin); KTC_MATMUL_OUT=<file> writes the table there instead;
KTC_MATMUL_ASM=<dir> keeps each kernel's assembly there.
"""
import collections, datetime, json, os, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("KTC_BIN") or os.path.join(ROOT, "build", "bin")
OUT = os.environ.get("KTC_MATMUL_OUT") or os.path.join(
    ROOT, "docs", "bench", "gfx942-matmul-vs-triton.md")
ANCHORS = os.path.join(ROOT, "..", "shared", "anchors")
if not os.path.isdir(ANCHORS):  # a worktree beside /work/main
    ANCHORS = "/work/shared/anchors"
os.environ.setdefault("TRITON_CACHE_DIR", tempfile.mkdtemp(prefix="ktc-matmul-"))
# FP contraction on, Triton's default through 3.9 (which warns it will change).
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

import triton
import triton.language as tl

from amdgpu_loops import blocks  # bench/, beside this file
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


# --- Triton's tutorial matmul, as the anchors spell it ------------------------

@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GM: tl.constexpr):
    pid = tl.program_id(0)
    npm = tl.cdiv(M, BM); npn = tl.cdiv(N, BN)
    per_group = GM * npn; g = pid // per_group; first = g * GM
    gm = min(npm - first, GM)
    pm = first + ((pid % per_group) % gm); pn = (pid % per_group) // gm
    om = (pm * BM + tl.arange(0, BM)) % M; on = (pn * BN + tl.arange(0, BN)) % N; ok = tl.arange(0, BK)
    a = a_ptr + om[:, None] * sam + ok[None, :] * sak
    b = b_ptr + ok[:, None] * sbk + on[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(a, mask=ok[None, :] < K - k * BK, other=0.0)
        y = tl.load(b, mask=ok[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(x, y, acc)
        a += BK * sak; b += BK * sbk
    c = acc.to(tl.float16)
    cm = pm * BM + tl.arange(0, BM); cn = pn * BN + tl.arange(0, BN)
    tl.store(c_ptr + cm[:, None] * scm + cn[None, :] * scn, c, mask=(cm[:, None] < M) & (cn[None, :] < N))


ARGS = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "sam", "sak", "sbk", "sbn", "scm", "scn"]
DIVISIBLE = (0, 1, 2, 3, 4, 5, 6, 8, 10)  # the anchors' (a launch on 4096^3)
UNIT_STRIDES = ("sak", "sbn", "scn")  # 1 in a launch on contiguous tensors
SIZE = 4096  # ktc's problem, M = N = K (every integer divisible by 16)

# (arch, BM, BN, BK, GROUP_M, waves, stages): the configurations.
CONFIGS = [("gfx942", 128, 128, 64, 8, 4, 2), ("gfx942", 256, 256, 64, 8, 8, 2),
           ("gfx1100", 128, 128, 32, 8, 4, 2),
           # The other matrix-core targets, at the same tiles (gfx950's
           # 256x256x64 is the anchors' too).
           ("gfx90a", 128, 128, 64, 8, 4, 2), ("gfx90a", 256, 256, 64, 8, 8, 2),
           ("gfx950", 128, 128, 64, 8, 4, 2), ("gfx950", 256, 256, 64, 8, 8, 2),
           ("gfx1200", 128, 128, 32, 8, 4, 2),
           # gfx1250 (GFX12.5): its 16x16x32 WMMA, at gfx12's tile.
           ("gfx1250", 128, 128, 32, 8, 4, 2)]
ARCHS = ["gfx942", "gfx1100", "gfx90a", "gfx950", "gfx1200", "gfx1250"]
# The anchors' names (triton-next.json's amd_matmul_isa, triton-ir-next/).
def anchor_key(c):
    return f"matmul_{c[0]}_{c[1]}x{c[2]}x{c[3]}_w{c[5]}"


# What the tables say (written by hand after the run; re-read it against the
# tables when regenerating).
NOTES = """\
## Reading the tables

(Written by hand after the run of 2026-11-27, session 13: ktc at the
commit "AMD dot: gfx1250's WMMA (v_wmma_f32_16x16x32 f16/bf16), and
gfx12/gfx1250 store C 16 bytes at a time"; Triton 3.9.0 and 3.6.0;
re-read them against the tables when regenerating.)

- **The issue's targets are reproduced** by Triton 3.6.0 compiled as the
  anchors compiled it (the "strides unknown" columns; every figure equals
  the anchors' own assembly): gfx942 128×128×64 with 4 waves runs 32
  `v_mfma_f32_32x32x8_f16` a K iteration, in 304 registers of which 64
  are AGPRs, with no scratch; 256×256×64 with 8 waves spills 548 bytes;
  gfx1100's WMMA kernel (128×128×32) spills 956 bytes; gfx950's
  256×256×64 948 bytes.
- **ktc meets them on every target**: the same matrix instructions a K
  iteration as Triton (all of them in the loop: ktc does not peel it), no
  scratch anywhere, fewer registers than every Triton column: gfx942
  128×128×64 176 (Triton 210 / 216 with unit strides, 304 as the anchors
  compiled it), 256×256×64 234 (Triton spills); gfx90a 176 and 234;
  gfx950 164 and 225; gfx1100 243 (Triton 3.9 spills 136 bytes, 3.6 636);
  gfx1200 217 (Triton 3.9 246). test/examples/matmul-amd.test checks the
  counts and the absence of scratch.
- **gfx1250** (GFX12.5, wave32, CU mode): ktc runs its WMMA,
  `v_wmma_f32_16x16x32_f16`, 16 a K iteration as Triton 3.9, with no
  scratch, in 242 registers (Triton 3.9: 230; both 4 workgroups a CU).
  Triton 3.6 has no gfx1250 WMMA: its FMA kernel takes 1024 VGPRs and
  spills 1100 bytes. No gfx1250 (or gfx12) device or emulator was at hand:
  the WMMA operand layouts are checked against the ISA's placement by
  test/unit/MmaTableTest.cpp, not by running them.
- **gfx12 and gfx1250 store C 16 bytes at a time** (16
  `global_store_b128`, as Triton 3.9; gfx1200 stored 128
  `global_store_b16` before): the WMMA is given B as its A and A as its B
  (C^T, Triton's isTranspose), so a lane holds 8 consecutive n of a row of
  C. gfx1200's kernel went from 3307 instructions to 1414, at one more
  register (217: 6 workgroups a WGP instead of 7; Triton 5).
- **How the scratch went** (gfx1100 20 bytes, gfx1200 24 before): a
  staged operand's reads and writes whose LDS index differs from an
  earlier one's by the same constant in every lane share its address
  register (the constant goes into the instruction's offset; Staging.cpp,
  sharedIndex): the swizzled reads of B had kept 24 address registers
  live through the loop. gfx942's A and B reads became Triton's 16
  `ds_read2st64_b64` with it. gfx12's B is now stored transposed and read
  16 bytes at a time (16 `ds_load_b128`, was 8 plus 64 2-byte loads), and
  examples/matmul computes one offset a load, `a + (am*sam + ka*sak)`, as
  Triton's tutorial writes it (a scalar base and a 32-bit offset a row,
  not a 64-bit pointer a row).
- **The K loop waits for its loads after its matrix instructions**
  ("matrix instructions before the loop waits for its loads": from the
  loop's last global load, round the loop, to the first wait for loads).
  ktc keeps the next tile in registers (ktc-pipeline-loads, 2 stages):
  the loads for iteration i + 1 are issued before the dot of i, and the
  first wait for them follows all of its MFMAs/WMMAs (32 of 32 on gfx942
  128×128×64; it was 1 before: the backend's scheduler put the transposing
  `v_perm`s of the prefetched B among them, and in WGP mode, gfx1100 and
  gfx1200, the dot's `__syncthreads` barriers waited for every load in
  flight). For Triton, whose loop double-buffers LDS, a wait there may be
  for older loads, so its figure says less.
- **Still behind Triton**: gfx942 and gfx90a 256×256×64 (A and B do not
  fit in LDS together beside the 1 KiB ktc keeps for reductions, so the
  dot converts them one after the other): B read 2 bytes at a time (128
  `ds_read_u16`) and the loop waits for the next tile's loads at once
  (0): the prologue's tile is written to LDS at the top of the loop, and
  since nothing before the loop uses it (no transposing `v_perm`s there,
  as at 128×128×64) LLVM's waitcnt pass does not wait for it in the
  preheader but at the loop's top, for every load in flight. Staging A
  and B together in all 64 KiB (no 1 KiB reserve) gives the 128×128×64
  structure (the wait after all 64 MFMAs, B read 8 bytes at a time) but
  needs 256 registers and spills one value (8 bytes of scratch, outside
  the loop); A then B one after the other through 32 KiB spills 52 bytes.
  Neither is in. ktc's loops have more instructions than Triton's (gfx942 128×128×64:
  220 against 161): Triton adds the K step to carried pointers, where ktc
  recomputes each address from k and guards each masked load with a
  branch. gfx1100 stores C 2 bytes at a time (RDNA3's C: a lane's
  registers are rows 2 apart, in either orientation). LDS is single
  buffered: with num_stages the tiles wait in registers, not in a second
  LDS buffer (Triton's stream pipeliner), and gfx950's direct-to-LDS loads
  (`global_load_lds_dwordx4`) and `ds_read_b64_tr_b16` are not used.
- **Occupancy** is registers-bound everywhere: 2 workgroups a CU at
  128×128×64 (ktc and Triton with unit strides), 1 at 256×256×64 and for
  the anchors' kernels; on gfx1100 5 workgroups (20 waves) a WGP, on
  gfx1200 6 for ktc (5 for Triton), on gfx1250 4 a CU (ktc and Triton 3.9).
"""


# --- Occupancy (lib/Target/Occupancy.cpp's table and rule, for AMD) -----------

LIMITS = {  # waves/SIMD, SIMDs, workgroups, VGPRs/SIMD, granule, max VGPRs,
            # SGPRs/SIMD, granule, trap SGPRs, LDS/CU, LDS granule
    "gfx942": dict(simd_waves=8, simds=4, wgs=16, vgprs=512, vgran=8, vmax=512,
                   sgprs=800, sgran=16, trap=16, lds=65536, lgran=512, wave=64),
    "gfx1100": dict(simd_waves=16, simds=4, wgs=32, vgprs=1536, vgran=24, vmax=256,
                    sgprs=0, sgran=1, trap=0, lds=131072, lgran=1024, wave=32),
}
LIMITS["gfx90a"] = LIMITS["gfx942"]
LIMITS["gfx950"] = dict(LIMITS["gfx942"], lds=163840, lgran=1280)
LIMITS["gfx1200"] = LIMITS["gfx1100"]
# gfx1250: CU mode only, 1024 VGPRs a SIMD in granules of 16, 320 KiB of
# LDS in 2 KiB blocks (Occupancy.cpp's gfx125x).
LIMITS["gfx1250"] = dict(simd_waves=16, simds=4, wgs=16, vgprs=1024, vgran=16, vmax=1024,
                         sgprs=0, sgran=1, trap=0, lds=327680, lgran=2048, wave=32)


def occupancy(arch, waves, vgprs, sgprs, lds):
    """Workgroups (waves) per CU (gfx1100: per WGP) and what limits them,
    as ktc::occupancy computes it."""
    d = LIMITS[arch]
    up = lambda a, b: -(-a // b) * b
    fullest = -(-waves // d["simds"])

    def fit(slots):
        if slots < fullest:
            return 0
        return d["simds"] * slots // waves if waves <= d["simds"] else slots // fullest
    limits = [("waves", fit(d["simd_waves"])), ("workgroups", d["wgs"] if waves > 1 else 1 << 31)]
    if vgprs > d["vmax"]:
        return "cannot run: too many registers"
    limits.append(("registers", fit(d["vgprs"] // up(max(vgprs, 1), d["vgran"]))))
    if d["sgprs"]:
        limits.append(("scalar registers",
                       fit(d["sgprs"] // (up(max(sgprs, 1), d["sgran"]) + d["trap"]))))
    if lds:
        limits.append(("LDS", d["lds"] // up(lds, d["lgran"])))
    name, wgs = min(limits, key=lambda l: l[1])
    unit = "CU" if arch.startswith("gfx9") or arch.startswith("gfx125") else "WGP"
    return f"{wgs} workgroup{'s' * (wgs != 1)} ({wgs * waves} waves) per {unit}, limited by {name}"


# --- Counting -----------------------------------------------------------------

MATRIX = r"v_(mfma|wmma|smfmac)\w*"


def stats(asm, arch, lds=None):
    body = blocks(asm)
    loops = collections.defaultdict(list)
    for header, depth, text in body:
        if header:
            loops[header].append(text)
    ops = lambda lines: [l.split()[0] for l in lines]
    matrix = lambda lines: sum(1 for o in ops(lines) if re.fullmatch(MATRIX, o))
    main = max(loops.values(), key=lambda l: (matrix(l), len(l)), default=[])
    every = [t for _, _, t in body]

    def meta(key, default="-"):
        m = re.search(r"\.%s:\s+(\d+)" % key, asm)
        return int(m.group(1)) if m else default

    def comment(key):
        m = re.search(r"^; %s: (\d+)" % key, asm, re.M)
        return int(m.group(1)) if m else "-"

    def kinds(lines, pattern):
        c = collections.Counter(o for o in ops(lines) if re.fullmatch(pattern, o))
        return f"{sum(c.values())}: " + (" ".join(f"{k}×{v}" for k, v in sorted(c.items())) or "-")

    def arch_vgprs(asm):
        # LLVM's comment, else (ktc's assembly has no comments) the
        # descriptor's: on gfx90a/gfx942 the AGPRs start at accum_offset,
        # the arch VGPRs rounded up to 4; elsewhere all VGPRs are arch ones.
        if comment("NumVgprs") != "-":
            return comment("NumVgprs")
        offset = re.search(r"\.amdhsa_accum_offset\s+(\d+)", asm)
        if offset and int(meta("agpr_count", 0)):
            return f"{offset.group(1)} (accum_offset)"
        return meta("vgpr_count")

    def overlap(lines):
        # Matrix instructions between the loop's last global load and the
        # first wait for loads after it, going round the loop: what the
        # next tile's loads overlap (0: the loop waits for them at once).
        kinds_ = []
        for l in lines:
            o = l.split()[0]
            if re.fullmatch(r"(global|buffer)_load_\w+", o):
                kinds_.append("L")
            elif re.fullmatch(MATRIX, o):
                kinds_.append("M")
            elif o.startswith("s_wait") and ("vmcnt" in l or "loadcnt" in l):
                kinds_.append("W")
        if "L" not in kinds_ or "W" not in kinds_:
            return "-"
        last = len(kinds_) - 1 - kinds_[::-1].index("L")
        ring = kinds_[last + 1:] + kinds_[:last + 1]
        return sum(1 for k in ring[:ring.index("W")] if k == "M")

    gfx9 = arch.startswith("gfx9")
    ld = r"(global|buffer)_load_\w+"
    st = r"(global|buffer)_store_\w+"
    ds_read = r"ds_(read|load)\w*"
    ds_write = r"ds_(write|store)\w*"
    both = lambda p: f"{kinds(every, p)} (loop {kinds(main, p).split(':')[0]})"
    vgprs, sgprs = meta("vgpr_count"), meta("sgpr_count")
    lds = meta("group_segment_fixed_size") if lds is None else lds
    waves = None  # filled in by the caller, which knows the workgroup
    nfv = re.search(r"\.amdhsa_next_free_vgpr\s+(\d+)", asm)
    return {
        "wave size": meta("wavefront_size"),
        "VGPRs (.vgpr_count)": vgprs,
        "of them arch VGPRs / AGPRs": f"{arch_vgprs(asm)} / "
                                      f"{meta('agpr_count') if gfx9 else 'n/a'}",
        "next_free_vgpr (descriptor)": int(nfv.group(1)) if nfv else "-",
        "SGPRs": sgprs,
        "VGPR / SGPR spills": f"{meta('vgpr_spill_count')} / {meta('sgpr_spill_count')}",
        "scratch bytes": meta("private_segment_fixed_size"),
        "scratch instructions (loop)": f"{sum(1 for o in ops(every) if o.startswith('scratch_'))} "
                                       f"({sum(1 for o in ops(main) if o.startswith('scratch_'))})",
        "LDS bytes": lds,
        "occupancy": (vgprs, sgprs, lds),
        "LLVM's occupancy (waves/SIMD, static LDS only)": comment("Occupancy"),
        "instructions (loop)": f"{len(every)} ({len(main)})",
        "MFMA/WMMA": both(MATRIX),
        "MFMA/WMMA in the main loop": kinds(main, MATRIX),
        "LDS reads": both(ds_read),
        "LDS reads in the main loop": kinds(main, ds_read),
        "LDS writes": both(ds_write),
        "LDS writes in the main loop": kinds(main, ds_write),
        "global loads": both(ld),
        "global loads in the main loop": kinds(main, ld),
        "matrix instructions before the loop waits for its loads": overlap(main),
        "global stores": kinds(every, st),
        "s_barrier (loop)": f"{sum(1 for o in ops(every) if o.startswith('s_barrier'))} "
                            f"({sum(1 for o in ops(main) if o.startswith('s_barrier'))})",
        # gfx12 waits per counter: s_wait_loadcnt, s_wait_dscnt, ...
        "s_waitcnt / s_wait_* (loop)": f"{sum(1 for o in ops(every) if o.startswith('s_wait'))} "
                                       f"({sum(1 for o in ops(main) if o.startswith('s_wait'))})",
    }


def finish(st, config):
    """The occupancy line, now that the workgroup's waves are known."""
    vgprs, sgprs, lds = st["occupancy"]
    try:
        st["occupancy"] = occupancy(config[0], config[5], int(vgprs), int(sgprs), int(lds))
    except (TypeError, ValueError):
        st["occupancy"] = "-"
    return st


def keep(asm, config, who):
    folder = os.environ.get("KTC_MATMUL_ASM")
    if folder:
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, f"{anchor_key(config)}-{who}.s"), "w") as f:
            f.write(asm)


# --- The compilers ------------------------------------------------------------

def first_error(text):
    lines = [l.strip() for l in text.splitlines() if l.strip()]
    pick = next((l for l in lines if "error" in l.lower()), lines[0] if lines else "no message")
    return pick[:300]


def ktc(config):
    arch, bm, bn, bk, gm, waves, stages = config
    program = os.path.join(BIN, "matmul")
    if not os.path.exists(program):
        return (f"not compiled: {os.path.relpath(program, ROOT)} is not built "
                "(examples/matmul is not in this tree yet)")
    cmd = [program, "--emit=asm", f"--target={arch}", f"--m={SIZE}", f"--n={SIZE}",
           f"--k={SIZE}", "--dtype=f16", f"--block-m={bm}", f"--block-n={bn}",
           f"--block-k={bk}", f"--group-m={gm}", f"--warps={waves}", f"--stages={stages}"]
    try:
        run = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return "the compile failed: it ran past 600 s"
    if run.returncode != 0 or ".amdhsa_kernel" not in run.stdout:
        return (f"the compile failed (exit status {run.returncode}): "
                f"{first_error(run.stderr or run.stdout)}")
    keep(run.stdout, config, "ktc")
    return finish(stats(run.stdout, arch), config)


def triton_(config, unit_strides=True):
    """Triton's code for `config`: with unit_strides, as a launch on
    contiguous tensors specialises it (Triton makes an integer argument
    equal to 1 a constant: sak = sbn = scn = 1); without, as the anchors
    compiled it (those strides unknown)."""
    arch, bm, bn, bk, gm, waves, stages = config
    sig = {a: ("*fp16" if i < 3 else "i32") for i, a in enumerate(ARGS)}
    constexprs = dict(BM=bm, BN=bn, BK=bk, GM=gm)
    if unit_strides:
        constexprs.update({a: 1 for a in UNIT_STRIDES})
    sig.update({k: "constexpr" for k in constexprs})
    attrs = {(i,): [["tt.divisibility", 16]] for i in DIVISIBLE}
    src = ASTSource(fn=matmul_kernel, signature=sig, attrs=attrs, constexprs=constexprs)
    try:
        k = triton.compile(src, target=GPUTarget("hip", arch, 64 if arch.startswith("gfx9") else 32),
                           options={"num_warps": waves, "num_stages": stages})
    except Exception as e:  # say so in the table, invent nothing
        return f"could not compile it: {type(e).__name__}: {str(e).splitlines()[0][:200]}"
    keep(k.asm["amdgcn"], config,
         f"triton{triton.__version__}" + ("" if unit_strides else "-strides-unknown"))
    # Triton's LDS is one dynamic block (its size in the metadata), so the
    # code object's fixed group segment reads 0.
    return finish(stats(k.asm["amdgcn"], arch, lds=k.metadata.shared), config)


def anchor(config):
    """The anchors' Triton 3.6 code (compiled on the H200 host), counted the
    same way, or None where it is not there."""
    key = anchor_key(config) + f"_s{config[6]}"
    path = os.path.join(ANCHORS, "triton-ir-next", key + ".amdgcn")
    if not os.path.exists(path):
        return None
    shared = json.load(open(os.path.join(ANCHORS, "triton-ir-next", "stats.json"))).get(key, {})
    return finish(stats(open(path).read(), config[0], lds=shared.get("shared", 0)), config)


def verify(config, st):
    """Triton 3.6's numbers, compiled as the anchors compiled them, against
    triton-next.json's (the issue's targets) and the anchors' assembly."""
    path = os.path.join(ANCHORS, "h200-2026-11-25", "triton-next.json")
    if not os.path.exists(path) or not isinstance(st, dict):
        return "has no anchor to check against"
    want = json.load(open(path)).get("amd_matmul_isa", {}).get(anchor_key(config))
    if not want:
        return "has no anchor to check against"
    agpr = st["of them arch VGPRs / AGPRs"].split(" / ")[1]
    got = {"VGPRs": st["VGPRs (.vgpr_count)"], "AGPRs": agpr, "SGPRs": st["SGPRs"],
           "scratch bytes": st["scratch bytes"],
           "MFMA/WMMA": int(st["MFMA/WMMA"].split(":")[0]),
           "in the main loop": int(st["MFMA/WMMA in the main loop"].split(":")[0])}
    want = {"VGPRs": want["vgpr"], "AGPRs": "n/a" if want.get("agpr") is None else want["agpr"],
            "SGPRs": want["sgpr"], "scratch bytes": want["scratch"],
            "MFMA/WMMA": want["mfma"] + want["wmma"], "in the main loop": None}
    off = [f"{k} {got[k]} (anchor {want[k]})" for k in got
           if want[k] is not None and str(got[k]) != str(want[k])]
    text = ("reproduces triton-next.json's numbers: " if not off
            else "does not reproduce triton-next.json: ") + \
        ", ".join(off or [f"{got[k]} {k}" for k in got])
    same = anchor(config)
    if same is not None:
        text += ("; every figure below equals the anchors' assembly "
                 "(triton-ir-next/) counted the same way" if same == st
                 else "; some figures differ from the anchors' assembly (triton-ir-next/)")
    return text


def variants(archs):
    """Both specialisations of every configuration, with this Triton."""
    return {f"{anchor_key(c)}/{unit}": triton_(c, unit) for c in CONFIGS if c[0] in archs
            for unit in (True, False)}


def triton_json(archs):
    """--triton-json: this interpreter's Triton only, as JSON on stdout (what
    KTC_MATMUL_TRITON_ALSO reads from a second Triton)."""
    json.dump({"version": triton.__version__, "stats": variants(archs)}, sys.stdout)


def other_triton(archs):
    python = os.environ.get("KTC_MATMUL_TRITON_ALSO")
    if not python:
        return None
    out = subprocess.run([python, os.path.abspath(__file__), "--triton-json"] + archs,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    args = sys.argv[1:]
    if args[:1] == ["--triton-json"]:
        return triton_json(args[1:] or ARCHS)
    archs = args or ARCHS
    other = other_triton(archs)
    head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip()
    names = [f"Triton {triton.__version__}"] + ([f"Triton {other['version']}"] if other else [])
    lines = [
        "# ktc vs Triton: AMDGPU code for the tiled matmul",
        "",
        f"Generated by `bench/gfx942_matmul.py` on {datetime.date.today()}: ktc at "
        f"{head or '?'} (`{os.path.relpath(BIN, ROOT)}/matmul --emit=asm`, a {SIZE}³ f16 "
        f"problem, specialised as its launch on contiguous matrices is: "
        f"Kernel::emit_as_launched), {' and '.join(names)} (pip, cross-compiled without a GPU, FP "
        "contraction on) and the anchors' Triton 3.6 code "
        "(shared/anchors/triton-ir-next/, compiled on the H200 host). Triton's "
        "kernel is its tutorial matmul as the anchors spell it (f16 operands, "
        "f32 accumulator, f16 result; pointers, M, N, K and the leading strides "
        "divisible by 16; num_stages 2). The plain Triton columns are specialised "
        "as a launch on contiguous tensors specialises them: Triton turns an "
        "integer argument equal to 1 into a constant, so the unit strides "
        "(sak, sbn, scn) are known and the loads can be vectorised. The "
        "\"strides unknown\" columns keep them as i32 arguments, as the anchors "
        "(and so the issue's targets) compiled it.",
        "",
        "Registers, LDS and scratch are the code object's metadata (`.vgpr_count` "
        "is the unified register count on gfx942, arch VGPRs and AGPRs together, "
        "from the `; NumVgprs` comment and `.agpr_count`; ktc's assembly has no "
        "comments: `.amdhsa_accum_offset` where it uses AGPRs, else all its VGPRs; Triton's LDS is its "
        "launch's dynamic shared memory, from its metadata). Occupancy is "
        "ktc::occupancy's rule (lib/Target/Occupancy.cpp) applied to those "
        "numbers; LLVM's own figure ignores Triton's dynamic LDS. The main loop "
        "is the innermost loop with the most matrix instructions (LLVM's loop "
        "comments in the assembly); counts are `total (in the main loop)`, "
        "instruction kinds `count: kind×n`.",
        "",
        "Regenerate (no GPU needed; the second Triton is optional):",
        "",
        "    python3 -m venv /tmp/tritonvenv && /tmp/tritonvenv/bin/pip install triton==3.9.0",
        "    python3 -m venv /tmp/triton36 && /tmp/triton36/bin/pip install triton==3.6.0",
        "    KTC_MATMUL_TRITON_ALSO=/tmp/triton36/bin/python \\",
        "        /tmp/tritonvenv/bin/python bench/gfx942_matmul.py",
        "",
        NOTES,
    ]
    versions = [{"version": triton.__version__, "stats": variants(archs)}] + \
        ([other] if other else [])
    heads = [f"Triton {v['version']}" for v in versions] + \
        [f"Triton {v['version']}, strides unknown" for v in versions]
    for config in CONFIGS:
        if config[0] not in archs:
            continue
        arch, bm, bn, bk, gm, waves, stages = config
        key = anchor_key(config)
        columns = [ktc(config)] + [v["stats"][f"{key}/True"] for v in versions] + \
            [v["stats"][f"{key}/False"] for v in versions]
        lines += [f"## {arch}, {bm}×{bn}×{bk} tile, {waves} waves, {stages} stages, "
                  f"GROUP_M {gm}, f16", ""]
        for name, col in zip(["ktc"] + heads, columns):
            if isinstance(col, str):  # say so, invent nothing
                lines += [f"{name}: {col}.", ""]
        for v in versions:
            if v["version"].startswith("3.6"):
                lines += [f"Triton {v['version']}, strides unknown (the anchors' "
                          f"specialisation), {verify(config, v['stats'][f'{key}/False'])}.", ""]
        columns = [c if isinstance(c, dict) else {} for c in columns]
        rows = next((c for c in columns if c), {})
        lines += ["| | ktc | " + " | ".join(heads) + " |", "|---" * (len(heads) + 2) + "|"]
        for k in rows:
            lines.append(f"| {k} | " + " | ".join(str(c.get(k, "-")) for c in columns) + " |")
        lines.append("")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
