// SPDX-License-Identifier: GPL-3.0-or-later
// Corpora drawn from supervised LDA (000 §27.4.4.1, Fig. 27.15a; Blei & McAuliffe 2007) with known
// topics and a known response function, for recovery tests: documents as LDA draws them
// (synthetic_lda.hpp), then each document's response y_d = eta^T zbar_d + N(0, sigma^2) from its
// true mean topic assignments zbar_d, stored as the metadata column "response".
#pragma once

#include <cstdint>

#include <Eigen/Core>

#include "core/data/synthetic_lda.hpp"

namespace latent::core {

struct SyntheticSldaSpec {
  SyntheticLdaSpec lda;
  Eigen::VectorXd eta;  // K coefficients
  double noise = 0.5;   // sigma, the response's noise
};

struct SyntheticSlda {
  SyntheticLda lda;                 // corpus (with the metadata column "response"), topics, proportions
  Eigen::VectorXd response;         // D, the responses drawn
  Eigen::MatrixXd meanAssignments;  // D x K, each document's true zbar
};

SyntheticSlda generateSldaCorpus(const SyntheticSldaSpec& spec);

}  // namespace latent::core
