// SPDX-License-Identifier: GPL-3.0-or-later
// Held-out link scores of a linked corpus, and each document's most likely new links.
#include "core/eval/link_prediction.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "core/eval/link_metrics.hpp"

namespace latent::core {
namespace {

LinkPredictionScores scorePairs(const std::vector<DocumentPair>& pairs, const PairScore& score) {
  LinkPredictionScores s;
  std::vector<double> p(pairs.size());
  std::vector<std::uint8_t> label(pairs.size());
  double logLikelihood = 0.0;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    p[i] = score(pairs[i].a, pairs[i].b);
    label[i] = pairs[i].linked ? 1 : 0;
    const double q = std::clamp(p[i], 1e-12, 1.0 - 1e-12);
    logLikelihood += pairs[i].linked ? std::log(q) : std::log1p(-q);
  }
  s.pairs = static_cast<std::int64_t>(pairs.size());
  if (!pairs.empty()) s.perplexity = std::exp(-logLikelihood / double(pairs.size()));
  s.auc = rocAuc(p, label);
  return s;
}

// Share of `relevant` among the k best of `candidates` by score (ties broken by index).
double precisionAt(int k, std::vector<std::pair<double, std::int32_t>>& candidates,
                   const std::vector<std::int32_t>& relevant) {
  const auto top = std::min<std::size_t>(static_cast<std::size_t>(k), candidates.size());
  if (top == 0) return 0.0;
  std::partial_sort(
      candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(top), candidates.end(),
      [](const auto& x, const auto& y) { return x.first > y.first || (x.first == y.first && x.second < y.second); });
  int hits = 0;
  for (std::size_t i = 0; i < top; ++i)
    if (std::binary_search(relevant.begin(), relevant.end(), candidates[i].second)) ++hits;
  return double(hits) / double(k);
}

}  // namespace

LinkPredictionScores scoreHiddenLinks(const LinkSplit& split, const PairScore& score, int k) {
  auto s = scorePairs(split.hidden, score);
  s.k = k;
  std::vector<std::vector<std::int32_t>> hiddenOf(static_cast<std::size_t>(split.trainDocuments));
  for (const auto& p : split.hidden)
    if (p.linked) {
      hiddenOf[static_cast<std::size_t>(p.a)].push_back(p.b);
      hiddenOf[static_cast<std::size_t>(p.b)].push_back(p.a);
    }
  std::vector<std::pair<double, std::int32_t>> candidates;
  double sum = 0.0;
  for (std::int32_t d = 0; d < split.trainDocuments; ++d) {
    auto& relevant = hiddenOf[static_cast<std::size_t>(d)];
    if (relevant.empty()) continue;
    std::sort(relevant.begin(), relevant.end());
    candidates.clear();
    for (std::int32_t other = 0; other < split.trainDocuments; ++other)
      if (other != d && !split.linkedInTraining(d, other)) candidates.emplace_back(score(d, other), other);
    sum += precisionAt(k, candidates, relevant);
    ++s.queries;
  }
  if (s.queries > 0) s.precisionAtK = sum / double(s.queries);
  return s;
}

LinkPredictionScores scoreNewDocumentLinks(const LinkSplit& split, std::int32_t heldoutDocuments,
                                           const PairScore& score, int k) {
  auto s = scorePairs(split.newDocuments, score);
  s.k = k;
  std::vector<std::vector<std::int32_t>> linksOf(static_cast<std::size_t>(std::max(heldoutDocuments, 0)));
  for (const auto& p : split.newDocuments)
    if (p.linked && p.a < heldoutDocuments) linksOf[static_cast<std::size_t>(p.a)].push_back(p.b);
  std::vector<std::pair<double, std::int32_t>> candidates;
  double sum = 0.0;
  for (std::int32_t h = 0; h < heldoutDocuments; ++h) {
    auto& relevant = linksOf[static_cast<std::size_t>(h)];
    if (relevant.empty()) continue;
    std::sort(relevant.begin(), relevant.end());
    candidates.clear();
    for (std::int32_t t = 0; t < split.trainDocuments; ++t) candidates.emplace_back(score(h, t), t);
    sum += precisionAt(k, candidates, relevant);
    ++s.queries;
  }
  if (s.queries > 0) s.precisionAtK = sum / double(s.queries);
  return s;
}

void addLinkMetrics(nlohmann::json& metrics, const LinkPredictionScores& hidden,
                    const LinkPredictionScores& newDocuments) {
  const std::string atK = "precision_at_" + std::to_string(hidden.k);
  if (hidden.pairs > 0) {
    metrics["heldout_auc"] = hidden.auc;
    metrics["heldout_link_perplexity"] = hidden.perplexity;
    metrics["heldout_link_pairs"] = hidden.pairs;
    if (hidden.queries > 0) metrics["heldout_" + atK] = hidden.precisionAtK;
  }
  if (newDocuments.pairs > 0) {
    metrics["new_document_auc"] = newDocuments.auc;
    metrics["new_document_link_perplexity"] = newDocuments.perplexity;
    metrics["new_document_link_pairs"] = newDocuments.pairs;
    if (newDocuments.queries > 0)
      metrics["new_document_precision_at_" + std::to_string(newDocuments.k)] = newDocuments.precisionAtK;
  }
}

void addLinkBaselineMetrics(nlohmann::json& metrics, const std::string& name, const LinkPredictionScores& hidden,
                            const LinkPredictionScores* newDocuments) {
  if (hidden.pairs > 0) {
    metrics["baseline_auc_" + name] = hidden.auc;
    if (hidden.queries > 0)
      metrics["baseline_precision_at_" + std::to_string(hidden.k) + "_" + name] = hidden.precisionAtK;
  }
  if (newDocuments && newDocuments->pairs > 0) {
    metrics["baseline_new_document_auc_" + name] = newDocuments->auc;
    if (newDocuments->queries > 0)
      metrics["baseline_new_document_precision_at_" + std::to_string(newDocuments->k) + "_" + name] =
          newDocuments->precisionAtK;
  }
}

namespace {

using LinkCandidates = std::vector<std::pair<double, std::int32_t>>;

// Keeps the `perDocument` best of `candidates` (probability, other document), best first, ties to
// the lower document.
void keepBestLinks(LinkCandidates& candidates, int perDocument) {
  const auto top = std::min<std::size_t>(static_cast<std::size_t>(perDocument), candidates.size());
  std::partial_sort(
      candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(top), candidates.end(),
      [](const auto& x, const auto& y) { return x.first > y.first || (x.first == y.first && x.second < y.second); });
  candidates.resize(top);
}

// Each document's best links in document order, a pair listed once (at its first document).
std::vector<PredictedLink> listBestLinks(const std::vector<LinkCandidates>& best) {
  std::vector<PredictedLink> out;
  std::set<std::pair<std::int32_t, std::int32_t>> listed;
  for (std::size_t d = 0; d < best.size(); ++d)
    for (const auto& [probability, other] : best[d]) {
      const auto a = std::min(static_cast<std::int32_t>(d), other), b = std::max(static_cast<std::int32_t>(d), other);
      if (listed.insert({a, b}).second) out.push_back({a, b, probability});
    }
  return out;
}

constexpr std::int32_t kPredictedLinkBlockRows = 64;

}  // namespace

std::vector<PredictedLink> topPredictedLinks(const LinkSplit& split, const PairScore& score, int perDocument) {
  if (split.trainDocuments > kMaxPredictedLinkDocuments || perDocument <= 0) return {};
  std::vector<LinkCandidates> best(static_cast<std::size_t>(split.trainDocuments));
  for (std::int32_t d = 0; d < split.trainDocuments; ++d) {
    auto& candidates = best[static_cast<std::size_t>(d)];
    for (std::int32_t other = 0; other < split.trainDocuments; ++other)
      if (other != d && !split.linkedInTraining(d, other)) candidates.emplace_back(score(d, other), other);
    keepBestLinks(candidates, perDocument);
  }
  return listBestLinks(best);
}

std::vector<PredictedLink> topPredictedLinks(const LinkSplit& split, const BlockScore& score, int perDocument) {
  const std::int32_t D = split.trainDocuments;
  if (D > kMaxPredictedLinkDocuments || perDocument <= 0) return {};
  std::vector<LinkCandidates> best(static_cast<std::size_t>(D));
  const std::int32_t blocks = (D + kPredictedLinkBlockRows - 1) / kPredictedLinkBlockRows;
  tbb::parallel_for(std::int32_t{0}, blocks, [&](std::int32_t block) {
    const std::int32_t first = block * kPredictedLinkBlockRows;
    const std::int32_t rows = std::min(kPredictedLinkBlockRows, D - first);
    Eigen::MatrixXd scores;
    score(first, rows, scores);
    for (std::int32_t i = 0; i < rows; ++i) {
      const std::int32_t d = first + i;
      auto& candidates = best[static_cast<std::size_t>(d)];
      candidates.reserve(static_cast<std::size_t>(D));
      for (std::int32_t other = 0; other < D; ++other)
        if (other != d && !split.linkedInTraining(d, other)) candidates.emplace_back(scores(i, other), other);
      keepBestLinks(candidates, perDocument);
      candidates.shrink_to_fit();
    }
  });
  return listBestLinks(best);
}

NamedMatrix predictedLinksMatrix(const std::vector<PredictedLink>& links,
                                 std::span<const std::int64_t> trainDocuments) {
  NamedMatrix m{kPredictedLinks, Eigen::MatrixXd(static_cast<Eigen::Index>(links.size()), 3)};
  const auto full = [&](std::int32_t d) {
    return trainDocuments.empty() ? double(d) : double(trainDocuments[static_cast<std::size_t>(d)]);
  };
  for (std::size_t i = 0; i < links.size(); ++i) {
    const auto r = static_cast<Eigen::Index>(i);
    m.values(r, 0) = full(links[i].a);
    m.values(r, 1) = full(links[i].b);
    m.values(r, 2) = links[i].probability;
  }
  return m;
}

}  // namespace latent::core
