# What test/aot's CTest entry runs (cmake -P): configures and builds
# consumer/ against an installed ktc (PREFIX), runs the AOT program and the
# JIT one on the CPU, checks that the AOT program needs no LLVM or MLIR
# library (readelf -d, nm), and prints both programs' sizes and times.
# Ends with "PASS aot: ..." or a FATAL_ERROR.
#
#   cmake -DPREFIX=... -DWORK_DIR=... -DCONSUMER=test/aot/consumer
#         -DGENERATOR=Ninja -DCXX=c++ [-DLINKER_FLAGS=...] -P test/aot/run.cmake
cmake_minimum_required(VERSION 3.20)
include("${CMAKE_CURRENT_LIST_DIR}/../install/common.cmake")

require_variables(PREFIX WORK_DIR CONSUMER GENERATOR CXX)
set(build "${WORK_DIR}/consumer")
build_consumer("the AOT consumer" "${CONSUMER}" "${build}" "${PREFIX}")

# No LLVM or MLIR in the AOT program: no such shared library needed, and
# no LLVM or MLIR code linked in statically.
set(aot "${build}/aot_main")
step("readelf -d aot_main" readelf -d "${aot}")
string(REGEX MATCHALL "NEEDED[^\n]*" needed "${output}")
if(needed MATCHES "LLVM|MLIR|clang|lld")
  message(FATAL_ERROR "aot_main needs an LLVM library:\n${needed}")
endif()
step("nm aot_main" nm -C "${aot}")
if(output MATCHES "llvm::|mlir::")
  string(REGEX MATCH "[^\n]*(llvm|mlir)::[^\n]*" symbol "${output}")
  message(FATAL_ERROR "aot_main links LLVM or MLIR code: ${symbol}")
endif()
string(REPLACE ";" ", " needed "${needed}")
message(STATUS "aot_main needs: ${needed}")

# The host code is for the portable x86-64-v2 (docs/aot.md), not for the
# build machine's CPU: no AVX instruction (VEX- or EVEX-encoded, v...) and no
# ymm or zmm register, which the build machine's AVX-512 would give a
# vectorised vector_add, and which fault as illegal instructions on CPUs
# without them.
set(generated "${build}/test_kernels_aot")
file(READ "${generated}/test_kernels.h" header)
if(NOT header MATCHES "host \\(x86-64-v2\\)")
  message(FATAL_ERROR "the generated header does not say the host code is "
                      "for x86-64-v2:\n${header}")
endif()
step("objdump the host code" objdump -d --no-show-raw-insn
     "${generated}/test_kernels_host.a")
string(REGEX MATCH "[^\n]*(%[yz]mm[0-9]|\tv[a-z0-9]+[ \t\n])[^\n]*" avx "${output}")
if(avx)
  message(FATAL_ERROR "the host code uses AVX, past x86-64-v2: ${avx}")
endif()
string(REGEX MATCHALL "%xmm[0-9]+" sse "${output}")
list(LENGTH sse sse)
message(STATUS "host code: x86-64-v2, ${sse} SSE register operands, no AVX")

# The check above sees AVX where there is some: host-native (the build
# machine's CPU, as the JIT compiles) on a machine with AVX2 or AVX-512
# gives ymm or zmm registers.
set(generator "${build}/test_kernels_ktc_aot")
set(native "${WORK_DIR}/native")
file(REMOVE_RECURSE "${native}")
step("generate for host-native" "${generator}" --name native
     --targets host-native --out-dir "${native}")
file(READ "${native}/native.h" header)
if(NOT header MATCHES "host-native \\(native, [a-z0-9_-]+\\)")
  message(FATAL_ERROR "the host-native header does not name the CPU:\n${header}")
endif()
file(READ /proc/cpuinfo cpuinfo)
if(cpuinfo MATCHES "[ \t](avx2|avx512f)[ \n]")
  step("objdump the host-native code" objdump -d --no-show-raw-insn
       "${native}/native_host.a")
  if(NOT output MATCHES "%[yz]mm[0-9]")
    message(FATAL_ERROR "host-native code on a CPU with AVX has no ymm or zmm "
                        "register: the AVX check above would not see AVX")
  endif()
  message(STATUS "host-native code: AVX registers (this CPU has AVX2/AVX-512)")
endif()

# Bad host targets are refused by the generator, with what it accepts.
foreach(bad "host-nosuchcpu|is not a CPU LLVM knows" "host,host-native|more than one host target")
  string(REPLACE "|" ";" bad "${bad}")
  list(GET bad 0 targets)
  list(GET bad 1 expected)
  execute_process(COMMAND "${generator}" --name bad --targets "${targets}"
                          --out-dir "${WORK_DIR}/bad"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(rc EQUAL 0 OR NOT out MATCHES "^ktc-aot: error: .*${expected}")
    message(FATAL_ERROR "--targets ${targets}: expected '${expected}', got "
                        "(${rc}): ${out}")
  endif()
  message(STATUS "--targets ${targets}: ${out}")
endforeach()

# Runs a program `runs` times; keeps the fastest time from exec (KTC_T0_NS,
# set by the shell just before it starts the program) to the return of its
# first launch, and from exec to exit.
function(timed name program runs)
  set(best_first "")
  set(best_process "")
  foreach(run RANGE 1 ${runs})
    execute_process(
      COMMAND sh -c "s=$(date +%s%N); KTC_T0_NS=$s \"$0\"; rc=$?; e=$(date +%s%N); echo \"process: $(( (e - s) / 1000 )) us\"; exit $rc" "${program}"
      RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
    if(run EQUAL 1)
      message("${out}")
    endif()
    if(NOT rc EQUAL 0 OR out MATCHES "FAIL")
      message(FATAL_ERROR "${name} failed (${rc}):\n${out}")
    endif()
    string(REGEX REPLACE ".*from main, ([0-9.]+) ms from exec.*" "\\1" first "${out}")
    string(REGEX REPLACE ".*process: ([0-9]+) us.*" "\\1" process "${out}")
    if(best_first STREQUAL "" OR first LESS best_first)
      set(best_first "${first}")
    endif()
    if(best_process STREQUAL "" OR process LESS best_process)
      set(best_process "${process}")
    endif()
  endforeach()
  math(EXPR ms "${best_process} / 1000")
  set(summary "exec to first launch ${best_first} ms, exec to exit ${ms} ms (best of ${runs})" PARENT_SCOPE)
endfunction()

# The JIT fallback: kernels with code for sm_90 only, launched on the CPU.
step("fallback_main" "${build}/fallback_main")
message("${output}")
if(NOT output MATCHES "(^|\n)PASS fallback\n" OR output MATCHES "FAIL")
  message(FATAL_ERROR "fallback_main failed:\n${output}")
endif()

timed("aot_main" "${aot}" 5)
set(aot_summary "${summary}")
# The JIT: cold (an empty cache: traces and compiles) and warm (from the
# disk cache the cold run filled).
file(REMOVE_RECURSE "${WORK_DIR}/jit-cache")
set(ENV{KTC_CACHE_DIR} "${WORK_DIR}/jit-cache")
timed("jit_main (cold cache)" "${build}/jit_main" 1)
set(cold_summary "${summary}")
timed("jit_main (warm cache)" "${build}/jit_main" 3)

file(SIZE "${aot}" aot_size)
file(SIZE "${build}/jit_main" jit_size)
math(EXPR aot_kib "${aot_size} / 1024")
math(EXPR jit_kib "${jit_size} / 1024")
file(SIZE "${build}/fallback_main" fallback_size)
math(EXPR fallback_kib "${fallback_size} / 1024")
message("size: aot_main ${aot_kib} KiB, jit_main ${jit_kib} KiB, "
        "fallback_main (AOT with JIT_FALLBACK) ${fallback_kib} KiB")
message("aot_main: ${aot_summary}")
message("jit_main, cold cache: ${cold_summary}")
message("jit_main, warm cache: ${summary}")
message("PASS aot: vector_add and softmax compiled ahead of time, run on the "
        "CPU; no LLVM or MLIR in aot_main (${aot_kib} KiB vs ${jit_kib} KiB)")
