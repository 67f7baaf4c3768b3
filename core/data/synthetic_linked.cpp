// SPDX-License-Identifier: GPL-3.0-or-later
// The generative processes of Link-LDA and LDA+MMSB (undirected), words as LDA's.
#include "core/data/synthetic_linked.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "core/data/synthetic_draws.hpp"
#include "core/data/synthetic_lda.hpp"
#include "core/util/random.hpp"

namespace latent::core {
namespace {

// theta, phi and the words of every document (LDA).
SyntheticLinked linkedWords(const SyntheticLinkedSpec& spec, Rng& rng) {
  SyntheticLinked out;
  const int K = spec.topics;
  out.topicWord.resize(K, spec.vocabulary);
  for (int k = 0; k < K; ++k)
    out.topicWord.row(k) = sampleSymmetricDirichlet(rng, spec.vocabulary, spec.beta).transpose();
  for (int v = 0; v < spec.vocabulary; ++v) out.corpus.words.push_back("w" + std::to_string(v));
  out.docTopic.resize(spec.documents, K);
  const Eigen::MatrixXd wordsByTopic = out.topicWord.transpose();
  std::vector<std::int32_t> words;
  for (int d = 0; d < spec.documents; ++d) {
    out.docTopic.row(d) = sampleSymmetricDirichlet(rng, K, spec.alpha).transpose();
    const int length = std::max(1, drawPoisson(rng, spec.meanLength));
    words.clear();
    for (int i = 0; i < length; ++i)
      words.push_back(drawDiscrete(rng, wordsByTopic.col(drawDiscrete(rng, out.docTopic.row(d).transpose()))));
    out.corpus.addDocument(std::to_string(d + 1), "doc " + std::to_string(d + 1), words);
  }
  return out;
}

void setLinks(Corpus& corpus, const std::set<std::pair<std::int32_t, std::int32_t>>& links) {
  for (const auto& [s, t] : links) corpus.links.push_back({s, t, 1.0});
}

}  // namespace

SyntheticLinked generateLinkLdaCorpus(const SyntheticLinkedSpec& spec) {
  Rng rng(spec.seed);
  SyntheticLinked out = linkedWords(spec, rng);
  const int K = spec.topics, D = spec.documents;
  out.linkTopics.resize(K, D);
  for (int k = 0; k < K; ++k) out.linkTopics.row(k) = sampleSymmetricDirichlet(rng, D, spec.gamma).transpose();
  const Eigen::MatrixXd targetsByTopic = out.linkTopics.transpose();
  std::set<std::pair<std::int32_t, std::int32_t>> links;
  for (std::int32_t d = 0; d < D; ++d) {
    const int count = drawPoisson(rng, spec.meanLinks);
    for (int l = 0; l < count; ++l) {
      const auto k = drawDiscrete(rng, out.docTopic.row(d).transpose());
      const auto t = drawDiscrete(rng, targetsByTopic.col(k));
      if (t != d) links.insert({d, t});  // a repeated citation is one link
    }
  }
  setLinks(out.corpus, links);
  return out;
}

SyntheticLinked generateLdaMmsbCorpus(const SyntheticLinkedSpec& spec) {
  Rng rng(spec.seed);
  SyntheticLinked out = linkedWords(spec, rng);
  const int K = spec.topics, D = spec.documents;
  out.linkTopics = Eigen::MatrixXd::Constant(K, K, spec.across);
  out.linkTopics.diagonal().setConstant(spec.within);
  std::set<std::pair<std::int32_t, std::int32_t>> links;
  for (std::int32_t a = 0; a < D; ++a)
    for (std::int32_t b = a + 1; b < D; ++b) {
      const auto p = drawDiscrete(rng, out.docTopic.row(a).transpose());
      const auto q = drawDiscrete(rng, out.docTopic.row(b).transpose());
      if (rng.uniform() < out.linkTopics(p, q)) links.insert({a, b});
    }
  setLinks(out.corpus, links);
  return out;
}

}  // namespace latent::core
