// SPDX-License-Identifier: GPL-3.0-or-later
// Optimising Dirichlet hyperparameters of topic models: an asymmetric alpha (document-topic
// prior) and a symmetric beta (topic-word prior), as MALLET's --optimize-interval does.
#pragma once

#include <cstdint>
#include <vector>

#include <Eigen/Core>

namespace latent::core {

// Count histograms for the fixed point of Minka (2000) in the form of Wallach (2008, §2.4),
// which needs only how many documents have each count, not the documents themselves.
struct DocumentTopicHistograms {
  // topic[k][c]: number of documents in which topic k holds exactly c tokens (c >= 1).
  std::vector<std::vector<std::int64_t>> topic;
  // length[n]: number of documents with exactly n tokens (n >= 1).
  std::vector<std::int64_t> length;
};

struct TopicWordHistograms {
  // count[c]: number of (topic, word) pairs with exactly c tokens (c >= 1).
  std::vector<std::int64_t> count;
  // topicSize[n]: number of topics with exactly n tokens (n >= 1).
  std::vector<std::int64_t> topicSize;
};

// Minka's fixed point for an asymmetric Dirichlet over topics given Gibbs counts:
//   alpha_k <- (alpha_k * sum_d [psi(n_dk + alpha_k) - psi(alpha_k)] + (s - 1))
//              / (sum_d [psi(n_d + alpha_0) - psi(alpha_0)] + 1/theta)
// with the digamma differences as sums of 1/(alpha + i) over the histograms, and a weak
// Gamma(s = 1.001, theta = 1) prior that keeps every alpha_k positive. Returns the number of
// iterations run (stops when no alpha_k moves by more than 1e-6 relative).
int optimizeAsymmetricAlpha(Eigen::VectorXd& alpha, const DocumentTopicHistograms& histograms, int maxIterations = 200);

// The same fixed point for a symmetric Dirichlet over V words:
//   beta <- beta * sum_{k,w} [psi(n_kw + beta) - psi(beta)] / (V sum_k [psi(n_k + V beta) - psi(V beta)])
double optimizeSymmetricBeta(double beta, std::int64_t vocabularySize, const TopicWordHistograms& histograms,
                             int maxIterations = 200);

// Variational versions, from expected sufficient statistics instead of counts.
// meanLogTheta[k] = (1/D) sum_d E[log theta_dk]; Minka's fixed point
//   alpha_k <- psi^-1(psi(sum_j alpha_j) + meanLogTheta[k]).
int optimizeAlphaFromMeanLog(Eigen::VectorXd& alpha, const Eigen::VectorXd& meanLogTheta, int maxIterations = 100);
// A symmetric eta for K topics over V words from sumLogBeta = sum_{k,v} E[log beta_kv], by
// Newton's method on log eta (the ELBO's eta terms: K log Gamma(V eta) - K V log Gamma(eta)
// + (eta - 1) sumLogBeta).
double optimizeSymmetricEtaFromLog(double eta, std::int64_t topics, std::int64_t vocabularySize, double sumLogBeta,
                                   int maxIterations = 50);

}  // namespace latent::core
