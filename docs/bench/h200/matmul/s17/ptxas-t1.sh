#!/usr/bin/env bash
# Experiment: ptxas on a rewritten PTX: loop-invariant 64-bit byte offsets
# built with cvt + shl instead of mul.wide (ptxas then keeps them in
# registers rather than recomputing IMAD.WIDE in the loop).
args=("$@"); in=${args[2]}
python3 - "$in" <<'PY'
import re,sys
p=sys.argv[1]; s=open(p).read()
s=re.sub(r'mul\.wide\.s32 \t(%rd\d+), (%r\d+), 2;', r'cvt.s64.s32 \t\1, \2;\n\tshl.b64 \t\1, \1, 1;', s)
open(p,'w').write(s)
PY
exec ${REAL_PTXAS:-/usr/local/cuda/bin/ptxas} "$@"
