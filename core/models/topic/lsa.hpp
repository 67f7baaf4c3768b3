// SPDX-License-Identifier: GPL-3.0-or-later
// Latent semantic analysis: the truncated SVD of the (tf-idf weighted) document-word matrix,
// X ~ U diag(s) W^T, giving words and documents K-dimensional coordinates. 000 §27.2.2: LSA is PCA
// applied to the term-document matrix (the Gaussian case of ePCA; 003 §3.2 derives PCA as
// point-posterior EM). As in Deerwester et al. and scikit-learn's TruncatedSVD the matrix is not
// centred, so it stays sparse.
#pragma once

#include <cstdint>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"
#include "core/models/topic/lsa_kernels.hpp"

namespace latent::core {

struct LsaOptions {
  std::int64_t components = 100;
  topic::LsaWeighting weighting = topic::LsaWeighting::TfIdf;
  // Relative accuracy of the squared singular values, and the Lanczos restarts allowed to reach it.
  double tolerance = 1e-8;
  std::int64_t maxRestarts = 1000;

  static const OptionTable<LsaOptions>& table();
};

ModelDefinition lsaModel();

}  // namespace latent::core
