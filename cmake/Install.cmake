# `cmake --install` and `find_package(ktc)`, and the generated reference
# docs. Included once from the top-level CMakeLists.txt, after every target
# exists.
#
# What a kernel-writing program needs is the public headers (include/ktc and
# the Kernel template's helpers in include/ktc/detail, all installed;
# plain C++20: none of them includes an MLIR or a generated header) and the
# static libraries below them. They are installed with one exported CMake
# package, so a consumer writes
#
#   find_package(ktc REQUIRED)                     # CMAKE_PREFIX_PATH=<prefix>
#   target_link_libraries(app PRIVATE ktc::ktc)
#
# ktc::ktc carries the include directory, C++20 and every ktc library; the
# libraries in turn name the MLIR, LLVM and lld libraries they were linked
# against, which ktcConfig.cmake finds again in the same LLVM 22 prefix.
# test/install builds and runs such a consumer against an installed tree.

include(CMakePackageConfigHelpers)

set(KTC_INSTALL_LIBDIR "lib${LLVM_LIBDIR_SUFFIX}") # as add_mlir_library installs
set(KTC_INSTALL_CMAKEDIR "${KTC_INSTALL_LIBDIR}/cmake/ktc")

# ---- The libraries ----------------------------------------------------------
# Leaves first; KtcAutotune at the top pulls in all the others.
set(KTC_LIBRARIES
  KtcDialect KtcTransforms KtcTargetDesc KtcConversion KtcTargetCPU KtcTargetGPU
  KtcCompiler
  KtcSupport KtcCache KtcOccupancy KtcBuilder KtcRuntime KtcBench KtcAutotune
  KtcAot KtcAotRuntime KtcDrivers)

# The builder's headers are found in the source tree while building; once
# installed they are under <prefix>/include.
set_target_properties(KtcBuilder PROPERTIES INTERFACE_INCLUDE_DIRECTORIES
  "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>;$<INSTALL_INTERFACE:include>")

# The one target users link: ktc::ktc, here and once installed.
add_library(ktc INTERFACE)
add_library(ktc::ktc ALIAS ktc)
target_link_libraries(ktc INTERFACE KtcAutotune)
target_include_directories(ktc INTERFACE
  "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>"
  "$<INSTALL_INTERFACE:include>")
target_compile_features(ktc INTERFACE cxx_std_20)

install(TARGETS ktc ${KTC_LIBRARIES}
  EXPORT ktcTargets
  COMPONENT ktc
  ARCHIVE DESTINATION "${KTC_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${KTC_INSTALL_LIBDIR}")

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/ktc"
  DESTINATION include
  COMPONENT ktc
  FILES_MATCHING PATTERN "*.h")

# ---- The dialect, for MLIR projects built on it ---------------------------------
# Its headers, ODS (.td) and what mlir-tblgen made of them (.inc), under
# <prefix>/include/ktc-dialect/dialect/, so that `#include
# "dialect/KtcDialect.h"` and `include "KtcOps.td"` (with
# -I <prefix>/include/ktc-dialect/dialect) work as they do here. ktcConfig
# defines ktc::dialect: these headers, MLIR's and ktc::KtcDialect.
set(KTC_DIALECT_INCLUDEDIR "include/ktc-dialect")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/dialect"
  DESTINATION "${KTC_DIALECT_INCLUDEDIR}"
  COMPONENT ktc
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td")
install(DIRECTORY "${PROJECT_BINARY_DIR}/dialect"
  DESTINATION "${KTC_DIALECT_INCLUDEDIR}"
  COMPONENT ktc
  FILES_MATCHING PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

# ---- The tools -----------------------------------------------------------------
install(TARGETS ktc-opt ktc-compile
  RUNTIME DESTINATION bin
  COMPONENT ktc)

# ---- The CMake package -----------------------------------------------------------
# Targets are exported as ktc::<name>: ktc::ktc, ktc::KtcRuntime, ...
install(EXPORT ktcTargets
  NAMESPACE ktc::
  DESTINATION "${KTC_INSTALL_CMAKEDIR}"
  COMPONENT ktc)

# What ktcConfig.cmake looks for again: the same MLIR and lld, and the LLVM
# version the libraries were compiled against.
set(KTC_CONFIG_MLIR_DIR "${MLIR_DIR}")
set(KTC_CONFIG_LLD_DIR "${LLD_DIR}")
set(KTC_CONFIG_LLVM_VERSION "${LLVM_PACKAGE_VERSION}")
configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/ktcConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/cmake/ktcConfig.cmake"
  INSTALL_DESTINATION "${KTC_INSTALL_CMAKEDIR}")
# 0.x: a minor version may change the API.
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/cmake/ktcConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/cmake/ktcConfig.cmake"
  "${PROJECT_BINARY_DIR}/cmake/ktcConfigVersion.cmake"
  "${CMAKE_CURRENT_LIST_DIR}/ktcAot.cmake"
  DESTINATION "${KTC_INSTALL_CMAKEDIR}"
  COMPONENT ktc)

# ---- The dialect reference, generated from the ODS ------------------------------
# build/docs/{dialect,passes}-reference.md, built with everything; the copies
# committed in docs/ are checked against them (CTest docs/*, registered in
# test/install/CMakeLists.txt), and
# `cmake --build build --target ktc-update-docs` refreshes those copies.
find_program(KTC_MLIR_TBLGEN mlir-tblgen HINTS "${KTC_LLVM_PREFIX}/bin" NO_DEFAULT_PATH)
if(NOT KTC_MLIR_TBLGEN)
  message(FATAL_ERROR "mlir-tblgen not found in ${KTC_LLVM_PREFIX}/bin (Debian: mlir-22-tools)")
endif()
set(KTC_DOCS_OUT "${PROJECT_BINARY_DIR}/docs")
set(KTC_GENERATED_DOCS
  "${KTC_DOCS_OUT}/dialect-reference.md"
  "${KTC_DOCS_OUT}/passes-reference.md")
file(GLOB KTC_ODS CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/dialect/*.td")
set(KTC_TBLGEN_INCLUDES -I "${PROJECT_SOURCE_DIR}/dialect")
foreach(dir IN LISTS MLIR_INCLUDE_DIRS)
  list(APPEND KTC_TBLGEN_INCLUDES -I "${dir}")
endforeach()
add_custom_command(
  OUTPUT ${KTC_GENERATED_DOCS}
  COMMAND ${CMAKE_COMMAND} -E make_directory "${KTC_DOCS_OUT}"
  COMMAND "${KTC_MLIR_TBLGEN}" -gen-dialect-doc -dialect=ktc ${KTC_TBLGEN_INCLUDES}
          "${PROJECT_SOURCE_DIR}/dialect/KtcOps.td"
          -o "${KTC_DOCS_OUT}/dialect-reference.md"
  COMMAND "${KTC_MLIR_TBLGEN}" -gen-pass-doc ${KTC_TBLGEN_INCLUDES}
          "${PROJECT_SOURCE_DIR}/dialect/KtcPasses.td"
          -o "${KTC_DOCS_OUT}/passes-reference.md"
  DEPENDS ${KTC_ODS}
  COMMENT "Generating the ktc dialect and pass reference (mlir-tblgen)")
add_custom_target(ktc-docs ALL DEPENDS ${KTC_GENERATED_DOCS})
add_custom_target(ktc-update-docs
  COMMAND ${CMAKE_COMMAND} -E copy ${KTC_GENERATED_DOCS} "${PROJECT_SOURCE_DIR}/docs"
  DEPENDS ${KTC_GENERATED_DOCS}
  COMMENT "Copying the generated reference into docs/")

# The docs (the committed reference among them) go along.
install(FILES "${PROJECT_SOURCE_DIR}/README.md"
  DESTINATION share/doc/ktc
  COMPONENT ktc)
install(DIRECTORY "${PROJECT_SOURCE_DIR}/docs/"
  DESTINATION share/doc/ktc/docs
  COMPONENT ktc
  FILES_MATCHING PATTERN "*.md" PATTERN "*.png" PATTERN "*.svg")
