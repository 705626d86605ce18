// warriors navigation tests (route): in progress.
#include <catch2/catch.hpp>

#include "warriors/route.h"
