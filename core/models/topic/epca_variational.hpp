// SPDX-License-Identifier: GPL-3.0-or-later
// Bayesian ePCA: the documents' coordinates integrated out under their Gaussian prior z_d ~
// N(0, I / lambda) rather than fitted (000 eq. 27.10; Mohamed et al. 2008), by variational EM with
// a Gaussian q(z_d) = N(m_d, S_d) of full covariance per document and point estimates of W and b.
// Its lower bound per document, with q_v = w_v^T S_d w_v and eta = W m_d + b,
//   Poisson (eq. 27.9):      sum_v x_v eta_v - exp(eta_v + q_v / 2)            (exact expectation)
//   multinomial (eq. 27.8):  sum_v x_v eta_v - L log sum_v exp(eta_v + q_v / 2)
//                            (Jensen: E log sum exp <= log sum E exp, the bound of CTM)
//   categorical (eq. 27.7):  the multinomial's for each question's answers, L its answers
// minus KL(q(z_d) || N(0, I / lambda)). Each sweep updates every q(z_d) by one Newton step on m_d
// (S_d fixed, with a line search) and the fixed point S_d^-1 = W^T diag(mu) W + lambda I, with
// mu_v the expected count; W and b then take one Adam step on the bound's gradient, so that 003's
// comparison of a point estimate (epca's default) with integrating out is made on one model.
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/models/topic/doc_word_counts.hpp"
#include "core/models/topic/epca_kernels.hpp"

namespace latent::core::topic {

// Every document's q(z_d): the means (D x K, the state's z) are kept with the state; here the
// covariances, one K x K block per document.
struct EpcaCovariances {
  std::vector<Eigen::MatrixXd> blocks;
};

// Each S_d starts at the prior's covariance, I / lambda.
EpcaCovariances initEpcaCovariances(std::size_t documents, Eigen::Index K, double zPrecision);

// One sweep: the bound at (state, covariances) and its gradient with respect to W and b in
// `gradient` (gradient->z is zero: the means move by their own update), then every q(z_d) updated
// into `nextMeans`/`next`. Returns the bound (the multinomial's, or the Poisson's without log x!),
// minus wPrecision/2 ||W||^2; NaN when stopped (nothing is then changed).
double epcaVariationalSweep(const DocWordCounts& counts, const EpcaState& state, const EpcaCovariances& covariances,
                            const EpcaPriors& priors, EpcaState& gradient, Eigen::MatrixXd& nextMeans,
                            EpcaCovariances& next, std::stop_token stop);

// A held-out document's q(z) with W and b fixed, from the prior, updated until the bound changes
// by less than `tolerance` per word (at most maxIterations). `words` repeat as often as they occur.
struct EpcaDocumentPosterior {
  Eigen::VectorXd mean;
  Eigen::MatrixXd covariance;
};
EpcaDocumentPosterior epcaVariationalFoldIn(std::span<const std::int32_t> words, const Eigen::MatrixXd& w,
                                            const Eigen::VectorXd& b, const EpcaPriors& priors, int maxIterations = 100,
                                            double tolerance = 1e-6);

// log E_q[softmax(W z + b)] over the vocabulary (or within each question's answers): the
// predictive of the document's other words with z integrated out, by `samples` draws of z from q
// (seeded), averaged in probability.
Eigen::VectorXd epcaPredictiveLogProbabilities(const Eigen::MatrixXd& w, const Eigen::VectorXd& b,
                                               const EpcaDocumentPosterior& posterior, std::uint64_t seed,
                                               int samples = 200, const ResponseGroups* questions = nullptr);

}  // namespace latent::core::topic
