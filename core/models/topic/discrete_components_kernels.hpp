// SPDX-License-Identifier: GPL-3.0-or-later
// Gibbs sampling of discrete component analysis on the document-word counts (Buntine & Jakulin
// 2006): each count n_dw is split over the K components given the current factors, then each
// document's factor and each component's word distribution b_k are drawn given the splits. The
// document factor lies on the simplex with a Dirichlet prior (mPCA, 000 eq. 27.11-27.12) or is
// non-negative with Gamma priors (GaP, 000 eq. 27.15-27.16); b_k has a symmetric Dirichlet prior.
// With b_k summing to one, the conditionals are conjugate:
//   pi_d | splits ~ Dir(alpha + n_d.),   z_dk | splits ~ Ga(a_k + n_dk, b_k + 1),
//   b_k | splits ~ Dir(beta + n_k.),     P(a token of word w in d is k's) ~ b_kw f_dk.
// Every draw takes its own stream (iteration, document or word), so a sweep gives the same state
// on any number of threads.
#pragma once

#include <cstdint>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/data/response_groups.hpp"
#include "core/eval/topic_evaluation.hpp"
#include "core/models/topic/dirichlet_hyperparameters.hpp"
#include "core/models/topic/doc_word_counts.hpp"

namespace latent::core::topic {

enum class DocumentPrior {
  Dirichlet,  // mPCA: pi_d ~ Dir(alpha)
  Gamma,      // GaP: z_dk ~ Ga(shape_k, rate_k)
};

struct ComponentPriors {
  DocumentPrior kind = DocumentPrior::Dirichlet;
  Eigen::VectorXd shape;  // alpha_k (Dirichlet) or a_k (Gamma)
  Eigen::VectorXd rate;   // b_k (Gamma only)
  double beta = 0.01;     // symmetric prior on each component's words
  // The URP / simplex factor model (000 eq. 27.14): survey answers, each component a distribution
  // over each question's answers (b_k^(r) ~ Dir(beta)) rather than one over the vocabulary; null
  // for mPCA and GaP. Must outlive the priors.
  const ResponseGroups* questions = nullptr;
};

// One state of the chain. Matrices are stored with the component index fastest (K x D, K x V), so
// a document's or a word's K values are contiguous.
struct ComponentSample {
  Eigen::MatrixXd topicWord;        // K x V: the draw of each b_k (rows sum to one)
  Eigen::MatrixXd docFactor;        // K x D: the draw of pi_d (columns sum to one) or of z_d
  Eigen::MatrixXi docCounts;        // K x D: n_dk, the tokens of d assigned to k
  Eigen::MatrixXi wordCounts;       // K x V: n_kw
  std::vector<std::int32_t> split;  // each token's component, grouped by count entry (entryStart)
};

// Where each count entry's tokens start in ComponentSample::split (entries + 1 offsets).
std::vector<std::int64_t> entryTokenOffsets(const DocWordCounts& counts);

// The start: b_k drawn from Dir(beta + a random tenth of the corpus's tokens each; the same start
// for every thread count), each document's factor at its prior mean, then one split of the counts.
void initComponents(const DocWordCounts& counts, const std::vector<std::int64_t>& entryStart,
                    const ComponentPriors& priors, std::int64_t components, std::uint64_t seed,
                    ComponentSample& sample);

// One sweep from `current` into `next` (every field overwritten): split every count given
// current's factors, draw every document's factor, count n_kw word by word, draw every b_k.
// Returns the log-likelihood of `current` (the state the sweep starts from): the Poisson
// likelihood of the counts for GaP (eq. 27.16), the likelihood of the words for mPCA (eq. 27.13),
// or NaN when stopped (`next` is then incomplete; `current` is untouched).
double componentSweep(const DocWordCounts& counts, const std::vector<std::int64_t>& entryStart,
                      const ComponentPriors& priors, std::uint64_t seed, std::int64_t iteration,
                      const ComponentSample& current, ComponentSample& next, std::stop_token stop);

// The components' word distributions given the splits, E[b_k | n_k.] = (beta + n_kw) /
// (V beta + n_k): the topics the views show and held-out documents are scored with (K x V). With
// questions, within each question's answers (each row then sums to the number of questions).
Eigen::MatrixXd posteriorTopics(const ComponentSample& sample, double beta, const ResponseGroups* questions = nullptr);

// Each document's expected share of each component given its splits (D x K, rows sum to one):
// (alpha_k + n_dk) normalised for mPCA, E[z_dk] = (a_k + n_dk) / (b_k + 1) normalised for GaP,
// which is also the probability that the document's next token is the component's.
Eigen::MatrixXd expectedDocumentShares(const ComponentSample& sample, const ComponentPriors& priors);

// Empirical Bayes for the priors from the splits: alpha by Minka's fixed point over the n_dk
// (mPCA), each Gamma's shape and rate by maximum likelihood on the expected sufficient statistics
// E[z_dk], E[log z_dk] under z_dk's conditional (GaP; Minka 2002's Newton step for the shape), and
// beta by Minka's fixed point over the n_kw (not with questions, whose Dirichlets differ in size:
// there beta stays as given).
void optimizeComponentPriors(const ComponentSample& sample, ComponentPriors& priors);

// The maximum-likelihood Gamma(shape, rate) for data with the given mean of x and of log x
// (Minka 2002, "Estimating a Gamma distribution"): the shape solves
// log a - psi(a) = log mean - meanLog by Newton's method on 1/a; the rate is a / mean.
void fitGamma(double mean, double meanLog, double& shape, double& rate);

// A held-out document's share of each component for GaP with the topics fixed: collapsed Gibbs
// on its tokens with z integrated out, P(token -> k) ~ b_kw (a_k + n_k) / (b_k + 1), averaging the
// next token's component distribution (a_k + n_k) / (b_k + 1), normalised, after burn-in.
FoldIn gammaPoissonFoldIn(const Eigen::MatrixXd& topicWord, Eigen::VectorXd shape, Eigen::VectorXd rate,
                          int sweeps = 50, int burnIn = 20);

}  // namespace latent::core::topic
