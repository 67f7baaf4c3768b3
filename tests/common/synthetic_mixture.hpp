// SPDX-License-Identifier: GPL-3.0-or-later
// Corpora drawn from a mixture of categoricals (002; 000 eq. 27.1-27.2) with known components:
// each document draws ONE component, then all its words from that component.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"
#include "core/data/synthetic_lda.hpp"
#include "core/util/random.hpp"

namespace latent::test {

struct SyntheticMixture {
  core::Corpus corpus;
  Eigen::MatrixXd topicWord;   // K x V, the true components
  std::vector<int> component;  // the true component of every document
};

inline SyntheticMixture generateMixtureCorpus(int K, int V, int documents, int minLength, int maxLength, double beta,
                                              std::uint64_t seed) {
  core::Rng rng(seed);
  SyntheticMixture out;
  out.topicWord.resize(K, V);
  for (int k = 0; k < K; ++k) out.topicWord.row(k) = core::sampleSymmetricDirichlet(rng, V, beta).transpose();
  for (int v = 0; v < V; ++v) out.corpus.words.push_back("w" + std::to_string(v));
  std::vector<std::int32_t> words;
  for (int d = 0; d < documents; ++d) {
    const int k = static_cast<int>(rng.below(static_cast<std::uint64_t>(K)));
    const int length = minLength + static_cast<int>(rng.below(static_cast<std::uint64_t>(maxLength - minLength + 1)));
    words.clear();
    for (int i = 0; i < length; ++i) {
      double u = rng.uniform();
      int w = 0;
      while (w + 1 < V && (u -= out.topicWord(k, w)) > 0.0) ++w;
      words.push_back(w);
    }
    out.component.push_back(k);
    out.corpus.addDocument(std::to_string(d + 1), "", words);
  }
  return out;
}

}  // namespace latent::test
