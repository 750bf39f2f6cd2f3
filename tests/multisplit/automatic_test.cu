// The public calls with method::automatic, the method the SSSP solver and most users take,
// through the checks of method_checks.hpp; the device_count overload over a sequence of counts;
// and the requests the library refuses.
#include "multisplit/method_checks.hpp"

MULTISPLIT_METHOD_TESTS(MultisplitAutomatic, multisplit::method::automatic)

namespace {

using namespace multisplit_test;

// The device_count overload reads n when the kernels run: one temporary allocation, sized for
// max_items, serves a sequence of calls whose n changes on the device between them.
TEST(Multisplit, DeviceCountFollowsTheDevice) {
  DELTASPLIT_REQUIRE_GPU();
  const std::uint32_t m = 10;
  const std::size_t max_items = 50000;
  const std::vector<std::uint32_t> buckets = draw_buckets(max_items, m, distribution::uniform, 5);
  const std::vector<std::uint32_t> keys = delta_keys(buckets, m, 5);
  device_buffer<std::uint32_t> dev_keys(keys), out(max_items), offsets(m + 1), dev_n(1);
  const multisplit::delta_buckets fn{delta_for(m)};
  std::size_t bytes = 0;
  MS_CUDA_OK(multisplit::split_keys(nullptr, bytes, dev_keys.ptr, out.ptr,
                                    multisplit::device_count{dev_n.ptr, max_items}, m, fn, offsets.ptr));
  device_buffer<unsigned char> temp(bytes);
  for (std::uint32_t n : {50000u, 0u, 1u, 4097u, 123u, 49999u}) {
    MS_CUDA_OK(cudaMemcpy(dev_n.ptr, &n, sizeof n, cudaMemcpyHostToDevice));
    MS_CUDA_OK(multisplit::split_keys(temp.ptr, bytes, dev_keys.ptr, out.ptr,
                                      multisplit::device_count{dev_n.ptr, max_items}, m, fn, offsets.ptr));
    MS_CUDA_OK(cudaDeviceSynchronize());
    const std::vector<std::uint32_t> prefix(buckets.begin(), buckets.begin() + n);
    const reference ref = stable_multisplit(prefix, m);
    std::vector<std::uint32_t> expected(n);
    for (std::uint32_t j = 0; j < n; ++j) expected[j] = keys[ref.order[j]];
    EXPECT_EQ("", first_difference(expected, out.to_host(n))) << "n=" << n;
    EXPECT_EQ("", first_difference(ref.offsets, offsets.to_host(m + 1))) << "n=" << n;
  }
}

TEST(Multisplit, RejectsWhatItCannotDo) {
  DELTASPLIT_REQUIRE_GPU();
  device_buffer<std::uint32_t> keys(16), out(16), dev_n(1);
  const multisplit::identity_buckets fn;
  std::size_t bytes = 0;
  EXPECT_EQ(cudaErrorInvalidValue, multisplit::split_keys(nullptr, bytes, keys.ptr, out.ptr, 16, 0u, fn));
  EXPECT_EQ(cudaErrorInvalidValue,
            multisplit::split_keys(nullptr, bytes, keys.ptr, out.ptr, 16, 257u, fn, nullptr, 0, method::block));
  EXPECT_EQ(cudaErrorInvalidValue,
            multisplit::split_keys(nullptr, bytes, keys.ptr, out.ptr, 16, 3u, fn, nullptr, 0, method::scan_split));
  EXPECT_EQ(cudaErrorInvalidValue,
            multisplit::split_keys(nullptr, bytes, keys.ptr, out.ptr, 16, 70000u, fn, nullptr, 0, method::large));
  EXPECT_EQ(cudaErrorInvalidValue,
            multisplit::split_keys(nullptr, bytes, keys.ptr, out.ptr, std::size_t{1} << 33, 4u, fn));
  EXPECT_EQ(cudaErrorInvalidValue,
            multisplit::split_keys(nullptr, bytes, keys.ptr, out.ptr,
                                   multisplit::device_count{dev_n.ptr, std::size_t{1} << 33}, 4u, fn));
  EXPECT_EQ(cudaErrorInvalidValue,
            multisplit::split_keys(nullptr, bytes, keys.ptr, out.ptr, multisplit::device_count{dev_n.ptr, 16}, 4u,
                                   fn, nullptr, 0, method::reduced_bit_sort));
  ASSERT_EQ(cudaSuccess, multisplit::split_keys(nullptr, bytes, keys.ptr, out.ptr, 16, 4u, fn));
  std::size_t too_few = bytes - 1;
  device_buffer<unsigned char> temp(bytes);
  EXPECT_EQ(cudaErrorInvalidValue, multisplit::split_keys(temp.ptr, too_few, keys.ptr, out.ptr, 16, 4u, fn));
}

}  // namespace
