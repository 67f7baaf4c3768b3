// SPDX-License-Identifier: GPL-3.0-or-later
// Stochastic gradient descent for pmf (000 eq. 27.89 on eq. 27.92 with the biases of eq. 27.93),
// parallel over independent blocks of the rating matrix in a fixed, seeded schedule.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stop_token>
#include <vector>

#include "core/models/ratings/pmf_state.hpp"

namespace latent::core::pmf {

// Penalty coefficients per visit. A step on rating (u, i) follows the gradient of
//   e^2 + c_u |u_u|^2 + c_i |v_i|^2 + cb_u b_u^2 + cb_i b_i^2
// with c_u = (ridge of user u) / n_u, so that one pass over the ratings adds up to the gradient of
// the whole objective (eq. 27.92 with biases), whichever Penalty is chosen.
struct SgdPenalties {
  std::vector<float> userFactor, itemFactor, userBias, itemBias;
  static SgdPenalties from(const TrainingRatings& data, const Regularization& reg);
};

// One SGD step on a rating whose centred value (r - mu) is `target`; the 2 of the squared error is
// folded into the learning rate eta, as in 000 eq. 27.89:
//   e   = target - (b_u + b_i + u . v)
//   b_u += eta (e - cb_u b_u),  b_i += eta (e - cb_i b_i)
//   u   += eta (e v - c_u u),   v   += eta (e u_old - c_i v)
// Each eta c is capped at 1: a step shrinks a value at most to zero, so the large per-visit penalty
// of a row with one or two ratings cannot make the iteration diverge. Rows are `stride` floats
// (padding zero stays zero). Returns e.
inline float sgdStep(float* u, float* v, float& bu, float& bi, int stride, float target, float eta, float cu, float ci,
                     float cbu, float cbi) noexcept {
  const float e = target - (bu + bi + dotRows(u, v, stride));
  const float step = eta * e;
  const float ku = std::min(eta * cu, 1.0f), ki = std::min(eta * ci, 1.0f);
  bu += step - std::min(eta * cbu, 1.0f) * bu;
  bi += step - std::min(eta * cbi, 1.0f) * bi;
  for (int c = 0; c < stride; c += kLanes) {
    Eigen::Map<Lane> uc(u + c), vc(v + c);
    const Lane uOld = uc;
    uc += step * vc - ku * uOld;
    vc += step * uOld - ki * vc;
  }
  return e;
}

// The ratings dealt into B x B blocks: users and items are shuffled (seeded) into B groups each
// of near-equal size, block (a, b) holds the ratings of user group a on item group b. Blocks
// (a, (a + s) mod B) for a = 0..B-1 share no user and no item, so they are updated in parallel
// with no locks (stratified SGD, Gemulla et al. 2011). Each block's ratings are shuffled once and
// cut into chunks of kChunk; an epoch visits the B shifts s in a seeded order and each block's
// chunks in an order drawn from the block's own stream Rng(seed, epoch, block): the result depends
// on the seed and B, never on which thread ran which block. B = 1 is plain SGD over all ratings.
class SgdSolver {
 public:
  SgdSolver(const TrainingRatings& data, const Regularization& reg, int blocks, std::uint64_t seed);

  // One pass over every training rating. Returns false when `stop` ended it early (the steps
  // taken are kept; the parameters are consistent).
  bool epoch(Parameters& params, float learningRate, std::int64_t epochIndex, std::stop_token stop);
  int blocks() const noexcept { return m_blocks; }

 private:
  struct Cell {
    std::int32_t user, item;
    float target;  // r - mu
  };
  bool runBlock(Parameters& params, std::int64_t block, float learningRate, std::int64_t epochIndex,
                std::stop_token stop);

  static constexpr std::int64_t kChunk = 1024;
  int m_blocks = 1;
  std::uint64_t m_seed = 1;
  SgdPenalties m_penalties;
  std::vector<Cell> m_cells;                            // grouped by block
  std::vector<std::int64_t> m_blockStart;               // B*B + 1 offsets into m_cells
  std::vector<std::vector<std::int64_t>> m_chunkOrder;  // per block: this epoch's order of its chunks
};

}  // namespace latent::core::pmf
