# CMake toolchain file: cross-compile for 64-bit ARM Linux with Debian's
# aarch64-linux-gnu cross toolchain (packages g++-aarch64-linux-gnu and
# libc6-dev-arm64-cross), linking statically, and run the results under
# qemu-user (package qemu-user).
#
#   cmake -S . -B build/aarch64 \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DLOCKSTEP_CORE_ONLY=ON
#
# Used by tools/determinism-matrix for its aarch64-O2 configuration: gcc on
# aarch64 contracts a*b+c into a fused multiply-add unless told not to, so this
# build is the one that catches a missing -ffp-contract=off.
#
# A cross build finds nothing in the host's library or include directories
# (the find-root-path modes below); the top-level CMakeLists.txt links in the
# few header-only dependencies core/ needs explicitly.

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(_lockstep_cross aarch64-linux-gnu)
set(CMAKE_C_COMPILER ${_lockstep_cross}-gcc)
set(CMAKE_CXX_COMPILER ${_lockstep_cross}-g++)

# Debian's multiarch-style sysroot for the cross libc and libstdc++.
set(CMAKE_FIND_ROOT_PATH /usr/${_lockstep_cross})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)   # build tools come from the host
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)    # libraries only from the target
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# Static executables: qemu-aarch64 then needs no target dynamic loader or libs.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")

# try_run() and add_test() run target executables through qemu. The -L prefix
# is only needed for dynamic executables; it is harmless for static ones.
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/${_lockstep_cross})
