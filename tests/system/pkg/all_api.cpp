// The same program as C++.
#include "all_api.c"
