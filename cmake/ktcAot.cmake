# ktc_add_kernels: ktc kernels compiled ahead of time, at build time, from
# the same C++ source the JIT runs (docs/aot.md). Installed with the package
# (find_package(ktc) includes it).
#
#   ktc_add_kernels(my_kernels
#     EXPORTS exports.cpp                 # KTC_AOT_EXPORTS(...) { ... }
#     TARGETS host sm_90 gfx942 gfx1100   # what to compile for
#     [NAMESPACE ns]                      # default: my_kernels
#     [JIT_FALLBACK])                     # no code for the device: the JIT
#   target_link_libraries(app PRIVATE my_kernels)   # #include "my_kernels.h"
#
# builds the export list into a generator (with ktc and its main()), runs it
# (the traces and compiles happen here, through ktc's disk cache) and makes
# my_kernels a static library of the generated launch functions, the GPU
# code objects embedded in them and the host code, linking ktc::aot-runtime
# only: no LLVM, no MLIR. With JIT_FALLBACK it also holds the export list
# and links the full ktc library (ktc::ktc, LLVM and MLIR: about 70 MiB):
# a launch on a device none of TARGETS serves compiles the kernel there
# with ktc's JIT instead of failing. One JIT_FALLBACK library per program
# (each defines the export list's function).
function(ktc_add_kernels name)
  cmake_parse_arguments(PARSE_ARGV 1 KTC "JIT_FALLBACK" "NAMESPACE"
                        "EXPORTS;TARGETS")
  if(NOT KTC_EXPORTS OR NOT KTC_TARGETS)
    message(FATAL_ERROR "ktc_add_kernels(${name}): give EXPORTS and TARGETS")
  endif()
  if(KTC_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ktc_add_kernels(${name}): unknown arguments ${KTC_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT KTC_NAMESPACE)
    set(KTC_NAMESPACE ${name})
  endif()
  set(generator ${name}_ktc_aot)
  add_executable(${generator} ${KTC_EXPORTS})
  target_link_libraries(${generator} PRIVATE ktc::ktc ktc::aot-generator)
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${name}_aot")
  string(REPLACE ";" "," targets "${KTC_TARGETS}")
  set(fallback no)
  if(KTC_JIT_FALLBACK)
    set(fallback yes)
  endif()
  add_custom_command(
    OUTPUT "${out}/${name}.h" "${out}/${name}.cpp" "${out}/${name}_host.a"
    COMMAND ${generator} --name ${name} --namespace ${KTC_NAMESPACE}
            --targets ${targets} --out-dir "${out}"
            --jit-fallback ${fallback}
    DEPENDS ${generator}
    COMMENT "ktc-aot: compiling ${name} for ${targets}"
    VERBATIM)
  add_custom_target(${name}_ktc_aot_files DEPENDS "${out}/${name}_host.a")
  add_library(${name} STATIC "${out}/${name}.cpp")
  add_dependencies(${name} ${name}_ktc_aot_files)
  target_include_directories(${name} PUBLIC "${out}")
  # The host code after the launch functions that call it; libm for its
  # math.
  target_link_libraries(${name} PUBLIC ktc::aot-runtime "${out}/${name}_host.a" m)
  if(KTC_JIT_FALLBACK)
    # The export list (its kernels' builder functions) and the JIT.
    target_sources(${name} PRIVATE ${KTC_EXPORTS})
    target_link_libraries(${name} PUBLIC ktc::aot-generator ktc::ktc)
  endif()
endfunction()
