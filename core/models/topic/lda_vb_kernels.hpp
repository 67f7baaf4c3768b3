// SPDX-License-Identifier: GPL-3.0-or-later
// The numerical kernels shared by batch and online variational Bayes for LDA: documents as word
// counts, the per-document E step, expected sufficient statistics, and the terms of the ELBO.
//
// References: 000 §27.3.6.2-3 (count version, eq. 27.44-27.49, Alg. 27.1) and §27.3.7 (Alg. 27.2);
// Blei, Ng & Jordan (2003), appendix A.3 (the bound); Hoffman, Blei & Bach (2010) (the lambda terms).
//
// Notation (the textbook's in brackets): gamma_d (pi~_i) is document d's variational Dirichlet over
// topics, lambda (b~) the K x V variational Dirichlet parameters of the topics, phi_dwk (c~_ivk) the
// responsibility of topic k for word w in document d, alpha the document-topic prior, eta (gamma_v)
// the symmetric topic-word prior.
#pragma once

#include <cstdint>
#include <span>
#include <stop_token>
#include <vector>

#include <Eigen/Core>

#include "core/data/corpus.hpp"
#include "core/models/model.hpp"

namespace latent::core::topic {

// Every document as its distinct words with their counts n_dw: the count version of LDA
// (000 §27.3.6.2) costs O(distinct words) per document instead of O(tokens).
struct DocumentWordCounts {
  std::vector<std::int64_t> offsets{0};  // document d owns entries [offsets[d], offsets[d + 1])
  std::vector<std::int32_t> words;       // ascending within a document
  std::vector<double> counts;            // n_dw
  std::vector<double> lengths;           // n_d, tokens of each document
  double tokens = 0.0;                   // all tokens

  std::size_t documentCount() const noexcept { return offsets.size() - 1; }
  std::size_t entryCount() const noexcept { return words.size(); }
};

DocumentWordCounts countDocumentWords(const Corpus& corpus);

// The entries of a set of documents grouped by word, so that the expected counts of one word can be
// summed by one task in a fixed order: the statistics then come out the same for any thread count.
struct WordPostings {
  std::vector<std::int32_t> words;       // distinct words present, ascending
  std::vector<std::int64_t> offsets{0};  // postings of words[i]: [offsets[i], offsets[i + 1])
  std::vector<std::int64_t> entries;     // the entry (index into DocumentWordCounts) of each posting
  std::vector<std::int32_t> slots;       // the document's slot: its position in `documents` below

  // Rebuilds the postings of `documents` (each a document index; slot i = documents[i]).
  // `scratch` (length V, all -1 on entry and on return) keeps this O(entries) per call.
  void build(const DocumentWordCounts& docs, std::span<const std::int32_t> documents,
             std::vector<std::int64_t>& scratch);
};

struct EStepControl {
  int maxIterations = 100;  // gamma updates per document at most
  double tolerance = 1e-3;  // stop when the mean absolute change of gamma_d falls below this
};

// What the E step leaves for the statistics and the bound.
struct DocumentEStep {
  int iterations = 0;          // gamma updates made
  double logNormalizer = 0.0;  // sum_w n_dw log Z_dw, Z_dw = sum_k exp(E[log theta_dk] + E[log beta_kw])
};

// Reusable buffers of one worker (allocated once per block, never per word).
struct EStepWorkspace {
  Eigen::VectorXd accumulated, nextGamma, normalizers, scaled;
  Eigen::MatrixXd beta;  // the document's columns of exp(E[log beta])
  void resize(Eigen::Index topics);
};

// The constants of the document bound that depend on alpha only.
struct AlphaTerms {
  double logGammaSum = 0.0;  // log Gamma(sum_k alpha_k)
  double sumLogGamma = 0.0;  // sum_k log Gamma(alpha_k)
  explicit AlphaTerms(const Eigen::VectorXd& alpha);
};

// The E step of one document (000 Alg. 27.1 lines 13-22 with eq. 27.48): each pass sets
// phi_dwk = exp(E[log theta_dk]) exp(E[log beta_kw]) / Z_dw for every distinct word (one dot
// product per word, reading the word's K values of `expElogBeta` contiguously) and then
// gamma_dk = alpha_k + sum_w n_dw phi_dwk (eq. 27.44). Passes repeat until the mean absolute change
// of gamma is below the tolerance or `maxIterations` updates were made; every update is kept, so
// on return gamma = alpha + sum_w n_dw phi_dw exactly, for the phi of the last pass.
//   gamma: in: the start (warm start from the previous visit); out: the update.
//   expElogTheta: out: exp(E[log theta_d]) under the gamma the last pass used (what phi used).
//   scaledCounts: out: n_dw / Z_dw of the last pass, per entry of the document.
// expElogBeta is K x V column-major: column w holds exp(E[log beta_kw]) for k = 0..K-1.
DocumentEStep documentEStep(std::span<const std::int32_t> words, std::span<const double> counts,
                            const Eigen::MatrixXd& expElogBeta, const Eigen::VectorXd& alpha,
                            Eigen::Ref<Eigen::VectorXd> gamma, Eigen::Ref<Eigen::VectorXd> expElogTheta,
                            std::span<double> scaledCounts, const EStepControl& control, EStepWorkspace& workspace);

// Where each document's E step starts.
enum class EStepStart {
  Warm,   // from the document's gamma of the previous pass
  Fresh,  // from gamma_k = alpha_k + n_d / K, as Blei's lda-c does for every E step
  // Fresh, unless the documents' total bound ends below `baseline` (their part of the last
  // reported bound, at the current topics): then the warm starts are run too and each document
  // keeps the better of its two. Keeps the batch bound monotone.
  FreshWithFallback,
};

// The per-document state of E steps over a corpus (gamma, bound) and over the documents of the
// current E step (slots: exp(E[log theta]) and the fallback's buffers).
struct EStepState {
  Eigen::MatrixXd gammas;                        // K x D, by document
  Eigen::MatrixXd expElogTheta;                  // K x slots: what the last pass used, for the statistics
  std::vector<double> scaledCounts;              // per entry: n_dw / Z_dw of the last pass
  std::vector<double> logNormalizers;            // per document: sum_w n_dw log Z_dw
  std::vector<double> bounds;                    // per document: its part of the ELBO at the topics of its E step
  std::vector<int> passes;                       // per document: E-step passes made
  Eigen::MatrixXd warmGammas, warmExpElogTheta;  // K x slots
  std::vector<double> warmScaledCounts, warmLogNormalizers, warmBounds;

  // gamma_d = alpha + n_d / K for every document; buffers for up to `slots` documents per E step.
  void reset(const DocumentWordCounts& docs, const Eigen::VectorXd& alpha, std::size_t slots);
};

// The E step of `documents` (slot i = documents[i]) against exp(E[log beta]), parallel over
// documents; each document's numbers depend only on its own data, so any thread count gives the
// same result. Fills gammas, expElogTheta, scaledCounts, logNormalizers, bounds and passes.
// Returns false, leaving some documents unvisited, when `stop` was requested.
bool corpusEStep(const DocumentWordCounts& docs, std::span<const std::int32_t> documents,
                 const Eigen::MatrixXd& expElogBeta, const Eigen::VectorXd& alpha, const EStepControl& control,
                 EStepStart start, double baseline, EStepState& state, std::stop_token stop);

// exp(E[log theta]) for theta ~ Dir(gamma): exp(psi(gamma_k) - psi(sum_j gamma_j)) (000 eq. 27.40).
void expDirichletExpectation(const Eigen::Ref<const Eigen::VectorXd>& gamma, Eigen::Ref<Eigen::VectorXd> out);

// The expected sufficient statistics of 000 Alg. 27.1 line 9 for the words in `postings`:
//   s_kw = sum_d n_dw phi_dwk = exp(E[log beta_kw]) sum_{d has w} (n_dw / Z_dw) exp(E[log theta_dk]),
// written to column i of `statistics` (K x postings.words.size()) for word postings.words[i].
// expElogTheta: K x (number of slots), column = slot. Parallel over words, each summed in posting
// order. Returns false (statistics incomplete) when `stop` was requested.
bool expectedWordTopicCounts(const WordPostings& postings, const Eigen::MatrixXd& expElogTheta,
                             std::span<const double> scaledCounts, const Eigen::MatrixXd& expElogBeta,
                             Eigen::MatrixXd& statistics, std::stop_token stop);

// The part of the ELBO that belongs to one document (Blei et al. 2003, A.3), for q(theta_d) =
// Dir(gamma) and the phi_d of the E step's last pass, which used exp(E[log theta]) = expElogTheta
// and gave `logNormalizer` and gamma = alphaUsed + n_d with n_dk = sum_w n_dw phi_dwk:
//   E[log p(theta | alpha)] + E[log p(z | theta)] + E[log p(w | z, beta)] - E[log q(theta)] - E[log q(z)]
// = sum_w n_dw log Z_dw - sum_k n_dk log expElogTheta_k
//   + sum_k (alpha_k + n_dk - gamma_k) E[log theta_k] + log Gamma(sum alpha) - sum_k log Gamma(alpha_k)
//   + sum_k log Gamma(gamma_k) - log Gamma(sum gamma),
// where E[log beta] in the word term is the one the E step used; a change of lambda since then is
// accounted for by topicBoundCorrection. `alpha` may differ from `alphaUsed` after re-estimating it.
double documentBound(double logNormalizer, const Eigen::Ref<const Eigen::VectorXd>& gamma,
                     const Eigen::Ref<const Eigen::VectorXd>& expElogTheta, const Eigen::VectorXd& alphaUsed,
                     const Eigen::VectorXd& alpha, double logGammaSumAlpha, double sumLogGammaAlpha);

// log Gamma(x) without touching the global `signgam` that std::lgamma may write (a data race).
double logGamma(double x) noexcept;

// The variational topics: lambda with E[log beta] and exp(E[log beta]) kept beside it.
struct VariationalTopics {
  Eigen::MatrixXd lambda;       // K x V
  Eigen::MatrixXd elogBeta;     // K x V, psi(lambda_kw) - psi(sum_v lambda_kv)
  Eigen::MatrixXd expElogBeta;  // K x V, exp of the above: what the E step reads

  Eigen::Index topics() const noexcept { return lambda.rows(); }
  Eigen::Index vocabulary() const noexcept { return lambda.cols(); }
  // lambda's rows normalised: the posterior mean of the topics (topic_word).
  Eigen::MatrixXd posteriorMean() const;
  // sum_{k,w} E[log beta_kw]: what the eta update needs.
  double sumElogBeta() const;
};

// lambda_kw ~ Gamma(100, 1/100) from Rng(seed, stream + k), as Hoffman et al. (2010) initialise it;
// fills elogBeta and expElogBeta.
VariationalTopics randomTopics(Eigen::Index topics, Eigen::Index vocabulary, std::uint64_t seed, std::uint64_t stream);

// What refreshTopics computes on the way.
struct TopicBound {
  // The topic part of the ELBO at lambda:
  //   sum_k [log Gamma(V eta) - V log Gamma(eta) + sum_w (eta - lambda_kw) E[log beta_kw]
  //          + sum_w log Gamma(lambda_kw) - log Gamma(sum_w lambda_kw)]
  double prior = 0.0;
  // sum_kw s_kw (E_new[log beta_kw] - E_old[log beta_kw]) for the statistics s the E step produced
  // under the old E[log beta]: how much the documents' word terms (documentBound, computed with the
  // old one) change under the new lambda. Zero without statistics.
  double correction = 0.0;
};

// Statistics as expectedWordTopicCounts leaves them: column i (of K) for word words[i], ascending;
// every other word has none, and adds nothing to the correction.
struct WordStatistics {
  const Eigen::MatrixXd& counts;
  std::span<const std::int32_t> words;
};

// Recomputes elogBeta and expElogBeta from lambda. Parallel over fixed word blocks, combined in
// block order: the same for any thread count.
TopicBound refreshTopics(VariationalTopics& topics, double eta, const WordStatistics* statistics);

// Mean over documents of E[log theta_dk] under Dir(gamma_d): what Minka's alpha update needs.
// gammas: K x D. Deterministic (sequential in document order per topic over fixed blocks).
Eigen::VectorXd meanElogTheta(const Eigen::MatrixXd& gammas);

}  // namespace latent::core::topic

namespace latent::core::topic {

// 000 Alg. 27.1 line 2: topics from a few EM iterations of a mixture of categoricals (002), each
// document given to the components in proportion to its likelihood under them. The components
// start at documents picked as k-means++ does (Arthur & Vassilvitskii 2007, cosine distance between
// the documents' word counts, Rng(seed, stream)), each mixed half and half with the corpus's word
// frequencies. Returns lambda = eta + the expected counts of the last E step: counts at the scale of
// the whole corpus, as the M step of batch VB and the target of online VB have. A stop request ends
// the EM early (the caller then stops too).
// What batch and online variational LDA need (ModelInfo::needs): lambda, E[log beta] and the
// expected counts as K x V doubles each, gamma as D x K; the largest result is topic_word.
ResourceNeeds variationalTopicNeeds(const FitData& data, const nlohmann::json& options);

Eigen::MatrixXd mixtureInitialLambda(const DocumentWordCounts& docs, const WordPostings& postings, Eigen::Index topics,
                                     Eigen::Index vocabulary, double eta, int iterations, std::uint64_t seed,
                                     std::uint64_t stream, std::stop_token stop);

}  // namespace latent::core::topic
