// SPDX-License-Identifier: GPL-3.0-or-later
// Discriminative categorical PCA, `dcatpca` (000 §27.4.4.3, eq. 27.73-27.74, Fig. 27.17): a
// document's labels predicted from its words through a K-dimensional Gaussian latent
// (core/models/topic/dcatpca_fit.hpp). Stores the documents' latent coordinates as an embedding
// (their SVD, so the factor scatter shows them), the words' map into the latent space and the
// label loadings W; reports the held-out documents' label scores from their words alone, beside
// the logistic baseline on the same words (core/eval/linear_baselines.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"

namespace latent::core {

struct DcatpcaOptions {
  std::int64_t latent = 5;
  std::string labels = "label";
  std::int64_t iterations = 2000;
  double penalty = 1e-3;
  std::int64_t draws = 256;
  bool baselines = true;  // the regression on the words beside the held-out prediction

  static const OptionTable<DcatpcaOptions>& table();
};

ModelDefinition dcatpcaModel();

}  // namespace latent::core
