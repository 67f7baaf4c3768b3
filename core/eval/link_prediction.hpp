// SPDX-License-Identifier: GPL-3.0-or-later
// Scoring a model's link predictions on a linked corpus (eval/link_split.hpp): ROC AUC and link
// perplexity (001 eq. 8) on the held-out pairs, precision at k of each document's ranking, and
// each document's most likely new links for the views.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "core/data/named_matrix.hpp"
#include "core/eval/link_split.hpp"

namespace latent::core {

// score(a, b): the model's probability that documents a and b are linked (either direction). A
// baseline may return any similarity instead; its perplexity then means nothing and is not used.
using PairScore = std::function<double(std::int32_t, std::int32_t)>;

struct LinkPredictionScores {
  double auc = 0.5;           // ROC AUC over the held-out pairs (linked against not linked)
  double perplexity = 0.0;    // exp(-mean log P) over them (001 eq. 8), probabilities clamped
  double precisionAtK = 0.0;  // mean over query documents of the share of linked ones in their top k
  std::int64_t pairs = 0;     // held-out pairs scored
  std::int64_t queries = 0;   // documents ranked for precision at k
  int k = 10;
};

inline constexpr int kLinkPrecisionK = 10;

// The hidden pairs among training documents. Precision at k: each training document with a hidden
// link ranks every other training document it is not linked to in training; the share of its
// hidden links among its top k, averaged over those documents.
LinkPredictionScores scoreHiddenLinks(const LinkSplit& split, const PairScore& score, int k = kLinkPrecisionK);

// The new documents' pairs; score(h, t) for held-out document h and training document t. Precision
// at k: each held-out document with a link ranks every training document.
LinkPredictionScores scoreNewDocumentLinks(const LinkSplit& split, std::int32_t heldoutDocuments,
                                           const PairScore& score, int k = kLinkPrecisionK);

// The final-line keys of a linked-document model (DESIGN §6): heldout_auc, heldout_link_perplexity,
// heldout_precision_at_10, heldout_link_pairs, and the new_document_* ones when there are new
// documents. Keys with nothing to score are left out, never written as 0.
void addLinkMetrics(nlohmann::json& metrics, const LinkPredictionScores& hidden,
                    const LinkPredictionScores& newDocuments);

// One baseline's scores under baseline_auc_<name>, baseline_precision_at_10_<name> and, for new
// documents, baseline_new_document_auc_<name> / baseline_new_document_precision_at_10_<name>.
void addLinkBaselineMetrics(nlohmann::json& metrics, const std::string& name, const LinkPredictionScores& hidden,
                            const LinkPredictionScores* newDocuments);

// Each training document's `perDocument` most likely links to other training documents it is not
// linked to in training, as rows (a, b, probability) with a < b listed once, best first within a
// document. Scores every pair: refused (empty) above kMaxPredictedLinkDocuments documents.
struct PredictedLink {
  std::int32_t a = 0;
  std::int32_t b = 0;
  double probability = 0.0;
};
inline constexpr std::int32_t kMaxPredictedLinkDocuments = 20'000;
std::vector<PredictedLink> topPredictedLinks(const LinkSplit& split, const PairScore& score, int perDocument = 10);
// The same list from a block of rows at a time: score(first, rows, out) sets `out` (rows x
// training documents) to the probabilities of documents first..first+rows-1 against every training
// document, which a model whose score is a product of shares can compute as one matrix product
// instead of a dot product per pair (rtm: a stopped fit waited seconds for the pairs one by one).
// Blocks are scored in parallel; the list is the one the pair version gives for the same values.
using BlockScore = std::function<void(std::int32_t first, std::int32_t rows, Eigen::MatrixXd& out)>;
std::vector<PredictedLink> topPredictedLinks(const LinkSplit& split, const BlockScore& score, int perDocument = 10);

// The result matrix the views and `export --what predicted-links` read: one row per predicted
// link (document, other document, probability), documents as full-corpus indices (trainDocuments
// maps a training index to one; empty: they are the same).
inline constexpr const char* kPredictedLinks = "predicted_links";
NamedMatrix predictedLinksMatrix(const std::vector<PredictedLink>& links, std::span<const std::int64_t> trainDocuments);

}  // namespace latent::core
