// SPDX-License-Identifier: GPL-3.0-or-later
// AIS of the replicated softmax's Z_L (rsm_ais.hpp) against the exact sum over the hidden states
// on models small enough to enumerate: the estimate lies within its spread of the truth for
// lengths 1 to 20, the spread narrows with more runs, the estimate depends on the seed only, a
// stop cancels it; the full-document held-out perplexity against its exact value, and through the
// model, where it leaves document completion's heldout_perplexity as it was.
// In the evidence suite (optimised build only): its AIS runs are the slowest checks of the harmoniums.
#include <QtTest>

#include <tbb/global_control.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "core/eval/heldout.hpp"
#include "core/models/harmonium/harmonium_support.hpp"
#include "core/models/harmonium/replicated_softmax.hpp"
#include "core/models/harmonium/rsm.hpp"
#include "core/models/harmonium/rsm_ais.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"
#include "quiet_observer.hpp"
#include "random_rsm.hpp"
#include "test_case.hpp"

using namespace latent;
namespace rsm = latent::core::harmonium;

namespace {

// Exact draws of documents of the given lengths: h from p_L(h) over the 2^K states, then L words
// from softmax(b + W h).
std::vector<std::vector<std::int32_t>> aisExactDocuments(const rsm::RbmParameters& p,
                                                         const std::vector<std::int64_t>& lengths, std::uint64_t seed) {
  core::Rng rng(seed);
  const Eigen::Index K = p.hidden();
  std::vector<std::vector<std::int32_t>> documents;
  Eigen::VectorXd h(K), probabilities(p.visible());
  for (const auto L : lengths) {
    const auto states = std::uint64_t{1} << K;
    std::vector<double> weight(states);
    for (std::uint64_t s = 0; s < states; ++s) {
      for (Eigen::Index k = 0; k < K; ++k) h[k] = static_cast<double>(s >> k & 1U);
      const Eigen::VectorXd logits = p.visibleBias + p.weights * h;
      const double top = logits.maxCoeff();
      weight[s] = static_cast<double>(L) * (p.hiddenBias.dot(h) + top + std::log((logits.array() - top).exp().sum()));
    }
    const double top = *std::max_element(weight.begin(), weight.end());
    double total = 0.0;
    for (auto& w : weight) total += w = std::exp(w - top);
    double u = rng.uniform() * total;
    std::uint64_t s = 0;
    while (s + 1 < states && u >= weight[s]) u -= weight[s++];
    for (Eigen::Index k = 0; k < K; ++k) h[k] = static_cast<double>(s >> k & 1U);
    rsm::wordProbabilities(p, h, probabilities);
    std::vector<std::int32_t> words;
    for (std::int64_t i = 0; i < L; ++i) {
      double v = rng.uniform();
      Eigen::Index w = 0;
      while (w + 1 < probabilities.size() && v >= probabilities[w]) v -= probabilities[w++];
      words.push_back(static_cast<std::int32_t>(w));
    }
    documents.push_back(std::move(words));
  }
  return documents;
}

rsm::WordCounts aisCounts(const std::vector<std::vector<std::int32_t>>& documents, Eigen::Index V) {
  std::vector<Eigen::Triplet<double>> entries;
  for (std::size_t d = 0; d < documents.size(); ++d)
    for (const auto w : documents[d]) entries.emplace_back(static_cast<Eigen::Index>(d), w, 1.0);
  rsm::WordCounts counts(static_cast<Eigen::Index>(documents.size()), V);
  counts.setFromTriplets(entries.begin(), entries.end());
  return counts;
}

// The base model's biases as training would give them: the word frequencies of exact samples.
Eigen::VectorXd aisBaseBiases(const rsm::RbmParameters& p, std::uint64_t seed) {
  return rsm::logWordFrequencies(
      aisCounts(aisExactDocuments(p, std::vector<std::int64_t>(200, 10), seed), p.visible()));
}

QString describe(double exact, const rsm::AisEstimate& e) {
  return QStringLiteral("exact %1, AIS %2 [%3, %4]").arg(exact).arg(e.logPartition).arg(e.low).arg(e.high);
}

}  // namespace

class RsmAisTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void estimateMatchesTheExactPartitionFunction_data() {
    QTest::addColumn<int>("words");
    QTest::addColumn<int>("hidden");
    QTest::addColumn<double>("scale");
    QTest::addColumn<qint64>("length");
    QTest::addColumn<bool>("uniformBase");
    QTest::addColumn<int>("temperatures");
    QTest::newRow("V8 K6 W1 L1") << 8 << 6 << 1.0 << qint64{1} << false << 2000;
    QTest::newRow("V8 K6 W1 L20") << 8 << 6 << 1.0 << qint64{20} << false << 2000;
    QTest::newRow("V6 K8 W0.5 L5") << 6 << 8 << 0.5 << qint64{5} << false << 2000;
    QTest::newRow("V10 K4 W2 L1") << 10 << 4 << 2.0 << qint64{1} << false << 2000;
    QTest::newRow("V10 K4 W2 L20") << 10 << 4 << 2.0 << qint64{20} << false << 8000;
    QTest::newRow("V10 K8 W1.5 L12") << 10 << 8 << 1.5 << qint64{12} << false << 2000;
    QTest::newRow("V8 K6 W1 L20, uniform base") << 8 << 6 << 1.0 << qint64{20} << true << 2000;
  }

  void estimateMatchesTheExactPartitionFunction() {
    QFETCH(int, words);
    QFETCH(int, hidden);
    QFETCH(double, scale);
    QFETCH(qint64, length);
    QFETCH(bool, uniformBase);
    QFETCH(int, temperatures);
    const auto seed = static_cast<std::uint64_t>(words * 100 + hidden * 10 + length);
    const auto p = test::randomRsm(words, hidden, scale, seed);
    const Eigen::VectorXd base = uniformBase ? Eigen::VectorXd::Zero(words) : aisBaseBiases(p, seed + 1);
    const double exact = rsm::rsmExactLogPartition(p, length);
    rsm::AisSettings settings;
    settings.particles = 200;
    settings.temperatures = temperatures;  // more where the weights are strong and the documents long
    const auto estimate = rsm::estimateRsmLogPartition(p, length, base, settings, seed + 2);
    QVERIFY2(estimate.low <= exact && exact <= estimate.high, qPrintable(describe(exact, estimate)));
    QVERIFY2(std::abs(estimate.logPartition - exact) < 0.1, qPrintable(describe(exact, estimate)));
    QCOMPARE(estimate.particles, Eigen::Index{200});
    QCOMPARE(estimate.temperatures, Eigen::Index{temperatures});
  }

  void spreadNarrowsWithMoreRuns() {
    const auto p = test::randomRsm(10, 6, 1.5, 30);
    const Eigen::VectorXd base = aisBaseBiases(p, 31);
    const double exact = rsm::rsmExactLogPartition(p, 20);
    rsm::AisSettings settings;
    settings.temperatures = 300;  // few, so that the weights vary
    settings.particles = 50;
    const auto few = rsm::estimateRsmLogPartition(p, 20, base, settings, 32);
    settings.particles = 800;
    const auto many = rsm::estimateRsmLogPartition(p, 20, base, settings, 32);
    // Sixteen times the runs: about a quarter of the spread.
    QVERIFY2(many.high - many.low < 0.5 * (few.high - few.low),
             qPrintable(describe(exact, few) + QStringLiteral("; ") + describe(exact, many)));
    QVERIFY2(many.low <= exact && exact <= many.high, qPrintable(describe(exact, many)));
  }

  void sameSeedSameEstimateOnAnyThreadCount() {
    const auto p = test::randomRsm(9, 5, 1.0, 40);
    const Eigen::VectorXd base = aisBaseBiases(p, 41);
    rsm::AisSettings settings;
    settings.particles = 70;  // blocks of 16 and a last one of 6
    settings.temperatures = 500;
    auto estimate = [&](int threads, std::uint64_t seed) {
      tbb::global_control control(tbb::global_control::max_allowed_parallelism, threads);
      return rsm::estimateRsmLogPartition(p, 15, base, settings, seed);
    };
    const auto one = estimate(1, 42), two = estimate(2, 42), other = estimate(2, 43);
    QCOMPARE(two.logPartition, one.logPartition);
    QCOMPARE(two.low, one.low);
    QCOMPARE(two.high, one.high);
    QVERIFY(other.logPartition != one.logPartition);
    // The perplexity over several lengths, which run in parallel, too.
    const auto counts = aisCounts(aisExactDocuments(p, {3, 7, 7, 15, 22}, 44), p.visible());
    auto perplexity = [&](int threads) {
      tbb::global_control control(tbb::global_control::max_allowed_parallelism, threads);
      return rsm::rsmAisPerplexity(p, counts, base, settings, 45);
    };
    const auto a = perplexity(1), b = perplexity(2);
    QCOMPARE(b.perplexity, a.perplexity);
    QCOMPARE(b.low, a.low);
    QCOMPARE(b.high, a.high);
  }

  void stopCancels() {
    const auto p = test::randomRsm(10, 8, 1.0, 50);
    const Eigen::VectorXd base = aisBaseBiases(p, 51);
    rsm::AisSettings settings;
    settings.particles = 64;
    settings.temperatures = 10000000;  // hours, unless stopped
    std::stop_source before;
    before.request_stop();
    QVERIFY_THROWS_EXCEPTION(core::Cancelled,
                             rsm::estimateRsmLogPartition(p, 20, base, settings, 52, before.get_token()));
    // A stop while it runs ends it soon after.
    std::stop_source during;
    std::jthread stopper([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      during.request_stop();
    });
    const auto start = std::chrono::steady_clock::now();
    QVERIFY_THROWS_EXCEPTION(core::Cancelled,
                             rsm::estimateRsmLogPartition(p, 20, base, settings, 53, during.get_token()));
    QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
    const auto counts = aisCounts(aisExactDocuments(p, {4, 9}, 54), p.visible());
    QVERIFY_THROWS_EXCEPTION(core::Cancelled, rsm::rsmAisPerplexity(p, counts, base, settings, 55, before.get_token()));
  }

  void fullDocumentPerplexityMatchesTheExactOne() {
    const auto p = test::randomRsm(8, 6, 1.0, 60);
    const Eigen::VectorXd base = aisBaseBiases(p, 61);
    const std::vector<std::int64_t> lengths = {1, 5, 5, 5, 12, 20, 20};
    const auto counts = aisCounts(aisExactDocuments(p, lengths, 62), p.visible());
    double logLik = 0.0, tokens = 0.0;
    for (Eigen::Index d = 0; d < counts.rows(); ++d) {
      const auto L = lengths[static_cast<std::size_t>(d)];
      const Eigen::VectorXd n = Eigen::VectorXd(counts.row(d).transpose());
      logLik -= rsm::rsmFreeEnergy(p, n, static_cast<double>(L)) + rsm::rsmExactLogPartition(p, L);
      tokens += static_cast<double>(L);
    }
    const double exact = std::exp(-logLik / tokens);
    rsm::AisSettings settings;
    settings.particles = 200;
    settings.temperatures = 2000;
    const auto ais = rsm::rsmAisPerplexity(p, counts, base, settings, 63);
    const auto text =
        QStringLiteral("exact %1, AIS %2 [%3, %4]").arg(exact).arg(ais.perplexity).arg(ais.low).arg(ais.high);
    QVERIFY2(ais.low <= exact && exact <= ais.high, qPrintable(text));
    QVERIFY2(std::abs(ais.perplexity / exact - 1.0) < 0.005, qPrintable(text));
    QCOMPARE(ais.documents, std::int64_t{7});
    QCOMPARE(ais.tokens, std::int64_t{68});
    QCOMPARE(ais.lengths, std::int64_t{4});
    QVERIFY(std::abs(ais.logLikelihood - logLik) < 0.05 * 7);
  }

  void modelReportsItBesideDocumentCompletion() {
    // Documents of an RSM with four hidden units; rsm fitted with K = 4, so that Z_L is enumerable.
    const auto planted = test::randomRsm(10, 4, 1.5, 70);
    std::vector<std::int64_t> lengths;
    for (int d = 0; d < 120; ++d) lengths.push_back(4 + d % 9);
    const auto documents = aisExactDocuments(planted, lengths, 71);
    core::Corpus corpus;
    for (Eigen::Index w = 0; w < 10; ++w) corpus.words.push_back("w" + std::to_string(w));
    for (std::size_t d = 0; d < documents.size(); ++d) corpus.addDocument(std::to_string(d), "", documents[d]);
    const auto split = core::splitForDocumentCompletion(corpus, 0.2, 72);
    core::FitData data;
    data.corpus = &split.train;
    data.heldout = &split.heldout;
    data.trainDocuments = split.trainDocuments;
    data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
    auto fit = [&](std::int64_t runs) {
      core::FitSettings settings;
      settings.seed = 73;
      settings.options = core::resolveOptions(
          core::rsmModel().info(), {{"k", 4}, {"iterations", 5}, {"ais_runs", runs}, {"ais_temperatures", 1000}});
      test::QuietObserver observer;
      return core::rsmModel().make()->fit(data, settings, observer, {});
    };
    const auto without = fit(0), with = fit(100);
    QVERIFY(with.status == core::FitStatus::MaxIterations);
    QVERIFY(!without.finalMetrics.contains("heldout_perplexity_ais"));
    QCOMPARE(with.finalMetrics["heldout_perplexity"].get<double>(),
             without.finalMetrics["heldout_perplexity"].get<double>());
    QCOMPARE(with.finalMetrics["heldout_ais_protocol"].get<std::string>(),
             std::string("full-document, AIS estimate of Z_L"));
    QCOMPARE(with.finalMetrics["heldout_ais_runs"].get<std::int64_t>(), std::int64_t{100});
    QVERIFY(with.finalMetrics["heldout_ais_seconds"].get<double>() >= 0.0);
    // The fitted parameters give the exact value.
    rsm::RbmParameters p(10, 4);
    for (const auto& m : with.matrices) {
      if (m.name == "weights") p.weights = m.values;
      if (m.name == "visible_bias") p.visibleBias = m.values;
      if (m.name == "hidden_bias") p.hiddenBias = m.values;
    }
    const auto whole = rsm::heldoutWordCounts(split.heldout, 10);
    const Eigen::VectorXd wholeLengths = rsm::documentLengths(whole);
    double logLik = 0.0;
    for (Eigen::Index d = 0; d < whole.rows(); ++d) {
      const Eigen::VectorXd n = Eigen::VectorXd(whole.row(d).transpose());
      logLik -= rsm::rsmFreeEnergy(p, n, wholeLengths[d]) +
                rsm::rsmExactLogPartition(p, static_cast<std::int64_t>(wholeLengths[d]));
    }
    const double exact = std::exp(-logLik / wholeLengths.sum());
    const double ais = with.finalMetrics["heldout_perplexity_ais"].get<double>();
    const double low = with.finalMetrics["heldout_perplexity_ais_low"].get<double>();
    const double high = with.finalMetrics["heldout_perplexity_ais_high"].get<double>();
    QVERIFY2(low <= exact && exact <= high && std::abs(ais / exact - 1.0) < 0.01,
             qPrintable(QStringLiteral("exact %1, AIS %2 [%3, %4]").arg(exact).arg(ais).arg(low).arg(high)));
  }
};

LATENT_TEST_CASE(RsmAisTest)
#include "tst_rsm_ais.moc"
