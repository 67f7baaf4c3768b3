// SPDX-License-Identifier: GPL-3.0-or-later
// The LDA generative process: topics ~ Dir(beta), theta_d ~ Dir(alpha), z ~ theta_d, w ~ phi_z.
#include "core/data/synthetic_lda.hpp"

#include <cmath>
#include <string>

#include "core/data/synthetic_draws.hpp"
#include "core/util/random.hpp"

namespace latent::core {
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
    const int length = std::max(1, drawPoisson(rng, spec.meanLength));
    words.clear();
    std::vector<std::int32_t> z;
    for (int i = 0; i < length; ++i) {
      const auto k = drawDiscrete(rng, theta);
      z.push_back(k);
      words.push_back(drawDiscrete(rng, wordsByTopic.col(k)));
    }
    out.assignments.push_back(std::move(z));
    out.corpus.addDocument(std::to_string(d + 1), "doc " + std::to_string(d + 1), words);
  }
  return out;
}

}  // namespace latent::core
