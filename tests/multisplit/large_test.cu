// The large method (two BMS passes over the digits of the bucket id, m up to 65,536) against the
// host stable multisplit: the checks of method_checks.hpp.
#include "multisplit/method_checks.hpp"

MULTISPLIT_METHOD_TESTS(MultisplitLarge, multisplit::method::large)
