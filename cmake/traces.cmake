# Traces of the original program: the trace/map library, the `verify` and
# `capture` commands, and their tests (docs/traces.md).
#
# Included by the top-level CMakeLists.txt after the `lockstep` executable and
# the test section. Needs the targets lockstep_replay and lockstep_fixtures and
# CLI11 (found by the top level).
set(_lockstep_traces_root ${CMAKE_CURRENT_LIST_DIR}/..)

find_package(CLI11 REQUIRED)
find_package(Threads REQUIRED)

add_library(lockstep_traces STATIC
  ${_lockstep_traces_root}/traces/src/trace.cpp
  ${_lockstep_traces_root}/traces/src/pine.cpp
  ${_lockstep_traces_root}/traces/src/commands.cpp)
target_include_directories(lockstep_traces PUBLIC ${_lockstep_traces_root}/traces/include)
target_link_libraries(lockstep_traces PUBLIC lockstep_replay CLI11::CLI11)

# The command line gets `verify` and `capture` (tools/lockstep/main.cpp calls add_commands):
# every executable built from main.cpp links the library.
foreach(_t lockstep lockstep-planted)
  if(TARGET ${_t})
    target_link_libraries(${_t} PRIVATE lockstep_traces)
  endif()
endforeach()

if(LOCKSTEP_TESTS)
  enable_testing()
  find_package(Catch2 2 REQUIRED)
  include(Catch)
  add_executable(lockstep_traces_tests
    ${_lockstep_traces_root}/tests/support/catch_main.cpp
    ${_lockstep_traces_root}/traces/tests/pine_responder.cpp
    ${_lockstep_traces_root}/traces/tests/test_trace.cpp
    ${_lockstep_traces_root}/traces/tests/test_pine.cpp)
  target_include_directories(lockstep_traces_tests PRIVATE ${_lockstep_traces_root}/traces/tests)
  target_link_libraries(lockstep_traces_tests PRIVATE lockstep_traces lockstep_fixtures Catch2::Catch2 Threads::Threads)
  target_compile_definitions(lockstep_traces_tests PRIVATE LOCKSTEP_SOURCE_DIR="${_lockstep_traces_root}")
  catch_discover_tests(lockstep_traces_tests)

  # The commands end to end (needs main.cpp to call lockstep::traces::add_commands),
  # and the reference traces regenerated from seed 004's rules match the committed ones.
  if(TARGET lockstep)
    add_test(NAME trace_cli_end_to_end
             COMMAND ${_lockstep_traces_root}/tools/tests/trace-cli-test $<TARGET_FILE:lockstep>
                     ${_lockstep_traces_root}/fixtures)
  endif()
endif()
