// Implementation in progress (issue 6).
#include "warriors/route.h"
