// Key-only multisplit is key-value multisplit with no values: one kernel template serves both,
// and every value load, shared-memory slot and store compiles away for this type.
#pragma once

#include <type_traits>

namespace multisplit {
namespace detail {

struct no_value {};

template <class Value>
constexpr bool has_values = !std::is_same<Value, no_value>::value;

}  // namespace detail
}  // namespace multisplit
