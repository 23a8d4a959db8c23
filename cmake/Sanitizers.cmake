# Sanitizer and fuzzing builds (docs/reliability.md; scripts/sanitize.sh
# configures, builds and runs them).
#
#   -DKTC_SANITIZE=address,undefined   ASan + UBSan (or either alone)
#   -DKTC_SANITIZE=thread              TSan
#   -DKTC_FUZZ=ON                      libFuzzer targets in test/fuzz
#
# Both need clang (scripts/sanitize.sh uses clang-22 and clang++-22). Only
# ktc's own code is instrumented: Debian's LLVM and MLIR libraries are not,
# which shapes the runtime options below (see docs/reliability.md).
#
# Included once from the top-level CMakeLists.txt, before the subdirectories.

set(KTC_SANITIZE "" CACHE STRING
    "Sanitizers for ktc's code: address, undefined, address,undefined or thread")
option(KTC_FUZZ "Build the libFuzzer targets in test/fuzz (clang)" OFF)
option(KTC_SANITIZE_ASSERTS
       "Keep assert() and LLVM's header asserts on in sanitizer/fuzz builds" ON)

set(KTC_SANITIZER_DIR "${CMAKE_CURRENT_LIST_DIR}/sanitizers")

if(NOT KTC_SANITIZE STREQUAL "" OR KTC_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "KTC_SANITIZE/KTC_FUZZ need clang "
            "(-DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22), "
            "not ${CMAKE_CXX_COMPILER_ID}")
  endif()

  string(REPLACE "," ";" _ktc_sanitizers "${KTC_SANITIZE}")
  foreach(s IN LISTS _ktc_sanitizers)
    if(NOT s MATCHES "^(address|undefined|thread)$")
      message(FATAL_ERROR "KTC_SANITIZE: unknown sanitizer '${s}' "
              "(address, undefined, thread)")
    endif()
  endforeach()
  if("thread" IN_LIST _ktc_sanitizers AND "address" IN_LIST _ktc_sanitizers)
    message(FATAL_ERROR "KTC_SANITIZE: thread and address cannot be combined")
  endif()

  set(_ktc_flags "")
  if(NOT KTC_SANITIZE STREQUAL "")
    list(APPEND _ktc_flags "-fsanitize=${KTC_SANITIZE}")
  endif()
  if("undefined" IN_LIST _ktc_sanitizers)
    # -fsanitize=function checks a type signature stored in front of every
    # function called through a pointer. The JIT-compiled kernels (HostKernel)
    # have none, and the bytes in front of them may be unmapped: checking them
    # can fault. The rest of UBSan stays on.
    list(APPEND _ktc_flags "-fno-sanitize=function")
  endif()
  if(KTC_FUZZ)
    # Coverage for libFuzzer in every library; only the fuzz targets link
    # libFuzzer itself (-fsanitize=fuzzer, test/fuzz/CMakeLists.txt).
    list(APPEND _ktc_flags "-fsanitize=fuzzer-no-link")
  endif()
  # Stacks that symbolise, at a build cost a 2-core machine can afford.
  list(APPEND _ktc_flags -fno-omit-frame-pointer -gline-tables-only)
  add_compile_options(${_ktc_flags})
  add_link_options(${_ktc_flags})
  # -O1 (the last -O wins): the usual level for sanitizer builds, and half the
  # compile time of -O3.
  add_compile_options(-O1)
  if(KTC_SANITIZE_ASSERTS)
    # Debian's libLLVM exports llvm::DebugFlag, so LLVM_DEBUG links too.
    add_compile_options(-UNDEBUG)
  endif()
  message(STATUS "ktc: sanitizers '${KTC_SANITIZE}', fuzzing ${KTC_FUZZ}, "
                 "asserts ${KTC_SANITIZE_ASSERTS}")

  # Default runtime options, compiled into every executable (tests, tools,
  # examples, fuzzers), so that ctest, lit and a plain run of a binary behave
  # alike without environment variables. ASAN_OPTIONS etc. still override them.
  #
  # allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs and
  # unpoisons each allocation when compiled with ASan (llvm/Support/
  # Allocator.h). Its header code is compiled into ktc's instrumented objects
  # and into Debian's uninstrumented MLIR archives; the linker keeps one copy
  # of each inline function, so an instrumented AllocateSlow poisons a slab
  # that an uninstrumented Allocate never unpoisons: every MLIRContext then
  # reports a use-after-poison in mlir::Dialect::addType. Ignoring manual
  # poisoning loses only the allocator's own red zones; ASan's checks of
  # malloc, new, stack and globals stay.
  #
  # allocator_may_return_null=1: ktc checks what its allocations return
  # (Device::allocate -> "cannot allocate N bytes"), and a test asks for 4 PiB
  # on purpose; by default the sanitizers' allocators abort instead.
  #
  # No abort_on_error: a report then exits with a non-zero status. With
  # SIGABRT, the signal handler of LLVM's tools (a stack trace) runs inside
  # the sanitizer's report, and under TSan it deadlocks (seen: ktc-compile).
  set(_ktc_symbolizer "external_symbolizer_path=${KTC_LLVM_PREFIX}/bin/llvm-symbolizer")
  set(_ktc_asan "${_ktc_symbolizer}:allow_user_poisoning=0:allocator_may_return_null=1:halt_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1:check_initialization_order=1:detect_leaks=1")
  set(_ktc_ubsan "${_ktc_symbolizer}:halt_on_error=1:print_stacktrace=1:suppressions=${KTC_SANITIZER_DIR}/ubsan.supp")
  set(_ktc_lsan "suppressions=${KTC_SANITIZER_DIR}/lsan.supp:print_suppressions=0")
  set(_ktc_tsan "${_ktc_symbolizer}:allocator_may_return_null=1:halt_on_error=1:second_deadlock_stack=1:suppressions=${KTC_SANITIZER_DIR}/tsan.supp:print_suppressions=0")
  set(KTC_SANITIZER_OPTIONS_SOURCE "${PROJECT_BINARY_DIR}/ktc_sanitizer_options.cpp")
  file(CONFIGURE OUTPUT "${KTC_SANITIZER_OPTIONS_SOURCE}" CONTENT [[
// Generated by cmake/Sanitizers.cmake: ktc's default sanitizer options.
extern "C" {
__attribute__((used, visibility("default"))) const char *__asan_default_options() {
  return "@_ktc_asan@";
}
__attribute__((used, visibility("default"))) const char *__ubsan_default_options() {
  return "@_ktc_ubsan@";
}
__attribute__((used, visibility("default"))) const char *__lsan_default_options() {
  return "@_ktc_lsan@";
}
__attribute__((used, visibility("default"))) const char *__tsan_default_options() {
  return "@_ktc_tsan@";
}
}
]] @ONLY)

  # test/install's consumer links the installed, instrumented archives
  # without the sanitizer runtime or these options: it cannot pass in these
  # builds, and says nothing about them. CTest skips it here (and says so
  # in docs/reliability.md).
  file(WRITE "${PROJECT_BINARY_DIR}/CTestCustom.cmake"
       "# Written by cmake/Sanitizers.cmake.\n"
       "set(CTEST_CUSTOM_TESTS_IGNORE \${CTEST_CUSTOM_TESTS_IGNORE} install/find_package install/aot)\n")
  message(STATUS "ktc: install/find_package and install/aot are skipped in sanitizer builds")

  # Adds the options source to every executable target, once all directories
  # are processed.
  function(_ktc_add_sanitizer_options dir)
    get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
    foreach(t IN LISTS targets)
      get_target_property(type ${t} TYPE)
      if(type STREQUAL "EXECUTABLE")
        target_sources(${t} PRIVATE "${KTC_SANITIZER_OPTIONS_SOURCE}")
      endif()
    endforeach()
    get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
    foreach(sub IN LISTS subdirs)
      _ktc_add_sanitizer_options("${sub}")
    endforeach()
  endfunction()
  cmake_language(DEFER DIRECTORY "${PROJECT_SOURCE_DIR}" CALL
                 _ktc_add_sanitizer_options "${PROJECT_SOURCE_DIR}")

  if("thread" IN_LIST _ktc_sanitizers)
    # bench/compile_bench.cpp replaces the global operator new and delete
    # (to count allocations); TSan's runtime defines them too and the link
    # fails. No test runs it: TSan builds leave it out of `all`.
    cmake_language(DEFER DIRECTORY "${PROJECT_SOURCE_DIR}" CALL
                   set_property TARGET ktc-compile-bench PROPERTY EXCLUDE_FROM_ALL ON)
  endif()

elseif(EXISTS "${PROJECT_BINARY_DIR}/CTestCustom.cmake")
  # A build directory reconfigured without sanitizers runs every test again.
  file(STRINGS "${PROJECT_BINARY_DIR}/CTestCustom.cmake" _ktc_custom
       LIMIT_COUNT 1)
  if(_ktc_custom MATCHES "cmake/Sanitizers.cmake")
    file(REMOVE "${PROJECT_BINARY_DIR}/CTestCustom.cmake")
  endif()
endif()

# The fuzz targets, and their replay tests in every build, fuzzing or not:
# the crashes the fuzzers found stay fixed. Added here, after the flags above
# (a directory inherits them when it is added).
add_subdirectory("${PROJECT_SOURCE_DIR}/test/fuzz" "${PROJECT_BINARY_DIR}/test/fuzz")
