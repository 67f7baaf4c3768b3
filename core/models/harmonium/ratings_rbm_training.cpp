// SPDX-License-Identifier: GPL-3.0-or-later
// CD-k for the categorical RBM on ratings (000 Alg. 27.3 with eq. 27.106-27.107).
#include "core/models/harmonium/ratings_rbm_training.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/models/harmonium/binary_rbm.hpp"
#include "core/util/random.hpp"

namespace latent::core::harmonium {
namespace {

// Streams of the minibatch rows are (update << kRatingsRowStreamBits) + row, as in rbm and rsm.
constexpr int kRatingsRowStreamBits = 32;
// Users per task in a minibatch's sampling; every user is computed alone, so any split gives the
// same numbers.
constexpr Eigen::Index kRatingsUsersPerSampleTask = 4;
// Pseudo-count of the training set's level frequencies in each item's starting biases.
constexpr double kRatingsBiasPrior = 2.0;

// A draw of the level from the probabilities `p` (R entries, summing to one).
std::int32_t drawLevel(const Eigen::Ref<const Eigen::VectorXd>& p, Rng& rng) {
  double u = rng.uniform();
  for (Eigen::Index r = 0; r + 1 < p.size(); ++r) {
    if (u < p[r]) return static_cast<std::int32_t>(r);
    u -= p[r];
  }
  return static_cast<std::int32_t>(p.size() - 1);
}

}  // namespace

RatingsRbmParameters initialRatingsParameters(const UserRatings& data, Eigen::Index hidden, std::uint64_t seed,
                                              double scale) {
  const Eigen::Index R = data.levelCount();
  RatingsRbmParameters p(data.items, R, hidden);
  Eigen::MatrixXd counts = Eigen::MatrixXd::Zero(data.items, R);
  for (std::int32_t u = 0; u < data.users; ++u)
    for (auto k = data.start[u]; k < data.start[u + 1]; ++k)
      counts(data.item[static_cast<std::size_t>(k)], data.level[static_cast<std::size_t>(k)]) += 1.0;
  const Eigen::RowVectorXd overall = (counts.colwise().sum().array() + 1.0) / (double(data.count) + double(R));
  Rng rng(seed, 0);
  for (Eigen::Index i = 0; i < data.items; ++i) {
    const double n = counts.row(i).sum();
    for (Eigen::Index r = 0; r < R; ++r)
      p.visibleBias(i, r) = std::log((counts(i, r) + kRatingsBiasPrior * overall[r]) / (n + kRatingsBiasPrior));
    if (data.itemRatings[static_cast<std::size_t>(i)] == 0) continue;
    for (Eigen::Index r = 0; r < R; ++r)
      for (Eigen::Index k = 0; k < hidden; ++k) p.weights(p.row(i, r), k) = scale * rng.normal();
  }
  return p;
}

RatingsRbmTrainer::RatingsRbmTrainer(const ContrastiveDivergence& settings, RatingsRbmParameters initial,
                                     std::uint64_t seed)
    : m_settings(settings),
      m_params(std::move(initial)),
      m_velocity(m_params.items(), m_params.levels, m_params.hidden()),
      m_gradient(m_params.items(), m_params.levels, m_params.hidden()),
      m_seed(seed) {}

bool RatingsRbmTrainer::epoch(const UserRatings& data, std::span<const Eigen::Index> order, double learningRate,
                              std::stop_token stop) {
  const auto batch = static_cast<std::size_t>(std::max<Eigen::Index>(m_settings.batchSize, 1));
  double squaredError = 0.0;
  std::int64_t ratings = 0;
  for (std::size_t start = 0; start < order.size(); start += batch) {
    if (stop.stop_requested()) return false;
    const auto rows = order.subspan(start, std::min(batch, order.size() - start));
    squaredError += sample(data, rows);
    accumulate(data, rows);
    ++m_updates;
    for (const auto u : rows) ratings += data.degree(static_cast<std::int32_t>(u));
    // W += momentum * dW_prev + rate * (gradient - weightDecay * W); the biases are not penalised.
    m_velocity.weights *= m_settings.momentum;
    m_velocity.weights += learningRate * (m_gradient.weights - m_settings.weightDecay * m_params.weights);
    m_velocity.visibleBias = m_settings.momentum * m_velocity.visibleBias + learningRate * m_gradient.visibleBias;
    m_velocity.hiddenBias = m_settings.momentum * m_velocity.hiddenBias + learningRate * m_gradient.hiddenBias;
    m_params.weights += m_velocity.weights;
    m_params.visibleBias += m_velocity.visibleBias;
    m_params.hiddenBias += m_velocity.hiddenBias;
  }
  m_reconstructionRmse = ratings > 0 ? std::sqrt(squaredError / double(ratings)) : 0.0;
  return true;
}

RatingsRbmParameters RatingsRbmTrainer::gradient(const UserRatings& data, std::span<const Eigen::Index> rows) {
  sample(data, rows);
  accumulate(data, rows);
  ++m_updates;
  return m_gradient;
}

double RatingsRbmTrainer::sample(const UserRatings& data, std::span<const Eigen::Index> rows) {
  const auto B = static_cast<Eigen::Index>(rows.size());
  const Eigen::Index K = m_params.hidden(), R = m_params.levels;
  m_dataHidden.resize(B, K);
  m_negativeHidden.resize(B, K);
  m_offsets.assign(static_cast<std::size_t>(B) + 1, 0);
  for (Eigen::Index i = 0; i < B; ++i)
    m_offsets[static_cast<std::size_t>(i) + 1] =
        m_offsets[static_cast<std::size_t>(i)] +
        data.degree(static_cast<std::int32_t>(rows[static_cast<std::size_t>(i)]));
  m_negativeLevels.resize(static_cast<std::size_t>(m_offsets.back()));
  m_rowErrors.assign(static_cast<std::size_t>(B), 0.0);
  const auto streamBase = static_cast<std::uint64_t>(m_updates) << kRatingsRowStreamBits;
  const int steps = std::max(m_settings.gibbsSteps, 1);

  tbb::parallel_for(tbb::blocked_range<Eigen::Index>(0, B, kRatingsUsersPerSampleTask), [&](const auto& range) {
    Eigen::VectorXd hidden(K), probabilities(R), input(K);
    for (Eigen::Index i = range.begin(); i < range.end(); ++i) {
      const auto u = static_cast<std::int32_t>(rows[static_cast<std::size_t>(i)]);
      const auto first = static_cast<std::size_t>(data.start[u]);
      const auto n = static_cast<std::size_t>(data.degree(u));
      const std::span<const std::int32_t> items(data.item.data() + first, n);
      const std::span<const std::int32_t> levels(data.level.data() + first, n);
      const std::span<std::int32_t> negative(m_negativeLevels.data() + m_offsets[static_cast<std::size_t>(i)], n);
      Rng rng(m_seed, streamBase + static_cast<std::uint64_t>(i));
      // Positive phase: E[h | v] (Alg. 27.3 line 8), then h ~ p(h | v) (line 9).
      ratingsHiddenProbabilities(m_params, items, levels, input);
      m_dataHidden.row(i) = input.transpose();
      Eigen::VectorXd current = input;
      double error = 0.0;
      for (int step = 0; step < steps; ++step) {
        for (Eigen::Index k = 0; k < K; ++k) hidden[k] = rng.uniform() < current[k] ? 1.0 : 0.0;
        // Down: each rated item's level from p(v_i | h) (eq. 27.106; line 10).
        for (std::size_t j = 0; j < n; ++j) {
          ratingsLevelProbabilities(m_params, items[j], hidden, probabilities);
          if (step == 0) {
            double expected = 0.0;
            for (Eigen::Index r = 0; r < R; ++r)
              expected += probabilities[r] * data.levels[static_cast<std::size_t>(r)];
            const double e = expected - data.levels[static_cast<std::size_t>(levels[j])];
            error += e * e;
          }
          negative[j] = drawLevel(probabilities, rng);
        }
        // Up: E[h | v'] (line 11), the mean in the last pass, drawn from in the next step.
        ratingsHiddenProbabilities(m_params, items, negative, current);
      }
      m_negativeHidden.row(i) = current.transpose();
      m_rowErrors[static_cast<std::size_t>(i)] = error;
    }
  });
  double total = 0.0;
  for (const double e : m_rowErrors) total += e;
  return total;
}

void RatingsRbmTrainer::accumulate(const UserRatings& data, std::span<const Eigen::Index> rows) {
  // Alg. 27.3 line 12, per user over the items it rated: E[v h^T] of the data minus that of the
  // reconstruction, summed in row order (the same for any thread count), divided by B.
  m_gradient.weights.setZero();
  m_gradient.visibleBias.setZero();
  const auto B = static_cast<Eigen::Index>(rows.size());
  for (Eigen::Index i = 0; i < B; ++i) {
    const auto u = static_cast<std::int32_t>(rows[static_cast<std::size_t>(i)]);
    const auto offset = m_offsets[static_cast<std::size_t>(i)];
    for (std::int64_t j = 0; j < data.degree(u); ++j) {
      const auto k = static_cast<std::size_t>(data.start[u] + j);
      const auto item = data.item[k];
      const auto positive = data.level[k];
      const auto negative = m_negativeLevels[static_cast<std::size_t>(offset + j)];
      m_gradient.weights.row(m_params.row(item, positive)) += m_dataHidden.row(i);
      m_gradient.weights.row(m_params.row(item, negative)) -= m_negativeHidden.row(i);
      m_gradient.visibleBias(item, positive) += 1.0;
      m_gradient.visibleBias(item, negative) -= 1.0;
    }
  }
  const double scale = B > 0 ? 1.0 / static_cast<double>(B) : 0.0;
  m_gradient.weights *= scale;
  m_gradient.visibleBias *= scale;
  m_gradient.hiddenBias = scale * (m_dataHidden.colwise().sum() - m_negativeHidden.colwise().sum()).transpose();
}

}  // namespace latent::core::harmonium
