#!/usr/bin/python3
"""device_print's records on gfx942, run on the emulator with a printf buffer.

The stand-in HIP runtime (../shared/tools/gfx942-emu/hip) passes no printf
buffer (hidden_printf_buffer is 0), so a ktc kernel's prints are dropped
there. This runs the kernel of test/Target/Inputs/debug-print.mlir (a
256-element block and a scalar printed by one program) on amdemu directly
(the emulator's emu.py), with a buffer in hidden_printf_buffer as ROCm's
runtime (ROCclr) would pass it, then decodes the buffer as ROCclr's
buffered printf does (control word, format MD5, 8-byte arguments; the
formats from the code object's amdhsa.printf note) and compares the lines
with what the kernel must print. A second run gives a buffer too small for
every record: those that fit must be whole and the rest dropped.

    /usr/bin/python3 scripts/gfx942-printf.py [KTC_BUILD]

Environment: GFX942_EMU (the emulator's sources, default
<repo>/../shared/tools/gfx942-emu), AMDEMU (the binary, as emu.py),
LLVM_BIN (default /usr/lib/llvm-22/bin). Exit status 0 when both runs
check out. The stock emulator stops on `s_cmp_ne_u64` (the buffer's null
test): docs/numerics.md says what it needs.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build")
sys.path.insert(0, os.environ.get(
    "GFX942_EMU", os.path.join(ROOT, "..", "shared", "tools", "gfx942-emu")))
import numpy as np  # noqa: E402
import emu  # noqa: E402

LLVM_BIN = os.environ.get("LLVM_BIN", "/usr/lib/llvm-22/bin")
N = 201  # elements below n print x, the others the load's other (0.0)


def run(kernel, formats, available):
    """Launches the kernel with a printf buffer whose header says
    `available` bytes; returns the exit status, the header's used bytes
    and the decoded lines."""
    r = emu.Run()
    x = (np.arange(256, dtype=np.float32) * 0.25).astype(np.float32)
    ax = r.buffer("x", x)
    header = np.zeros(64 * 1024 // 4, dtype=np.uint32)
    header[1] = available  # [0]: the next free offset after the header
    ap = r.buffer("printf", header)
    kernarg = bytearray(emu.build_kernarg(kernel, [ax, N], [1, 1, 1],
                                          [256, 1, 1]))
    slot = [a for a in kernel.args
            if a[".value_kind"] == "hidden_printf_buffer"][0][".offset"]
    kernarg[slot:slot + 8] = struct.pack("<Q", ap)
    build = emu.build_kernarg
    emu.build_kernarg = lambda *args: bytes(kernarg)
    try:
        rc = r.launch(kernel, [1], [256], [ax, N])
    finally:
        emu.build_kernarg = build
    if rc != 0:
        print(r.log.strip().splitlines()[-1])
        return rc, 0, []
    data = r.read("printf", np.uint8).tobytes()
    used = struct.unpack_from("<I", data, 0)[0]
    lines, at = [], 8
    while at < 8 + used:
        control, md5 = struct.unpack_from("<IQ", data, at)
        size = control >> 2
        fmt = formats[md5]
        words = struct.unpack_from("<%dQ" % ((size - 12) // 8), data, at + 12)
        values = [struct.unpack("<d", struct.pack("<Q", w))[0] if c == "%f"
                  else struct.unpack("<q", struct.pack("<Q", w))[0]
                  for c, w in zip(re.findall(r"%[a-z]", fmt), words)]
        lines.append(fmt % tuple(values))
        at += size
    r.close()
    return 0, used, sorted(lines)


def main():
    tmp = tempfile.mkdtemp(prefix="ktc-printf-")
    hsaco = os.path.join(tmp, "debug.hsaco")
    subprocess.run([os.path.join(BUILD, "bin", "ktc-compile"),
                    os.path.join(ROOT, "test", "Target", "Inputs",
                                 "debug-print.mlir"),
                    "--target=gfx942", "--emit=bin", "-o", hsaco], check=True)
    notes = subprocess.run([os.path.join(LLVM_BIN, "llvm-readelf"), "--notes",
                            hsaco], capture_output=True, text=True,
                           check=True).stdout
    formats = {int(m.group(1), 16): m.group(2).encode().decode(
        "unicode_escape")
        for m in re.finditer(r'- "0:0:([0-9a-f]{16}),(.*)"', notes)}
    kernel = emu.Kernel(hsaco)
    want = sorted(["pid (0, 0, 0) idx (%d) x: %f\n" % (i, i * 0.25 if i < N
                                                       else 0.0)
                   for i in range(256)] + ["pid (0, 0, 0) n: %d\n" % N])
    ok = True
    rc, used, lines = run(kernel, formats, 64 * 1024)
    good = rc == 0 and lines == want and used == 256 * 52 + 44
    print("64 KiB buffer: exit %d, %d bytes, %d records, %s" %
          (rc, used, len(lines), "as expected" if good else "WRONG"))
    ok &= good
    # 1000 bytes: 8 of header, then whole 52-byte records while they fit.
    rc, used, lines = run(kernel, formats, 1000)
    good = (rc == 0 and used == 19 * 52 and len(lines) == 19 and
            all(line in want for line in lines))
    print("1000-byte buffer: exit %d, %d bytes, %d records, %s" %
          (rc, used, len(lines), "the rest dropped" if good else "WRONG"))
    ok &= good
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
