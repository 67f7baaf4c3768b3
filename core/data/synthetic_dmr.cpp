// SPDX-License-Identifier: GPL-3.0-or-later
// Drawing a corpus from DMR-LDA.
#include "core/data/synthetic_dmr.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/data/synthetic_draws.hpp"
#include "core/data/synthetic_lda.hpp"
#include "core/util/random.hpp"

namespace latent::core {
SyntheticDmr generateDmrCorpus(const SyntheticDmrSpec& spec) {
  if (spec.topics < 2 + spec.groups) throw std::invalid_argument("generateDmrCorpus: needs topics >= 2 + groups");
  Rng rng(spec.seed);
  SyntheticDmr out;
  const int K = spec.topics, F = 2 + spec.groups;
  for (int v = 0; v < spec.vocabulary; ++v) out.corpus.words.push_back("w" + std::to_string(v));
  out.topicWord.resize(K, spec.vocabulary);
  for (int k = 0; k < K; ++k) out.topicWord.row(k) = sampleSymmetricDirichlet(rng, spec.vocabulary, spec.beta);

  out.featureNames = {"default", "time"};
  for (int g = 0; g < spec.groups; ++g) out.featureNames.push_back("group=g" + std::to_string(g));
  out.featureWeights = Eigen::MatrixXd::Zero(K, F);
  out.featureWeights.col(0).setConstant(std::log(0.15));
  out.featureWeights(0, 1) = 1.0;
  out.featureWeights(1, 1) = -1.0;
  for (int g = 0; g < spec.groups; ++g) out.featureWeights(2 + g, 2 + g) = 1.5;

  // The years' population mean and sd (uniform over whole years), the coding of the feature.
  const double span = spec.lastYear - spec.firstYear + 1;
  const double mean = 0.5 * (spec.firstYear + spec.lastYear), sd = std::sqrt((span * span - 1.0) / 12.0);
  out.corpus.metadata.push_back({"group", {}});
  out.features = Eigen::MatrixXd::Zero(spec.documents, F);
  std::vector<std::int32_t> words;
  for (int d = 0; d < spec.documents; ++d) {
    const int year = spec.firstYear + static_cast<int>(rng.below(static_cast<std::uint64_t>(span)));
    const int group = static_cast<int>(rng.below(static_cast<std::uint64_t>(spec.groups)));
    Eigen::VectorXd x = Eigen::VectorXd::Zero(F);
    x[0] = 1.0;
    x[1] = (year - mean) / sd;
    x[2 + group] = 1.0;
    out.features.row(d) = x.transpose();
    const Eigen::VectorXd alpha = (out.featureWeights * x).array().exp();
    Eigen::VectorXd theta(K);
    for (int k = 0; k < K; ++k) theta[k] = rng.gamma(alpha[k]);
    if (theta.sum() <= 0.0) theta[drawDiscrete(rng, alpha)] = 1.0;  // every draw underflowed
    theta /= theta.sum();
    const int length = std::max(2, drawPoisson(rng, spec.meanLength));
    words.clear();
    for (int i = 0; i < length; ++i) {
      const auto k = drawDiscrete(rng, theta);
      words.push_back(drawDiscrete(rng, out.topicWord.row(k).transpose()));
    }
    out.corpus.addDocument("doc" + std::to_string(d), "doc" + std::to_string(d), words);
    out.corpus.times.push_back(std::to_string(year));
    out.corpus.metadata[0].values.push_back("g" + std::to_string(group));
  }
  return out;
}

}  // namespace latent::core
