// SPDX-License-Identifier: GPL-3.0-or-later
// Supervised LDA (000 §27.4.4.1, eq. 27.65-27.66, Fig. 27.15a): LDA whose every document also has a
// response generated from its mean topic assignments zbar_d = (1/N_d) sum_n z_dn. Variational EM as
// Blei & McAuliffe (2007) fit it, q(theta_d) = Dir(gamma_d), q(z_dn) = phi_dn, with the topics'
// Dirichlet posterior of LDA's variational Bayes (lda_vb_kernels.hpp, 000 Alg. 27.1).
//
// Gaussian response, y_d ~ N(eta^T zbar_d, sigma^2) (Blei & McAuliffe 2007, eq. for phi_n):
//   phi_n ~ exp{E[log theta] + E[log beta_{., w_n}] + (y / (N sigma^2)) eta
//               - (2 (eta^T phi_{-n}) eta + eta o eta) / (2 N^2 sigma^2)},   phi_{-n} = sum_{m != n} phi_m
//   M step: eta = E[A^T A]^{-1} E[A]^T y, sigma^2 = (y^T y - y^T E[A] eta) / D, with the rows of E[A]
//   the documents' E[zbar_d] = phibar_d and E[A^T A] = sum_d E[zbar_d zbar_d^T],
//   E[zbar zbar^T] = (sum_n sum_{m != n} phi_n phi_m^T + sum_n diag(phi_n)) / N^2.
// Categorical response with C classes, p(y = c | zbar) = exp(eta_c^T zbar) / sum_c' exp(eta_c'^T zbar)
// (eta K x C): the multi-class sLDA of Wang, Blei & Fei-Fei (2009). E[log sum_c exp(eta_c^T zbar)] is
// bounded by Jensen, log sum_c prod_n (phi_n^T exp(eta_c / N)), and phi_n's update uses that bound's
// first-order expansion around the current phi_n:
//   phi_n ~ exp{E[log theta] + E[log beta_{., w_n}] + eta_y / N - h / (h^T phi_n^old)},
//   h = sum_c prod_{m != n} (phi_m^T exp(eta_c / N)) exp(eta_c / N);
//   M step: eta maximises sum_d [eta_{y_d}^T phibar_d - log sum_c prod_n (phi_dn^T exp(eta_c / N_d))]
//   - penalty ||eta||^2 / 2, a concave function (a log-sum of log-convex terms, negated), by gradient ascent.
// Chosen over Monte Carlo EM with a collapsed Gibbs E step (000 §27.4.4.1's other suggestion)
// because it shares this file's E step, topics and held-out path with the Gaussian response, and its
// objective is a deterministic bound that a test can check.
//
// Documents are their distinct words with counts: the c copies of a word share one phi, and the
// update above is applied to it with phi_{-n} = (all tokens' sum) - phi (one copy taken out), word by
// word in order (a Gauss-Seidel sweep, as the per-token updates are). With every count 1 this is
// exactly the paper's coordinate ascent. A document without a response has no response term (a plain
// LDA document), and held-out documents are folded in that way too: their response is then predicted
// from the text alone as eta^T E[zbar] (Gaussian) or softmax(eta^T E[zbar]) (categorical).
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/models/topic/lda_vb_kernels.hpp"

namespace latent::core::topic {

// The response part of the model, in the units it is fitted in (a Gaussian response centred and
// scaled to unit variance by the caller).
struct SldaResponseModel {
  bool categorical = false;
  Eigen::MatrixXd eta;   // K x 1 (Gaussian) or K x C (categorical)
  double sigma2 = 1.0;   // Gaussian noise variance
  double penalty = 1.0;  // categorical: the L2 penalty on eta in the M step
};

// One document's response: a number (Gaussian), a class (categorical), or none.
struct SldaTarget {
  bool present = false;
  double value = 0.0;
  std::int32_t category = -1;
};

// The variational state of every document: phi per distinct word of each document (entries of
// DocumentWordCounts), gamma per document.
struct SldaDocuments {
  Eigen::MatrixXd phi;         // K x entries
  Eigen::MatrixXd gammas;      // K x D
  std::vector<double> bounds;  // per document: its part of the bound after its last E step
  std::vector<int> passes;     // per document: E-step passes made

  // phi uniform, gamma = alpha + N_d / K.
  void reset(const DocumentWordCounts& docs, const Eigen::VectorXd& alpha);
};

struct SldaEStepControl {
  int maxIterations = 50;
  double tolerance = 1e-4;  // mean absolute change of gamma that ends a document's E step
};

// The E step of one document: sweeps over its words (each setting phi_w by the update above, with
// the response term when `target` is present) then gamma = alpha + sum_w n_w phi_w, until gamma
// settles. phi (K x n, column i for words[i]) and gamma are warm starts and are updated in place.
// Returns the number of sweeps.
int sldaDocumentEStep(std::span<const std::int32_t> words, std::span<const double> counts,
                      const Eigen::MatrixXd& elogBeta, const Eigen::VectorXd& alpha, const SldaResponseModel& response,
                      const SldaTarget& target, Eigen::Ref<Eigen::MatrixXd> phi, Eigen::Ref<Eigen::VectorXd> gamma,
                      const SldaEStepControl& control);

// The document's part of the variational bound at (gamma, phi): the terms of LDA's bound (Blei et
// al. 2003, A.3, the word term under `elogBeta`) plus E[log p(y | zbar, eta, sigma^2)] (Gaussian)
// or its Jensen bound (categorical) when the target is present.
double sldaDocumentBound(std::span<const std::int32_t> words, std::span<const double> counts,
                         const Eigen::MatrixXd& elogBeta, const Eigen::VectorXd& alpha,
                         const SldaResponseModel& response, const SldaTarget& target,
                         const Eigen::Ref<const Eigen::MatrixXd>& phi, const Eigen::Ref<const Eigen::VectorXd>& gamma);

// The E step of every document (parallel over documents; the result does not depend on the thread
// count). `targets` has one entry per document (or is empty: no responses). False when stopped.
bool sldaCorpusEStep(const DocumentWordCounts& docs, const Eigen::MatrixXd& elogBeta, const Eigen::VectorXd& alpha,
                     const SldaResponseModel& response, std::span<const SldaTarget> targets,
                     const SldaEStepControl& control, SldaDocuments& state, std::stop_token stop);

// Each document's E[zbar_d] = sum_w n_w phi_w / N_d as a K x D matrix (zero for an empty document).
Eigen::MatrixXd sldaMeanAssignments(const DocumentWordCounts& docs, const SldaDocuments& state);

// The expected word-topic counts sum_d n_dw phi_dwk (K x V), summed in document order.
Eigen::MatrixXd sldaTopicStatistics(const DocumentWordCounts& docs, const SldaDocuments& state,
                                    Eigen::Index vocabulary);

// The Gaussian M step (Blei & McAuliffe 2007): eta and sigma^2 from the documents with a target.
// `ridge` (tiny) keeps E[A^T A] invertible when a topic is unused.
void sldaGaussianMStep(const DocumentWordCounts& docs, const SldaDocuments& state, std::span<const SldaTarget> targets,
                       SldaResponseModel& response, double ridge = 1e-8);

// The categorical M step: `steps` gradient-ascent steps (with backtracking) on the bound's terms in
// eta, from the current eta; a stop request ends it after the current evaluation (eta then is the
// last one accepted, never lowering the objective). Returns those terms at the new eta.
double sldaCategoricalMStep(const DocumentWordCounts& docs, const SldaDocuments& state,
                            std::span<const SldaTarget> targets, SldaResponseModel& response, int steps = 50,
                            std::stop_token stop = {});

// The terms of the categorical bound that depend on eta (the M step's objective), penalty included.
double sldaCategoricalObjective(const DocumentWordCounts& docs, const SldaDocuments& state,
                                std::span<const SldaTarget> targets, const SldaResponseModel& response);

// Predictions from the text alone: each document's E step without its response (from the symmetric
// start), then eta^T E[zbar] (Gaussian; D x 1) or softmax(eta^T E[zbar]) (categorical; D x C), with
// the E[zbar] used (K x D) in `meanAssignments` when given.
Eigen::MatrixXd sldaPredict(const DocumentWordCounts& docs, const Eigen::MatrixXd& elogBeta,
                            const Eigen::VectorXd& alpha, const SldaResponseModel& response,
                            const SldaEStepControl& control, Eigen::MatrixXd* meanAssignments = nullptr);

}  // namespace latent::core::topic
