// SPDX-License-Identifier: GPL-3.0-or-later
// The LDA-HMM generative process (000 §27.4.3, eq. 27.61-27.64; Griffiths, Steyvers, Blei &
// Tenenbaum 2005 §2): theta_d ~ Dir(alpha); for each token z_i ~ theta_d, c_i ~ A(c_{i-1}, .)
// (the first from `start`), and w_i ~ phi_{z_i} when c_i = 0, else w_i ~ psi_{c_i}.
#include "core/data/synthetic_lda_hmm.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/data/synthetic_draws.hpp"
#include "core/data/synthetic_lda.hpp"
#include "core/util/random.hpp"

namespace latent::core {
SyntheticLdaHmm generateLdaHmmCorpus(const SyntheticLdaHmmSpec& spec) {
  const auto C = spec.transitions.rows();
  if (C < 2 || spec.transitions.cols() != C)
    throw std::invalid_argument("generateLdaHmmCorpus: transitions must be C x C with C >= 2");
  if (spec.start.size() != 0 && spec.start.size() != C)
    throw std::invalid_argument("generateLdaHmmCorpus: start must have C entries");
  const int K = spec.topics, m = spec.functionWordsPerClass;
  const int V = spec.contentWords + static_cast<int>(C - 1) * m;
  Rng rng(spec.seed);

  SyntheticLdaHmm out;
  out.transitions = spec.transitions;
  out.start = spec.start.size() == C ? spec.start : Eigen::VectorXd::Constant(C, 1.0 / static_cast<double>(C));
  out.topicWord = Eigen::MatrixXd::Zero(K, V);
  for (int k = 0; k < K; ++k)
    out.topicWord.row(k).head(spec.contentWords) =
        sampleSymmetricDirichlet(rng, spec.contentWords, spec.beta).transpose();
  out.classWord = Eigen::MatrixXd::Zero(C, V);
  for (Eigen::Index c = 1; c < C; ++c)
    out.classWord.row(c).segment(spec.contentWords + (c - 1) * m, m) =
        sampleSymmetricDirichlet(rng, m, spec.delta).transpose();
  for (int v = 0; v < spec.contentWords; ++v) out.corpus.words.push_back("c" + std::to_string(v));
  for (Eigen::Index c = 1; c < C; ++c)
    for (int j = 0; j < m; ++j) out.corpus.words.push_back("f" + std::to_string(c) + "_" + std::to_string(j));

  // Column-major copies make each draw a contiguous read.
  const Eigen::MatrixXd wordsByTopic = out.topicWord.transpose();
  const Eigen::MatrixXd wordsByClass = out.classWord.transpose();
  const Eigen::MatrixXd nextByClass = out.transitions.transpose();
  out.docTopic.resize(spec.documents, K);
  std::vector<std::int32_t> words;
  for (int d = 0; d < spec.documents; ++d) {
    const Eigen::VectorXd theta = sampleSymmetricDirichlet(rng, K, spec.alpha);
    out.docTopic.row(d) = theta.transpose();
    const int length = std::max(2, drawPoisson(rng, spec.meanLength));
    words.clear();
    std::vector<std::int32_t> z, c;
    for (int i = 0; i < length; ++i) {
      z.push_back(drawDiscrete(rng, theta));
      c.push_back(i == 0 ? drawDiscrete(rng, out.start) : drawDiscrete(rng, nextByClass.col(c.back())));
      words.push_back(c.back() == 0 ? drawDiscrete(rng, wordsByTopic.col(z.back()))
                                    : drawDiscrete(rng, wordsByClass.col(c.back())));
    }
    out.topics.push_back(std::move(z));
    out.classes.push_back(std::move(c));
    out.corpus.addDocument(std::to_string(d + 1), "doc " + std::to_string(d + 1), words);
  }
  return out;
}

}  // namespace latent::core
