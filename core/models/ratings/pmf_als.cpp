// SPDX-License-Identifier: GPL-3.0-or-later
// Ridge solves per user and per item for pmf's alternating least squares.
#include "core/models/ratings/pmf_als.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>

#include "core/models/ratings/pmf_implicit.hpp"

namespace latent::core::pmf {
namespace {

// The design matrix is filled and folded into the Gram matrix this many ratings at a time, so the
// working space stays small (and in cache) however many ratings a popular item has.
constexpr Eigen::Index kAlsChunk = 256;
constexpr std::int32_t kRowsPerTask = 16;

}  // namespace

void AlsScratch::reserve(int factors) {
  const Eigen::Index width = factors + 1;
  if (design.cols() == width) return;
  design.resize(kAlsChunk, width);
  response.resize(kAlsChunk);
  gramPart.resize(width, width);
  rhsPart.resize(width);
  gram.resize(width, width);
  rhs.resize(width);
}

bool alsSolveRow(const FactorTable& other, std::span<const float> otherBias, std::span<const std::int32_t> neighbours,
                 std::span<const float> targets, double ridgeFactor, double ridgeBias, float* row, float& bias,
                 AlsScratch& scratch, const float* priorMean, const std::stop_token& stop) {
  const int K = other.factors;
  if (neighbours.empty()) {
    std::fill(row, row + K, 0.0f);
    bias = 0.0f;
    return true;
  }
  scratch.reserve(K);
  scratch.gram.setZero();
  scratch.rhs.setZero();
  const auto n = static_cast<Eigen::Index>(neighbours.size());
  for (Eigen::Index start = 0; start < n; start += kAlsChunk) {
    if (start > 0 && stop.stop_requested()) return false;
    const Eigen::Index m = std::min(kAlsChunk, n - start);
    for (Eigen::Index j = 0; j < m; ++j) {
      const auto o = neighbours[static_cast<std::size_t>(start + j)];
      const float* f = other.row(o);
      float* x = scratch.design.row(j).data();
      std::copy(f, f + K, x);
      x[K] = 1.0f;
      scratch.response(j) = targets[static_cast<std::size_t>(start + j)] - otherBias[static_cast<std::size_t>(o)];
    }
    const auto F = scratch.design.topRows(m);
    scratch.gramPart.setZero();
    scratch.gramPart.selfadjointView<Eigen::Lower>().rankUpdate(F.transpose());
    scratch.rhsPart.noalias() = F.transpose() * scratch.response.head(m);
    scratch.gram += scratch.gramPart.cast<double>();
    scratch.rhs += scratch.rhsPart.cast<double>();
  }
  // A vanishing ridge (lambda = 0) with fewer ratings than unknowns leaves the system singular; a
  // tiny one keeps it solvable without changing any well-posed answer.
  for (int k = 0; k < K; ++k) scratch.gram(k, k) += std::max(ridgeFactor, 1e-9);
  if (priorMean)
    for (int k = 0; k < K; ++k) scratch.rhs(k) += std::max(ridgeFactor, 1e-9) * double(priorMean[k]);
  scratch.gram(K, K) += std::max(ridgeBias, 1e-9);
  scratch.llt.compute(scratch.gram);
  scratch.llt.solveInPlace(scratch.rhs);
  for (int k = 0; k < K; ++k) row[k] = static_cast<float>(scratch.rhs(k));
  bias = static_cast<float>(scratch.rhs(K));
  return true;
}

AlsSolver::AlsSolver(const TrainingRatings& data, const Regularization& reg) : m_data(data), m_reg(reg) {}

bool AlsSolver::sweep(Parameters& params, std::stop_token stop) const {
  tbb::enumerable_thread_specific<AlsScratch> scratches;
  std::atomic<bool> stopped{false};
  auto half = [&](FactorTable& rows, std::vector<float>& rowBias, const FactorTable& other,
                  const std::vector<float>& otherBias, const std::vector<std::int64_t>& start,
                  const std::vector<std::int32_t>& neighbours, const std::vector<float>& targets,
                  const FactorTable* priorMeans) {
    const auto count = static_cast<std::int32_t>(rows.rows);
    tbb::parallel_for(tbb::blocked_range<std::int32_t>(0, count, kRowsPerTask), [&](const auto& range) {
      if (stopped.load(std::memory_order_relaxed)) return;
      if (stop.stop_requested()) {
        stopped.store(true, std::memory_order_relaxed);
        return;
      }
      auto& scratch = scratches.local();
      std::int64_t solved = 0;
      for (std::int32_t r = range.begin(); r != range.end(); ++r) {
        // One row at K in the hundreds is a K^3 factorisation plus K^2 per rating: every row
        // looks at the stop, an atomic read beside that work.
        if (r != range.begin() && stop.stop_requested()) {
          stopped.store(true, std::memory_order_relaxed);
          break;
        }
        const auto first = static_cast<std::size_t>(start[static_cast<std::size_t>(r)]);
        const auto n = static_cast<std::size_t>(start[static_cast<std::size_t>(r) + 1]) - first;
        if (!alsSolveRow(other, otherBias, std::span<const std::int32_t>(neighbours).subspan(first, n),
                         std::span<const float>(targets).subspan(first, n), m_reg.factorRidge(std::int64_t(n)),
                         m_reg.biasRidge(std::int64_t(n)), rows.row(r), rowBias[static_cast<std::size_t>(r)], scratch,
                         priorMeans ? priorMeans->row(r) : nullptr, stop)) {
          stopped.store(true, std::memory_order_relaxed);
          break;
        }
        ++solved;
      }
      m_rowsSolved.fetch_add(solved, std::memory_order_relaxed);
    });
  };
  const bool implicit = params.hasImplicit();
  if (implicit) updateImplicitSums(m_data, params);
  half(params.users, params.userBias, params.items, params.itemBias, m_data.userStart, m_data.userItems,
       m_data.userValues, implicit ? &params.implicitSums : nullptr);
  if (stopped.load()) return false;
  if (implicit) {
    if (!alsImplicitStep(m_data, m_reg, params, stop, &m_rowsSolved)) return false;
  }
  half(params.items, params.itemBias, params.users, params.userBias, m_data.itemStart, m_data.itemUsers,
       m_data.itemValues, nullptr);
  return !stopped.load() && !stop.stop_requested();
}

}  // namespace latent::core::pmf
