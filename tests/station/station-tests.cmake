# The station model's tests (issue 7). Included by the top-level CMakeLists.txt.
target_sources(lockstep_tests PRIVATE
  tests/station/test_station_population.cpp
  tests/station/test_station_scenario.cpp
  tests/station/test_station_forces.cpp
  tests/station/test_station_headway.cpp
  tests/station/test_station_rimea.cpp
  tests/station/test_station_route.cpp
  tests/station/test_station_crowd.cpp
  tests/station/test_station_validation.cpp
  tests/station/test_station_hostile.cpp
  tests/station/test_station_flow_measures.cpp)
target_include_directories(lockstep_tests PRIVATE tests/station)

# Flow validation (issue 14; docs/validation.md, "Flows"): PedPy's measures and
# the runner over the scenarios tools/make-station-flows writes.
add_library(lockstep_flow_measures STATIC tests/station/flows/measures.cpp)
target_include_directories(lockstep_flow_measures PUBLIC tests/station/flows)
target_link_libraries(lockstep_tests PRIVATE lockstep_flow_measures)
add_executable(station_flows tests/station/flows/station_flows.cpp)
target_link_libraries(station_flows PRIVATE lockstep_flow_measures lockstep_station Threads::Threads)
target_compile_definitions(station_flows PRIVATE LOCKSTEP_FLOWS_DIR="${CMAKE_CURRENT_SOURCE_DIR}/fixtures/station/flows")
add_test(NAME station_flows_fixtures COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/tools/make-station-flows --check)
add_test(NAME station_flows_quick COMMAND station_flows --quick --jobs 2)
set_tests_properties(station_flows_quick PROPERTIES PROCESSORS 2)
