# Tests of the station routing grid (tests/station/test_station_grid.cpp).
target_sources(lockstep_tests PRIVATE tests/station/test_station_grid.cpp)
target_link_libraries(lockstep_tests PRIVATE lockstep_station_grid)
