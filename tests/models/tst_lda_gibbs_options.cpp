// SPDX-License-Identifier: GPL-3.0-or-later
// lda-gibbs's choices made from its options and the data: what `--sampler auto` runs, when alpha
// and beta are first re-estimated after a warm-up, how the words are dealt into the groups of a
// parallel sweep and the documents into its partitions, and the order a partition's rounds take
// its tokens in.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "categorical_draw.hpp"
#include "core/data/gibbs_toy.hpp"
#include "core/models/topic/lda_gibbs.hpp"
#include "core/models/topic/lda_gibbs_state.hpp"
#include "core/util/random.hpp"
#include "lda_gibbs_test_support.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

// The final metrics of a fit of the toy corpus (start alpha sum 0.2, beta 0.01): `warmUp` warp
// sweeps, then `sweeps` sparse ones from one start.
nlohmann::json fitAfterWarmUp(int warmUp, int sweeps) {
  const auto corpus = test::corpusFromTexts(core::generateGibbsToyCorpus());
  const nlohmann::json options = {
      {"k", 2}, {"iterations", sweeps}, {"restarts", 1}, {"sampler", "sparse"}, {"warp_start", warmUp}};
  return test::fitLdaGibbs(test::wholeCorpus(corpus), 16, options, 3, 1).result.finalMetrics;
}

// Whether alpha and beta have left their start values (alpha sum 0.2, beta 0.01), both or neither;
// a failure prints the values.
void checkReestimated(const nlohmann::json& metrics, bool reestimated) {
  const double alphaSum = metrics["alpha_sum"].get<double>(), beta = metrics["beta"].get<double>();
  if (reestimated) {
    QVERIFY2(alphaSum != 0.2, qPrintable(QString("alpha sum still %1").arg(alphaSum)));
    QVERIFY2(beta != 0.01, qPrintable(QString("beta still %1").arg(beta)));
  } else {
    QCOMPARE(alphaSum, 0.2);
    QCOMPARE(beta, 0.01);
  }
}

// Eight subjects of 40 documents of 80 tokens, in order: half of a document's tokens from the
// 400 words all share, half from its subject's own 300, each set drawn with weights 1 / rank^e
// (e = 0.8 for the shared words, 0.5 + 0.1 s for subject s's).
core::Corpus subjectsInOrder() {
  constexpr int kSubjects = 8, kShared = 400, kOwn = 300;
  const auto zipf = [](int n, double exponent) {
    Eigen::VectorXd p(n);
    for (int i = 0; i < n; ++i) p[i] = std::pow(i + 1.0, -exponent);
    return Eigen::VectorXd(p / p.sum());
  };
  const Eigen::VectorXd shared = zipf(kShared, 0.8);
  core::Rng rng(5);
  std::vector<std::vector<std::int32_t>> documents;
  for (int s = 0; s < kSubjects; ++s) {
    const Eigen::VectorXd own = zipf(kOwn, 0.5 + 0.1 * s);
    for (int d = 0; d < 40; ++d) {
      std::vector<std::int32_t> words;
      for (int i = 0; i < 80; ++i)
        words.push_back(rng.uniform() < 0.5 ? test::drawIndex(rng, shared)
                                            : kShared + s * kOwn + test::drawIndex(rng, own));
      documents.push_back(std::move(words));
    }
  }
  return test::corpusFromIds(kShared + kSubjects * kOwn, documents);
}

// What the round barrier lets P partitions run at against P that never wait: (all work / P) over
// the sum of each round's largest block (tests/benchmarks/round_balance.py).
double roundEfficiency(const core::Corpus& corpus, const std::vector<core::topic::DocumentRange>& ranges,
                       const std::vector<std::uint32_t>& groupOf, const std::vector<double>& cost) {
  const std::size_t P = ranges.size();
  std::vector<double> block(P * P, 0.0);
  double all = 0.0;
  for (std::size_t p = 0; p < P; ++p)
    for (auto i = corpus.offsets[ranges[p].begin]; i < corpus.offsets[ranges[p].end]; ++i) {
      const auto w = static_cast<std::size_t>(corpus.tokens[static_cast<std::size_t>(i)]);
      block[p * P + groupOf[w]] += cost[w];
      all += cost[w];
    }
  double rounds = 0.0;
  for (std::size_t r = 0; r < P; ++r) {
    double largest = 0.0;
    for (std::size_t p = 0; p < P; ++p) largest = std::max(largest, block[p * P + (p + r) % P]);
    rounds += largest;
  }
  return all / static_cast<double>(P) / rounds;
}

// Groups of equal total work: the words, most work first, each to the group with least so far.
std::vector<std::uint32_t> groupsByTotalWork(const std::vector<std::int64_t>& frequency,
                                             const std::vector<double>& cost, std::size_t P) {
  std::vector<std::uint32_t> order(frequency.size()), groupOf(frequency.size());
  std::iota(order.begin(), order.end(), 0u);
  const auto work = [&](std::uint32_t w) { return static_cast<double>(frequency[w]) * cost[w]; };
  std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return work(a) > work(b); });
  std::vector<double> load(P, 0.0);
  for (const auto w : order) {
    const auto g = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    groupOf[w] = static_cast<std::uint32_t>(g);
    load[g] += work(w);
  }
  return groupOf;
}

}  // namespace

class LdaGibbsOptionsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void partitionsBalanceTokens() {
    const auto corpus = test::corpusFromIds(3, {{0}, {0, 1, 2, 0}, {1}, {2, 2}, {0, 1, 2, 0, 1, 2}, {1, 1}});
    core::topic::LdaGibbsState state(corpus, 2, 0.1, 0.1, 3, 1);
    const auto& p = state.partitions();
    QCOMPARE(p.size(), std::size_t{3});
    // 16 tokens, running counts 1 5 6 8 14 16: the cuts closest to 16/3 and 32/3 are after
    // 5 tokens (2 documents) and after 8 (4 documents).
    QCOMPARE(p[0].begin, std::size_t{0});
    QCOMPARE(p[0].end, std::size_t{2});
    QCOMPARE(p[1].begin, std::size_t{2});
    QCOMPARE(p[1].end, std::size_t{4});
    QCOMPARE(p[2].begin, std::size_t{4});
    QCOMPARE(p[2].end, std::size_t{6});
    core::topic::LdaGibbsState many(corpus, 2, 0.1, 0.1, 50, 1);  // never more partitions than documents
    QCOMPARE(many.partitions().size(), std::size_t{6});
  }

  // A partition's tokens in the order of its rounds: by word group, then document, then position.
  void tokensGroupedByWordGroup() {
    const auto corpus = test::corpusFromIds(4, {{1, 1, 2}, {0, 3, 0, 1}, {2, 2}, {3, 1, 0}});
    const std::vector<std::uint32_t> groupOf{0, 1, 2, 0};  // words 0 and 3 in group 0
    const auto grouped = core::topic::groupTokensByWordGroup(corpus, {1, 4}, groupOf, 3);
    // Documents 1-3: group 0 holds d1's tokens 0, 1, 2 and d3's 0, 2; group 1 d1's 3 and d3's 1;
    // group 2 d2's 0 and 1. No token of group 2 in d1 or d3, none of groups 0 and 1 in d2.
    QCOMPARE(grouped.order, (std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3, 1, 0, 1}));
    QCOMPARE(grouped.groupStart, (std::vector<std::size_t>{0, 5, 7}));
    const auto visits = [&](std::size_t g) {
      std::vector<std::pair<std::size_t, std::size_t>> out;
      for (const auto& v : grouped.visits[g]) out.emplace_back(v.document, v.end);
      return out;
    };
    using Visits = std::vector<std::pair<std::size_t, std::size_t>>;
    QCOMPARE(visits(0), (Visits{{1, 3}, {3, 5}}));
    QCOMPARE(visits(1), (Visits{{1, 6}, {3, 7}}));
    QCOMPARE(visits(2), (Visits{{2, 9}}));
  }

  // In round r partition p samples its range's tokens of word group (p + r) mod P, and the round
  // waits for its slowest partition. Documents on one subject come together (here eight subjects
  // of 40 documents, in order, each with its own words and its own spread of them, and words
  // shared by all) and use their own words most, so groups of equal total work still left some
  // blocks of a round far heavier than others: the groups must balance every block.
  void wordGroupsBalanceEveryRound() {
    const auto corpus = subjectsInOrder();
    std::vector<std::int64_t> frequency(corpus.vocabularySize(), 0);
    for (const auto w : corpus.tokens) ++frequency[static_cast<std::size_t>(w)];
    std::vector<double> cost(frequency.size());
    for (std::size_t w = 0; w < cost.size(); ++w) cost[w] = core::topic::sparseStartCost(frequency[w], 100);
    for (const std::size_t P : {2, 4, 8}) {
      const core::topic::LdaGibbsState state(corpus, 100, 0.1, 0.01, static_cast<int>(P), 1,
                                             core::topic::PartitionBalance::WordTopics);
      const auto groupOf = core::topic::balancedWordGroups(corpus, state.partitions(), cost);
      QCOMPARE(groupOf.size(), frequency.size());
      QVERIFY(std::all_of(groupOf.begin(), groupOf.end(), [&](auto g) { return g < P; }));
      const double balanced = roundEfficiency(corpus, state.partitions(), groupOf, cost);
      // Groups of equal totals, as the rule before made them (it dealt by tokens, here by work).
      const double byTotals = roundEfficiency(corpus, state.partitions(), groupsByTotalWork(frequency, cost, P), cost);
      qInfo("P = %zu: the rounds run at %.3f of partitions that never wait (groups by their totals: %.3f)", P, balanced,
            byTotals);
      // At 8 a subject's most frequent own word holds twice a block's share of its range's work
      // (a frequent word's token walks a long list): no grouping can split it, so only the gain.
      if (P <= 4) QVERIFY2(balanced > 0.97, qPrintable(QString::number(balanced)));
      if (P >= 4) QVERIFY2(balanced > byTotals + 0.05, qPrintable(QString("%1 %2").arg(balanced).arg(byTotals)));
    }
    const core::topic::LdaGibbsState one(corpus, 100, 0.1, 0.01, 1, 1);
    const auto groupOf = core::topic::balancedWordGroups(corpus, one.partitions(), cost);
    QVERIFY(std::all_of(groupOf.begin(), groupOf.end(), [](auto g) { return g == 0; }));
  }

  // The sparse sampler's partitions hold equal work, not equal tokens: a token of a frequent word
  // walks a list of up to K topics, a word seen once a list of one. Ten documents of one frequent
  // word, then ten of words seen once: equal tokens cut after the tenth document, and one
  // partition walked forty times the other's lists; equal work cuts after the fifth.
  void documentRangesBalanceTheSparseSamplersWork() {
    QVERIFY(std::abs(core::topic::sparseStartCost(1, 50) - 50.0 * (1.0 - std::exp(-1.0 / 50.0))) < 1e-12);
    QVERIFY(std::abs(core::topic::sparseStartCost(100000, 50) - 50.0) < 1e-9);
    std::vector<std::string> texts;
    for (int d = 0; d < 10; ++d)
      texts.emplace_back("common common common common common common common common common common");
    for (int d = 0; d < 10; ++d) {
      std::string text;
      for (int i = 0; i < 10; ++i) text += "rare" + std::to_string(10 * d + i) + " ";
      texts.push_back(text);
    }
    const auto corpus = test::corpusFromTexts(texts);
    QCOMPARE(corpus.tokenCount(), std::size_t{200});
    const auto cut = [&](core::topic::PartitionBalance balance) {
      const core::topic::LdaGibbsState state(corpus, 50, 0.1, 0.01, 2, 1, balance);
      return state.partitions()[0].end;
    };
    QCOMPARE(cut(core::topic::PartitionBalance::Tokens), std::size_t{10});
    QCOMPARE(cut(core::topic::PartitionBalance::WordTopics), std::size_t{5});
  }

  // The warm-up's sweeps count towards the burn-in of the re-estimation of alpha and beta: after
  // 60 warp sweeps (burn-in 50) a 20-sweep chain re-estimates them at its sweep 20; from a random
  // start the same chain is still inside the burn-in and keeps the start values.
  void warpStartCountsTowardsTheBurnIn() {
    const auto corpus = test::corpusFromTexts(core::generateGibbsToyCorpus());
    const auto split = test::wholeCorpus(corpus);
    const nlohmann::json plain = {{"k", 2}, {"iterations", 20}, {"restarts", 1}, {"sampler", "sparse"}};
    auto warmed = plain;
    warmed["warp_start"] = 60;
    const auto without = test::fitLdaGibbs(split, 16, plain, 3, 1);
    const auto with = test::fitLdaGibbs(split, 16, warmed, 3, 1);
    QCOMPARE(without.result.finalMetrics["alpha_sum"].get<double>(), 0.2);
    QCOMPARE(without.result.finalMetrics["beta"].get<double>(), 0.01);
    QVERIFY(with.result.finalMetrics["alpha_sum"].get<double>() != 0.2);
    QVERIFY(with.result.finalMetrics["beta"].get<double>() != 0.01);
  }

  // The warm-up re-estimates alpha and beta on the chain's schedule (burn-in 50, every 20): after 60
  // warp sweeps and a one-sweep chain, which re-estimates nothing itself, they have left their start
  // values; after 40 warp sweeps (inside the burn-in) they have not.
  void warpStartReestimatesHyperparameters() {
    checkReestimated(fitAfterWarmUp(40, 1), false);
    checkReestimated(fitAfterWarmUp(60, 1), true);
  }

  // The chain after a warm-up keeps the schedule counted from the random start: after 50 warp
  // sweeps (none re-estimates: the burn-in is 50), the 10th exact sweep is the 60th and re-estimates;
  // 9 exact sweeps re-estimate nothing.
  void chainCountsTheWarmUpInItsSchedule() {
    checkReestimated(fitAfterWarmUp(50, 9), false);
    checkReestimated(fitAfterWarmUp(50, 10), true);
  }

  // The default sampler, auto: wordwise where a token's document holds at most 2500 tokens on
  // average, else sparse; with the restarts below 500 topics; from 500 up from one start, after 100
  // warp sweeps when the chain is shorter than 100 sweeps; from 2000 up after 200 warp sweeps
  // (unless asked otherwise); and in a distributed fit the same sampler with the restarts, never a
  // warm-up.
  void autoSamplerChoosesByTopicsAndDocumentLength() {
    const auto resolve = [](const nlohmann::json& options, bool distributed = false, double documentLength = 300.0) {
      return core::LdaGibbsOptions::table()
          .parse(core::resolveOptions(core::ldaGibbsModel().info(), options), "lda-gibbs")
          .resolved(distributed, documentLength);
    };
    const auto few = resolve({{"k", 499}});
    QVERIFY(few.sampler == core::LdaGibbsOptions::Sampler::Wordwise);
    QCOMPARE(few.warpStart, std::int64_t{0});
    QCOMPARE(few.starts(), std::int64_t{6});
    const auto longDocuments = resolve({{"k", 499}}, false, 2500.5);
    QVERIFY(longDocuments.sampler == core::LdaGibbsOptions::Sampler::Sparse);
    QCOMPARE(longDocuments.starts(), std::int64_t{6});
    QVERIFY(resolve({{"k", 20}}, false, 2500.0).sampler == core::LdaGibbsOptions::Sampler::Wordwise);
    const auto longAndMany = resolve({{"k", 2000}}, false, 5000.0);
    QVERIFY(longAndMany.sampler == core::LdaGibbsOptions::Sampler::Sparse);
    QCOMPARE(longAndMany.warpStart, std::int64_t{200});
    QCOMPARE(longAndMany.starts(), std::int64_t{1});
    QVERIFY(resolve({{"k", 20}}, true).sampler == core::LdaGibbsOptions::Sampler::Wordwise);
    QVERIFY(resolve({{"k", 20}}, true, 5000.0).sampler == core::LdaGibbsOptions::Sampler::Sparse);
    const auto hundreds = resolve({{"k", 500}});
    QVERIFY(hundreds.sampler == core::LdaGibbsOptions::Sampler::Wordwise);
    QCOMPARE(hundreds.warpStart, std::int64_t{0});
    QCOMPARE(hundreds.starts(), std::int64_t{1});
    QCOMPARE(resolve({{"k", 1999}}).warpStart, std::int64_t{0});
    const auto shortChain = resolve({{"k", 500}, {"iterations", 99}});
    QCOMPARE(shortChain.warpStart, std::int64_t{100});
    QCOMPARE(shortChain.starts(), std::int64_t{1});
    QCOMPARE(resolve({{"k", 1999}, {"iterations", 20}}).warpStart, std::int64_t{100});
    QCOMPARE(resolve({{"k", 1000}, {"iterations", 100}}).warpStart, std::int64_t{0});
    QCOMPARE(resolve({{"k", 499}, {"iterations", 20}}).warpStart, std::int64_t{0});
    QCOMPARE(resolve({{"k", 1000}, {"iterations", 20}, {"warp_start", 10}}).warpStart, std::int64_t{10});
    QCOMPARE(resolve({{"k", 2000}, {"iterations", 20}}).warpStart, std::int64_t{200});
    QCOMPARE(resolve({{"k", 1000}, {"iterations", 20}}, true).warpStart, std::int64_t{0});
    const auto thousands = resolve({{"k", 2000}});
    QVERIFY(thousands.sampler == core::LdaGibbsOptions::Sampler::Wordwise);
    QCOMPARE(thousands.warpStart, std::int64_t{200});
    QCOMPARE(thousands.starts(), std::int64_t{1});
    QCOMPARE(resolve({{"k", 500}, {"restarts", 3}}).starts(), std::int64_t{3});
    QCOMPARE(resolve({{"k", 2000}, {"restarts", 3}}).starts(), std::int64_t{3});
    QCOMPARE(resolve({{"k", 500}, {"warp_start", 50}}).warpStart, std::int64_t{50});
    QVERIFY(resolve({{"k", 500}, {"warp_start", 50}}).sampler == core::LdaGibbsOptions::Sampler::Wordwise);
    QCOMPARE(resolve({{"k", 2000}, {"warp_start", 50}}).warpStart, std::int64_t{50});
    const auto distributed = resolve({{"k", 2000}}, true);
    QVERIFY(distributed.sampler == core::LdaGibbsOptions::Sampler::Wordwise);
    QCOMPARE(distributed.warpStart, std::int64_t{0});
    QCOMPARE(distributed.starts(), std::int64_t{6});
    const auto sparse = resolve({{"k", 2000}, {"sampler", "sparse"}});
    QCOMPARE(sparse.warpStart, std::int64_t{0});
    QCOMPARE(sparse.starts(), std::int64_t{6});
    QVERIFY(resolve({{"k", 2000}, {"sampler", "warp"}}).sampler == core::LdaGibbsOptions::Sampler::Warp);

    // A fit says what auto ran.
    const auto corpus = test::corpusFromIds(6, {{0, 1, 2, 3, 4, 5, 0, 1}, {2, 3, 4, 5, 0, 1, 2}, {5, 4, 3, 2, 1}});
    const auto split = core::splitForDocumentCompletion(corpus, 0.0, 1);
    const auto fit = test::fitLdaGibbs(split, 3, {{"k", 2000}, {"iterations", 3}}, 1, 1);
    QCOMPARE(fit.result.finalMetrics["sampler"].get<std::string>(), std::string("wordwise"));
    QCOMPARE(fit.result.finalMetrics["warp_start_sweeps"].get<std::int64_t>(), std::int64_t{200});
    QVERIFY(!fit.result.finalMetrics.contains("restart_chosen"));
  }

  // What auto reads from the corpus: the mean length of a token's document.
  void documentLengthIsWeightedByTokens() {
    const auto corpus = test::corpusFromIds(3, {{0, 1, 2, 0, 1, 2}, {2, 1}, {}});
    QCOMPARE(core::tokenWeightedDocumentLength(corpus), (6.0 * 6.0 + 2.0 * 2.0) / 8.0);
    QCOMPARE(core::tokenWeightedDocumentLength(test::corpusFromIds(3, {{}})), 0.0);
  }
};

LATENT_TEST_CASE(LdaGibbsOptionsTest)
#include "tst_lda_gibbs_options.moc"
