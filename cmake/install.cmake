# find_package(lockstep) for outside projects (docs/library.md): install rules
# for the libraries and their public headers, and a CMake package
# (lockstepConfig.cmake, its version file and the exported lockstep:: targets).
#
# Included at the end of the top-level CMakeLists.txt, after the core-only
# return(): a LOCKSTEP_CORE_ONLY build (a cross build) never gets here, and
# everything below may use the toolkit's targets (lockstep_replay, zstd).
if(LOCKSTEP_CORE_ONLY)
  return()
endif()

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(LOCKSTEP_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/lockstep"
    CACHE STRING "Where lockstepConfig.cmake is installed, relative to the prefix")
set(_lockstep_libs lockstep_header_deps lockstep_core lockstep_wander lockstep_warriors lockstep_models lockstep_replay)
foreach(t lockstep_station_grid lockstep_station)  # the station model, when its parts are in the tree
  if(TARGET ${t})
    list(INSERT _lockstep_libs 4 ${t})
  endif()
endforeach()

# ---------------------------------------------------------------- exported names
# lockstep::core, lockstep::wander, lockstep::models, lockstep::replay, and
# lockstep::header_deps (cereal and nlohmann-json, which the public headers use).
foreach(t IN LISTS _lockstep_libs)
  string(REGEX REPLACE "^lockstep_" "" _name ${t})
  set_target_properties(${t} PROPERTIES EXPORT_NAME ${_name})
  if(NOT TARGET lockstep::${_name})  # the same names for a project that adds this tree as a subdirectory
    add_library(lockstep::${_name} ALIAS ${t})
  endif()
endforeach()

# ---------------------------------------------------------------- include dirs
# CMakeLists.txt gives plain source-tree paths (core/include, replay/include,
# core, and pkg-config's xxHash dir). They hold in the build tree only: wrap
# every plain path in $<BUILD_INTERFACE:...>, then name the installed include
# dir for the targets whose headers are installed.
function(_lockstep_build_only_paths target property)
  get_target_property(_dirs ${target} ${property})
  if(NOT _dirs)
    return()
  endif()
  set(_out "")
  foreach(d IN LISTS _dirs)
    if(d MATCHES "^\\$<")
      list(APPEND _out "${d}")  # already a generator expression
    else()
      list(APPEND _out "$<BUILD_INTERFACE:${d}>")
    endif()
  endforeach()
  set_property(TARGET ${target} PROPERTY ${property} "${_out}")
endfunction()
foreach(t IN LISTS _lockstep_libs)
  _lockstep_build_only_paths(${t} INTERFACE_INCLUDE_DIRECTORIES)
  _lockstep_build_only_paths(${t} INTERFACE_SYSTEM_INCLUDE_DIRECTORIES)
endforeach()
# Installed: include/lockstep/core/*.h, include/lockstep/replay/*.h and the
# umbrella include/lockstep/lockstep.h. The xxHash include dir is not carried
# over: xxhash.h is included only by core's and replay's .cpp files (inline
# mode), which are already compiled into the archives; no public header
# includes it. The wander model's header (core/wander/wander.h) is not
# installed either: a consumer reaches the bundled wander model through the
# model registry (load_scenario_text, load_scenario_file), never by its type.
set_property(TARGET lockstep_core APPEND PROPERTY INTERFACE_INCLUDE_DIRECTORIES
             "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")

# ---------------------------------------------------------------- usage requirements
# The public headers are C++20 (concepts, std::span).
set_property(TARGET lockstep_core APPEND PROPERTY INTERFACE_COMPILE_FEATURES cxx_std_20)
# Same inputs, same bits, in the consumer's code too. CMakeLists.txt turns off
# floating-point contraction and fast-math with add_compile_options, which
# reaches only the targets of this tree. But a consumer's own model (its
# step(), its physics) is compiled in the consumer's project, and so is the
# inline math of our headers it uses (vec.h, angle.h). Were that contracted
# into fused multiply-adds (gcc in its default GNU mode contracts wherever the
# target has FMA: aarch64, x86-64 with -march=haswell; clang contracts within
# an expression by default) or reordered by fast-math, one build or platform
# would compute other bits than another, and replays of its recordings would
# diverge. So the exported lockstep::core carries the same options to every
# target that links it (docs/library.md); on x86-64 also SSE2 math, never
# x87, as in CMakeLists.txt.
set(_lockstep_fp_options -ffp-contract=off -fno-fast-math)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  list(APPEND _lockstep_fp_options -msse2 -mfpmath=sse)
endif()
foreach(o IN LISTS _lockstep_fp_options)
  set_property(TARGET lockstep_core APPEND PROPERTY INTERFACE_COMPILE_OPTIONS
               "$<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang,AppleClang>:${o}>"
               "$<$<COMPILE_LANG_AND_ID:C,GNU,Clang,AppleClang>:${o}>")
endforeach()

# A sanitized build's libraries need their sanitizer runtimes in whatever links them.
if(LOCKSTEP_SANITIZE)
  set_property(TARGET lockstep_core APPEND PROPERTY INTERFACE_LINK_OPTIONS -fsanitize=address,undefined)
endif()

# lockstep_replay links zstd privately, through pkg-config's PkgConfig::ZSTD:
# a static library's private dependency is still linked by its consumers, as
# $<LINK_ONLY:PkgConfig::ZSTD>, and that target exists only in this tree. In
# the installed package it becomes lockstep::zstd, which lockstepConfig.cmake
# makes from zstd's own CMake package or, failing that, from pkg-config.
get_target_property(_replay_links lockstep_replay INTERFACE_LINK_LIBRARIES)
string(REPLACE "$<LINK_ONLY:PkgConfig::ZSTD>"
       "$<BUILD_INTERFACE:$<LINK_ONLY:PkgConfig::ZSTD>>;$<INSTALL_INTERFACE:$<LINK_ONLY:lockstep::zstd>>"
       _replay_links "${_replay_links}")
set_property(TARGET lockstep_replay PROPERTY INTERFACE_LINK_LIBRARIES "${_replay_links}")

# ---------------------------------------------------------------- install rules
install(TARGETS ${_lockstep_libs}
        EXPORT lockstepTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/core/include/lockstep ${CMAKE_CURRENT_SOURCE_DIR}/replay/include/lockstep
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")
install(TARGETS lockstep RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})  # the command line, for recordings a consumer makes
install(EXPORT lockstepTargets
        NAMESPACE lockstep::
        FILE lockstepTargets.cmake
        DESTINATION ${LOCKSTEP_INSTALL_CMAKEDIR})

# The package's config file, written here rather than kept as a template.
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/lockstepConfig.cmake @ONLY CONTENT [=[
# lockstep @PROJECT_VERSION@: find_package(lockstep) (docs/library.md).
#
#   find_package(lockstep REQUIRED)
#   target_link_libraries(my_game PRIVATE lockstep::replay)   # record and replay
#   target_link_libraries(my_sim PRIVATE lockstep::models)    # the core and the model registry
#
# Targets: lockstep::core (reflection, hashing, snapshots, diff, JSON loading;
# its users compile with -ffp-contract=off -fno-fast-math), lockstep::wander,
# lockstep::models, lockstep::replay, lockstep::header_deps.
include(CMakeFindDependencyMacro)
find_dependency(cereal)
find_dependency(nlohmann_json 3.10)

# lockstep::replay is a static library over libzstd: its consumers link zstd.
if(NOT TARGET lockstep::zstd)
  set(_lockstep_zstd "")
  find_package(zstd CONFIG QUIET)
  if(TARGET zstd::libzstd_shared)
    set(_lockstep_zstd zstd::libzstd_shared)
  elseif(TARGET zstd::libzstd_static)
    set(_lockstep_zstd zstd::libzstd_static)
  else()
    find_package(PkgConfig QUIET)
    if(PKG_CONFIG_FOUND)
      pkg_check_modules(_lockstep_zstd_pc QUIET IMPORTED_TARGET libzstd)
      if(TARGET PkgConfig::_lockstep_zstd_pc)
        set(_lockstep_zstd PkgConfig::_lockstep_zstd_pc)
      endif()
    endif()
  endif()
  if(NOT _lockstep_zstd)
    set(lockstep_FOUND FALSE)
    set(lockstep_NOT_FOUND_MESSAGE
        "lockstep needs libzstd: found neither zstd's CMake package (zstd::libzstd_shared) nor libzstd through pkg-config")
    unset(_lockstep_zstd)
    return()
  endif()
  add_library(lockstep::zstd INTERFACE IMPORTED)
  set_target_properties(lockstep::zstd PROPERTIES INTERFACE_LINK_LIBRARIES ${_lockstep_zstd})
  unset(_lockstep_zstd)
endif()

include("${CMAKE_CURRENT_LIST_DIR}/lockstepTargets.cmake")
]=])
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/lockstepConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMinorVersion)  # 0.x: a minor version may break the API
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/lockstepConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/lockstepConfigVersion.cmake
        DESTINATION ${LOCKSTEP_INSTALL_CMAKEDIR})

# ---------------------------------------------------------------- test
# Install into a temporary prefix, then build and run an outside project
# (tests/package/) against it.
if(LOCKSTEP_TESTS)
  add_test(NAME package_find_package
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/tests/package-test ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR})
  set_tests_properties(package_find_package PROPERTIES TIMEOUT 600)
endif()
