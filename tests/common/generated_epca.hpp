// SPDX-License-Identifier: GPL-3.0-or-later
// Corpora drawn from exponential-family PCA (000 eq. 27.8-27.9) with known loadings, for the tests
// of epca's point estimates and of its variational fit.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"
#include "core/models/topic/epca_kernels.hpp"
#include "core/util/random.hpp"

namespace latent::test {

struct GeneratedEpca {
  core::Corpus corpus;
  Eigen::MatrixXd w;  // V x K, the true loadings
};

// Documents drawn from the model: z_d ~ N(0, I), words from softmax(W z_d + b) with W's columns
// spread over the vocabulary and b flat.
inline GeneratedEpca generateEpca(int documents, int vocabulary, int K, int length, std::uint64_t seed) {
  core::Rng rng(seed, 0);
  GeneratedEpca out;
  out.w.resize(vocabulary, K);
  for (Eigen::Index i = 0; i < out.w.size(); ++i) out.w.data()[i] = 1.5 * rng.normal();
  for (int v = 0; v < vocabulary; ++v) out.corpus.words.push_back("w" + std::to_string(v));
  const Eigen::VectorXd b = Eigen::VectorXd::Zero(vocabulary);
  for (int d = 0; d < documents; ++d) {
    Eigen::VectorXd z(K);
    for (int k = 0; k < K; ++k) z[k] = rng.normal();
    const Eigen::VectorXd p = core::topic::epcaLogProbabilities(out.w, b, z).array().exp();
    std::vector<std::int32_t> words;
    for (int t = 0; t < length; ++t) {
      double u = rng.uniform(), acc = 0.0;
      int v = 0;
      for (; v + 1 < vocabulary; ++v) {
        acc += p[v];
        if (u < acc) break;
      }
      words.push_back(v);
    }
    out.corpus.addDocument("d" + std::to_string(d), "", words);
  }
  return out;
}

// Counts drawn from the Poisson model: x_dv ~ Poisson(exp(W z_d + b)_v), z_d ~ N(0, I), b flat at
// log(meanRate); a count by Knuth's product of uniforms (the rates stay small).
inline GeneratedEpca generatePoissonEpca(int documents, int vocabulary, int K, double meanRate, std::uint64_t seed) {
  core::Rng rng(seed, 0);
  GeneratedEpca out;
  out.w.resize(vocabulary, K);
  for (Eigen::Index i = 0; i < out.w.size(); ++i) out.w.data()[i] = 0.7 * rng.normal();
  for (int v = 0; v < vocabulary; ++v) out.corpus.words.push_back("w" + std::to_string(v));
  for (int d = 0; d < documents; ++d) {
    Eigen::VectorXd z(K);
    for (int k = 0; k < K; ++k) z[k] = rng.normal();
    const Eigen::VectorXd rates = (out.w * z).array().exp() * meanRate;
    std::vector<std::int32_t> words;
    for (int v = 0; v < vocabulary; ++v) {
      const double limit = std::exp(-rates[v]);
      double product = rng.uniform();
      for (; product > limit; product *= rng.uniform()) words.push_back(v);
    }
    if (words.empty()) words.push_back(0);
    out.corpus.addDocument("d" + std::to_string(d), "", words);
  }
  return out;
}

}  // namespace latent::test
