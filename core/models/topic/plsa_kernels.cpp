// SPDX-License-Identifier: GPL-3.0-or-later
// PLSA kernels: random start, the topic (word-major) and document (block) halves of a (tempered)
// EM sweep, and the tempered folding-in (003 §3.4 eq. 3.23-3.24; Hofmann's tempered EM).
#include "core/models/topic/plsa_kernels.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace latent::core::topic {
namespace {

constexpr std::int64_t kPlsaWordsPerChunk = 512;

}  // namespace

bool initPlsa(const DocWordCounts& counts, std::int64_t K, std::uint64_t seed, std::uint64_t restart,
              const PlsaSettings& settings, PlsaState& state, std::stop_token stop) {
  const auto D = static_cast<Eigen::Index>(counts.documents());
  const auto V = static_cast<Eigen::Index>(counts.vocabulary);
  // p(w|z) from documents picked like k-means++ (the mixture's seeding), so that topics start
  // apart: one M step of the mixture on the responsibilities the seeds give.
  RowMatrix responsibilities = RowMatrix::Constant(D, K, 1.0 / static_cast<double>(K));
  MixtureParameters seeded;
  const bool complete =
      seedMixture(counts, K, seed, restart, responsibilities, stop) &&
      mixtureMStep(counts, responsibilities, MixturePriors{1.0, settings.regularization, false}, seeded, stop);
  if (complete) {
    state.phi = std::move(seeded.phi);
  } else {
    // Stopped: the corpus word frequencies (plus one) in every topic, cheap and well defined.
    Eigen::VectorXd frequency = Eigen::VectorXd::Ones(V);
    for (std::size_t e = 0; e < counts.entries(); ++e) frequency[counts.words[e]] += counts.counts[e];
    state.phi = (frequency / frequency.sum()).replicate(1, K);
  }
  state.theta = RowMatrix::Constant(D, K, 1.0 / static_cast<double>(K));
  if (settings.temperature < 1.0) {
    state.phiPow = state.phi.array().pow(settings.temperature).matrix();
    state.thetaPow = state.theta.array().pow(settings.temperature).matrix();
  }
  state.ratio.assign(counts.entries(), 0.0);
  state.logPrior = settings.regularization * state.phi.array().log().sum();
  return complete;
}

bool plsaTopicStep(const DocWordCounts& counts, const PlsaState& current, const PlsaSettings& settings, PlsaState& next,
                   std::stop_token stop) {
  const auto K = current.phi.cols();
  const auto V = static_cast<Eigen::Index>(counts.vocabulary);
  const bool tempered = settings.temperature < 1.0;
  const RowMatrix& thetaE = current.thetaE(settings.temperature);
  const RowMatrix& phiE = current.phiE(settings.temperature);
  next.phi.resize(V, K);
  bool stopped = false;
  // Expected counts of word w in every topic: sum over the documents holding w, in document order.
  forEachWordRange(V, stop, stopped, [&](std::int64_t begin, std::int64_t end) {
    Eigen::RowVectorXd acc(K);
    for (auto w = begin; w < end; ++w) {
      acc.setZero();
      for (auto i = counts.wordStart[static_cast<std::size_t>(w)];
           i < counts.wordStart[static_cast<std::size_t>(w) + 1]; ++i) {
        const auto e = static_cast<std::size_t>(counts.wordEntry[static_cast<std::size_t>(i)]);
        acc.noalias() += current.ratio[e] * thetaE.row(counts.wordDoc[static_cast<std::size_t>(i)]);
      }
      next.phi.row(w) = (phiE.row(w).array() * acc.array() + settings.regularization).matrix();
    }
  });
  if (stopped) return false;
  const Eigen::RowVectorXd totals = next.phi.colwise().sum();
  if (tempered) next.phiPow.resize(V, K);
  const auto chunks = static_cast<std::size_t>((V + kPlsaWordsPerChunk - 1) / kPlsaWordsPerChunk);
  const double logSum = sumOverBlocks(chunks, stop, stopped, [&](std::size_t c) {
    const auto begin = static_cast<Eigen::Index>(c) * kPlsaWordsPerChunk;
    const auto end = std::min<Eigen::Index>(V, begin + kPlsaWordsPerChunk);
    double sum = 0.0;
    for (auto w = begin; w < end; ++w) {
      next.phi.row(w).array() /= totals.array();
      sum += next.phi.row(w).array().log().sum();
      if (tempered) next.phiPow.row(w) = next.phi.row(w).array().pow(settings.temperature).matrix();
    }
    return sum;
  });
  if (stopped) return false;
  next.logPrior = settings.regularization * logSum;
  return true;
}

double plsaDocumentStep(const DocWordCounts& counts, const PlsaState& current, const PlsaSettings& settings,
                        PlsaState& next, bool updateTheta, std::stop_token stop) {
  const auto K = next.phi.cols();
  const auto D = static_cast<Eigen::Index>(counts.documents());
  const bool tempered = settings.temperature < 1.0;
  if (updateTheta) {
    next.theta.resize(D, K);
    if (tempered) next.thetaPow.resize(D, K);
    next.ratio.resize(counts.entries());
  }
  const RowMatrix& oldThetaE = current.thetaE(settings.temperature);
  const RowMatrix& oldPhiE = current.phiE(settings.temperature);
  bool stopped = false;
  const double logLik = sumOverBlocks(counts.blocks(), stop, stopped, [&](std::size_t b) {
    Eigen::RowVectorXd acc(K);
    double sum = 0.0;
    for (auto d = counts.blockStart[b]; d < counts.blockStart[b + 1]; ++d) {
      const auto first = static_cast<std::size_t>(counts.docStart[static_cast<std::size_t>(d)]);
      const auto last = static_cast<std::size_t>(counts.docStart[static_cast<std::size_t>(d) + 1]);
      if (updateTheta) {
        // p(z|d) proportional to its expected counts sum_w n_dw q(z | d, w).
        acc.setZero();
        for (auto e = first; e < last; ++e) acc.noalias() += current.ratio[e] * oldPhiE.row(counts.words[e]);
        acc.array() *= oldThetaE.row(d).array();
        const double total = acc.sum();
        if (total > 0.0)
          next.theta.row(d) = acc / total;
        else
          next.theta.row(d) = current.theta.row(d);
        if (tempered) next.thetaPow.row(d) = next.theta.row(d).array().pow(settings.temperature).matrix();
      }
      const auto thetaE = next.thetaE(settings.temperature).row(d);
      const auto theta = next.theta.row(d);
      const RowMatrix& phiE = next.phiE(settings.temperature);
      for (auto e = first; e < last; ++e) {
        const auto w = counts.words[e];
        const double z = thetaE.dot(phiE.row(w));
        next.ratio[e] = counts.counts[e] / z;
        sum += counts.counts[e] * std::log(tempered ? theta.dot(next.phi.row(w)) : z);
      }
    }
    return sum;
  });
  return stopped ? std::numeric_limits<double>::quiet_NaN() : logLik;
}

FoldIn temperedEmFoldIn(const Eigen::MatrixXd& topicWord, double temperature, int iterations) {
  auto phiPow = std::make_shared<const Eigen::MatrixXd>(topicWord.array().pow(temperature).matrix());
  return [phiPow, temperature, iterations](std::span<const std::int32_t> words, std::uint64_t,
                                           Eigen::Ref<Eigen::VectorXd> theta) {
    const auto K = phiPow->rows();
    std::vector<std::int32_t> ids(words.begin(), words.end());
    std::sort(ids.begin(), ids.end());
    std::vector<std::int32_t> distinct;
    std::vector<double> n;
    for (std::size_t i = 0; i < ids.size();) {
      std::size_t j = i;
      while (j < ids.size() && ids[j] == ids[i]) ++j;
      distinct.push_back(ids[i]);
      n.push_back(static_cast<double>(j - i));
      i = j;
    }
    theta.setConstant(1.0 / static_cast<double>(K));
    Eigen::VectorXd thetaPow(K), acc(K);
    for (int iteration = 0; iteration < iterations; ++iteration) {
      thetaPow = theta.array().pow(temperature).matrix();
      acc.setZero();
      for (std::size_t i = 0; i < distinct.size(); ++i) {
        const auto column = phiPow->col(distinct[i]);
        acc += n[i] / thetaPow.dot(column) * column;
      }
      acc.array() *= thetaPow.array();
      const double total = acc.sum();
      if (total > 0.0) theta = acc / total;
    }
  };
}

}  // namespace latent::core::topic
