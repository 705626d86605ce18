# Fuzzing (docs/fuzzing.md): a libFuzzer target for each untrusted reader.
#
# libFuzzer comes with clang, whatever compiler builds the project. So the
# ordinary build (any compiler) builds the targets in a sub-build, build/fuzz,
# configured with clang and LOCKSTEP_FUZZ=ON (every library with ASan, UBSan and
# libFuzzer's coverage), as part of `cmake --build`; the tests run each target
# for a fixed number of inputs from a fixed seed (tools/fuzz), so a run is
# repeatable and a busy machine only makes it slower.
#
# Included by the top-level CMakeLists.txt. The targets themselves are declared beside what
# they fuzz with lockstep_fuzz_target() (cmake/lockstep.cmake): core/fuzz, replay/fuzz,
# traces/fuzz; in the ordinary build this file adds the sub-build and the tests.
set(_lockstep_fuzz_targets recording keyframe scenario trace pine)

if(LOCKSTEP_FUZZ)  # the targets are declared beside what they fuzz (lockstep_fuzz_target())
  return()
endif()

if(LOCKSTEP_CORE_ONLY OR NOT LOCKSTEP_TESTS OR LOCKSTEP_SANITIZE)  # the sanitizer build runs the suite, not the fuzzers
  return()
endif()
find_program(LOCKSTEP_FUZZ_CXX NAMES clang++ DOC "clang++ for the libFuzzer targets (the fuzz sub-build)")
if(NOT LOCKSTEP_FUZZ_CXX)
  message(STATUS "clang++ not found: the fuzz targets are not built and their tests not registered")
  return()
endif()

include(ExternalProject)
# The default build command of a Makefile generator is $(MAKE): the sub-build shares the jobs.
ExternalProject_Add(lockstep_fuzzers
  SOURCE_DIR ${CMAKE_CURRENT_SOURCE_DIR}
  BINARY_DIR ${CMAKE_BINARY_DIR}/fuzz
  # -O1 as libFuzzer's documentation advises: quick to build, fast enough to fuzz. Line tables
  # only: a finding's stack trace names file and line, and the build skips full debug information
  # (a third of this sub-build's time on two cores).
  CMAKE_ARGS -DCMAKE_CXX_COMPILER=${LOCKSTEP_FUZZ_CXX} -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" -DLOCKSTEP_FUZZ=ON
             -DLOCKSTEP_TESTS=OFF -DLOCKSTEP_BENCH=OFF -DLOCKSTEP_WERROR=${LOCKSTEP_WERROR}
  BUILD_ALWAYS TRUE
  INSTALL_COMMAND "")

# Inputs per target in the suite: about 7 to 20 s each on one core (measured 2026-12-03: recording
# 500 inputs in 17 s, keyframe 500 in 9 s, scenario 2500 in 14 s, trace 1500 in 11 s, pine 5000 in 7 s; a
# recording's replay is the slowest input, and libFuzzer runs every seed first). The suite's runs are
# a regression check from a fixed seed (every seed and hundreds to thousands of mutations of them);
# the search itself is the long runs (docs/fuzzing.md, "Long runs").
set(_fuzz_runs_recording 500)
set(_fuzz_runs_keyframe 500)
set(_fuzz_runs_scenario 2500)
set(_fuzz_runs_trace 1500)
set(_fuzz_runs_pine 5000)
foreach(t IN LISTS _lockstep_fuzz_targets)
  add_test(NAME fuzz_${t}
           COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/fuzz ${t} --bin ${CMAKE_BINARY_DIR}/fuzz --work ${CMAKE_BINARY_DIR}/fuzz-work
                   --runs ${_fuzz_runs_${t}})
  set_tests_properties(fuzz_${t} PROPERTIES TIMEOUT 900)
endforeach()
