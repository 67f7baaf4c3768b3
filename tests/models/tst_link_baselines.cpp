// SPDX-License-Identifier: GPL-3.0-or-later
// The baselines linked-document models are reported beside (issue 18): on a corpus whose two groups
// of documents differ in their words and link within their group, LDA-by-cosine and MMSB on the
// links alone both rank the hidden links above the hidden non-links, and LDA places new documents
// from their text; with no signal in the words, LDA-by-cosine is near chance.
#include <QtTest>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/data/synthetic_draws.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/links/link_baselines.hpp"
#include "core/util/random.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

// 80 documents in two groups; group g writes words [10 g, 10 g + 10) (or any of the 20 words when
// `wordsTell` is false) and links to 3 random documents of its own group.
core::Corpus twoGroupCorpus(bool wordsTell, std::uint64_t seed) {
  core::Rng rng(seed);
  core::Corpus corpus;
  for (int w = 0; w < 20; ++w) corpus.words.push_back("w" + std::to_string(w));
  constexpr int kDocuments = 80;
  for (int d = 0; d < kDocuments; ++d) {
    const int group = d % 2;
    std::vector<std::int32_t> words;
    for (int i = 0; i < 30; ++i)
      words.push_back(wordsTell ? 10 * group + static_cast<int>(rng.below(10)) : static_cast<int>(rng.below(20)));
    corpus.addDocument("d" + std::to_string(d), "", words);
  }
  std::set<std::pair<int, int>> links;
  for (int d = 0; d < kDocuments; ++d)
    while (std::count_if(links.begin(), links.end(), [&](const auto& l) { return l.first == d; }) < 3) {
      const int other = 2 * static_cast<int>(rng.below(kDocuments / 2)) + d % 2;
      if (other != d && !links.count({other, d})) links.insert({d, other});
    }
  for (const auto& [a, b] : links) corpus.links.push_back({a, b, 1.0});
  return corpus;
}

}  // namespace

class LinkBaselinesTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void bothBaselinesFindLinksWithinGroups() {
    const auto corpus = twoGroupCorpus(true, 3);
    const core::PreparedData prepared(corpus, 0.2, 11);
    const auto& data = prepared.data();
    QVERIFY(data.links && !data.links->hidden.empty() && !data.links->newDocuments.empty());
    const auto scores = core::fitLinkBaselines(data, {2, 100, 5, 1}, {});
    QVERIFY(scores.ldaHidden && scores.ldaNew && scores.mmsbHidden);
    // Half the hidden non-links join documents of the same group, as alike as linked ones: an AUC
    // near 0.75 is the most either baseline can reach here.
    QVERIFY2(scores.ldaHidden->auc > 0.7, std::to_string(scores.ldaHidden->auc).c_str());
    QVERIFY2(scores.ldaNew->auc > 0.7, std::to_string(scores.ldaNew->auc).c_str());
    QVERIFY2(scores.mmsbHidden->auc > 0.7, std::to_string(scores.mmsbHidden->auc).c_str());
    nlohmann::json metrics = nlohmann::json::object();
    core::addLinkBaselineMetrics(metrics, scores);
    for (const char* key : {"baseline_auc_lda_cosine", "baseline_precision_at_10_lda_cosine",
                            "baseline_new_document_auc_lda_cosine", "baseline_auc_mmsb"})
      QVERIFY2(metrics.contains(key), key);
  }

  void wordsWithoutSignalLeaveLdaNearChance() {
    const auto corpus = twoGroupCorpus(false, 4);
    const core::PreparedData prepared(corpus, 0.2, 11);
    const auto scores = core::fitLinkBaselines(prepared.data(), {2, 60, 5, 1}, {});
    QVERIFY(scores.ldaHidden);
    QVERIFY2(std::abs(scores.ldaHidden->auc - 0.5) < 0.2, std::to_string(scores.ldaHidden->auc).c_str());
  }

  // Without the block model, LDA-cosine alone, the same as with it (its own fit and seed).
  void withoutTheBlockModelLdaAlone() {
    const auto corpus = twoGroupCorpus(true, 3);
    const core::PreparedData prepared(corpus, 0.2, 11);
    core::LinkBaselineSettings settings{2, 100, 5, 1};
    settings.blockModel = false;
    const auto alone = core::fitLinkBaselines(prepared.data(), settings, {});
    QVERIFY(alone.ldaHidden && alone.ldaNew && !alone.mmsbHidden);
    const auto both = core::fitLinkBaselines(prepared.data(), {2, 100, 5, 1}, {});
    QCOMPARE(alone.ldaHidden->auc, both.ldaHidden->auc);
    QCOMPARE(alone.ldaNew->auc, both.ldaNew->auc);
  }
};

LATENT_TEST_CASE(LinkBaselinesTest)
#include "tst_link_baselines.moc"
