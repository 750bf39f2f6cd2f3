// The two baselines (reduced-bit sort, scan split for m = 2) against the host stable multisplit:
// the checks of method_checks.hpp (scan split runs those with two buckets).
#include "multisplit/method_checks.hpp"

MULTISPLIT_METHOD_TESTS(MultisplitReducedBitSort, multisplit::method::reduced_bit_sort)
MULTISPLIT_METHOD_TESTS(MultisplitScanSplit, multisplit::method::scan_split)
