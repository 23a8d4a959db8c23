# What test/install's CTest entry runs (cmake -P): installs the build tree
# into WORK_DIR/prefix, then configures, builds and runs the consumer project
# against that prefix only, as a user of find_package(ktc) would. Prints how
# long each step took and ends with the consumer's PASS or FAIL line.
#
#   cmake -DBUILD_DIR=build -DWORK_DIR=... -DCONSUMER=test/install/consumer
#         -DSOURCE_DIR=. -DGENERATOR=Ninja -DCXX=c++ [-DLINKER_FLAGS=...]
#         -P test/install/run.cmake
cmake_minimum_required(VERSION 3.20)
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

require_variables(BUILD_DIR WORK_DIR CONSUMER SOURCE_DIR GENERATOR CXX)
set(prefix "${WORK_DIR}/prefix")
set(build "${WORK_DIR}/consumer")
file(REMOVE_RECURSE "${prefix}" "${build}")

step("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
foreach(file include/ktc/ktc.h lib/cmake/ktc/ktcConfig.cmake
             lib/cmake/ktc/ktcConfigVersion.cmake lib/cmake/ktc/ktcTargets.cmake
             lib/libKtcRuntime.a lib/libktc-drivers.a
             lib/libktc-aot-runtime.a bin/ktc-opt bin/ktc-compile
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

build_consumer("the consumer" "${CONSUMER}" "${build}" "${prefix}")
step("run the dialect consumer" "${build}/dialect_consumer")
message("${output}")
step("run the consumer" "${build}/axpy")
message("${output}")
