#!/usr/bin/env bash
# Session 16, call 3: the driver's JIT against KTC_PTXAS (the toolkit's
# ptxas; Triton's own ptxas), main at 0cb1c2f, rounds alternating; Triton in
# the same call; Nsight Compute's SASS of ktc (driver JIT) and Triton at
# 4096^3 128x256x64.
set -uo pipefail
mkdir -p /tmp/ktc && tar -xJf .gpu/libs.tar.xz -C /tmp/ktc && tar -xJf .gpu/p16c.tar.xz -C /tmp/ktc
export LD_LIBRARY_PATH=/tmp/ktc/lib B=/tmp/ktc/bin KTC_CACHE=off
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee $OUT/gpu.txt
CUDA_PTXAS=$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)
TRITON_PTXAS=$(python3 -c "import triton, os; print(os.path.join(os.path.dirname(triton.__file__), 'backends/nvidia/bin/ptxas'))")
{ echo "cuda ptxas: $CUDA_PTXAS"; $CUDA_PTXAS --version | tail -2; echo "triton ptxas: $TRITON_PTXAS"; $TRITON_PTXAS --version | tail -2; } | tee $OUT/ptxas.txt
one() { # env dtype m n k bm bn bk w s
  env $1 timeout 60 $B/matmul --device=cuda --dtype=$2 -m $3 -n $4 -k $5 --block-m $6 --block-n $7 --block-k $8 --warps $9 --stages ${10} --bench 2>&1 | grep -E "bench:|PASS|FAIL|rror" | sed 's/ elements within the f32 bound//' | tr '\n' ' '; echo
}
for round in 1 2 3; do
  for v in KTC_JIT=1 KTC_PTXAS=$CUDA_PTXAS KTC_PTXAS=$TRITON_PTXAS; do
    echo "r$round $v f16 4096 128x256x64w8s3: $(one $v f16 4096 4096 4096 128 256 64 8 3)"
    echo "r$round $v f16 4096 128x128x32w4s4: $(one $v f16 4096 4096 4096 128 128 32 4 4)"
    echo "r$round $v f16 1024 64x128x64w4s4: $(one $v f16 1024 1024 1024 64 128 64 4 4)"
    echo "r$round $v f16 odd 64x128x32w4s4: $(one $v f16 3001 517 2049 64 128 32 4 4)"
  done
done > $OUT/ab.txt 2>&1
cat $OUT/ab.txt
(cd bench && timeout 100 python3 peer_matmul_configs.py f16 4096 4096 4096 1024 1024 1024 | grep -E "best|128x256x64|128x128x32|64x128x64") > $OUT/triton.txt 2>&1
cat $OUT/triton.txt
mkdir -p /tmp/ncu && timeout 240 env B=$B bash bench/ncu-matmul.sh f16 4096 4096 4096 128 256 64 8 3 /tmp/ncu > /tmp/ncu/run.log 2>&1
echo "ncu rc $?"
grep -E "Duration|Elapsed Cycles|Issued Instructions  |Registers Per" /tmp/ncu/*.txt
(cd /tmp/ncu && tar -cJf $OUT/ncu.tar.xz .)
