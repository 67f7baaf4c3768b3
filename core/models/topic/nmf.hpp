// SPDX-License-Identifier: GPL-3.0-or-later
// Non-negative matrix factorisation of the document-word counts, X ~ W H with W, H >= 0 (000
// §27.2.4; Lee & Seung 2001), under the generalised KL divergence (PLSA up to scaling, 003 §3) or
// the Frobenius norm, read as a topic model: H's rows scaled by their documents' weight and
// normalised are the topics, W's rows the documents' mixes.
#pragma once

#include <cstdint>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"
#include "core/models/topic/nmf_kernels.hpp"

namespace latent::core {

struct NmfOptions {
  enum class Solver { Auto, Multiplicative, Hals };
  std::int64_t topics = 20;
  std::int64_t iterations = 200;
  topic::NmfLoss loss = topic::NmfLoss::KullbackLeibler;
  // auto: multiplicative updates for KL, HALS for Frobenius (the faster of the two there).
  Solver solver = Solver::Auto;
  // Pseudo-count added to every topic's expected count of every word when the factors are read as
  // topics (the topic views and held-out scoring): NMF itself has no prior, and a word no topic
  // produced in training would make a held-out document containing it impossible.
  double smoothing = 0.01;
  double tolerance = 1e-6;  // stop when the loss per token changes by less than this
  std::int64_t snapshotEvery = 25;

  static const OptionTable<NmfOptions>& table();
};

// The solver `auto` stands for, given the loss.
topic::NmfSolver resolveNmfSolver(const NmfOptions& options);

ModelDefinition nmfModel();

}  // namespace latent::core
