// SPDX-License-Identifier: GPL-3.0-or-later
// The LDA generative process: topics ~ Dir(beta), theta_d ~ Dir(alpha), z ~ theta_d, w ~ phi_z.
#include "core/data/synthetic_lda.hpp"

#include <cmath>
#include <string>

#include "core/util/random.hpp"

namespace latent::core {
namespace {

// Inverse-CDF draw from a discrete distribution.
std::int32_t sampleIndex(Rng& rng, const Eigen::Ref<const Eigen::VectorXd>& p) {
  double u = rng.uniform() * p.sum();
  for (Eigen::Index i = 0; i + 1 < p.size(); ++i) {
    u -= p[i];
    if (u <= 0.0) return static_cast<std::int32_t>(i);
  }
  return static_cast<std::int32_t>(p.size() - 1);
}

// Poisson(mean) by Knuth's method for small means and a rounded normal beyond 500.
int samplePoisson(Rng& rng, double mean) {
  if (mean > 500) return std::max(0, static_cast<int>(std::lround(mean + std::sqrt(mean) * rng.normal())));
  const double limit = std::exp(-mean);
  int k = 0;
  for (double p = rng.uniform(); p > limit; p *= rng.uniform()) ++k;
  return k;
}

}  // namespace

Eigen::VectorXd sampleSymmetricDirichlet(Rng& rng, Eigen::Index size, double concentration) {
  Eigen::VectorXd x(size);
  for (Eigen::Index i = 0; i < size; ++i) x[i] = rng.gamma(concentration);
  const double sum = x.sum();
  if (sum <= 0.0) {
    x.setConstant(1.0 / static_cast<double>(size));
    return x;
  }
  return x / sum;
}

SyntheticLda generateLdaCorpus(const SyntheticLdaSpec& spec) {
  Rng rng(spec.seed);
  SyntheticLda out;
  out.topicWord.resize(spec.topics, spec.vocabulary);
  for (int k = 0; k < spec.topics; ++k)
    out.topicWord.row(k) = sampleSymmetricDirichlet(rng, spec.vocabulary, spec.beta).transpose();
  out.docTopic.resize(spec.documents, spec.topics);
  for (int v = 0; v < spec.vocabulary; ++v) out.corpus.words.push_back("w" + std::to_string(v));

  // Column-major copies make sampling a word from a topic a contiguous read.
  const Eigen::MatrixXd wordsByTopic = out.topicWord.transpose();
  std::vector<std::int32_t> words;
  for (int d = 0; d < spec.documents; ++d) {
    const Eigen::VectorXd theta = sampleSymmetricDirichlet(rng, spec.topics, spec.alpha);
    out.docTopic.row(d) = theta.transpose();
    const int length = std::max(1, samplePoisson(rng, spec.meanLength));
    words.clear();
    std::vector<std::int32_t> z;
    for (int i = 0; i < length; ++i) {
      const auto k = sampleIndex(rng, theta);
      z.push_back(k);
      words.push_back(sampleIndex(rng, wordsByTopic.col(k)));
    }
    out.assignments.push_back(std::move(z));
    out.corpus.addDocument(std::to_string(d + 1), "doc " + std::to_string(d + 1), words);
  }
  return out;
}

}  // namespace latent::core
