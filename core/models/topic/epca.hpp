// SPDX-License-Identifier: GPL-3.0-or-later
// Exponential-family PCA of documents with the multinomial or the Poisson likelihood (000 §27.2.2,
// eq. 27.8-27.9; Collins et al. 2002): each document a point z_d in K dimensions, its words drawn
// from softmax(W z_d + b), or its counts from Poisson(exp(W z_d + b)). Point estimates under Gaussian priors (003
// §3.5): the degenerate EM that 003 shows overfits, measured here by document completion beside full folding-in; or,
// with --inference variational, the points integrated out (epca_variational.hpp). Its results are stored as
// embeddings: the low-rank part Z W^T in SVD form (Z the means of q for the variational fit), and the word biases.
#pragma once

#include <cstdint>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"
#include "core/models/topic/epca_kernels.hpp"

namespace latent::core {

struct EpcaOptions {
  std::int64_t components = 10;
  std::int64_t iterations = 300;
  topic::EpcaLikelihood likelihood = topic::EpcaLikelihood::Multinomial;
  // map: point estimates of the documents' coordinates; variational: integrated out (Bayesian ePCA).
  enum class Inference { Map, Variational };
  Inference inference = Inference::Map;
  double learningRate = 0.05;  // Adam's step size
  double zPrecision = 1.0;     // the Gaussian prior on each document's coordinates
  double wPrecision = 1.0;     // the Gaussian prior on the word loadings
  double tolerance = 1e-6;     // stop when the objective per token changes by less than this
  std::int64_t snapshotEvery = 50;

  static const OptionTable<EpcaOptions>& table();
};

// Categorical PCA's options: epca's without the likelihood choice, with its own defaults (a
// two-dimensional map; the points integrated out; a stronger prior on the loadings, as a survey
// has few rows for each answer's K loadings).
struct CatpcaOptions {
  std::int64_t components = 2;
  std::int64_t iterations = 300;
  double learningRate = 0.05;
  double zPrecision = 1.0;
  double wPrecision = 10.0;
  // Integrating the points out costs little on survey answers and overfits far less (measured on
  // the ANES sample: tests/benchmarks/README.md).
  EpcaOptions::Inference inference = EpcaOptions::Inference::Variational;
  double tolerance = 1e-6;
  std::int64_t snapshotEvery = 50;

  EpcaOptions epca() const;
  static const OptionTable<CatpcaOptions>& table();
};

ModelDefinition epcaModel();
// Categorical PCA (000 eq. 27.7) of survey answers: epca's point estimates with a softmax within
// each question's answers; the dataset's words must be "question=answer".
ModelDefinition catpcaModel();

}  // namespace latent::core
