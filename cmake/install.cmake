# find_package(lockstep) for outside projects (docs/library.md): install rules
# for the libraries and their public headers, and a CMake package
# (lockstepConfig.cmake, its version file and the exported lockstep:: targets).
#
# Included at the end of the top-level CMakeLists.txt, after the core-only
# return(): a LOCKSTEP_CORE_ONLY build (a cross build) never gets here. It sets
# nothing on the targets it installs: each library's own CMakeLists.txt does.

include(CMakePackageConfigHelpers)

set(LOCKSTEP_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/lockstep"
    CACHE STRING "Where lockstepConfig.cmake is installed, relative to the prefix")
# Every library, exported as lockstep::<name> (lockstep_library() in cmake/lockstep.cmake sets the
# names and wraps each include directory for the build tree and the installed tree alike).
set(_lockstep_libs lockstep_header_deps lockstep_core lockstep_wander lockstep_warriors lockstep_station_grid
    lockstep_station lockstep_models lockstep_replay lockstep_pool lockstep_verify lockstep_traces lockstep_trajectory lockstep_cli)

# Installed headers: the contract (lockstep/core), the bundled models' registration
# (lockstep/models/bundled.h), replay, verify, traces, trajectory, the command line
# (lockstep/cli/cli.h) and the umbrella lockstep/lockstep.h. The bundled models' own headers
# (core/wander/wander.h, ...) are not installed: a consumer reaches them by name through the
# registry, never by their types.
# ---------------------------------------------------------------- install rules
install(TARGETS ${_lockstep_libs}
        EXPORT lockstepTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(d core/include core/models/include replay/include pool/include verify/include traces/include trajectory/include
          tools/lockstep/include)
  install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/${d}/lockstep DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
endforeach()
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
#   target_link_libraries(my_lockstep PRIVATE lockstep::cli)  # every command, over your own model
#   target_link_libraries(my_sim PRIVATE lockstep::models)    # the bundled models (register_bundled_models)
#
# Targets: lockstep::core (the model contract and registry, reflection, hashing,
# snapshots, diff, JSON loading; its users compile with -ffp-contract=off
# -fno-fast-math), lockstep::replay, lockstep::verify, lockstep::traces,
# lockstep::trajectory, lockstep::cli (lockstep/cli/cli.h), lockstep::pool (a thread pool
# for Model::set_workers, lockstep/pool/thread_pool.h), lockstep::models
# (with lockstep::wander, lockstep::warriors, lockstep::station and
# lockstep::station_grid), lockstep::header_deps.
include(CMakeFindDependencyMacro)
find_dependency(cereal)
find_dependency(nlohmann_json 3.10)
find_dependency(Threads)  # lockstep::replay (the recorder's writer thread) and lockstep::pool

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

# lockstep::trajectory (and through it lockstep::cli) is a static library over SQLite. Only they
# need it: without SQLite's CMake module finding it, lockstep::sqlite3 names the library plainly
# (-lsqlite3), so a project that links only lockstep::replay or lockstep::core is not asked for it.
if(NOT TARGET lockstep::sqlite3)
  find_package(SQLite3 QUIET)
  add_library(lockstep::sqlite3 INTERFACE IMPORTED)
  if(TARGET SQLite::SQLite3)
    set_target_properties(lockstep::sqlite3 PROPERTIES INTERFACE_LINK_LIBRARIES SQLite::SQLite3)
  else()
    set_target_properties(lockstep::sqlite3 PROPERTIES INTERFACE_LINK_LIBRARIES sqlite3)
  endif()
endif()

include("${CMAKE_CURRENT_LIST_DIR}/lockstepTargets.cmake")
]=])
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/lockstepConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMinorVersion)  # 0.x: a minor version may break the API
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/lockstepConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/lockstepConfigVersion.cmake
        DESTINATION ${LOCKSTEP_INSTALL_CMAKEDIR})
