// SPDX-License-Identifier: GPL-3.0-or-later
// The document-completion split and the perplexity formulas (000 eq. 27.29).
#include <QtTest>

#include <algorithm>
#include <cmath>

#include "core/eval/heldout.hpp"
#include "core/eval/perplexity.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

core::Corpus makeCorpus(int documents) {
  core::Corpus c;
  c.words = {"a", "b", "c", "d", "e"};
  for (int d = 0; d < documents; ++d) {
    std::vector<std::int32_t> ids;
    for (int i = 0; i < 3 + d % 7; ++i) ids.push_back((d + i) % 5);
    c.addDocument(std::to_string(d), "doc", ids);
  }
  return c;
}

}  // namespace

class HeldoutPerplexityTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void splitSizesAndHalves() {
    const auto corpus = makeCorpus(100);
    const auto split = core::splitForDocumentCompletion(corpus, 0.2, 9);
    QCOMPARE(split.heldout.size(), std::size_t{20});
    QCOMPARE(split.train.documentCount(), std::size_t{80});
    QCOMPARE(split.trainDocuments.size(), std::size_t{80});
    for (std::size_t i = 0; i < split.heldout.size(); ++i) {
      const auto d = static_cast<std::size_t>(split.heldout.documents[i]);
      const auto full = corpus.document(d);
      const auto a = split.heldout.observed.document(i);
      const auto b = split.heldout.scored.document(i);
      // The halves split the document: sizes floor(L/2) and the rest, same multiset of words.
      QCOMPARE(a.size(), full.size() / 2);
      QCOMPARE(a.size() + b.size(), full.size());
      std::vector<std::int32_t> joined(a.begin(), a.end());
      joined.insert(joined.end(), b.begin(), b.end());
      std::vector<std::int32_t> original(full.begin(), full.end());
      std::sort(joined.begin(), joined.end());
      std::sort(original.begin(), original.end());
      QCOMPARE(joined, original);
    }
    // Training and held-out documents partition the corpus.
    std::vector<std::int64_t> all = split.trainDocuments;
    all.insert(all.end(), split.heldout.documents.begin(), split.heldout.documents.end());
    std::sort(all.begin(), all.end());
    for (std::size_t d = 0; d < all.size(); ++d) QCOMPARE(all[d], static_cast<std::int64_t>(d));
  }

  void sameSeedSameSplit() {
    const auto corpus = makeCorpus(50);
    const auto a = core::splitForDocumentCompletion(corpus, 0.3, 4);
    const auto b = core::splitForDocumentCompletion(corpus, 0.3, 4);
    const auto c = core::splitForDocumentCompletion(corpus, 0.3, 5);
    QCOMPARE(a.heldout.documents, b.heldout.documents);
    QCOMPARE(a.heldout.scored.tokens, b.heldout.scored.tokens);
    QVERIFY(a.heldout.documents != c.heldout.documents);
  }

  void shortDocumentsAreNeverHeldOut() {
    core::Corpus c;
    c.words = {"x", "y"};
    const std::vector<std::int32_t> one{0}, two{0, 1};
    c.addDocument("1", "", one);
    c.addDocument("2", "", two);
    c.addDocument("3", "", {});
    const auto split = core::splitForDocumentCompletion(c, 0.9, 1);
    QCOMPARE(split.heldout.documents, std::vector<std::int64_t>{1});
    QCOMPARE(split.train.documentCount(), std::size_t{2});
  }

  void zeroFractionKeepsEverything() {
    const auto corpus = makeCorpus(10);
    const auto split = core::splitForDocumentCompletion(corpus, 0.0, 1);
    QVERIFY(split.heldout.empty());
    QCOMPARE(split.train.tokens, corpus.tokens);
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::splitForDocumentCompletion(corpus, 1.0, 1));
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::splitForDocumentCompletion(corpus, -0.1, 1));
  }

  void perplexityByHand() {
    // Two documents: one of 2 words with log-probabilities log(1/2) + log(1/4), one of 1 word with
    // log(1/8). Eq. 27.29: exp(-(1/2) * ((log 1/2 + log 1/4)/2 + log 1/8)) = exp((1.5 + 3) ln2 / 2).
    const std::vector<double> ll{std::log(0.5) + std::log(0.25), std::log(0.125)};
    const std::vector<std::int64_t> lengths{2, 1};
    QCOMPARE(core::perplexityPerDocument(ll, lengths), std::exp(2.25 * std::log(2.0)));
    // Token-weighted: exp(-(log 1/2 + log 1/4 + log 1/8)/3) = 2^(6/3) = 4.
    QCOMPARE(core::perplexityPerToken(ll, lengths), 4.0);
  }

  void uniformModelHasPerplexityV() {
    const double V = 37;
    const std::vector<double> ll{5 * std::log(1 / V), 11 * std::log(1 / V)};
    const std::vector<std::int64_t> lengths{5, 11};
    QVERIFY(std::abs(core::perplexityPerDocument(ll, lengths) - V) < 1e-9);
    QVERIFY(std::abs(core::perplexityPerToken(ll, lengths) - V) < 1e-9);
  }
};

LATENT_TEST_CASE(HeldoutPerplexityTest)
#include "tst_heldout_perplexity.moc"
