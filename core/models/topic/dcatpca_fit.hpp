// SPDX-License-Identifier: GPL-3.0-or-later
// Discriminative categorical PCA (000 §27.4.4.3, eq. 27.73-27.74, Fig. 27.17): a document's words
// x_d (core/eval/word_features.hpp) set the mean of a K-dimensional latent z_d ~ N(V x_d, I), and
// its labels are exchangeable categorical draws y_dl ~ Cat(S(W z_d + b)) (one draw for a single
// label). The latent bottleneck lets the labels of a document share what the words leave open.
//
// Fitted by gradient, as the textbook allows: the MAP estimate of V, W, b and each training
// document's z_d jointly (the latent's point posterior given words and labels, "hard" EM), with
// L2 penalties on V and W, by L-BFGS (core/util/lbfgs.hpp), alternating with the M step for Sigma:
// the mean of the gaps' outer products (z_d - V x_d) and of each latent's posterior covariance,
// bounded with Bohning's curvature bound as catpca does (000 §12.4). A new document's labels are
// predicted from its words alone: z ~ N(V x, Sigma) (the labels unseen), p(y | x) = E[S(W z + b)]
// by a fixed, seeded set of draws.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <stop_token>
#include <vector>

#include "core/eval/word_features.hpp"

namespace latent::core::topic {

struct DcatpcaSettings {
  int latent = 5;             // K
  int iterations = 2000;      // L-BFGS iterations
  double penalty = 1e-3;      // on V and W, against the mean over documents of their terms
  int predictiveDraws = 256;  // draws of z per new document
  std::uint64_t seed = 1;
};

struct DcatpcaParameters {
  // The words' map: V^T, features x K, on the training documents' word features, or on their
  // reduced rows (word_features.hpp reduceWordFeatures) when `reduced` holds them.
  Eigen::MatrixXd inputWeights;
  Eigen::MatrixXd labelWeights;  // W^T: K x labels
  Eigen::VectorXd labelBias;     // b: labels
  Eigen::MatrixXd latent;        // z_d of each training document (documents x K), their posterior modes
  Eigen::MatrixXd covariance;    // Sigma (K x K)
  bool reduced = false;
  ReducedWordFeatures reduction;
  double objective = 0.0;
  int iterations = 0;
  bool converged = false;
};

// The fit, a round at a time: each round up to `iterations` L-BFGS iterations on V, W, b and the
// z_d at the current Sigma, then the M step for Sigma.
class DcatpcaFitter {
 public:
  // The training documents' features (one row each) and label sets (codes < labels; documents
  // without labels are left out by the caller). Starts from a seeded random V and W, z_d = V x_d.
  DcatpcaFitter(const WordFeatureRows& features, const std::vector<std::vector<std::int32_t>>& labelSets, int labels,
                const DcatpcaSettings& settings);
  void round(int iterations);
  bool converged() const noexcept { return m_converged; }
  int iterations() const noexcept { return m_iterations; }
  // The mean over documents of the negative log joint of labels and latents, plus the penalties.
  double objective() const noexcept { return m_objective; }
  DcatpcaParameters parameters() const;

 private:
  bool m_reduced = false;
  ReducedWordFeatures m_reduction;
  WordFeatureRows m_sparse;
  Eigen::MatrixXd m_counts, m_covariance;
  Eigen::VectorXd m_theta;
  DcatpcaSettings m_settings;
  int m_iterations = 0;
  double m_objective = 0.0;
  bool m_converged = false;
};

// The whole fit (rounds until converged, settings.iterations in all, or a stop).
DcatpcaParameters fitDcatpca(const WordFeatureRows& features, const std::vector<std::vector<std::int32_t>>& labelSets,
                             int labels, const DcatpcaSettings& settings, std::stop_token stop = {});

// Prior means V x of new documents (documents x K), from their word features.
Eigen::MatrixXd dcatpcaLatentMeans(const DcatpcaParameters& parameters, const WordFeatureRows& training,
                                   const WordFeatureRows& documents);

// p(y | x) of one label draw for new documents (documents x labels, rows summing to one).
Eigen::MatrixXd dcatpcaLabelProbabilities(const DcatpcaParameters& parameters, const Eigen::MatrixXd& latentMeans,
                                          int draws, std::uint64_t seed);

// The probability that each label is among `n` exchangeable draws: 1 - (1 - p)^n (label sets).
Eigen::MatrixXd dcatpcaLabelSetScores(const Eigen::MatrixXd& probabilities, double n);

}  // namespace latent::core::topic
