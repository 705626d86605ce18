# The station model's benchmark (issue 7): 10,000 walkers, goal >= 40 ticks/s.
target_sources(lockstep_bench PRIVATE bench/bench_station.cpp bench/bench_station_grid.cpp)
