# The two ways this tree declares a target: a library and its tests. Every library is made
# the same way, in its own directory's CMakeLists.txt, with its headers, sources and tests
# beside each other (docs/architecture.md, "Layout").

include(GNUInstallDirs)

# lockstep_library(NAME SOURCES... [INCLUDE DIR] [PUBLIC LIBS...] [PRIVATE LIBS...])
# A static library lockstep_NAME, also known as lockstep::NAME (the name it is exported as).
# INCLUDE is its public include directory, relative to the current directory; in the build
# tree only: the installed package puts every installed header under include/ (cmake/install.cmake).
function(lockstep_library name)
  cmake_parse_arguments(L "" "INCLUDE" "SOURCES;PUBLIC;PRIVATE" ${ARGN})
  set(t lockstep_${name})
  add_library(${t} STATIC ${L_SOURCES})
  add_library(lockstep::${name} ALIAS ${t})
  set_target_properties(${t} PROPERTIES EXPORT_NAME ${name})
  if(L_INCLUDE)
    get_filename_component(_inc "${CMAKE_CURRENT_SOURCE_DIR}/${L_INCLUDE}" ABSOLUTE)
    target_include_directories(${t} PUBLIC $<BUILD_INTERFACE:${_inc}> $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  endif()
  if(L_PUBLIC)
    target_link_libraries(${t} PUBLIC ${L_PUBLIC})
  endif()
  if(L_PRIVATE)
    target_link_libraries(${t} PRIVATE ${L_PRIVATE})
  endif()
endfunction()

# The test files' own code (the test cases, their helpers, the header templates they instantiate)
# is compiled at -O1 in an optimised build: -O2's optimisation of the suite's thousands of
# assertions was about a third of each test batch's compile, and the suite's build is the largest
# part of CI's. What the tests test, the libraries, is compiled as everything else (-O2 in
# tools/dev's build); the results are the same bits at any optimisation level (the determinism
# matrix checks -O0 against -O2), so a test's verdict does not depend on it.
set(LOCKSTEP_TEST_COMPILE_OPTIONS $<$<CONFIG:RelWithDebInfo,Release,MinSizeRel>:-O1>)

# Catch2's header, precompiled once (lockstep_test_pch, made by the top-level CMakeLists.txt with
# lockstep_test_pch()) and used by every test batch: parsing it was about a sixth of a batch's
# compile (core's first batch: 13.8 CPU seconds, 11.4 with the precompiled header, which itself
# takes 2.7 once). Only Catch2: the project's own headers change often, and a header precompiled
# with them would recompile every test file on every change. tests/support/catch_main.cpp defines
# CATCH_CONFIG_RUNNER before its include, so it is compiled without it.
function(lockstep_test_pch)
  set(_src ${CMAKE_BINARY_DIR}/lockstep_test_pch.cpp)
  if(NOT EXISTS ${_src})
    file(WRITE ${_src} "// The object that carries Catch2's precompiled header (cmake/lockstep.cmake).\n")
  endif()
  add_library(lockstep_test_pch OBJECT ${_src})
  set_target_properties(lockstep_test_pch PROPERTIES UNITY_BUILD OFF)
  target_link_libraries(lockstep_test_pch PRIVATE Catch2::Catch2)
  # The test executables' flags (lockstep_tests()), so that the compiler accepts the header in theirs.
  target_compile_definitions(lockstep_test_pch PRIVATE LOCKSTEP_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  target_compile_options(lockstep_test_pch PRIVATE ${LOCKSTEP_TEST_COMPILE_OPTIONS})
  target_precompile_headers(lockstep_test_pch PRIVATE <catch2/catch.hpp>)
endfunction()

# lockstep_tests(NAME SOURCES... [LIBS...] [INCLUDE DIRS...] [ALONE SOURCES...])
# The Catch2 tests of one library, beside it: an executable lockstep_NAME_tests whose main
# (tests/support/catch_main.cpp) registers the bundled models and checks the test names, each
# test case registered with CTest by its name.
function(lockstep_tests name)
  if(NOT LOCKSTEP_TESTS OR LOCKSTEP_CORE_ONLY OR LOCKSTEP_FUZZ)
    return()
  endif()
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;INCLUDE;ALONE" ${ARGN})
  set(t lockstep_${name}_tests)
  add_executable(${t} ${T_SOURCES})
  target_link_libraries(${t} PRIVATE lockstep_test_support ${T_LIBS})
  if(T_INCLUDE)
    target_include_directories(${t} PRIVATE ${T_INCLUDE})
  endif()
  target_compile_definitions(${t} PRIVATE LOCKSTEP_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
  target_compile_options(${t} PRIVATE ${LOCKSTEP_TEST_COMPILE_OPTIONS})
  target_precompile_headers(${t} REUSE_FROM lockstep_test_pch)
  # One translation unit per few test files: Catch2, nlohmann-json and cereal are parsed once per
  # batch instead of once per file (the suite's build on two cores is CI's longest phase).
  # ALONE names the files compiled on their own: those whose file-local helpers share a name with
  # a sibling's (a batch would see both).
  set_target_properties(${t} PROPERTIES UNITY_BUILD ${LOCKSTEP_UNITY} UNITY_BUILD_BATCH_SIZE 4)
  if(T_ALONE)
    set_source_files_properties(${T_ALONE} TARGET_DIRECTORY ${t} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
  catch_discover_tests(${t})
endfunction()

# lockstep_fuzz_target(NAME SOURCE)
# The libFuzzer target fuzz_NAME beside what it fuzzes, made in the fuzz sub-build only
# (LOCKSTEP_FUZZ: clang, ASan, UBSan; cmake/fuzz.cmake runs it and registers the tests).
function(lockstep_fuzz_target name source)
  if(NOT LOCKSTEP_FUZZ)
    return()
  endif()
  add_executable(fuzz_${name} ${source})
  target_link_libraries(fuzz_${name} PRIVATE lockstep_replay lockstep_traces lockstep_models)
  target_compile_definitions(fuzz_${name} PRIVATE LOCKSTEP_FIXTURES_DIR="${PROJECT_SOURCE_DIR}/fixtures")
  target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
endfunction()
