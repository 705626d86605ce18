# Trajectories in JuPedSim's SQLite layout, which PedPy reads (docs/trajectories.md).
# Included by CMakeLists.txt in the toolkit section, where PkgConfig is found.
pkg_check_modules(SQLITE3 REQUIRED IMPORTED_TARGET sqlite3)
add_library(lockstep_trajectory STATIC trajectory/src/sqlite.cpp)
target_include_directories(lockstep_trajectory PUBLIC ${CMAKE_CURRENT_LIST_DIR}/include)
target_link_libraries(lockstep_trajectory PRIVATE PkgConfig::SQLITE3)
