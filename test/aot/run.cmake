# What test/aot's CTest entry runs (cmake -P): configures and builds
# consumer/ against an installed ktc (PREFIX), runs the AOT program and the
# JIT one on the CPU, checks that the AOT program needs no LLVM or MLIR
# library (readelf -d, nm), and prints both programs' sizes and times.
# Ends with "PASS aot: ..." or a FATAL_ERROR.
#
#   cmake -DPREFIX=... -DWORK_DIR=... -DCONSUMER=test/aot/consumer
#         -DGENERATOR=Ninja -DCXX=c++ [-DLINKER_FLAGS=...] -P test/aot/run.cmake
cmake_minimum_required(VERSION 3.20)
foreach(var PREFIX WORK_DIR CONSUMER GENERATOR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run.cmake needs -D${var}=...")
  endif()
endforeach()
set(build "${WORK_DIR}/consumer")

function(step name)
  string(TIMESTAMP start "%s")
  execute_process(COMMAND ${ARGN}
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(TIMESTAMP end "%s")
  math(EXPR seconds "${end} - ${start}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${name} failed (${rc}):\n${out}")
  endif()
  message(STATUS "${name}: ${seconds} s")
  set(output "${out}" PARENT_SCOPE)
endfunction()

set(configure "${CMAKE_COMMAND}" -S "${CONSUMER}" -B "${build}"
  -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release
  "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_PREFIX_PATH=${PREFIX}")
if(LINKER_FLAGS)
  list(APPEND configure "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
endif()
step("configure the AOT consumer" ${configure})
step("build the AOT consumer" "${CMAKE_COMMAND}" --build "${build}")

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

# Runs a program with the time from exec to exit measured by the shell.
function(timed name program)
  execute_process(
    COMMAND sh -c "s=$(date +%s%N); \"$0\"; rc=$?; e=$(date +%s%N); echo \"process: $(( (e - s) / 1000 )) us\"; exit $rc" "${program}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  message("${out}")
  if(NOT rc EQUAL 0 OR out MATCHES "FAIL")
    message(FATAL_ERROR "${name} failed (${rc})")
  endif()
  string(REGEX MATCH "first launch: [0-9.]+ ms" first "${out}")
  string(REGEX MATCH "process: [0-9]+ us" process "${out}")
  set(first "${first}" PARENT_SCOPE)
  set(process "${process}" PARENT_SCOPE)
endfunction()

timed("aot_main" "${aot}")
set(aot_first "${first}")
set(aot_process "${process}")
# The JIT: cold (an empty cache: traces and compiles) and warm (from the
# disk cache the cold run filled).
file(REMOVE_RECURSE "${WORK_DIR}/jit-cache")
set(ENV{KTC_CACHE_DIR} "${WORK_DIR}/jit-cache")
timed("jit_main (cold cache)" "${build}/jit_main")
set(cold_first "${first}")
set(cold_process "${process}")
timed("jit_main (warm cache)" "${build}/jit_main")

file(SIZE "${aot}" aot_size)
file(SIZE "${build}/jit_main" jit_size)
math(EXPR aot_kib "${aot_size} / 1024")
math(EXPR jit_kib "${jit_size} / 1024")
message("sizes: aot_main ${aot_kib} KiB, jit_main ${jit_kib} KiB")
message("aot_main: ${aot_first}, ${aot_process}")
message("jit_main cold cache: ${cold_first}, ${cold_process}")
message("jit_main warm cache: ${first}, ${process}")
message("PASS aot: vector_add and softmax compiled ahead of time, run on the "
        "CPU; no LLVM or MLIR in aot_main (${aot_kib} KiB vs ${jit_kib} KiB)")
