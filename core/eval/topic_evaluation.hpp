// SPDX-License-Identifier: GPL-3.0-or-later
// Held-out perplexity of topic models under the protocols of 003: document completion (fit the
// document's topic mixture on one half of its words, score the other half) and full folding-in
// (fit and score the same words, kept only to show how optimistic it is).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "core/eval/heldout.hpp"
#include "core/eval/topic_columns.hpp"

namespace latent::core {

enum class HeldoutProtocol { DocumentCompletion, FullFoldingIn };

// "document-completion" / "full-folding-in", as reported in final metrics. (Not toString: see
// statusName in store/run_store.hpp.)
const char* protocolName(HeldoutProtocol protocol) noexcept;

// Estimates a held-out document's topic proportions (written to `theta`, length K, summing to
// one) from `words`, with the topics fixed. `seed` is the document's own seed, so stochastic
// fold-ins are reproducible whatever thread runs them. Must be safe to call concurrently.
using FoldIn =
    std::function<void(std::span<const std::int32_t> words, std::uint64_t seed, Eigen::Ref<Eigen::VectorXd> theta)>;

struct TopicHeldoutScore {
  double perplexity = 0.0;          // 000 eq. 27.29 (documents weighted equally)
  double perplexityPerToken = 0.0;  // token-weighted (Blei et al. 2003; 003 eq. 5.37)
  std::int64_t documents = 0;
  std::int64_t tokens = 0;  // scored tokens
};

// Scores `heldout` with the predictive p(w | d) = sum_k theta_dk phi_kw, phi = `topicWord`
// (K x V, rows summing to one). Document completion folds in on each document's observed half and
// scores its scored half; full folding-in folds in on the whole document and scores the whole
// document. Parallel over documents (oneTBB); the result does not depend on the thread count.
TopicHeldoutScore scoreHeldout(const HeldoutDocuments& heldout, const Eigen::MatrixXd& topicWord, const FoldIn& foldIn,
                               HeldoutProtocol protocol, std::uint64_t seed);
// The same with phi held as floats (NamedMatrix::floats), read as doubles a column at a time.
TopicHeldoutScore scoreHeldout(const HeldoutDocuments& heldout, const Eigen::MatrixXf& topicWord, const FoldIn& foldIn,
                               HeldoutProtocol protocol, std::uint64_t seed);
// The same with phi in any form (topic_columns.hpp); the same topics score the same in any form.
TopicHeldoutScore scoreHeldout(const HeldoutDocuments& heldout, const TopicColumns& topicWord, const FoldIn& foldIn,
                               HeldoutProtocol protocol, std::uint64_t seed);

// What a score is made of: each document's log probability of its target words, and how many
// they are. A distributed fit scores its processes' documents apart and combines their terms.
struct HeldoutTerms {
  std::vector<double> logLikelihoods;
  std::vector<std::int64_t> tokens;
};

// The terms of held-out documents [first, end) of `heldout`, each as scoreHeldout makes it (same
// seed, same fold-in), so that the terms of consecutive ranges, put together, combine into the
// score of the whole to the bit.
HeldoutTerms scoreHeldoutTerms(const HeldoutDocuments& heldout, std::size_t first, std::size_t end,
                               const TopicColumns& topicWord, const FoldIn& foldIn, HeldoutProtocol protocol,
                               std::uint64_t seed);
// The score of documents whose terms these are, in document order.
TopicHeldoutScore combineHeldoutTerms(const HeldoutTerms& terms);

// A fold-in told which held-out document it folds in (its index in `heldout`), for models whose
// prior differs by document (dmr: alpha_d from the document's features). Safe to call concurrently.
using DocumentFoldIn = std::function<void(std::size_t document, std::span<const std::int32_t> words, std::uint64_t seed,
                                          Eigen::Ref<Eigen::VectorXd> theta)>;

// Scores `heldout` as scoreHeldout does (same seeds, same protocols), with a fold-in per document.
TopicHeldoutScore scoreHeldoutByDocument(const HeldoutDocuments& heldout, const Eigen::MatrixXd& topicWord,
                                         const DocumentFoldIn& foldIn, HeldoutProtocol protocol, std::uint64_t seed);

// A held-out document's predictive distribution over the vocabulary as log probabilities, given
// the words it may be fitted to, for models whose predictive is not a mixture of topics (ePCA's
// softmax of its loadings times the document's coordinates). Must be safe to call concurrently.
using LogPredictive = std::function<Eigen::VectorXd(std::span<const std::int32_t> words, std::uint64_t seed)>;

// Scores `heldout` as above, with the model's own predictive.
TopicHeldoutScore scoreHeldout(const HeldoutDocuments& heldout, const LogPredictive& predictive,
                               HeldoutProtocol protocol, std::uint64_t seed);

// Fold-ins for the models we have. Each takes phi (K x V) by reference: it must outlive the FoldIn.

// LDA: the variational E step with the topics fixed (000 eq. 27.44-27.45 with b = phi):
// gamma_k = alpha_k + sum_w n_w phi_kw exp(psi(gamma_k)) / sum_j phi_jw exp(psi(gamma_j)),
// iterated to convergence; theta = gamma / sum(gamma).
FoldIn variationalFoldIn(const Eigen::MatrixXd& topicWord, Eigen::VectorXd alpha, int maxIterations = 100,
                         double tolerance = 1e-5);

// The bytes of phi's columns a Gibbs fold-in keeps for one document on each thread. At K = 1000 that
// is every distinct word of a document with up to ~2,800 (12 bytes a word and topic where the
// topics are floats); a longer one keeps its most frequent words' columns and makes the others'
// again for their tokens' draws, which gives the same chain.
inline constexpr std::size_t kGibbsFoldInColumnBudget = std::size_t{32} << 20;

// How many of a document's `distinctWords` columns a Gibbs fold-in keeps, each `topics` values of
// `columnValueBytes` and their cumulative sums in doubles: all of them when they fit in
// `columnBudget`, else as many as fit beside the one column (values alone) the others' are made in.
std::size_t gibbsFoldInKeptColumns(std::size_t distinctWords, std::size_t topics, std::size_t columnValueBytes,
                                   std::size_t columnBudget);

// LDA fitted by Gibbs sampling: Gibbs sweeps over the document's tokens with phi fixed,
// theta_k = (n_dk + alpha_k) / (n_d + alpha_0) averaged over the sweeps after burn-in. Each draw
// is exact and costs O(N_d + log K), not O(K) (see the .cpp), for a word whose column is kept
// (above); the chain does not depend on `columnBudget`.
FoldIn gibbsFoldIn(const Eigen::MatrixXd& topicWord, Eigen::VectorXd alpha, int sweeps = 50, int burnIn = 20,
                   std::size_t columnBudget = kGibbsFoldInColumnBudget);
// The same over phi held as floats; each draw's arithmetic is in doubles.
FoldIn gibbsFoldIn(const Eigen::MatrixXf& topicWord, Eigen::VectorXd alpha, int sweeps = 50, int burnIn = 20,
                   std::size_t columnBudget = kGibbsFoldInColumnBudget);
// The same over phi in any form (topic_columns.hpp), which must outlive the FoldIn; the same
// topics fold in the same in any form.
FoldIn gibbsFoldIn(const TopicColumns& topicWord, Eigen::VectorXd alpha, int sweeps = 50, int burnIn = 20,
                   std::size_t columnBudget = kGibbsFoldInColumnBudget);

// PLSA: EM on the document's p(z|d) alone (the E step of 003 §3.4 iterated with phi fixed);
// `smoothing` is added to the expected counts before normalising (0: plain EM).
FoldIn emFoldIn(const Eigen::MatrixXd& topicWord, int iterations = 50, double smoothing = 0.0);

// Mixture of categoricals: the document's posterior over its single component,
// r_k proportional to pi_k prod_w phi_kw^n_w (002), used as theta.
FoldIn mixtureFoldIn(const Eigen::MatrixXd& topicWord, Eigen::VectorXd mixingWeights);

}  // namespace latent::core
