// SPDX-License-Identifier: GPL-3.0-or-later
// The sweeps of the mixture of categoricals (002): seeding, the E step over document blocks and the
// M step word by word, for EM (MAP) and variational Bayes, with their exact objectives.
#pragma once

#include <cstdint>
#include <stop_token>

#include <Eigen/Core>

#include "core/models/topic/doc_word_counts.hpp"

namespace latent::core::topic {

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The parameters one M step produces, word-major so that a document's E step reads one
// contiguous row of K numbers per distinct word.
struct MixtureParameters {
  RowMatrix phi;          // V x K: MAP estimate (EM) or posterior mean (VB) of each component's words
  RowMatrix logPhi;       // V x K: log phi (EM) or E_q[log phi] = psi(b_kw) - psi(sum_w b_kw) (VB)
  Eigen::VectorXd pi;     // K: mixing weights, MAP (EM) or posterior mean (VB)
  Eigen::VectorXd logPi;  // K: log pi (EM) or E_q[log pi] (VB)
  // The part of the objective that does not come from the documents' likelihood terms:
  // EM the log prior log Dir(pi | 1 + alpha) + sum_k log Dir(phi_k | 1 + beta) up to its constant,
  // alpha sum_k log pi_k + beta sum_kw log phi_kw;
  // VB minus the KL divergences -KL(q(pi) || Dir(alpha)) - sum_k KL(q(phi_k) || Dir(beta)).
  double priorTerm = 0.0;
};

struct MixturePriors {
  double alpha = 1.0;
  double beta = 0.1;
  bool variational = false;
};

// Seeds the components on K documents chosen like k-means++ (greedy variant: 2 + ln K candidates
// per step, the one lowering the total divergence kept), with KL(document || component) in place
// of the squared distance. Each seed is half the document's word frequencies and half the corpus
// word frequencies, so that no word starts with probability zero. Writes the responsibilities of
// one EM E step under these seeds (equal mixing weights) to `responsibilities` (D x K). Each
// restart draws from its own random stream. Returns false when stopped.
bool seedMixture(const DocWordCounts& counts, std::int64_t K, std::uint64_t seed, std::uint64_t restart,
                 RowMatrix& responsibilities, std::stop_token stop);

// M step from responsibilities R (D x K): expected counts N_k = sum_d r_dk and n_kw = sum_d r_dk
// n_dw (002 "M step"), then EM: pi_k = (N_k + alpha) / (D + K alpha), phi_kw = (n_kw + beta) /
// (n_k + V beta); VB: q(pi) = Dir(alpha + N), q(phi_k) = Dir(beta + n_k.). Returns false when
// stopped (out is then incomplete).
bool mixtureMStep(const DocWordCounts& counts, const RowMatrix& responsibilities, const MixturePriors& priors,
                  MixtureParameters& out, std::stop_token stop);

// E step (002 "E step"): r_dk proportional to exp(logPi_k + sum_w n_dw logPhi_wk). Returns the sum
// over documents of log sum_k exp(...) — log p(w_d | params) for EM, the document's part of the
// variational bound for VB — or NaN when stopped (out is then incomplete).
double mixtureEStep(const DocWordCounts& counts, const MixtureParameters& params, RowMatrix& out, std::stop_token stop);

// KL(Dir(a) || Dir(b)) for vectors a and a symmetric b.
double dirichletKl(const Eigen::Ref<const Eigen::VectorXd>& a, double b);

}  // namespace latent::core::topic
