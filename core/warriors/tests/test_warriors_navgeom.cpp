// warriors navigation tests (navgeom): in progress.
#include <catch2/catch.hpp>

#include "warriors/navgeom.h"
