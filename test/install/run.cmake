# What test/install's CTest entry runs (cmake -P): installs the build tree
# into WORK_DIR/prefix, then configures, builds and runs the consumer project
# against that prefix only, as a user of find_package(ktc) would. Prints how
# long each step took and ends with the consumer's PASS or FAIL line.
#
#   cmake -DBUILD_DIR=build -DWORK_DIR=... -DCONSUMER=test/install/consumer
#         -DSOURCE_DIR=. -DGENERATOR=Ninja -DCXX=c++ [-DLINKER_FLAGS=...]
#         -P test/install/run.cmake
cmake_minimum_required(VERSION 3.20)

foreach(var BUILD_DIR WORK_DIR CONSUMER SOURCE_DIR GENERATOR CXX)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run.cmake needs -D${var}=...")
  endif()
endforeach()
set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/consumer")
file(REMOVE_RECURSE "${prefix}" "${build}")

# Runs one step; stops the test with its output if it fails.
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

step("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
foreach(file include/ktc/ktc.h lib/cmake/ktc/ktcConfig.cmake
             lib/cmake/ktc/ktcConfigVersion.cmake lib/cmake/ktc/ktcTargets.cmake
             lib/libKtcRuntime.a bin/ktc-opt bin/ktc-compile
             include/ktc-dialect/dialect/KtcDialect.h
             include/ktc-dialect/dialect/KtcOps.h.inc
             include/ktc-dialect/dialect/KtcOps.td)
  if(NOT EXISTS "${prefix}/${file}")
    message(FATAL_ERROR "cmake --install did not install ${file}")
  endif()
endforeach()

# The installed tool runs on its own.
step("installed ktc-opt" "${prefix}/bin/ktc-opt" --ktc-combine
     "${SOURCE_DIR}/examples/vector_add/vector_add.mlir")
if(NOT output MATCHES "ktc.store")
  message(FATAL_ERROR "the installed ktc-opt printed no kernel:\n${output}")
endif()

set(configure "${CMAKE_COMMAND}" -S "${CONSUMER}" -B "${build}"
  -G "${GENERATOR}" -DCMAKE_BUILD_TYPE=Release
  "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_PREFIX_PATH=${prefix}")
if(LINKER_FLAGS)
  list(APPEND configure "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
endif()
step("configure the consumer" ${configure})
# ktc must come from the prefix, not from the build or source tree.
file(STRINGS "${build}/CMakeCache.txt" found REGEX "^ktc_DIR:")
string(REGEX REPLACE "^ktc_DIR:[A-Z]+=" "" found "${found}")
if(NOT found STREQUAL "${prefix}/lib/cmake/ktc")
  message(FATAL_ERROR "the consumer found ktc in '${found}', not in ${prefix}")
endif()

step("build the consumer" "${CMAKE_COMMAND}" --build "${build}")
step("run the dialect consumer" "${build}/dialect_consumer")
message("${output}")
step("run the consumer" "${build}/axpy")
message("${output}")
