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
message("size: aot_main ${aot_kib} KiB, jit_main ${jit_kib} KiB")
message("aot_main: ${aot_summary}")
message("jit_main, cold cache: ${cold_summary}")
message("jit_main, warm cache: ${summary}")
message("PASS aot: vector_add and softmax compiled ahead of time, run on the "
        "CPU; no LLVM or MLIR in aot_main (${aot_kib} KiB vs ${jit_kib} KiB)")
