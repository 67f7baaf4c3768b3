// SPDX-License-Identifier: GPL-3.0-or-later
// The held-out links of a linked corpus and their scores (issue 18): hidden pairs are half links,
// half pairs not linked anywhere, disjoint from what a model trains on; a new document's pairs are
// its links to training documents; the same seed hides the same pairs; a model that knows the
// truth scores AUC 1 and precision at k as high as its links allow, a constant one AUC 0.5.
#include <QtTest>

#include <set>

#include "core/eval/link_prediction.hpp"
#include "core/eval/link_split.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

// A ring of n documents, each linking to the next two, plus 3 chords when n >= 40.
std::vector<core::Edge> ringLinks(std::int32_t n) {
  std::vector<core::Edge> links;
  for (std::int32_t d = 0; d < n; ++d) {
    links.push_back({d, (d + 1) % n, 1.0});
    links.push_back({d, (d + 2) % n, 1.0});
  }
  if (n >= 40) {
    links.push_back({0, 20, 1.0});
    links.push_back({5, 30, 1.0});
    links.push_back({10, 35, 1.0});
  }
  std::sort(links.begin(), links.end(),
            [](const auto& x, const auto& y) { return std::tie(x.source, x.target) < std::tie(y.source, y.target); });
  return links;
}

bool linkedIn(const std::vector<core::Edge>& links, std::int64_t a, std::int64_t b) {
  for (const auto& e : links)
    if ((e.source == a && e.target == b) || (e.source == b && e.target == a)) return true;
  return false;
}

}  // namespace

class LinkSplitTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void hiddenPairsAreHalfLinksAndDisjointFromTraining() {
    const auto links = ringLinks(40);
    std::vector<std::int64_t> train(40);
    std::iota(train.begin(), train.end(), 0);
    const auto split = core::splitLinks(links, train, {}, 40, 0.25, 7);
    QCOMPARE(split.trainDocuments, 40);
    QCOMPARE(split.hiddenLinks(), std::int64_t(std::llround(0.25 * 83)));
    QCOMPARE(static_cast<std::int64_t>(split.hidden.size()), 2 * split.hiddenLinks());
    QCOMPARE(static_cast<std::int64_t>(split.train.size()) + split.hiddenLinks(), std::int64_t(83));
    std::set<std::pair<int, int>> seen;
    for (const auto& p : split.hidden) {
      QVERIFY(p.a < p.b);
      QVERIFY(seen.insert({p.a, p.b}).second);
      QCOMPARE(p.linked, linkedIn(links, p.a, p.b));
      QVERIFY(split.isHidden(p.a, p.b) && split.isHidden(p.b, p.a));
      QVERIFY(!split.linkedInTraining(p.a, p.b));
    }
    for (const auto& e : split.train) QVERIFY(!split.isHidden(e.source, e.target));
    QVERIFY(split.newDocuments.empty());
    // Same seed, same pairs; another seed, other pairs.
    const auto again = core::splitLinks(links, train, {}, 40, 0.25, 7);
    QCOMPARE(again.hiddenKeys, split.hiddenKeys);
    QVERIFY(core::splitLinks(links, train, {}, 40, 0.25, 8).hiddenKeys != split.hiddenKeys);
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::splitLinks(links, train, {}, 40, 1.0, 7));
  }

  void newDocumentsPairTheirLinksWithAsManyNonLinks() {
    const auto links = ringLinks(40);
    // Documents 3 and 21 held out: training indices skip them.
    std::vector<std::int64_t> train, heldout{3, 21};
    for (std::int64_t d = 0; d < 40; ++d)
      if (d != 3 && d != 21) train.push_back(d);
    const auto split = core::splitLinks(links, train, heldout, 40, 0.0, 1);
    QCOMPARE(split.trainDocuments, 38);
    QVERIFY(split.hidden.empty());
    // Document 3 links 1, 2, 4, 5; document 21 links 19, 20, 22, 23: none to each other.
    QCOMPARE(split.newDocumentLinks(), std::int64_t(8));
    QCOMPARE(split.newDocuments.size(), std::size_t(16));
    for (const auto& p : split.newDocuments) {
      const auto full = train[static_cast<std::size_t>(p.b)];
      QCOMPARE(p.linked, linkedIn(links, heldout[static_cast<std::size_t>(p.a)], full));
    }
    // No link of a held-out document is trained on.
    QCOMPARE(split.train.size(), std::size_t(83 - 8));
  }

  void aModelThatKnowsTheLinksScoresPerfectly() {
    const auto links = ringLinks(40);
    std::vector<std::int64_t> train(40);
    std::iota(train.begin(), train.end(), 0);
    const auto split = core::splitLinks(links, train, {}, 40, 0.3, 3);
    const auto truth = [&](std::int32_t a, std::int32_t b) { return linkedIn(links, a, b) ? 0.9 : 0.01; };
    const auto s = core::scoreHiddenLinks(split, truth);
    QCOMPARE(s.auc, 1.0);
    QCOMPARE(s.pairs, static_cast<std::int64_t>(split.hidden.size()));
    QVERIFY(s.queries > 0);
    // Each query document's hidden links all rank first: precision = hidden links / k.
    QVERIFY(s.precisionAtK > 0.0);
    double expected = 0.0;
    std::map<int, int> perDocument;
    for (const auto& p : split.hidden)
      if (p.linked) {
        ++perDocument[p.a];
        ++perDocument[p.b];
      }
    for (const auto& [d, n] : perDocument) expected += std::min(n, 10) / 10.0;
    QCOMPARE(s.precisionAtK, expected / double(perDocument.size()));
    QVERIFY(std::abs(s.perplexity - std::exp(-(std::log(0.9) + std::log(0.99)) / 2.0)) < 1e-9);
    const auto flat = core::scoreHiddenLinks(split, [](std::int32_t, std::int32_t) { return 0.5; });
    QCOMPARE(flat.auc, 0.5);

    nlohmann::json metrics = nlohmann::json::object();
    core::addLinkMetrics(metrics, s, core::LinkPredictionScores{});
    QCOMPARE(metrics["heldout_auc"].get<double>(), 1.0);
    QVERIFY(metrics.contains("heldout_precision_at_10"));
    QVERIFY(!metrics.contains("new_document_auc"));  // nothing to score: left out, not 0
  }

  void predictedLinksSkipTrainingLinksAndMapToCorpusOrder() {
    const auto links = ringLinks(12);
    std::vector<std::int64_t> train;
    for (std::int64_t d = 0; d < 13; ++d)
      if (d != 6) train.push_back(d);  // a corpus of 13, document 6 held out, 12 has no links
    std::vector<core::Edge> shifted;
    for (auto e : links) {
      e.source += e.source >= 6 ? 1 : 0;
      e.target += e.target >= 6 ? 1 : 0;
      shifted.push_back(e);
    }
    const std::vector<std::int64_t> heldout{6};
    const auto split = core::splitLinks(shifted, train, heldout, 13, 0.0, 1);
    const auto predicted = core::topPredictedLinks(
        split, [](std::int32_t a, std::int32_t b) { return 1.0 / (1 + std::abs(a - b)); }, 2);
    QVERIFY(!predicted.empty());
    for (const auto& p : predicted) QVERIFY(!split.linkedInTraining(p.a, p.b) && p.a < p.b);
    const auto matrix = core::predictedLinksMatrix(predicted, train);
    QCOMPARE(matrix.values.rows(), static_cast<Eigen::Index>(predicted.size()));
    for (Eigen::Index r = 0; r < matrix.values.rows(); ++r)
      QVERIFY(matrix.values(r, 0) != 6 && matrix.values(r, 1) != 6);
  }

  void predictedLinksFromBlocksAreThePairList() {
    // The block version (rtm scores every pair as one matrix product, in parallel) lists exactly
    // what the pair version lists for the same scores: over three blocks of rows, with ties.
    constexpr std::int32_t n = 150;
    const auto links = ringLinks(n);
    std::vector<std::int64_t> train(n);
    for (std::int32_t d = 0; d < n; ++d) train[static_cast<std::size_t>(d)] = d;
    const auto split = core::splitLinks(links, train, {}, n, 0.0, 1);
    Eigen::MatrixXd scores(n, n);
    for (std::int32_t a = 0; a < n; ++a)
      for (std::int32_t b = 0; b < n; ++b) scores(a, b) = static_cast<double>((a * 7919 + b * 104729) % 97) / 97.0;
    const auto byPair = core::topPredictedLinks(
        split, [&](std::int32_t a, std::int32_t b) { return scores(a, b); }, 5);
    const core::BlockScore byBlock = [&](std::int32_t first, std::int32_t rows, Eigen::MatrixXd& out) {
      out = scores.middleRows(first, rows);
    };
    const auto blocked = core::topPredictedLinks(split, byBlock, 5);
    QVERIFY(byPair.size() > static_cast<std::size_t>(2 * n));
    QCOMPARE(blocked.size(), byPair.size());
    for (std::size_t i = 0; i < byPair.size(); ++i) {
      QCOMPARE(blocked[i].a, byPair[i].a);
      QCOMPARE(blocked[i].b, byPair[i].b);
      QCOMPARE(blocked[i].probability, byPair[i].probability);
      QVERIFY(!split.linkedInTraining(blocked[i].a, blocked[i].b));
    }
  }
};

LATENT_TEST_CASE(LinkSplitTest)
#include "tst_link_split.moc"
