# The station model (issue 7): a transit-station crowd. Included by the top-level
# CMakeLists.txt right after lockstep_models; links itself into it.
add_library(lockstep_station STATIC
  core/station/scenario.cpp
  core/station/population.cpp
  core/station/spawn.cpp
  core/station/route.cpp
  core/station/forces.cpp
  core/station/station.cpp)
target_include_directories(lockstep_station PUBLIC core)
target_link_libraries(lockstep_station PUBLIC lockstep_core lockstep_station_grid)
target_link_libraries(lockstep_models PUBLIC lockstep_station)
