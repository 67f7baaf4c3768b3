// SPDX-License-Identifier: GPL-3.0-or-later
// The sweeps of PLSA fitted by (tempered) EM (003 §3.4, eq. 3.23-3.24): expected counts gathered
// per document and per word on the fly, never storing q(z | d, w) for every pair.
#pragma once

#include <cstdint>
#include <memory>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/eval/topic_evaluation.hpp"
#include "core/models/topic/doc_word_counts.hpp"
#include "core/models/topic/mixture_kernels.hpp"

namespace latent::core::topic {

// PLSA's parameters and the one number per (document, distinct word) pair the sweeps keep.
// The tempered E step q(z | d, w) proportional to (p(z|d) p(w|z))^b factorises as
// thetaPow_dz phiPow_wz / Z_dw, so the expected counts n_dw q(z | d, w) are
// ratio_dw thetaPow_dz phiPow_wz with ratio_dw = n_dw / Z_dw: storing ratio (one double per
// entry) is enough to run the M step for p(z|d) document by document and for p(w|z) word by word.
struct PlsaState {
  RowMatrix theta;            // D x K, p(z | d)
  RowMatrix phi;              // V x K, p(w | z) (word-major)
  RowMatrix thetaPow;         // theta^b, only when tempered (b < 1)
  RowMatrix phiPow;           // phi^b, only when tempered
  std::vector<double> ratio;  // per entry of DocWordCounts: n_dw / sum_z (theta_dz phi_wz)^b
  // sum_z log Dir(phi_z | 1 + regularization) up to its constant: regularization sum_wz log phi_wz.
  double logPrior = 0.0;

  const RowMatrix& thetaE(double temperature) const { return temperature < 1.0 ? thetaPow : theta; }
  const RowMatrix& phiE(double temperature) const { return temperature < 1.0 ? phiPow : phi; }
};

struct PlsaSettings {
  double temperature = 1.0;     // b in the tempered E step; 1 = plain EM
  double regularization = 0.1;  // pseudo-count added to every topic's expected count of every word
};

// Seeded start: p(w|z) from K documents picked like k-means++ (seedMixture, then one mixture M step
// with the regularization as pseudo-count); p(z|d) uniform. Sizes and fills `state` for `counts`.
// Each restart seeds from its own random stream. Returns false when stopped; `state` then holds
// the corpus word frequencies in every topic.
bool initPlsa(const DocWordCounts& counts, std::int64_t K, std::uint64_t seed, std::uint64_t restart,
              const PlsaSettings& settings, PlsaState& state, std::stop_token stop);

// M step for p(w|z) (003 eq. 3.24, first line, with the tempered E step and the pseudo-count):
// phi_wz proportional to phiPow_wz sum_d ratio_dw thetaPow_dz + regularization, from `current`.
// Fills next.phi (and next.phiPow) and next.logPrior. Returns false when stopped.
bool plsaTopicStep(const DocWordCounts& counts, const PlsaState& current, const PlsaSettings& settings, PlsaState& next,
                   std::stop_token stop);

// Per document, in fixed blocks: when updateTheta, the M step for p(z|d) (003 eq. 3.24, second
// line) from current.theta/phi and the ratios, written to next.theta; then the ratios of the new
// pair (next.theta, next.phi) and the log-likelihood sum_{d,w} n_dw log sum_z theta_dz phi_wz,
// which it returns (NaN when stopped). Without updateTheta, next.theta is used as it is.
double plsaDocumentStep(const DocWordCounts& counts, const PlsaState& current, const PlsaSettings& settings,
                        PlsaState& next, bool updateTheta, std::stop_token stop);

// Folding-in for PLSA fitted by tempered EM: the same tempered E step on the document's p(z|d)
// with p(w|z) fixed, `iterations` times from uniform. `topicWord` (K x V) must outlive the FoldIn.
FoldIn temperedEmFoldIn(const Eigen::MatrixXd& topicWord, double temperature, int iterations = 50);

}  // namespace latent::core::topic
