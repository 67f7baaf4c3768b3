// SPDX-License-Identifier: GPL-3.0-or-later
// The sweeps of non-negative matrix factorisation X ~ W H of the document-word counts (000
// §27.2.4; 003 §3.3, eq. 3.15-3.19: the KL loss is the Poisson likelihood of eq. 3.15, its
// updates eq. 3.18-3.19): Lee & Seung's multiplicative updates for the generalised KL divergence and
// for the Frobenius norm, and hierarchical alternating least squares (HALS: exact coordinate
// descent, one factor column at a time) for the Frobenius norm. X stays sparse: every sweep costs
// O(entries x K) for the products with X plus O((D + V) K^2) for the Gram matrices.
#pragma once

#include <cstdint>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/eval/topic_evaluation.hpp"
#include "core/models/topic/doc_word_counts.hpp"
#include "core/models/topic/mixture_kernels.hpp"

namespace latent::core::topic {

enum class NmfLoss { KullbackLeibler, Frobenius };
enum class NmfSolver { Multiplicative, Hals };

// The two factors, X_dv ~ sum_k W_dk H_vk, H stored word-major (V x K) so that one word's row is
// contiguous, as PLSA's phi. `ratio` (KL only) holds x_dv / (W H)_dv for each entry of
// DocWordCounts at the current pair; `wGram` (Frobenius only) is W^T W of the current W.
struct NmfState {
  RowMatrix w;  // D x K
  RowMatrix h;  // V x K
  std::vector<double> ratio;
  Eigen::MatrixXd wGram;
};

// The seeded start: the topics of PLSA's start (documents picked like k-means++, one mixture M
// step, plsa_kernels.hpp) as H's columns and each document's length spread evenly over the K
// topics as W's row, so that W H reproduces every document's length; for the Frobenius loss both
// are then scaled by the least-squares factor min_c ||X - c W H||. Returns the start's loss (and
// leaves `ratio` or `wGram` ready for the first sweep), or NaN when stopped: the state then holds
// the corpus word frequencies in every topic.
double initNmf(const DocWordCounts& counts, std::int64_t K, NmfLoss loss, std::uint64_t seed, NmfState& state,
               std::stop_token stop);

// One sweep: H then W, each updated from the other's newest value. Returns the loss at the new
// pair (generalised KL divergence D(X || W H) = sum x log(x / (W H)) - x + (W H), or half the
// squared Frobenius error), or NaN when stopped, in which case `state` may hold a half-updated
// pair: callers keep a copy of the last complete one. Without `withLoss` the KL loss is not
// computed (its logarithms cost about a third of a sweep) and 0 is returned; the Frobenius loss
// comes with the sweep's own products and is always returned. The multiplicative updates never
// increase the loss (Lee & Seung 2001); HALS minimises it exactly in one column of one factor at a
// time.
double nmfSweep(const DocWordCounts& counts, NmfLoss loss, NmfSolver solver, NmfState& state, bool withLoss,
                std::stop_token stop);

// The loss of `state` as it is (which also fills `ratio` and `wGram`); NaN when stopped.
double nmfLoss(const DocWordCounts& counts, NmfLoss loss, NmfState& state, std::stop_token stop);

// The factors read as a topic model: each topic's expected word counts n_kv = H_vk sum_d W_dk,
// plus `smoothing` on every word, normalised (K x V, rows summing to one); and each document's
// share of its reconstruction per topic, theta_dk proportional to W_dk sum_v H_vk (D x K; a row
// of W that is all zero gives the uniform mix).
Eigen::MatrixXd nmfTopics(const NmfState& state, double smoothing);
Eigen::MatrixXd nmfDocumentMixes(const NmfState& state);

// Folding-in under the Frobenius loss: a held-out document's w >= 0 minimising ||x - H w||^2 (by
// coordinate descent on the K x K Gram matrix, H fixed), read as theta_k proportional to
// w_k sum_v H_vk (uniform when w = 0). Under the KL loss folding-in is PLSA's EM fold-in on the
// topics (emFoldIn): the multiplicative update of w with H fixed is that EM step up to scale
// (003 §3). Holds its own copy of H.
FoldIn frobeniusFoldIn(const RowMatrix& h, int iterations = 100);

}  // namespace latent::core::topic
