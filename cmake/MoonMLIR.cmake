# MoonMLIR.cmake - finds Debian's LLVM/MLIR 22 and loads MLIR's CMake helpers.
#
# Sets MLIR_DIR from MOON_LLVM_PREFIX (default /usr/lib/llvm-22) unless the
# caller gave one, then brings in mlir_tablegen() and LLVM's compile flags.

set(MOON_LLVM_PREFIX "/usr/lib/llvm-22" CACHE PATH "Prefix of LLVM/MLIR 22")
if(NOT MLIR_DIR)
  set(MLIR_DIR "${MOON_LLVM_PREFIX}/lib/cmake/mlir")
endif()

find_package(MLIR REQUIRED CONFIG)
if(NOT LLVM_VERSION_MAJOR EQUAL 22)
  message(FATAL_ERROR "moonc needs LLVM/MLIR 22, found ${LLVM_PACKAGE_VERSION} in ${MLIR_DIR}")
endif()
message(STATUS "Using MLIRConfig.cmake in: ${MLIR_DIR}")
message(STATUS "Using LLVMConfig.cmake in: ${LLVM_DIR}")

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
include(TableGen)
include(AddLLVM)
include(AddMLIR)
include(HandleLLVMOptions)

include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
separate_arguments(LLVM_DEFINITIONS_LIST NATIVE_COMMAND ${LLVM_DEFINITIONS})
add_definitions(${LLVM_DEFINITIONS_LIST})
