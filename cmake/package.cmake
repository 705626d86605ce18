# The Debian package (docs/library.md, "Installing the .deb"): `cpack` in the build directory
# makes lockstep_<version>_<arch>.deb from the install rules of cmake/install.cmake, so it holds
# exactly what `cmake --install` installs: the command line (usr/bin/lockstep), the libraries,
# their headers and the CMake package (find_package(lockstep)), all under /usr. It runs no
# maintainer scripts (there are none).
#
# Included by the top-level CMakeLists.txt only when this tree is the top-level project and
# neither a core-only (cross) build nor the fuzz sub-build: those install nothing. cpack packs
# what is built and does not build: build `lockstep` and the libraries first.
#
# Depends:
#  - the shared libraries the command line links (libc6, libgcc-s1, libstdc++6, libzstd1,
#    libsqlite3-0), with the versions their symbols need, computed from the binary by
#    dpkg-shlibdeps (Debian's dpkg-dev) when the package is made, not listed by hand;
#  - the -dev packages without which the package's other half, find_package(lockstep), cannot
#    work: the installed headers include cereal's (libcereal-dev, which brings rapidjson-dev) and
#    nlohmann-json's (3.10 or later, lockstepConfig.cmake asks for it), and the static libraries
#    link libzstd (lockstep::replay) and SQLite (lockstep::trajectory, lockstep::cli), whose
#    linkable libraries come with libzstd-dev and libsqlite3-dev. xxHash and CLI11 are compiled in.
#    A compiler is not a dependency: a project that builds against the package brings its own
#    (the same g++ major version or later, as the archives hold its C++20 code).

set(LOCKSTEP_PACKAGE_MAINTAINER "Lockstep maintainers <maintainers@users.noreply.a-seed-0dc3f383.example>"
    CACHE STRING "The Maintainer field of the Debian package (cpack)")

set(CPACK_GENERATOR DEB)                       # `cpack` alone makes the .deb
set(CPACK_PACKAGE_NAME lockstep)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${LOCKSTEP_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# The project has no license file yet: nothing to name as one (CPACK_RESOURCE_FILE_LICENSE).

set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${LOCKSTEP_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)        # lockstep_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${PROJECT_DESCRIPTION}
A C++20 toolkit for deterministic game-AI simulation: a deterministic core steps
AI movement models tick by tick and hashes their whole state every tick; the
lockstep command records, replays, diffs, bisects and gates CI on determinism.
This package holds the command line with the bundled models, the static
libraries and their headers, and the CMake package: find_package(lockstep).")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libcereal-dev, nlohmann-json3-dev (>= 3.10), libzstd-dev, libsqlite3-dev")

find_program(LOCKSTEP_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(NOT LOCKSTEP_DPKG_SHLIBDEPS)
  message(STATUS "dpkg-shlibdeps not found: cpack needs it for the package's Depends (Debian package dpkg-dev)")
endif()

include(CPack)
