# The station model's 0.7 m routing grid (core/station/grid.h, docs/station-grid.md).
add_library(lockstep_station_grid STATIC core/station/grid.cpp)
target_include_directories(lockstep_station_grid PUBLIC core)
target_link_libraries(lockstep_station_grid PUBLIC lockstep_core)
