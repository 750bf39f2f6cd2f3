// The terms of the road layer's one-pass reductions, written once for both sides: the device
// kernels (_network_aggregate.py: NVRTC compiles this text ahead of each kernel) and the host
// passes (python/src/network_reductions.hpp includes it), so that the CPU and the GPU add the same
// terms in the same order and keep the same nearest places.
#ifndef DELTASPLIT_REDUCTIONS_H
#define DELTASPLIT_REDUCTIONS_H

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define DELTASPLIT_REDUCTION __device__ __forceinline__
#else
#include <math.h>
#define DELTASPLIT_REDUCTION inline
#endif

// An entry at distance d (d <= radius) from valued node u, added into one radius's results s:
// the count of values, the decayed sum, the sum, the sum of squares, the least and the greatest
// value. per_node: (5, stride), per valued node the count, sum, sum of squares, least and
// greatest of its values. decay: 0 flat, 1 linear (1 - d / radius), 2 exp (exp(-d / radius));
// radius 0 weighs 1, the limit of both decays as d goes to 0.
DELTASPLIT_REDUCTION void take_entry(double* s, const double d, const double radius, const int decay,
                                     const double* per_node, const long long stride, const long long u) {
  const double w = decay == 0 || radius == 0.0 ? 1.0 : decay == 1 ? 1.0 - d / radius : exp(-d / radius);
  s[0] += per_node[u];
  s[1] += w * per_node[stride + u];
  s[2] += per_node[stride + u];
  s[3] += per_node[2 * stride + u];
  s[4] = fmin(s[4], per_node[3 * stride + u]);
  s[5] = fmax(s[5], per_node[4 * stride + u]);
}

// The places of valued node u, at distance d of a node, offered to the node's k best (bd, bp:
// nearest first, ties by place, -1 where empty). Its places are by_node[first[u] ..
// first[u] + per_node[u] - 1], ascending; at most k of a node can count.
template <class Index>
DELTASPLIT_REDUCTION void offer_places(double* bd, Index* bp, const int k, const double d, const Index u,
                                       const Index* by_node, const Index* first, const Index* per_node) {
  const Index from = first[u], count = per_node[u];
  for (Index q = 0; q < count; ++q) {
    const Index p = by_node[from + q];
    // A node's places come in ascending order at one distance: once one is not among the best,
    // no later one is.
    if (bp[k - 1] >= 0 && (d > bd[k - 1] || (d == bd[k - 1] && p > bp[k - 1]))) break;
    int s = k - 1;
    while (s > 0 && (bp[s - 1] < 0 || d < bd[s - 1] || (d == bd[s - 1] && p < bp[s - 1]))) {
      bd[s] = bd[s - 1];
      bp[s] = bp[s - 1];
      --s;
    }
    bd[s] = d;
    bp[s] = p;
  }
}

#endif
