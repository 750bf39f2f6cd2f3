// The public calls: method::automatic, the method the SSSP solver and most users take, through
// the delta-bucket checks of method_checks.hpp (it runs BMS or the large method, whose files
// check the other bucket functions); the device_count overload over a sequence of counts; the
// requests the library refuses; and multisplit as the SSSP loop uses it: on a stream of its own,
// captured into a CUDA graph and replayed with counts that change on the device, with counts
// above max_items (clamped and reported), after a context reset, and on every device of the
// machine. One bucket function (delta-buckets) throughout: the public calls compile every
// method for each bucket function they see.
#include "multisplit/method_checks.hpp"

MULTISPLIT_DELTA_TESTS(MultisplitAutomatic, multisplit::method::automatic)

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
  const multisplit::delta_buckets fn{1};
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

// The methods that take a device count, with a bucket count each serves.
struct method_case {
  method how;
  std::uint32_t m;
};
const method_case device_count_cases[] = {{method::direct, 7},    {method::warp, 100},   {method::block, 33},
                                          {method::block, 256},   {method::large, 1000}, {method::automatic, 5000}};

std::string label(const method_case& c) {
  return std::string(multisplit::method_name(c.how)) + " m=" + std::to_string(c.m);
}

// The first n keys of `keys` split by delta-buckets, as the library must return them.
std::vector<std::uint32_t> expected_split(const std::vector<std::uint32_t>& keys, std::size_t n, std::uint32_t m,
                                          std::vector<std::uint32_t>* offsets) {
  std::vector<std::uint32_t> buckets(n);
  for (std::size_t i = 0; i < n; ++i) buckets[i] = std::min(keys[i] / delta_for(m), m - 1);
  const reference ref = stable_multisplit(buckets, m);
  std::vector<std::uint32_t> out(n);
  for (std::size_t j = 0; j < n; ++j) out[j] = keys[ref.order[j]];
  if (offsets) *offsets = ref.offsets;
  return out;
}

__global__ void wait_kernel(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// Every launch of a call goes to the caller's stream: the stream first waits (a kernel that
// spins for some milliseconds), then receives the keys, then splits them. A kernel or copy the
// library put on another stream would run before the keys arrive and split stale memory.
TEST(MultisplitStreams, NonDefaultStreamOrdersEveryStage) {
  DELTASPLIT_REQUIRE_GPU();
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaSuccess, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (const method_case& c : device_count_cases) {
    const std::size_t n = 300001;
    const std::vector<std::uint32_t> keys = delta_keys(draw_buckets(n, c.m, distribution::uniform, c.m), c.m, c.m);
    std::vector<std::uint32_t> offsets_expected;
    const std::vector<std::uint32_t> expected = expected_split(keys, n, c.m, &offsets_expected);
    device_buffer<std::uint32_t> stale(std::vector<std::uint32_t>(n, 0)), in(n), out(n), offsets(c.m + 1);
    std::size_t bytes = 0;
    ASSERT_EQ(cudaSuccess, multisplit::split_keys(nullptr, bytes, in.ptr, out.ptr, n, c.m,
                                                  multisplit::delta_buckets{delta_for(c.m)}, offsets.ptr, stream, c.how));
    device_buffer<unsigned char> temp(bytes);
    ASSERT_EQ(cudaSuccess, cudaMemcpy(in.ptr, stale.ptr, n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice));
    device_buffer<std::uint32_t> source(keys);
    wait_kernel<<<1, 1, 0, stream>>>(20'000'000);  // about 10 ms
    ASSERT_EQ(cudaSuccess, cudaMemcpyAsync(in.ptr, source.ptr, n * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice,
                                           stream));
    ASSERT_EQ(cudaSuccess, multisplit::split_keys(temp.ptr, bytes, in.ptr, out.ptr, n, c.m,
                                                  multisplit::delta_buckets{delta_for(c.m)}, offsets.ptr, stream, c.how));
    ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(stream));
    EXPECT_EQ("", first_difference(expected, out.to_host(n))) << label(c);
    EXPECT_EQ("", first_difference(offsets_expected, offsets.to_host(c.m + 1))) << label(c);
  }
  cudaStreamDestroy(stream);
}

// The SSSP loop captures its iteration, multisplit included, into a CUDA graph and replays it
// with the frontier's size in device memory. Capture in global mode fails on any launch outside
// the capturing stream and on any call that is unsafe during capture (a synchronisation, an
// allocation); each replay must split the count the device holds then.
TEST(MultisplitStreams, CapturedIntoAGraphAndReplayed) {
  DELTASPLIT_REQUIRE_GPU();
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaSuccess, cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  for (const method_case& c : device_count_cases) {
    const std::size_t max_items = 200000;
    const std::vector<std::uint32_t> keys =
        delta_keys(draw_buckets(max_items, c.m, distribution::uniform, 3 * c.m), c.m, 3 * c.m);
    device_buffer<std::uint32_t> in(keys), out(max_items), offsets(c.m + 1), dev_n(1);
    const multisplit::device_count count{dev_n.ptr, max_items};
    const multisplit::delta_buckets fn{delta_for(c.m)};
    std::size_t bytes = 0;
    ASSERT_EQ(cudaSuccess, multisplit::split_keys(nullptr, bytes, in.ptr, out.ptr, count, c.m, fn, offsets.ptr,
                                                  stream, c.how));
    device_buffer<unsigned char> temp(bytes);

    cudaGraph_t graph = nullptr;
    ASSERT_EQ(cudaSuccess, cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    const cudaError_t split_status =
        multisplit::split_keys(temp.ptr, bytes, in.ptr, out.ptr, count, c.m, fn, offsets.ptr, stream, c.how);
    const cudaError_t capture_status = cudaStreamEndCapture(stream, &graph);
    ASSERT_EQ(cudaSuccess, split_status) << label(c) << ": " << cudaGetErrorString(split_status);
    ASSERT_EQ(cudaSuccess, capture_status) << label(c) << ": " << cudaGetErrorString(capture_status);
    cudaGraphExec_t exec = nullptr;
    ASSERT_EQ(cudaSuccess, cudaGraphInstantiate(&exec, graph, 0));
    for (std::uint32_t n : {200000u, 0u, 1u, 77777u, 8193u}) {
      ASSERT_EQ(cudaSuccess, cudaMemcpyAsync(dev_n.ptr, &n, sizeof n, cudaMemcpyHostToDevice, stream));
      ASSERT_EQ(cudaSuccess, cudaGraphLaunch(exec, stream));
      ASSERT_EQ(cudaSuccess, cudaStreamSynchronize(stream));
      std::vector<std::uint32_t> offsets_expected;
      const std::vector<std::uint32_t> expected = expected_split(keys, n, c.m, &offsets_expected);
      EXPECT_EQ("", first_difference(expected, out.to_host(n))) << label(c) << " replay n=" << n;
      EXPECT_EQ("", first_difference(offsets_expected, offsets.to_host(c.m + 1))) << label(c) << " replay n=" << n;
    }
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }
  cudaStreamDestroy(stream);
}

// A device count above max_items splits the first max_items items, writes nothing past them
// (the output's tail keeps its fill, and the large method's intermediate arrays hold max_items),
// and stores the count it read in device_count::overflow; a count within bounds leaves the word
// alone. Before the clamp the kernels walked all of them: the large method overran its
// intermediate arrays and every method wrote past max_items.
TEST(MultisplitDeviceCount, CountAboveMaxItemsIsClampedAndReported) {
  DELTASPLIT_REQUIRE_GPU();
  for (const method_case& c : device_count_cases) {
    const std::size_t max_items = 5000, n = 9000;
    const std::vector<std::uint32_t> keys = delta_keys(draw_buckets(n, c.m, distribution::uniform, 11), c.m, 11);
    device_buffer<std::uint32_t> in(keys), out(n), offsets(c.m + 1), dev_n(1), overflow(1);
    const multisplit::delta_buckets fn{delta_for(c.m)};
    const multisplit::device_count count{dev_n.ptr, max_items, overflow.ptr};
    std::size_t bytes = 0;
    ASSERT_EQ(cudaSuccess, multisplit::split_keys(nullptr, bytes, in.ptr, out.ptr, count, c.m, fn, offsets.ptr, 0,
                                                  c.how));
    device_buffer<unsigned char> temp(bytes);
    for (std::uint32_t requested : {9000u, 4000u}) {
      out.fill_bytes(0xab);
      overflow.fill_bytes(0);
      ASSERT_EQ(cudaSuccess, cudaMemcpy(dev_n.ptr, &requested, sizeof requested, cudaMemcpyHostToDevice));
      ASSERT_EQ(cudaSuccess, multisplit::split_keys(temp.ptr, bytes, in.ptr, out.ptr, count, c.m, fn, offsets.ptr,
                                                    0, c.how));
      ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize()) << label(c);
      const std::size_t split = std::min<std::size_t>(requested, max_items);
      std::vector<std::uint32_t> offsets_expected;
      std::vector<std::uint32_t> expected = expected_split(keys, split, c.m, &offsets_expected);
      expected.resize(n, 0xabababab);
      const std::string what = label(c) + " count " + std::to_string(requested) + " of at most 5000";
      EXPECT_EQ("", first_difference(expected, out.to_host(n))) << what;
      EXPECT_EQ("", first_difference(offsets_expected, offsets.to_host(c.m + 1))) << what;
      EXPECT_EQ(requested > max_items ? requested : 0u, overflow.to_host(1)[0]) << what << ": overflow word";
    }
  }
}

// What the library remembers per device (occupancy, the architecture of the code that runs) holds
// across a context reset, and the 256-bucket BMS shape (101 KB of shared memory on sm_90) still
// gets its raised limit after one. (Measured on the H200: the limit survives cudaDeviceReset with
// main's headers too, so this guards the memos rather than showing the per-device defect; that
// takes two GPUs, MultisplitDevices.EveryDeviceSplits.)
TEST(MultisplitDevices, SplitsAgainAfterTheContextIsReset) {
  DELTASPLIT_REQUIRE_GPU();
  const std::uint32_t m = 256;
  const std::size_t n = 100000;
  const std::vector<std::uint32_t> keys = delta_keys(draw_buckets(n, m, distribution::uniform, 2), m, 2);
  const std::vector<std::uint32_t> expected = expected_split(keys, n, m, nullptr);
  for (int round = 0; round < 2; ++round) {
    {
      device_buffer<std::uint32_t> in(keys), out(n);
      std::size_t bytes = 0;
      ASSERT_EQ(cudaSuccess, multisplit::split_keys(nullptr, bytes, in.ptr, out.ptr, n, m,
                                                    multisplit::delta_buckets{delta_for(m)}));
      device_buffer<unsigned char> temp(bytes);
      const cudaError_t status = multisplit::split_keys(temp.ptr, bytes, in.ptr, out.ptr, n, m,
                                                        multisplit::delta_buckets{delta_for(m)});
      ASSERT_EQ(cudaSuccess, status) << "round " << round << ": " << cudaGetErrorString(status);
      ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize()) << "round " << round;
      EXPECT_EQ("", first_difference(expected, out.to_host(n))) << "round " << round;
    }
    ASSERT_EQ(cudaSuccess, cudaDeviceReset());
  }
}

// Occupancy, the architecture's launch shape and the shared-memory limit are found per device: a
// process that splits on several GPUs uses each one's own. (Skips on a machine with one GPU.)
TEST(MultisplitDevices, EveryDeviceSplits) {
  DELTASPLIT_REQUIRE_GPU();
  int devices = 0;
  ASSERT_EQ(cudaSuccess, cudaGetDeviceCount(&devices));
  if (devices < 2) GTEST_SKIP() << "one CUDA device: the per-device memos need two to be told apart";
  for (int device = 0; device < devices; ++device) {
    ASSERT_EQ(cudaSuccess, cudaSetDevice(device));
    for (std::uint32_t m : {256u, 3000u}) {
      const std::size_t n = 300000;
      const std::vector<std::uint32_t> keys = delta_keys(draw_buckets(n, m, distribution::uniform, m), m, m);
      device_buffer<std::uint32_t> in(keys), out(n);
      std::size_t bytes = 0;
      ASSERT_EQ(cudaSuccess, multisplit::split_keys(nullptr, bytes, in.ptr, out.ptr, n, m,
                                                    multisplit::delta_buckets{delta_for(m)}));
      device_buffer<unsigned char> temp(bytes);
      ASSERT_EQ(cudaSuccess, multisplit::split_keys(temp.ptr, bytes, in.ptr, out.ptr, n, m,
                                                    multisplit::delta_buckets{delta_for(m)}));
      ASSERT_EQ(cudaSuccess, cudaDeviceSynchronize()) << "device " << device;
      EXPECT_EQ("", first_difference(expected_split(keys, n, m, nullptr), out.to_host(n)))
          << "device " << device << " m=" << m;
    }
  }
  cudaSetDevice(0);
}

}  // namespace
