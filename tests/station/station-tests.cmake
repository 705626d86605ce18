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
  tests/station/test_station_hostile.cpp)
target_include_directories(lockstep_tests PRIVATE tests/station)
