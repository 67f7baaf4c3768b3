// SPDX-License-Identifier: GPL-3.0-or-later
// CD-k and persistent CD for the binary RBM (000 Alg. 27.3 and 27.4).
#include "core/models/harmonium/rbm_training.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace latent::core::harmonium {
namespace {

// Streams of the minibatch rows are (update << kRowStreamBits) + row; the particles' come after
// every row stream a run can use.
constexpr int kRowStreamBits = 32;
constexpr std::uint64_t kParticleStreams = std::uint64_t{1} << 62;
// The reconstruction monitor reads the first kMonitorCases cases once per epoch, on streams
// (epoch << kRowStreamBits) + case after kMonitorStreams: its own draws, so that watching the
// fit does not change it, and a fixed set, so that its curve shows the model and not the batch.
constexpr Eigen::Index kMonitorCases = 100;
constexpr std::uint64_t kMonitorStreams = std::uint64_t{1} << 61;

// Cases per task of the sparse products, and visible units per task of the dense one; each entry
// is computed alone whatever the split, and the splits are fixed, so the numbers do not depend on
// the thread count.
constexpr Eigen::Index kCasesPerBlock = 16;
constexpr Eigen::Index kVisiblePerSlice = 128;

// Standard deviation of the initial weights.
constexpr double kInitialWeightScale = 0.01;

}  // namespace

RbmParameters initialParameters(const BinaryData& data, Eigen::Index hidden, std::uint64_t seed) {
  RbmParameters p(data.cols(), hidden);
  Rng rng(seed, 0);
  for (Eigen::Index k = 0; k < hidden; ++k)
    for (Eigen::Index r = 0; r < p.visible(); ++r) p.weights(r, k) = kInitialWeightScale * rng.normal();
  p.visibleBias = baseRateBiases(data);
  return p;
}

RbmTrainer::RbmTrainer(const ContrastiveDivergence& settings, RbmParameters initial, std::uint64_t seed)
    : m_settings(settings),
      m_params(std::move(initial)),
      m_seed(seed),
      m_weightRows(m_params.weights),
      m_weightVelocity(RowMatrix::Zero(m_params.visible(), m_params.hidden())),
      m_visibleVelocity(Eigen::VectorXd::Zero(m_params.visible())),
      m_hiddenVelocity(Eigen::VectorXd::Zero(m_params.hidden())) {
  m_weightsSingle = m_weightRows.cast<float>();
  if (m_settings.persistent) {
    // Alg. 27.4 line 2: chains started at random, here from the visible biases alone.
    const Eigen::Index S = m_settings.particles;
    m_particleRngs.reserve(static_cast<std::size_t>(S));
    for (Eigen::Index s = 0; s < S; ++s)
      m_particleRngs.emplace_back(seed, kParticleStreams + static_cast<std::uint64_t>(s));
    m_visible = (Eigen::VectorXd::Ones(S) * m_params.visibleBias.transpose())
                    .unaryExpr([](double x) { return sigmoid(x); })
                    .cast<float>();
    sampleBernoulliRows(m_visible, m_particleRngs.data(), m_particles);
  }
}

// Adds scale * sum_i v_i h_i^T to `into` (R x K by rows) for sparse rows v_i: each non-zero adds
// a row of H to a row of `into`, both contiguous.
void RbmTrainer::addOuterProducts(const BinaryData& visible, const Eigen::MatrixXd& hidden, double scale,
                                  RowMatrix& into) {
  m_hiddenRows = hidden;
  for (Eigen::Index i = 0; i < visible.rows(); ++i)
    for (BinaryData::InnerIterator it(visible, i); it; ++it)
      into.row(it.col()) += (scale * it.value()) * m_hiddenRows.row(i);
}

void RbmTrainer::hiddenOf(const BinaryData& visible, Eigen::MatrixXd& out) const {
  const Eigen::Index N = visible.rows(), K = m_params.hidden();
  out.resize(N, K);
  const Eigen::Index blocks = (N + kCasesPerBlock - 1) / kCasesPerBlock;
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, blocks, 1), [&](const auto& range) {
    for (Eigen::Index b = range.begin(); b < range.end(); ++b) {
      const Eigen::Index first = b * kCasesPerBlock, last = std::min(N, first + kCasesPerBlock);
      for (Eigen::Index i = first; i < last; ++i) {
        auto row = out.row(i);
        row = m_params.hiddenBias.transpose();
        for (BinaryData::InnerIterator it(visible, i); it; ++it) row += it.value() * m_weightRows.row(it.col());
      }
      auto block = out.middleRows(first, last - first);
      block = (1.0 + (-block.array()).exp()).inverse().matrix();
    }
  });
}

void RbmTrainer::visibleOf(const Eigen::MatrixXd& hidden) {
  const Eigen::Index R = m_params.visible();
  m_hiddenSingle = hidden.cast<float>();
  m_visible.resize(hidden.rows(), R);
  const Eigen::Index slices = (R + kVisiblePerSlice - 1) / kVisiblePerSlice;
  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, slices, 1), [&](const auto& range) {
    for (Eigen::Index slice = range.begin(); slice < range.end(); ++slice) {
      const Eigen::Index first = slice * kVisiblePerSlice, count = std::min(kVisiblePerSlice, R - first);
      auto block = m_visible.middleCols(first, count);
      block.noalias() = m_hiddenSingle * m_weightsSingle.middleRows(first, count).transpose();
      block.rowwise() += m_params.visibleBias.segment(first, count).cast<float>().transpose();
      // 1 / (1 + e^-x) with the packet exp: e^-x overflows to infinity only where the value is 0.
      block = (1.0F + (-block.array()).exp()).inverse().matrix();
    }
  });
}

Rng* RbmTrainer::rowStreams(std::uint64_t base, Eigen::Index rows) {
  m_rowRngs.clear();
  for (Eigen::Index i = 0; i < rows; ++i) m_rowRngs.emplace_back(m_seed, base + static_cast<std::uint64_t>(i));
  return m_rowRngs.data();
}

bool RbmTrainer::epoch(const BinaryData& data, std::span<const Eigen::Index> order, double learningRate,
                       std::stop_token stop) {
  const auto batch = static_cast<std::size_t>(std::max<Eigen::Index>(m_settings.batchSize, 1));
  for (std::size_t start = 0; start < order.size(); start += batch) {
    if (stop.stop_requested()) return false;
    update(data, order.subspan(start, std::min(batch, order.size() - start)), learningRate);
  }
  m_reconstructionError = monitorReconstruction(data);
  ++m_epochs;
  return true;
}

void RbmTrainer::gatherRows(const BinaryData& data, std::span<const Eigen::Index> rows) {
  m_batch.resize(static_cast<Eigen::Index>(rows.size()), data.cols());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    m_batch.startVec(static_cast<Eigen::Index>(i));
    for (BinaryData::InnerIterator it(data, rows[i]); it; ++it)
      m_batch.insertBack(static_cast<Eigen::Index>(i), it.col()) = it.value();
  }
  m_batch.finalize();
}

double RbmTrainer::monitorReconstruction(const BinaryData& data) {
  const Eigen::Index M = std::min(kMonitorCases, data.rows());
  if (M == 0) return 0.0;
  m_monitorRows.resize(static_cast<std::size_t>(M));
  std::iota(m_monitorRows.begin(), m_monitorRows.end(), Eigen::Index{0});
  gatherRows(data, m_monitorRows);
  Rng* rngs = rowStreams(kMonitorStreams + (static_cast<std::uint64_t>(m_epochs) << kRowStreamBits), M);
  hiddenOf(m_batch, m_hidden);
  sampleBernoulliRows(m_hidden, rngs);
  visibleOf(m_hidden);
  // sum (v - p)^2 = sum p^2 - 2 sum v p + sum v^2 reads v only where it is not 0.
  double squaredError = m_visible.cast<double>().squaredNorm();
  for (Eigen::Index i = 0; i < M; ++i)
    for (BinaryData::InnerIterator it(m_batch, i); it; ++it)
      squaredError += it.value() * (it.value() - 2.0 * m_visible(i, it.col()));
  return squaredError / (static_cast<double>(M) * static_cast<double>(m_params.visible()));
}

void RbmTrainer::update(const BinaryData& data, std::span<const Eigen::Index> rows, double learningRate) {
  const auto B = static_cast<Eigen::Index>(rows.size());
  gatherRows(data, rows);
  Rng* rngs = rowStreams(static_cast<std::uint64_t>(m_updates) << kRowStreamBits, B);

  // Positive phase: mu_i = E[h | v_i] (Alg. 27.3 line 8), then h_i ~ p(h | v_i) (line 9).
  hiddenOf(m_batch, m_dataHidden);
  m_hidden = m_dataHidden;
  sampleBernoulliRows(m_hidden, rngs);

  const BinaryData* negativeVisible = &m_negative;
  if (!m_settings.persistent) {
    for (int step = 0; step < m_settings.gibbsSteps; ++step) {
      if (step > 0) {
        m_hidden = m_negativeHidden;
        sampleBernoulliRows(m_hidden, rngs);
      }
      // v'_i ~ p(v | h_i) (line 10), drawn from E[v | h_i].
      visibleOf(m_hidden);
      sampleBernoulliRows(m_visible, rngs, m_negative);
      // mu'_i = E[h | v'_i] (line 11): the mean, not a draw, in the last upward pass.
      hiddenOf(m_negative, m_negativeHidden);
    }
  } else {
    // Alg. 27.4 line 9: brief Gibbs sampling from the particles' previous states.
    Rng* particleRngs = m_particleRngs.data();
    for (int step = 0; step < m_settings.gibbsSteps; ++step) {
      hiddenOf(m_particles, m_negativeHidden);
      sampleBernoulliRows(m_negativeHidden, particleRngs);
      visibleOf(m_negativeHidden);
      sampleBernoulliRows(m_visible, particleRngs, m_particles);
    }
    hiddenOf(m_particles, m_negativeHidden);
    negativeVisible = &m_particles;
  }

  // Gradient (Alg. 27.3 line 12, Alg. 27.4 line 11): data statistics minus the chains', both from
  // sparse visible states.
  const double positiveScale = learningRate / static_cast<double>(B);
  const double negativeScale = learningRate / static_cast<double>(negativeVisible->rows());
  m_weightVelocity *= m_settings.momentum;
  m_weightVelocity -= (learningRate * m_settings.weightDecay) * m_weightRows;
  addOuterProducts(m_batch, m_dataHidden, positiveScale, m_weightVelocity);
  addOuterProducts(*negativeVisible, m_negativeHidden, -negativeScale, m_weightVelocity);
  m_visibleVelocity *= m_settings.momentum;
  for (Eigen::Index i = 0; i < B; ++i)
    for (BinaryData::InnerIterator it(m_batch, i); it; ++it) m_visibleVelocity[it.col()] += positiveScale * it.value();
  for (Eigen::Index i = 0; i < negativeVisible->rows(); ++i)
    for (BinaryData::InnerIterator it(*negativeVisible, i); it; ++it)
      m_visibleVelocity[it.col()] -= negativeScale * it.value();
  m_hiddenVelocity = m_settings.momentum * m_hiddenVelocity + positiveScale * m_dataHidden.colwise().sum().transpose() -
                     negativeScale * m_negativeHidden.colwise().sum().transpose();
  m_weightRows += m_weightVelocity;
  m_params.weights = m_weightRows;
  m_weightsSingle = m_weightRows.cast<float>();
  m_params.visibleBias += m_visibleVelocity;
  m_params.hiddenBias += m_hiddenVelocity;
  ++m_updates;
}

}  // namespace latent::core::harmonium
