// SPDX-License-Identifier: GPL-3.0-or-later
// Corpora drawn from supervised LDA with a Gaussian response.
#include "core/data/synthetic_slda.hpp"

#include <cstdio>
#include <stdexcept>

#include "core/util/random.hpp"

namespace latent::core {

SyntheticSlda generateSldaCorpus(const SyntheticSldaSpec& spec) {
  if (spec.eta.size() != spec.lda.topics)
    throw std::invalid_argument("generateSldaCorpus: eta needs one value per topic");
  SyntheticSlda out;
  out.lda = generateLdaCorpus(spec.lda);
  const std::size_t D = out.lda.corpus.documentCount();
  const auto K = static_cast<Eigen::Index>(spec.lda.topics);
  out.response.resize(static_cast<Eigen::Index>(D));
  out.meanAssignments = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(D), K);
  // Its own stream, so the words are the same as generateLdaCorpus's for the same spec.
  Rng rng(spec.lda.seed, 0x534C4441ULL);
  Corpus::MetadataColumn column{"response", {}};
  char text[64];
  for (std::size_t d = 0; d < D; ++d) {
    const auto& z = out.lda.assignments[d];
    for (const auto k : z) out.meanAssignments(static_cast<Eigen::Index>(d), k) += 1.0;
    if (!z.empty()) out.meanAssignments.row(static_cast<Eigen::Index>(d)) /= static_cast<double>(z.size());
    const double y = out.meanAssignments.row(static_cast<Eigen::Index>(d)).dot(spec.eta) + spec.noise * rng.normal();
    out.response[static_cast<Eigen::Index>(d)] = y;
    std::snprintf(text, sizeof text, "%.17g", y);
    column.values.emplace_back(text);
  }
  out.lda.corpus.metadata.push_back(std::move(column));
  return out;
}

}  // namespace latent::core
