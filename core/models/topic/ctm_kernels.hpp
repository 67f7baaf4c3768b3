// SPDX-License-Identifier: GPL-3.0-or-later
// The correlated topic model (000 §27.4.1, eq. 27.50-27.54; Blei & Lafferty 2007): each document's
// topic proportions are the softmax of z_d ~ N(mu, Sigma), so topics can co-occur. Variational EM as
// Blei & Lafferty fit it: q(z_d) = prod_k N(lambda_dk, nu2_dk), q(topic of word w in d) = phi_dw,
// and the bound on E log sum_k exp z_dk <= log sum_k exp(lambda_dk + nu2_dk / 2) (their zeta at its
// optimum). Per document, with n_w its counts and N its length:
//   phi_dwk    ~ exp(lambda_dk) exp(E[log b_kw])
//   lambda_d   Newton steps on -(l - mu)^T Sigma^-1 (l - mu) / 2 + sum_w n_w phi_dw . l - N log sum exp(l + nu2/2)
//   nu2_dk     the fixed point 1 / nu2_dk = (Sigma^-1)_kk + N softmax(lambda + nu2/2)_k
// and the M step q(b_k) = Dir(beta + sum_d sum_w n_dw phi_dwk), mu = mean lambda_d,
// Sigma = mean(diag(nu2_d) + (lambda_d - mu)(lambda_d - mu)^T).
// The topics have a Dirichlet posterior as in LDA's variational Bayes (000 Alg. 27.1), not Blei &
// Lafferty's point estimate: beta's empirical Bayes estimate then is LDA-VB's (from E[log b]), and
// comes back on data drawn with a known beta. With point topics b = (beta + counts) / total in phi,
// a larger beta spreads phi, which spreads the counts, which raises beta: it ends far too large.
// As in Blei & Lafferty's own code, the last topic's z is fixed at 0 (softmax cannot see z's sum):
// mu and Sigma are over the first K - 1 coordinates, and lambda_dK = nu2_dK = 0. With all K free,
// the sum's variance is left to the prior alone, and under the factorised q it grows without bound
// (wider prior, wider nu2, wider Sigma), each q(z_d) then far too spread over the topics.
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/eval/topic_evaluation.hpp"
#include "core/models/topic/doc_word_counts.hpp"
#include "core/models/topic/lda_vb_kernels.hpp"

namespace latent::core::topic {

struct CtmGlobals {
  VariationalTopics topics;   // q(b_k) = Dir(lambda_k); the E step reads exp(E[log b])
  double topicBound = 0.0;    // the topics' part of the bound at q(b) (TopicBound::prior)
  Eigen::MatrixXd topicWord;  // E[b], K x V, rows sum to one: the topics reported and scored
  Eigen::VectorXd mu;         // K - 1: z's mean relative to the last topic's
  Eigen::MatrixXd sigma;      // K - 1 x K - 1
  Eigen::MatrixXd precision;  // Sigma^-1
  double logDetSigma = 0.0;
  double beta = 0.01;  // pseudo-count of every word in every topic (the topics' symmetric Dirichlet prior)
};

// Every document's q(z_d), one column per document (K x D, the last row 0).
struct CtmDocuments {
  Eigen::MatrixXd lambda, nu2;
};

struct CtmEStep {
  int maxIterations = 20;
  double tolerance = 1e-5;  // stop a document once its bound changes by less than this per word
  double shrinkage = 0.0;   // Sigma's estimate: (1 - shrinkage) times the MLE, plus shrinkage times I
};

// The start: PLSA's seeded topics (initPlsa, its stream `restart`), mu = 0, Sigma = I, each
// q(z_d) = N(0, I), the topics' pseudo-count `beta`.
void initCtm(const DocWordCounts& counts, std::int64_t K, double beta, std::uint64_t seed, std::uint64_t restart,
             CtmGlobals& globals, CtmDocuments& documents);

// Sets Sigma's inverse and log determinant from Sigma (Sigma must be positive definite).
void refreshCtmPrecision(CtmGlobals& globals);

// One EM iteration: every document's q updated with the globals fixed (warm from `documents`),
// then the globals re-estimated, beta too when `reestimateBeta` (empirical Bayes, as variational
// Bayes re-estimates LDA's eta). Returns the bound (000's ELBO for the CTM, the words' part
// without constants) at the updated q and the old globals, or NaN when stopped (nothing changed).
double ctmIteration(const DocWordCounts& counts, const CtmEStep& estep, CtmGlobals& globals, CtmDocuments& documents,
                    std::stop_token stop, bool reestimateBeta = false);

// E_q[softmax(z)] for each document (D x K), by `samples` seeded draws from q each.
Eigen::MatrixXd ctmExpectedProportions(const CtmDocuments& documents, std::uint64_t seed, int samples = 100);

// The prior in terms that do not depend on which topic is the reference: the mean and covariance of
// z - mean_k(z_k) (the centred log-ratios of the proportions), K and K x K.
Eigen::VectorXd ctmCentredMean(const Eigen::VectorXd& mu);
Eigen::MatrixXd ctmCentredCovariance(const Eigen::MatrixXd& sigma);

// The topics' correlations: the centred covariance scaled to unit diagonal; K x K.
Eigen::MatrixXd ctmCorrelations(const Eigen::MatrixXd& sigma);

// One document's q(z) (a single column) fitted to its words with the globals fixed, from the prior,
// phi reading the topics as `wordWeights` (K x V). `words` repeat as often as they occur.
CtmDocuments fitCtmDocument(std::span<const std::int32_t> words, const CtmGlobals& globals,
                            const Eigen::MatrixXd& wordWeights, const CtmEStep& estep);

// A held-out document's proportions with the globals fixed: q(z) fitted to its words (from the
// prior), then E_q[softmax(z)] by seeded draws. phi reads the topics at their posterior mean E[b],
// the topics its other words are then scored with (and those LDA-VB's fold-in reads), not the
// training E step's exp E[log b]. `globals` must outlive the FoldIn.
FoldIn ctmFoldIn(const CtmGlobals& globals, CtmEStep estep = {}, int samples = 200);

}  // namespace latent::core::topic
