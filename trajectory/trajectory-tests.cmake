# Tests of lockstep_trajectory; included inside the tests section of CMakeLists.txt.
target_sources(lockstep_tests PRIVATE trajectory/tests/test_sqlite.cpp)
target_link_libraries(lockstep_tests PRIVATE lockstep_trajectory PkgConfig::SQLITE3)  # the test reads files back
# An independent check of the layout with python3's sqlite3 module, when there is a python3.
find_program(LOCKSTEP_TRAJ_PYTHON3 python3)
if(LOCKSTEP_TRAJ_PYTHON3)
  set_property(SOURCE trajectory/tests/test_sqlite.cpp APPEND PROPERTY COMPILE_DEFINITIONS
    "LOCKSTEP_TRAJ_PYTHON3=\"${LOCKSTEP_TRAJ_PYTHON3}\""
    "LOCKSTEP_TRAJ_CHECK_SCRIPT=\"${CMAKE_CURRENT_LIST_DIR}/tests/check_jupedsim_sqlite.py\"")
endif()
