#!/usr/bin/env bash
# Runs on the GPU machine (device tool, carrying .gpu/ with layernorm):
# Nsight Compute of ktc's layer-norm forward (examples/layernorm, default
# tile, or the flags after N) and of Triton's tutorial kernel
# (bench/peer_norms.py's, launched as the tutorial does), one launch each,
# at M x N f16. Clocks are left alone.
#   bash bench/ncu-layernorm.sh M N OUTDIR [layernorm flags...]
set -uo pipefail
rows=$1 cols=$2 out=$3
shift 3
mkdir -p "$out" /tmp/ktc
[ -x /tmp/ktc/bin/layernorm ] || tar -xJf .gpu/bundle.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
sections=(--section SpeedOfLight --section LaunchStats --section Occupancy
          --section WarpStateStats --section SchedulerStats
          --section MemoryWorkloadAnalysis)
tag=$(printf '%s' "$*" | tr -c 'a-zA-Z0-9=' '_')
"$NCU" --clock-control none -k regex:layernorm_fwd -c 1 "${sections[@]}" \
  /tmp/ktc/bin/layernorm --device=cuda --m=$rows --n=$cols "$@" \
  | grep -v '^==PROF==' > "$out/ncu-ktc-layernorm-${rows}x$cols$tag.txt"
[ -n "$tag" ] && exit 0
"$NCU" --clock-control none -k regex:_layer_norm_fwd_fused -s 1 -c 1 "${sections[@]}" \
  python3 -c "
import sys; sys.argv = ['x']; sys.path.insert(0, 'bench')
import torch, peer_norms as p
x = torch.randn($rows, $cols, device='cuda', dtype=torch.float16)
w = torch.randn($cols, device='cuda', dtype=torch.float16)
b = torch.randn($cols, device='cuda', dtype=torch.float16)
y = torch.empty_like(x)
mean = torch.empty($rows, device='cuda'); rstd = torch.empty($rows, device='cuda')
for _ in range(2): p.triton_layernorm(x, w, b, y, mean, rstd, 1e-5)
torch.cuda.synchronize()
" | grep -v '^==PROF==' > "$out/ncu-triton-layernorm-${rows}x$cols.txt"
