# The recording reader's libFuzzer target (docs/fuzzing.md). In CI it runs a fixed number of
# inputs from a fixed seed (-seed=1 -runs=30000, about 30 s), so a run is repeatable.
#
# libFuzzer comes with clang, whatever compiler builds the project: so rather
# than a target of this build (which may be gcc), tools/fuzz-reader compiles
# replay/fuzz/fuzz_recording.cpp and the core and replay sources with clang++
# itself (ASan, UBSan, objects cached in its work dir), seeds a corpus with the
# lockstep command line and fuzzes for a fixed time. Registered as a test when
# clang++ is on the PATH. Included after the core-only return(): the seeds need
# the lockstep command line.
if(LOCKSTEP_CORE_ONLY OR NOT LOCKSTEP_TESTS)
  return()
endif()

find_program(LOCKSTEP_FUZZ_CXX NAMES clang++ DOC "clang++ for the libFuzzer target (tools/fuzz-reader)")
if(NOT LOCKSTEP_FUZZ_CXX)
  message(STATUS "clang++ not found: the recording reader's fuzz test (fuzz_recording_reader) is not registered")
  return()
endif()

# First run: about a minute and a half to build on two cores, then 30 s of fuzzing.
add_test(NAME fuzz_recording_reader
         COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/fuzz-reader --lockstep $<TARGET_FILE:lockstep>
                 --work ${CMAKE_BINARY_DIR}/fuzz --seconds 60 --cxx ${LOCKSTEP_FUZZ_CXX} -- -runs=30000)
set_tests_properties(fuzz_recording_reader PROPERTIES TIMEOUT 600)
