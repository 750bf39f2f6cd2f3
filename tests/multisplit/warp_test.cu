// WMS (method::warp) against the host stable multisplit: the checks of method_checks.hpp.
#include "multisplit/method_checks.hpp"

MULTISPLIT_METHOD_TESTS(MultisplitWMS, multisplit::method::warp)
