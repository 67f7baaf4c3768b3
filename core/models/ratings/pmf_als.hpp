// SPDX-License-Identifier: GPL-3.0-or-later
// Alternating least squares for pmf: with the items fixed, eq. 27.92 (with the biases of
// eq. 27.93) is a separate ridge regression for every user, and the other way round.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <stop_token>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "core/models/ratings/pmf_als_distribution.hpp"
#include "core/models/ratings/pmf_state.hpp"

namespace latent::core::pmf {

// Working space of one row's solve, reused so that a sweep allocates nothing per row.
struct AlsScratch {
  // Up to kAlsChunk rows of [f_j, 1] and their targets. Floats, like the factors: the products are
  // summed in single precision (twice the SIMD width); the system is solved in double.
  // Row-major, so gathering a rating's factors is one contiguous copy.
  Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> design;
  Eigen::VectorXf response;
  Eigen::MatrixXf gramPart;
  Eigen::VectorXf rhsPart;
  Eigen::MatrixXd gram;
  Eigen::VectorXd rhs;
  Eigen::LLT<Eigen::MatrixXd> llt;  // sized by its first compute(), reused after
  void reserve(int factors);
};

// The exact minimiser over one row's factors w (K values) and bias b of
//   sum_j (t_j - c_j - b - w . f_j)^2 + ridgeFactor |w|^2 + ridgeBias b^2
// where j runs over the row's ratings, t_j = r_j - mu, f_j and c_j the other side's factors and
// bias: (F^T F + diag(ridge)) [w; b] = F^T (t - c) with F's rows [f_j, 1]. Writes w to `row`
// (the padding untouched) and b to `bias`. A row with no ratings gets zeros.
// With `priorMean` z the factor penalty is ridgeFactor |w - z|^2 instead (rhs + ridgeFactor z):
// the user solve of implicit feedback, where w = u_u and z = |N(u)|^-1/2 sum y_j (pmf_implicit.hpp).
// A row of many ratings at a large K takes long enough to matter to a stop request (DESIGN §4), so
// `stop` is looked at between chunks of ratings: when it ends the solve, the row and bias are left
// as they were and the result is false.
bool alsSolveRow(const FactorTable& other, std::span<const float> otherBias, std::span<const std::int32_t> neighbours,
                 std::span<const float> targets, double ridgeFactor, double ridgeBias, float* row, float& bias,
                 AlsScratch& scratch, const float* priorMean = nullptr, const std::stop_token& stop = {});

class AlsSolver {
 public:
  // With `distribution` (a group of more than one process) each sweep solves only this process's
  // blocks of users and items and all-gathers the blocks (pmf_als_distribution.hpp); the implicit
  // step, a sequential pass over the items, runs whole on every process. Every process then holds
  // the parameters a single process would, bit for bit.
  AlsSolver(const TrainingRatings& data, const Regularization& reg, AlsDistribution* distribution = nullptr,
            int factors = 0);
  // Every user given the items, then every item given the users (oneTBB over rows; each row's
  // solve depends only on the other side, so the result is the same for any thread count).
  // With implicit feedback the y_j are solved between the two halves (alsImplicitStep), so every
  // step is an exact block minimisation and the objective never rises.
  // Returns false when `stop` ended it early; rows not reached keep their values. The stop is
  // looked at before every row (and within a row of many ratings) and inside the implicit step,
  // so it ends a sweep within one row's solve however large K is.
  // Distributed, `stop` is this process's own request; the processes agree on it after each half
  // and after the implicit step (AlsDistribution::agreed), so all of them return false from the
  // same sweep.
  bool sweep(Parameters& params, std::stop_token stop) const;

  // Rows solved since construction: users and items by ridge regression, implicit y_j by the
  // implicit step. The work a stopped sweep did, readable from another thread while it runs.
  std::int64_t rowsSolved() const noexcept { return m_rowsSolved.load(std::memory_order_relaxed); }

 private:
  bool sweepDistributed(Parameters& params, const std::stop_token& stop) const;
  // Solves rows [first, last) of one side given the other; false when `stop` cut it short.
  bool solveRows(FactorTable& rows, std::vector<float>& rowBias, const FactorTable& other,
                 const std::vector<float>& otherBias, const std::vector<std::int64_t>& start,
                 const std::vector<std::int32_t>& neighbours, const std::vector<float>& targets,
                 const FactorTable* priorMeans, std::int32_t first, std::int32_t last,
                 const std::stop_token& stop) const;
  // All-gathers the blocks of one side; true when any process had been stopped.
  bool gatherRows(FactorTable& rows, std::vector<float>& rowBias, const std::vector<std::int32_t>& bounds,
                  bool stopped) const;

  const TrainingRatings& m_data;
  Regularization m_reg;
  AlsDistribution* m_distribution;
  std::vector<std::int32_t> m_userBlocks, m_itemBlocks;
  mutable std::atomic<std::int64_t> m_rowsSolved{0};
};

}  // namespace latent::core::pmf
