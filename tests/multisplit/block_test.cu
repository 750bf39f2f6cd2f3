// BMS (method::block) against the host stable multisplit: the checks of method_checks.hpp.
#include "multisplit/method_checks.hpp"

MULTISPLIT_METHOD_TESTS(MultisplitBMS, multisplit::method::block)
