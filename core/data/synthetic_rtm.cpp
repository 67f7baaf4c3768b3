// SPDX-License-Identifier: GPL-3.0-or-later
// Drawing a linked corpus from the relational topic model.
#include "core/data/synthetic_rtm.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/data/synthetic_draws.hpp"
#include "core/util/random.hpp"

namespace latent::core {

SyntheticRtm generateRtmCorpus(const SyntheticRtmSpec& spec) {
  SyntheticRtm out;
  Rng rng(spec.seed);
  const int K = spec.topics, V = spec.vocabulary, own = std::max(1, V / K);
  out.topicWord = Eigen::MatrixXd::Constant(K, V, spec.shared / V);
  for (int k = 0; k < K; ++k)
    for (int w = k * own; w < std::min(V, (k + 1) * own); ++w) out.topicWord(k, w) += (1.0 - spec.shared) / own;
  for (int k = 0; k < K; ++k) out.topicWord.row(k) /= out.topicWord.row(k).sum();
  for (int w = 0; w < V; ++w) out.corpus.words.push_back("w" + std::to_string(w));

  out.shares = Eigen::MatrixXd::Zero(spec.documents, K);
  Eigen::VectorXd theta(K);
  std::vector<std::int32_t> words;
  for (int d = 0; d < spec.documents; ++d) {
    for (int k = 0; k < K; ++k) theta[k] = rng.gamma(spec.alpha);
    if (theta.sum() <= 0) theta.setOnes();
    const int length = std::max(2, drawPoisson(rng, spec.meanLength));
    words.clear();
    for (int n = 0; n < length; ++n) {
      const auto k = drawDiscrete(rng, theta);
      out.shares(d, k) += 1.0 / length;
      words.push_back(drawDiscrete(rng, out.topicWord.row(k).transpose()));
    }
    out.corpus.addDocument("d" + std::to_string(d), "", words);
  }
  for (int a = 0; a < spec.documents; ++a)
    for (int b = a + 1; b < spec.documents; ++b) {
      const double score = spec.eta * out.shares.row(a).dot(out.shares.row(b)) + spec.nu;
      if (rng.uniform() < 1.0 / (1.0 + std::exp(-score))) out.corpus.links.push_back({a, b, 1.0});
    }
  return out;
}

}  // namespace latent::core
