// SPDX-License-Identifier: GPL-3.0-or-later
// DTM kernels (see the header for the model and the updates): the documents' E step against their
// slice's topics, the slices' expected counts, each topic's path by Newton steps that are Kalman
// smoothers over the slices, and alpha per slice.
#include "core/models/topic/dtm_kernels.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>

#include "core/models/topic/dirichlet_hyperparameters.hpp"
#include "core/models/topic/plsa_kernels.hpp"
#include "core/util/special_functions.hpp"

namespace latent::core::topic {
namespace {

double rowLogSumExp(const Eigen::Ref<const Eigen::RowVectorXd>& b) {
  const double top = b.maxCoeff();
  return top + std::log((b.array() - top).exp().sum());
}

std::vector<std::vector<std::int64_t>> documentsBySlice(std::span<const std::int32_t> sliceOf, std::size_t slices) {
  std::vector<std::vector<std::int64_t>> out(slices);
  for (std::size_t d = 0; d < sliceOf.size(); ++d)
    out[static_cast<std::size_t>(sliceOf[d])].push_back(static_cast<std::int64_t>(d));
  return out;
}

// One topic's path: T x V natural parameters, T x V expected counts and their row sums.
struct TopicPath {
  Eigen::MatrixXd b, s;
  Eigen::VectorXd n;
};

// sum_t [s_t . b_t - n_t lse(b_t)] + the random walk's log density (without its constant).
double pathObjective(const TopicPath& path, const Eigen::MatrixXd& b, const DtmSettings& settings) {
  double value = -0.5 * b.row(0).squaredNorm() / settings.initialVariance;
  for (Eigen::Index t = 0; t < b.rows(); ++t) {
    if (path.n[t] > 0.0) value += path.s.row(t).dot(b.row(t)) - path.n[t] * rowLogSumExp(b.row(t));
    if (t > 0) value -= 0.5 * (b.row(t) - b.row(t - 1)).squaredNorm() / settings.drift;
  }
  return value;
}

// Newton steps on the path with the multinomial's curvature taken as diagonal: for every word, a
// tridiagonal system over the slices (the random walk's precision plus N_t p_tw on the diagonal),
// solved by the Thomas algorithm; halved until the exact objective does not fall. A stop ends it
// between steps: every accepted step raised the objective, so the path is a consistent one.
void improvePath(TopicPath& path, const DtmSettings& settings, const std::stop_token& stop) {
  const auto T = path.b.rows(), V = path.b.cols();
  const double walk = 1.0 / settings.drift, start = 1.0 / settings.initialVariance;
  Eigen::MatrixXd p(T, V), g(T, V), delta(T, V), candidate(T, V);
  std::vector<double> scaledUpper(static_cast<std::size_t>(T)), scaledRhs(static_cast<std::size_t>(T));
  double current = pathObjective(path, path.b, settings);
  for (int step = 0; step < settings.newtonSteps && !stop.stop_requested(); ++step) {
    for (Eigen::Index t = 0; t < T; ++t) p.row(t) = (path.b.row(t).array() - rowLogSumExp(path.b.row(t))).exp();
    for (Eigen::Index t = 0; t < T; ++t) {
      g.row(t) = path.s.row(t) - path.n[t] * p.row(t);
      if (t == 0) g.row(t) -= start * path.b.row(t);
      if (t > 0) g.row(t) -= walk * (path.b.row(t) - path.b.row(t - 1));
      if (t + 1 < T) g.row(t) += walk * (path.b.row(t + 1) - path.b.row(t));
    }
    for (Eigen::Index w = 0; w < V; ++w) {
      // diagonal_t = n_t p_tw + the walk's precision; every off-diagonal is -walk.
      for (Eigen::Index t = 0; t < T; ++t) {
        const double diagonal =
            path.n[t] * p(t, w) + (t == 0 ? start : 0.0) + (t > 0 ? walk : 0.0) + (t + 1 < T ? walk : 0.0);
        const double m = t == 0 ? diagonal : diagonal + walk * scaledUpper[static_cast<std::size_t>(t - 1)];
        scaledUpper[static_cast<std::size_t>(t)] = -walk / m;
        scaledRhs[static_cast<std::size_t>(t)] =
            (g(t, w) + (t == 0 ? 0.0 : walk * scaledRhs[static_cast<std::size_t>(t - 1)])) / m;
      }
      delta(T - 1, w) = scaledRhs[static_cast<std::size_t>(T - 1)];
      for (Eigen::Index t = T - 2; t >= 0; --t)
        delta(t, w) =
            scaledRhs[static_cast<std::size_t>(t)] - scaledUpper[static_cast<std::size_t>(t)] * delta(t + 1, w);
    }
    double fraction = 1.0;
    bool improved = false;
    for (int halving = 0; halving < 20 && !improved; ++halving, fraction *= 0.5) {
      candidate = path.b + fraction * delta;
      const double value = pathObjective(path, candidate, settings);
      if (value >= current) {
        path.b.swap(candidate);
        current = value;
        improved = true;
      }
    }
    if (!improved) break;
  }
}

}  // namespace

void initDtm(const DocWordCounts& counts, std::span<const std::int32_t> sliceOf, std::size_t slices, std::int64_t K,
             std::uint64_t seed, std::uint64_t restart, DtmState& state) {
  PlsaState seeded;
  initPlsa(counts, K, seed, restart, PlsaSettings{1.0, 0.01}, seeded, {});
  // Every slice starts from the same topics: log p, centred (softmax ignores the level).
  Eigen::MatrixXd natural = (seeded.phi.transpose().array() + 1e-12).log().matrix();
  for (Eigen::Index k = 0; k < K; ++k) natural.row(k).array() -= natural.row(k).mean();
  Eigen::MatrixXd topics = natural;
  for (Eigen::Index k = 0; k < K; ++k)
    topics.row(k) = (natural.row(k).array() - rowLogSumExp(natural.row(k))).exp().matrix();
  state.sliceOf.assign(sliceOf.begin(), sliceOf.end());
  state.natural.assign(slices, natural);
  state.topics.assign(slices, topics);
  state.corpusAlpha = Eigen::VectorXd::Constant(K, 1.0 / static_cast<double>(K));
  state.alpha.assign(slices, state.corpusAlpha);
  const auto D = static_cast<Eigen::Index>(counts.documents());
  state.gammas.resize(K, D);
  for (Eigen::Index d = 0; d < D; ++d)
    state.gammas.col(d) = state.corpusAlpha.array() + counts.docLength[static_cast<std::size_t>(d)] / K;
  state.expElogTheta = Eigen::MatrixXd::Zero(K, D);
  state.scaledCounts.assign(counts.entries(), 0.0);
  state.statistics.assign(slices, Eigen::MatrixXd::Zero(K, counts.vocabulary));
}

double dtmPathLogPrior(const DtmState& state, const DtmSettings& settings) {
  double value = 0.0;
  for (std::size_t t = 0; t < state.slices(); ++t) {
    if (t == 0)
      value -= 0.5 * state.natural[0].squaredNorm() / settings.initialVariance;
    else
      value -= 0.5 * (state.natural[t] - state.natural[t - 1]).squaredNorm() / settings.drift;
  }
  return value;
}

Eigen::MatrixXd dtmSliceTopicTokens(const DtmState& state) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(state.slices()), state.topicCount());
  for (std::size_t t = 0; t < state.slices(); ++t)
    out.row(static_cast<Eigen::Index>(t)) = state.statistics[t].rowwise().sum().transpose();
  return out;
}

bool dtmImprovePaths(const std::vector<Eigen::MatrixXd>& statistics, const DtmSettings& settings,
                     std::vector<Eigen::MatrixXd>& natural, std::vector<Eigen::MatrixXd>& topics, std::stop_token stop,
                     std::atomic<std::int64_t>* finished) {
  const std::size_t T = natural.size();
  if (T == 0) return !stop.stop_requested();
  const auto K = natural.front().rows(), V = natural.front().cols();
  std::atomic<bool> stopped{false};
  tbb::parallel_for(Eigen::Index{0}, K, [&](Eigen::Index k) {
    // One topic's path is T x V work per Newton step: a stop is looked at per topic and per step.
    if (stopped.load(std::memory_order_relaxed)) return;
    if (stop.stop_requested()) {
      stopped.store(true, std::memory_order_relaxed);
      return;
    }
    TopicPath path;
    path.b.resize(static_cast<Eigen::Index>(T), V);
    path.s.resize(static_cast<Eigen::Index>(T), V);
    path.n.resize(static_cast<Eigen::Index>(T));
    for (std::size_t t = 0; t < T; ++t) {
      path.b.row(static_cast<Eigen::Index>(t)) = natural[t].row(k);
      path.s.row(static_cast<Eigen::Index>(t)) = statistics[t].row(k);
      path.n[static_cast<Eigen::Index>(t)] = statistics[t].row(k).sum();
    }
    improvePath(path, settings, stop);
    for (std::size_t t = 0; t < T; ++t) {
      const auto row = path.b.row(static_cast<Eigen::Index>(t));
      natural[t].row(k) = row;
      topics[t].row(k) = (row.array() - rowLogSumExp(row)).exp().matrix();
    }
    if (finished) finished->fetch_add(1, std::memory_order_relaxed);
  });
  return !stopped.load() && !stop.stop_requested();
}

double dtmIteration(const DocWordCounts& counts, const DtmSettings& settings, DtmState& state, std::stop_token stop,
                    bool reestimateAlpha) {
  const auto K = state.topicCount();
  const auto V = counts.vocabulary;
  const std::size_t T = state.slices();
  const auto bySlice = documentsBySlice(state.sliceOf, T);
  std::vector<AlphaTerms> alphaTerms;
  for (const auto& a : state.alpha) alphaTerms.emplace_back(a);

  // E step, each document against its slice's topics (written to copies: a stop leaves the state).
  Eigen::MatrixXd gammas = state.gammas, expElogTheta(K, gammas.cols());
  std::vector<double> scaled(counts.entries(), 0.0);
  bool stopped = false;
  const double documentsBound = sumOverBlocks(counts.blocks(), stop, stopped, [&](std::size_t block) {
    thread_local EStepWorkspace workspace;
    workspace.resize(K);
    double sum = 0.0;
    for (auto d = counts.blockStart[block]; d < counts.blockStart[block + 1]; ++d) {
      const auto first = static_cast<std::size_t>(counts.docStart[static_cast<std::size_t>(d)]);
      const auto size = static_cast<std::size_t>(counts.docStart[static_cast<std::size_t>(d) + 1]) - first;
      const auto t = static_cast<std::size_t>(state.sliceOf[static_cast<std::size_t>(d)]);
      const auto e = documentEStep({counts.words.data() + first, size}, {counts.counts.data() + first, size},
                                   state.topics[t], state.alpha[t], gammas.col(d), expElogTheta.col(d),
                                   {scaled.data() + first, size}, settings.estep, workspace);
      sum += documentBound(e.logNormalizer, gammas.col(d), expElogTheta.col(d), state.alpha[t], state.alpha[t],
                           alphaTerms[t].logGammaSum, alphaTerms[t].sumLogGamma);
    }
    return sum;
  });
  if (stopped) return std::numeric_limits<double>::quiet_NaN();
  const double objective = documentsBound + dtmPathLogPrior(state, settings);

  // Each slice's expected counts s_tkw = sum_d (n_dw / Z_dw) exp(E[log theta_dk]) b_tkw, slice by
  // slice in document order (the same sums for any thread count).
  std::vector<Eigen::MatrixXd> statistics(T);
  tbb::parallel_for(std::size_t{0}, T, [&](std::size_t t) {
    statistics[t] = Eigen::MatrixXd::Zero(K, V);
    for (const auto d : bySlice[t])
      for (auto i = counts.docStart[static_cast<std::size_t>(d)]; i < counts.docStart[static_cast<std::size_t>(d) + 1];
           ++i) {
        const auto w = counts.words[static_cast<std::size_t>(i)];
        statistics[t].col(w) +=
            scaled[static_cast<std::size_t>(i)] * expElogTheta.col(d).cwiseProduct(state.topics[t].col(w));
      }
  });
  if (stop.stop_requested()) return std::numeric_limits<double>::quiet_NaN();

  // Each topic's path through the slices.
  std::vector<Eigen::MatrixXd> natural = state.natural, topics = state.topics;
  if (!dtmImprovePaths(statistics, settings, natural, topics, stop)) return std::numeric_limits<double>::quiet_NaN();

  if (reestimateAlpha) {
    // Minka's fixed point from the mean of E[log theta_dk] = psi(gamma_dk) - psi(sum_j gamma_dj).
    Eigen::MatrixXd elog(K, gammas.cols());
    for (Eigen::Index d = 0; d < gammas.cols(); ++d) {
      const double total = digamma(gammas.col(d).sum());
      for (Eigen::Index k = 0; k < K; ++k) elog(k, d) = digamma(gammas(k, d)) - total;
    }
    if (elog.cols() > 0) optimizeAlphaFromMeanLog(state.corpusAlpha, elog.rowwise().mean());
    for (std::size_t t = 0; t < T; ++t) {
      if (static_cast<std::int64_t>(bySlice[t].size()) < kMinSliceDocuments) {
        state.alpha[t] = state.corpusAlpha;
        continue;
      }
      Eigen::VectorXd mean = Eigen::VectorXd::Zero(K);
      for (const auto d : bySlice[t]) mean += elog.col(d);
      mean /= static_cast<double>(bySlice[t].size());
      optimizeAlphaFromMeanLog(state.alpha[t], mean);
    }
  }
  state.gammas = std::move(gammas);
  state.expElogTheta = std::move(expElogTheta);
  state.scaledCounts = std::move(scaled);
  state.statistics = std::move(statistics);
  state.natural = std::move(natural);
  state.topics = std::move(topics);
  return objective;
}

}  // namespace latent::core::topic
