# What test/install/run.cmake and test/aot/run.cmake (both cmake -P
# scripts) share: checking their -D variables, running a step, and
# configuring and building a consumer project against an installed ktc.
cmake_minimum_required(VERSION 3.20)

# Stops with a message unless every variable named was given with -D.
function(require_variables)
  foreach(var ${ARGN})
    if(NOT DEFINED ${var})
      message(FATAL_ERROR "run.cmake needs -D${var}=...")
    endif()
  endforeach()
endfunction()

# Runs one step; stops the test with its output if it fails. Prints how long
# it took; its output is left in `output`.
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

# Configures the project in `source` into `build` against the prefix
# `prefix` only (Release, the caller's GENERATOR, CXX and LINKER_FLAGS),
# checks that find_package(ktc) found it there, and builds it.
function(build_consumer what source build prefix)
  set(configure "${CMAKE_COMMAND}" -S "${source}" -B "${build}"
    -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release
    "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_PREFIX_PATH=${prefix}" ${ARGN})
  if(LINKER_FLAGS)
    list(APPEND configure "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
  endif()
  step("configure ${what}" ${configure})
  # ktc must come from the prefix, not from the build or source tree.
  file(STRINGS "${build}/CMakeCache.txt" found REGEX "^ktc_DIR:")
  string(REGEX REPLACE "^ktc_DIR:[A-Z]+=" "" found "${found}")
  if(NOT found STREQUAL "${prefix}/lib/cmake/ktc")
    message(FATAL_ERROR "${what} found ktc in '${found}', not in ${prefix}")
  endif()
  step("build ${what}" "${CMAKE_COMMAND}" --build "${build}")
endfunction()
