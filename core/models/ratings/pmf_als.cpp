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

AlsSolver::AlsSolver(const TrainingRatings& data, const Regularization& reg, AlsDistribution* distribution, int factors)
    : m_data(data), m_reg(reg), m_distribution(distribution) {
  if (m_distribution != nullptr && m_distribution->group->size() > 1) {
    m_userBlocks = alsRowBlocks(data.userStart, factors, m_distribution->group->size());
    m_itemBlocks = alsRowBlocks(data.itemStart, factors, m_distribution->group->size());
  } else {
    m_distribution = nullptr;
  }
}

bool AlsSolver::solveRows(FactorTable& rows, std::vector<float>& rowBias, const FactorTable& other,
                          const std::vector<float>& otherBias, const std::vector<std::int64_t>& start,
                          const std::vector<std::int32_t>& neighbours, const std::vector<float>& targets,
                          const FactorTable* priorMeans, std::int32_t first, std::int32_t last,
                          const std::stop_token& stop) const {
  tbb::enumerable_thread_specific<AlsScratch> scratches;
  std::atomic<bool> stopped{false};
  if (first >= last) return !stop.stop_requested();
  tbb::parallel_for(tbb::blocked_range<std::int32_t>(first, last, kRowsPerTask), [&](const auto& range) {
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
      const auto from = static_cast<std::size_t>(start[static_cast<std::size_t>(r)]);
      const auto n = static_cast<std::size_t>(start[static_cast<std::size_t>(r) + 1]) - from;
      if (!alsSolveRow(other, otherBias, std::span<const std::int32_t>(neighbours).subspan(from, n),
                       std::span<const float>(targets).subspan(from, n), m_reg.factorRidge(std::int64_t(n)),
                       m_reg.biasRidge(std::int64_t(n)), rows.row(r), rowBias[static_cast<std::size_t>(r)], scratch,
                       priorMeans ? priorMeans->row(r) : nullptr, stop)) {
        stopped.store(true, std::memory_order_relaxed);
        break;
      }
      ++solved;
    }
    m_rowsSolved.fetch_add(solved, std::memory_order_relaxed);
  });
  return !stopped.load();
}

bool AlsSolver::sweep(Parameters& params, std::stop_token stop) const {
  if (m_distribution != nullptr) return sweepDistributed(params, stop);
  const bool implicit = params.hasImplicit();
  if (implicit) updateImplicitSums(m_data, params);
  if (!solveRows(params.users, params.userBias, params.items, params.itemBias, m_data.userStart, m_data.userItems,
                 m_data.userValues, implicit ? &params.implicitSums : nullptr, 0, m_data.users, stop))
    return false;
  if (implicit) {
    if (!alsImplicitStep(m_data, m_reg, params, stop, &m_rowsSolved)) return false;
  }
  if (!solveRows(params.items, params.itemBias, params.users, params.userBias, m_data.itemStart, m_data.itemUsers,
                 m_data.itemValues, nullptr, 0, m_data.items, stop))
    return false;
  return !stop.stop_requested();
}

bool AlsSolver::gatherRows(FactorTable& rows, std::vector<float>& rowBias, const std::vector<std::int32_t>& bounds,
                           bool stopped) const {
  Communicator& group = *m_distribution->group;
  const auto rank = static_cast<std::size_t>(group.rank());
  Bytes own;
  appendRowBlock(own, rows, rowBias, bounds[rank], bounds[rank + 1], stopped);
  const std::vector<Bytes> blocks = group.allGather(own);
  bool anyStopped = false;
  for (std::size_t q = 0; q < blocks.size(); ++q) {
    // This process's own rows are already in place.
    if (q == rank) {
      anyStopped = anyStopped || stopped;
      continue;
    }
    anyStopped = readRowBlock(blocks[q], rows, rowBias, bounds[q], bounds[q + 1]) || anyStopped;
  }
  if (anyStopped) m_distribution->agreed.request_stop();
  return anyStopped;
}

// The same steps as sweep(), each process solving its blocks. A process asked to stop sends its
// block as far as it got (rows not reached keep their values, on every process alike) and the
// flag with it, so the processes leave the sweep together with the same parameters.
bool AlsSolver::sweepDistributed(Parameters& params, const std::stop_token& stop) const {
  const auto rank = static_cast<std::size_t>(m_distribution->group->rank());
  const bool implicit = params.hasImplicit();
  if (implicit) updateImplicitSums(m_data, params);
  bool complete = solveRows(params.users, params.userBias, params.items, params.itemBias, m_data.userStart,
                            m_data.userItems, m_data.userValues, implicit ? &params.implicitSums : nullptr,
                            m_userBlocks[rank], m_userBlocks[rank + 1], stop);
  if (gatherRows(params.users, params.userBias, m_userBlocks, !complete)) return false;
  if (implicit) {
    // The y_j step is a sequential pass over the items (each y_j moves every later one's
    // gradients), so every process runs it whole on the same parameters. A process stopped in it
    // keeps consistent parameters of its own (pmf_implicit.hpp); the stop is then agreed.
    std::vector<std::int64_t> flag{alsImplicitStep(m_data, m_reg, params, stop, &m_rowsSolved) ? 0 : 1};
    m_distribution->group->allReduceSum(flag);
    if (flag[0] != 0) {
      m_distribution->agreed.request_stop();
      return false;
    }
  }
  complete = solveRows(params.items, params.itemBias, params.users, params.userBias, m_data.itemStart, m_data.itemUsers,
                       m_data.itemValues, nullptr, m_itemBlocks[rank], m_itemBlocks[rank + 1], stop);
  return !gatherRows(params.items, params.itemBias, m_itemBlocks, !complete || stop.stop_requested());
}

}  // namespace latent::core::pmf
