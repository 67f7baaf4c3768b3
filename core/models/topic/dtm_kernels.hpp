// SPDX-License-Identifier: GPL-3.0-or-later
// The dynamic topic model (000 §27.4.2, Fig. 27.11; Blei & Lafferty 2006): documents in time slices
// t = 0..T-1, each slice with its own Dirichlet alpha_t over topics, and each topic's words in slice
// t the softmax of natural parameters b_tk that drift as a Gaussian random walk,
//   b_0k ~ N(0, initialVariance I),   b_tk | b_(t-1)k ~ N(b_(t-1)k, drift I).
// Fitted by variational EM:
// - E step: each document's LDA E step (Dirichlet q(theta_d), phi_dw) against its slice's topics
//   softmax(b_tk) (lda_vb_kernels' documentEStep), giving each slice's expected counts s_tkw;
// - M step: each topic's path b_0k .. b_(T-1)k at the maximum of
//     sum_t [s_tk . b_tk - N_tk log sum_w exp b_tkw] + log p(b_0k .. b_(T-1)k),
//   by Newton steps whose curvature is the multinomial's diagonal, N_tk softmax(b_tk): each step
//   then splits into one tridiagonal system over the slices per word, which is a Kalman filter and
//   smoother run on Gaussian pseudo-observations (b_tkw + g_tkw / (N_tk p_tkw), variance
//   1 / (N_tk p_tkw)). Blei & Lafferty fit the pseudo-observations of their variational Kalman
//   filter by conjugate gradient on the bound; these are the Laplace approximation's (iterated,
//   with a line search on the exact objective, so it never falls). Slices without documents have
//   no observation: the smoother carries the topics through them.
// - alpha_t by Minka's fixed point from the slice's documents (the corpus's alpha for slices with
//   fewer than kMinSliceDocuments).
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/models/topic/doc_word_counts.hpp"
#include "core/models/topic/lda_vb_kernels.hpp"

namespace latent::core::topic {

inline constexpr std::int64_t kMinSliceDocuments = 5;

struct DtmSettings {
  double initialVariance = 10.0;  // of the first slice's natural parameters
  double drift = 0.05;            // variance of each natural parameter's step from a slice to the next
  int newtonSteps = 2;            // per M step (warm: the path moves little between EM iterations)
  EStepControl estep;
};

struct DtmState {
  std::vector<std::int32_t> sliceOf;        // per training document
  std::vector<Eigen::MatrixXd> natural;     // per slice, K x V: b_tkw
  std::vector<Eigen::MatrixXd> topics;      // per slice, K x V: softmax over w of natural (what the E step reads)
  std::vector<Eigen::VectorXd> alpha;       // per slice
  Eigen::VectorXd corpusAlpha;              // for slices with too few documents
  Eigen::MatrixXd gammas;                   // K x D
  Eigen::MatrixXd expElogTheta;             // K x D, of the last E step
  std::vector<double> scaledCounts;         // per entry, n_dw / Z_dw of the last E step
  std::vector<Eigen::MatrixXd> statistics;  // per slice, K x V: s_tkw of the last E step

  std::size_t slices() const noexcept { return natural.size(); }
  Eigen::Index topicCount() const noexcept { return natural.empty() ? 0 : natural.front().rows(); }
};

// The start: PLSA's seeded topics (its stream `restart`) in every slice, alpha_t = 1/K.
void initDtm(const DocWordCounts& counts, std::span<const std::int32_t> sliceOf, std::size_t slices, std::int64_t K,
             std::uint64_t seed, std::uint64_t restart, DtmState& state);

// One EM iteration (E step, then each topic's path, then alpha when `reestimateAlpha`). Returns
// the objective (the documents' bound plus the paths' log prior) at the new q and the old topics,
// or NaN when stopped (the state then is as before).
double dtmIteration(const DocWordCounts& counts, const DtmSettings& settings, DtmState& state, std::stop_token stop,
                    bool reestimateAlpha);

// The M step's paths: each topic's rows of `natural` (T slices of K x V) moved by Newton steps
// towards the maximum given the slices' expected counts `statistics`, and `topics` set to their
// softmax. Topics in parallel; the stop is looked at before each topic, so a stop waits only for
// the topics already started. Returns false when stopped (some topics then moved, others not:
// the caller works on copies). `finished`, when given, counts the topics done as they are done.
bool dtmImprovePaths(const std::vector<Eigen::MatrixXd>& statistics, const DtmSettings& settings,
                     std::vector<Eigen::MatrixXd>& natural, std::vector<Eigen::MatrixXd>& topics, std::stop_token stop,
                     std::atomic<std::int64_t>* finished = nullptr);

// Each topic's path's log prior (the random walk's log density, without its constant).
double dtmPathLogPrior(const DtmState& state, const DtmSettings& settings);

// Expected words of each topic in each slice (T x K) from the statistics of the last E step.
Eigen::MatrixXd dtmSliceTopicTokens(const DtmState& state);

}  // namespace latent::core::topic
