// The block and wide Near-Far drivers (near_far.cuh) over the engine's graph, in 32-bit and
// float64 distances.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "sssp/gpu/near_far/block_driver.cuh"
#include "sssp/gpu/step_loop/tuning.cuh"
#include "sssp/gpu/near_far/tuning.cuh"
#include "sssp/gpu/near_far/near_far.cuh"

namespace deltasplit::sssp::gpu {

namespace {

// The one-source block driver's near queues: block_driver_tuning::near_capacity entries of 32-bit
// distances, half as many of 64-bit ones (128 KB of shared memory either way).
template <class Distance>
constexpr std::uint32_t block_near = near_entries<Distance>(block_driver_tuning::near_capacity);

template <class Distance>
class near_far final : public one_source_driver<Distance> {
 public:
  near_far(const device_csr<Distance>& graph, const driver_context& ctx, near_far_grid grid)
      : graph_(graph), ctx_(ctx), wide_(grid == near_far_grid::wide), n_(graph.num_vertices()) {
    host_ = static_cast<block_outcome*>(pinned_.get(sizeof(block_outcome)));
    if (wide_) {
      wide_blocks_ = wide_solve_blocks<Distance, block_driver_tuning::row_lanes>(ctx.multiprocessors);
      if (wide_blocks_ == 0) throw std::runtime_error("the wide driver needs a GPU that launches cooperative kernels");
      wide_books_ = device_array<near_far_books>(1, "the wide driver's books");
    } else {  // the block driver's near queues: 128 KB of shared memory
      DS_CUDA(cudaFuncSetAttribute(block_solve<Distance, block_near<Distance>, block_driver_tuning::row_lanes>,
                                   cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(block_driver_shared_bytes<Distance>(block_near<Distance>))));
    }
    outcome_ = device_array<block_outcome>(1, "the block driver's outcome");
  }

  // The wide driver's multiple of the automatic width (block_driver_tuning); the block driver none.
  double auto_delta_scale() const override { return wide_ ? block_driver_tuning::wide_auto_delta_scale : 1.0; }

  // One Near-Far solve; its milliseconds include the distance fill, as the step loop's include its
  // initialisation.
  driver_outcome solve(const solve_request<Distance>& request) override {
    const std::uint32_t queue_capacity = request.opts.tune.queue_capacity;
    if (far_capacity() == 0) grow_piles(queue_capacity ? queue_capacity : initial_queue_capacity(n_));
    const unsigned fill_blocks =
        std::min<unsigned>(ctx_.multiprocessors * loop_tuning::grid_blocks_per_sm, (n_ + 255) / 256 + 1);
    const std::uint32_t near_capacity = queue_capacity ? queue_capacity : capped(std::uint64_t{n_} + 512);
    if (wide_ && wide_near_.size() != 2 * std::size_t{near_capacity}) {
      wide_near_ = {};
      reserve(2 * std::size_t{near_capacity} * sizeof(wide_entry<Distance>), "the wide driver's near queues");
      wide_near_ = device_array<wide_entry<Distance>>(2 * std::size_t{near_capacity}, "the wide driver's near queues");
    }
    driver_outcome o;
    while (true) {
      const block_view<Distance> v{graph_.offsets(), graph_.targets(), graph_.weights(), n_,
                                   request.bucket,   request.last_bucket, request.dist, n_,
                                   piles_.get(),     far_capacity(),   outcome_.get(),  graph_.num_arcs()};
      const double ms =
          wide_ ? run_wide_solve<Distance, block_driver_tuning::row_lanes>(v, wide_books_.get(), wide_near_.get(),
                                                                           near_capacity, request.source, wide_blocks_,
                                                                           fill_blocks, ctx_.stream, ctx_.start,
                                                                           ctx_.stop, host_)
                : run_block_solve<Distance, block_near<Distance>, block_driver_tuning::row_lanes>(
                      v, nullptr, request.source, 1, block_driver_tuning::threads, fill_blocks, ctx_.stream,
                      ctx_.start, ctx_.stop, host_);
      const block_outcome blk = *host_;
      if (!blk.capacity_exceeded) {
        o.milliseconds = ms;
        o.overflowed = blk.overflowed;
        o.iterations = blk.iterations;
        o.edges_relaxed = blk.edges_relaxed;
        o.vertices_processed = blk.vertices_processed;
        o.max_queue = blk.max_frontier;
        o.description = (wide_ ? "wide: near-far over " + std::to_string(wide_blocks_) + " blocks of "
                               : std::string("block: near-far in one block of ")) +
                        std::to_string(block_driver_tuning::threads) + " threads; " + std::to_string(blk.buckets) +
                        " buckets, " + std::to_string(blk.passes) + " far-pile passes (" +
                        std::to_string(blk.respills) + " again after a full near set), far pile " +
                        std::to_string(blk.max_far) + " at most";
        return o;
      }
      if (far_capacity() >= 0x7FFFFFF0u) throw std::runtime_error("GPU block driver: far piles exceed 2^31 entries");
      grow_piles(capped(std::uint64_t{far_capacity()} * 2));
      ++o.queue_growths;
    }
  }

 private:
  void grow_piles(std::uint32_t capacity) {
    piles_ = {};
    reserve(2 * std::size_t{capacity} * sizeof(far_entry<Distance>), "the block driver's far piles");
    piles_ = device_array<far_entry<Distance>>(2 * std::size_t{capacity}, "the block driver's far piles");
  }

  // Entries of each of the two far piles (0 before the first solve).
  std::uint32_t far_capacity() const { return static_cast<std::uint32_t>(piles_.size() / 2); }

  const device_csr<Distance>& graph_;
  driver_context ctx_;
  bool wide_;
  vertex_t n_;
  unsigned wide_blocks_ = 0;  // the wide driver's grid
  pinned_buffer pinned_;
  block_outcome* host_ = nullptr;  // the outcome read back, pinned
  device_array<block_outcome> outcome_;
  device_array<far_entry<Distance>> piles_;
  device_array<wide_entry<Distance>> wide_near_;  // the wide driver's two near queues
  device_array<near_far_books> wide_books_;
};

}  // namespace

template <class Distance>
bool wide_launchable(unsigned multiprocessors) {
  return wide_solve_blocks<Distance, block_driver_tuning::row_lanes>(multiprocessors) > 0;
}

template <class Distance>
std::unique_ptr<one_source_driver<Distance>> make_near_far(const device_csr<Distance>& graph, const driver_context& ctx,
                                                           near_far_grid grid) {
  return std::make_unique<near_far<Distance>>(graph, ctx, grid);
}

template bool wide_launchable<std::uint32_t>(unsigned);
template bool wide_launchable<float>(unsigned);
template bool wide_launchable<double>(unsigned);
template bool wide_launchable<std::uint64_t>(unsigned);
template std::unique_ptr<one_source_driver<std::uint32_t>> make_near_far(const device_csr<std::uint32_t>&,
                                                                         const driver_context&, near_far_grid);
template std::unique_ptr<one_source_driver<float>> make_near_far(const device_csr<float>&, const driver_context&,
                                                                 near_far_grid);
template std::unique_ptr<one_source_driver<double>> make_near_far(const device_csr<double>&, const driver_context&,
                                                                  near_far_grid);
template std::unique_ptr<one_source_driver<std::uint64_t>> make_near_far(const device_csr<std::uint64_t>&,
                                                                         const driver_context&, near_far_grid);

}  // namespace deltasplit::sssp::gpu
