// SPDX-License-Identifier: GPL-3.0-or-later
// LDA fitted by batch variational Bayes (000 Alg. 27.1, count version §27.3.6.2-3, eq. 27.44-27.49;
// Blei, Ng & Jordan 2003; Hoffman, Blei & Bach 2010 for the Dirichlet over the topics).
#pragma once

#include <cstdint>
#include <memory>
#include <stop_token>
#include <string>

#include <Eigen/Core>

#include "core/models/model.hpp"
#include "core/models/option_table.hpp"
#include "core/models/topic/lda_vb_kernels.hpp"

namespace latent::core {

struct LdaVbOptions {
  std::int64_t topics = 20;
  std::int64_t iterations = 100;  // passes over the corpus: an E step on every document, then the M step
  // Symmetric start of the document-topic prior; 1/K (the default of scikit-learn and gensim) is
  // used when the option is left at its default (0 stands for "1/K").
  double alpha = 0.0;
  double eta = 0.01;                // the "beta" option: symmetric topic-word prior
  std::int64_t optimizeEvery = 10;  // re-estimate alpha (asymmetric) and eta every N passes; 0 = never
  std::int64_t snapshotEvery = 10;
  int estepIterations = 100;     // gamma updates per document and pass, at most
  double estepTolerance = 1e-3;  // mean absolute change of gamma_d that ends a document's E step
  bool estepRestart = true;      // also run each E step from the symmetric start, keep the better one
  std::string init = "mixture";  // how lambda starts: "random" or "mixture" (see topic::initOption)
  std::int64_t restarts = 4;     // starts compared after a few passes; the best bound continues

  static const OptionTable<LdaVbOptions>& table();
  Eigen::VectorXd startAlpha() const;  // K values of alpha (1/K when alpha is 0)
};

ModelDefinition ldaVbModel();

namespace topic {

// Options shared by lda-vb and lda-online.
OptionSpec variationalAlphaOption();
OptionSpec estepIterationsOption();
OptionSpec estepToleranceOption();
OptionSpec estepRestartOption();
OptionSpec initOption();

// The starting topics: "random" draws lambda_kw ~ Gamma(100, 1/100) as Hoffman et al. (2010) do;
// "mixture" fits a mixture of categoricals by a few EM iterations first (000 Alg. 27.1 line 2).
// `postings` must hold every document of `docs` (slot = document index); it is not read for "random".
// A stop request during the mixture's EM returns the random start.
VariationalTopics initialTopics(const std::string& init, const DocumentWordCounts& docs, const WordPostings& postings,
                                Eigen::Index topics, Eigen::Index vocabulary, double eta, std::uint64_t seed,
                                std::uint64_t stream, std::stop_token stop);

// The results of a variational LDA fit, as every topic model lays them out: topic_word (the
// normalised lambda, the posterior mean of the topics), doc_topic (normalised gamma of the training
// documents, held-out documents folded in on all their words), alpha, and each training token's most
// likely topic. Adds the final held-out metrics unless `cancelled` (they can take seconds).
// gammas: K x D for the documents of data.corpus.
// Also records the final alpha_sum and eta.
void finishVariationalLda(const FitData& data, const FitSettings& settings, const VariationalTopics& topics,
                          const Eigen::MatrixXd& gammas, const Eigen::VectorXd& alpha, double eta, bool cancelled,
                          FitResult& result);

// The estimate of alpha and eta that maximises the ELBO's terms in them (empirical Bayes):
// Minka's fixed point for alpha from the documents' mean E[log theta], Newton for a symmetric eta
// from sum E[log beta]. Returns the change of the topic part of the ELBO due to the new eta.
double reestimateHyperparameters(const Eigen::MatrixXd& gammas, const VariationalTopics& topics, Eigen::VectorXd& alpha,
                                 double& eta);

// The held-out perplexity by document completion with the variational fold-in.
std::optional<double> variationalHeldout(const FitData& data, const FitSettings& settings,
                                         const VariationalTopics& topics, const Eigen::VectorXd& alpha);

}  // namespace topic
}  // namespace latent::core
