// Implementation in progress (issue 6).
#include "warriors/navgeom.h"
