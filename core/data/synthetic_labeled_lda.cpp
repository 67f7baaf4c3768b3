// SPDX-License-Identifier: GPL-3.0-or-later
// Labeled LDA's generative process: label topics ~ Dir(beta), background ~ Dir(backgroundBeta),
// labels uniform, theta_d ~ Dir(alpha) over the labels' and background topics, z ~ theta_d, w ~ phi_z.
#include "core/data/synthetic_labeled_lda.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/data/synthetic_draws.hpp"
#include "core/data/synthetic_lda.hpp"
#include "core/util/random.hpp"

namespace latent::core {
std::string syntheticLabelName(int l) { return std::string("label") + (l < 10 ? "0" : "") + std::to_string(l); }

SyntheticLabeledLda generateLabeledLdaCorpus(const SyntheticLabeledLdaSpec& spec) {
  Rng rng(spec.seed);
  SyntheticLabeledLda out;
  const int K = spec.labels + spec.background;
  out.topicWord.resize(K, spec.vocabulary);
  for (int k = 0; k < K; ++k)
    out.topicWord.row(k) =
        sampleSymmetricDirichlet(rng, spec.vocabulary, k < spec.labels ? spec.beta : spec.backgroundBeta).transpose();
  for (int v = 0; v < spec.vocabulary; ++v) out.corpus.words.push_back("w" + std::to_string(v));
  out.corpus.labelSeparator = ";";

  const Eigen::MatrixXd wordsByTopic = out.topicWord.transpose();
  std::vector<std::int32_t> order(static_cast<std::size_t>(spec.labels)), words;
  for (int d = 0; d < spec.documents; ++d) {
    // 1 .. maxLabels distinct labels: the first few of a shuffle.
    for (int l = 0; l < spec.labels; ++l) order[static_cast<std::size_t>(l)] = l;
    rng.shuffle(std::span<std::int32_t>(order));
    const auto count =
        1 + static_cast<std::size_t>(rng.below(static_cast<std::uint64_t>(std::min(spec.maxLabels, spec.labels))));
    std::vector<std::int32_t> set(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count));
    std::sort(set.begin(), set.end());
    std::vector<std::int32_t> topics = set;
    for (int b = 0; b < spec.background; ++b) topics.push_back(spec.labels + b);
    const Eigen::VectorXd theta = sampleSymmetricDirichlet(rng, static_cast<Eigen::Index>(topics.size()), spec.alpha);
    const int length = std::max(1, drawPoisson(rng, spec.meanLength));
    words.clear();
    for (int i = 0; i < length; ++i) {
      const auto k = topics[static_cast<std::size_t>(drawDiscrete(rng, theta))];
      words.push_back(drawDiscrete(rng, wordsByTopic.col(k)));
    }
    out.corpus.addDocument(std::to_string(d + 1), "doc " + std::to_string(d + 1), words);
    std::string text;
    for (const auto l : set) text += (text.empty() ? "" : ";") + syntheticLabelName(l);
    out.corpus.labels.push_back(std::move(text));
    out.labelSets.push_back(std::move(set));
  }
  return out;
}

}  // namespace latent::core
