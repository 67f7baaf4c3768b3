// SPDX-License-Identifier: GPL-3.0-or-later
// Replicated softmax (000 eq. 27.129) against the truth on models small enough to enumerate: the
// partition function and the normalisation of the free energy over every word sequence, the
// likelihood's gradient summed over the hidden states against long CD, the document-completion
// predictive against its exact sum, and a planted model fitted back from its own exact samples.
#include <QtTest>

#include <tbb/task_arena.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <span>
#include <stop_token>
#include <thread>
#include <vector>

#include "core/eval/heldout.hpp"
#include "core/models/harmonium/harmonium_support.hpp"
#include "core/models/harmonium/replicated_softmax.hpp"
#include "core/models/harmonium/rsm_completion.hpp"
#include "core/models/harmonium/rsm_training.hpp"
#include "core/util/random.hpp"
#include "random_rbm.hpp"
#include "random_rsm.hpp"
#include "test_case.hpp"

using namespace latent;
namespace rsm = latent::core::harmonium;

namespace {

// log of the unnormalised weight of h in a document of length L whose words `known` are given
// and `unknown` more are summed out: L c^T h + sum_known (b_w + W_w h) + unknown log S(h).
double logHiddenWeight(const rsm::RbmParameters& p, const Eigen::VectorXd& h, double L,
                       std::span<const std::int32_t> known, std::int64_t unknown) {
  const Eigen::VectorXd logits = p.visibleBias + p.weights * h;
  const double top = logits.maxCoeff();
  const double logS = top + std::log((logits.array() - top).exp().sum());
  double value = L * p.hiddenBias.dot(h) + static_cast<double>(unknown) * logS;
  for (const auto w : known) value += logits[w];
  return value;
}

// The exact posterior over the 2^K hidden states of that document.
std::vector<double> hiddenPosterior(const rsm::RbmParameters& p, double L, std::span<const std::int32_t> known,
                                    std::int64_t unknown) {
  const auto states = std::uint64_t{1} << p.hidden();
  std::vector<double> weight(states);
  for (std::uint64_t s = 0; s < states; ++s)
    weight[s] = logHiddenWeight(p, test::bits(s, p.hidden()), L, known, unknown);
  const double top = *std::max_element(weight.begin(), weight.end());
  double total = 0.0;
  for (auto& w : weight) total += w = std::exp(w - top);
  for (auto& w : weight) w /= total;
  return weight;
}

// The gradient of the mean per-word log-likelihood over the documents, mean_d log p(v_d) / L_d,
// model expectations summed over the hidden states: E_L[n h^T] = sum_h p_L(h) L softmax(b + W h) h^T.
rsm::RbmParameters exactRsmGradient(const rsm::RbmParameters& p, const rsm::WordCounts& counts) {
  rsm::RbmParameters g(p.visible(), p.hidden());
  const Eigen::VectorXd lengths = rsm::documentLengths(counts);
  Eigen::MatrixXd data;
  rsm::rsmHiddenProbabilities(p, counts, lengths, data);
  Eigen::VectorXd probabilities(p.visible());
  for (Eigen::Index d = 0; d < counts.rows(); ++d) {
    const double L = lengths[d];
    for (rsm::WordCounts::InnerIterator it(counts, d); it; ++it) {
      g.weights.row(it.col()) += it.value() * data.row(d);
      g.visibleBias[it.col()] += it.value();
    }
    g.hiddenBias += L * data.row(d).transpose();
    const auto posterior = hiddenPosterior(p, L, {}, static_cast<std::int64_t>(L));
    for (std::uint64_t s = 0; s < posterior.size(); ++s) {
      const Eigen::VectorXd h = test::bits(s, p.hidden());
      rsm::wordProbabilities(p, h, probabilities);
      g.weights -= posterior[s] * L * probabilities * h.transpose();
      g.visibleBias -= posterior[s] * L * probabilities;
      g.hiddenBias -= posterior[s] * L * h;
    }
  }
  // Every document here has the same length, so dividing by it once is dividing each term.
  const double scale = 1.0 / static_cast<double>(counts.rows()) / lengths[0];
  g.weights *= scale;
  g.visibleBias *= scale;
  g.hiddenBias *= scale;
  return g;
}

// Exact samples: h from p_L(h), then L words from softmax(b + W h).
rsm::WordCounts exactDocuments(const rsm::RbmParameters& p, int count, std::int64_t L, std::uint64_t seed) {
  const auto posterior = hiddenPosterior(p, static_cast<double>(L), {}, L);
  core::Rng rng(seed);
  std::vector<Eigen::Triplet<double>> entries;
  Eigen::VectorXd probabilities(p.visible()), n(p.visible());
  std::vector<double> cumulative;
  for (int d = 0; d < count; ++d) {
    double u = rng.uniform();
    std::uint64_t s = 0;
    while (s + 1 < posterior.size() && u >= posterior[s]) u -= posterior[s++];
    rsm::wordProbabilities(p, test::bits(s, p.hidden()), probabilities);
    rsm::sampleWordCounts(probabilities, L, rng, n, cumulative);
    for (Eigen::Index w = 0; w < n.size(); ++w)
      if (n[w] > 0) entries.emplace_back(d, w, n[w]);
  }
  rsm::WordCounts counts(count, p.visible());
  counts.setFromTriplets(entries.begin(), entries.end());
  return counts;
}

// The mean log-probability of the documents' word sequences, -F(n) - log Z_L.
double meanRsmLogLikelihood(const rsm::RbmParameters& p, const rsm::WordCounts& counts) {
  const Eigen::VectorXd lengths = rsm::documentLengths(counts);
  double total = 0.0;
  for (Eigen::Index d = 0; d < counts.rows(); ++d) {
    const Eigen::VectorXd n = Eigen::VectorXd(counts.row(d).transpose());
    total -= rsm::rsmFreeEnergy(p, n, lengths[d]) + rsm::rsmExactLogPartition(p, static_cast<std::int64_t>(lengths[d]));
  }
  return total / static_cast<double>(counts.rows());
}

std::vector<Eigen::Index> identityOrder(Eigen::Index n) {
  std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  return order;
}

}  // namespace

class ReplicatedSoftmaxTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void partitionFunctionMatchesEverySequence() {
    // Z_L = sum over the V^L word sequences and the 2^K hidden states of exp(-E).
    const auto p = test::randomRsm(3, 2, 0.8, 1);
    for (const std::int64_t L : {1, 2, 4}) {
      double sum = 0.0;
      std::int64_t sequences = 1;
      for (std::int64_t i = 0; i < L; ++i) sequences *= 3;
      for (std::int64_t s = 0; s < sequences; ++s) {
        Eigen::VectorXd n = Eigen::VectorXd::Zero(3);
        for (std::int64_t i = 0, x = s; i < L; ++i, x /= 3) n[x % 3] += 1.0;
        // The free energy sums the hidden states out of the same terms.
        double overHidden = 0.0;
        for (std::uint64_t hs = 0; hs < 4; ++hs) {
          const Eigen::VectorXd h = test::bits(hs, 2);
          overHidden +=
              std::exp(n.dot(p.weights * h) + n.dot(p.visibleBias) + static_cast<double>(L) * p.hiddenBias.dot(h));
        }
        sum += overHidden;
        QVERIFY(std::abs(-rsm::rsmFreeEnergy(p, n, static_cast<double>(L)) - std::log(overHidden)) < 1e-10);
      }
      QVERIFY2(std::abs(rsm::rsmExactLogPartition(p, L) - std::log(sum)) < 1e-10, qPrintable(QString::number(L)));
    }
  }

  void longContrastiveDivergenceApproachesTheExactGradient() {
    // With no momentum and no decay the first update is rate x the CD estimate of the gradient;
    // with a long chain over a large batch it approaches the exact one.
    const auto p = test::randomRsm(5, 3, 0.6, 2);
    const auto data = exactDocuments(test::randomRsm(5, 3, 1.5, 3), 3000, 6, 4);
    const auto exact = exactRsmGradient(p, data);
    rsm::ContrastiveDivergence cd;
    cd.momentum = 0.0;
    cd.weightDecay = 0.0;
    cd.batchSize = data.rows();
    cd.gibbsSteps = 100;
    rsm::RsmTrainer trainer(cd, p, 5);
    const double rate = 1e-4;
    trainer.epoch(data, rsm::documentLengths(data), identityOrder(data.rows()), rate, {});
    const auto& q = trainer.parameters();
    const double weights = ((q.weights - p.weights) / rate - exact.weights).cwiseAbs().maxCoeff();
    const double visible = ((q.visibleBias - p.visibleBias) / rate - exact.visibleBias).cwiseAbs().maxCoeff();
    const double hidden = ((q.hiddenBias - p.hiddenBias) / rate - exact.hiddenBias).cwiseAbs().maxCoeff();
    QVERIFY2(weights < 0.02 && visible < 0.02 && hidden < 0.03,
             qPrintable(QStringLiteral("W %1, b %2, c %3 (largest entry of the exact W gradient %4)")
                            .arg(weights)
                            .arg(visible)
                            .arg(hidden)
                            .arg(exact.weights.cwiseAbs().maxCoeff())));
  }

  void completionMatchesTheExactPredictive() {
    // p(w | observed) = sum_h p(h | observed, L) softmax(b + W h)_w, summed over the hidden states.
    const auto p = test::randomRsm(6, 3, 1.2, 6);
    core::HeldoutDocuments heldout;
    heldout.documents = {0, 1};
    const std::vector<std::vector<std::int32_t>> observed = {{0, 0, 2}, {5}}, scored = {{1, 3}, {4, 4, 0}};
    for (auto* corpus : {&heldout.observed, &heldout.scored}) corpus->words.assign(6, "w");
    for (std::size_t i = 0; i < 2; ++i) {
      heldout.observed.addDocument("d", "d", observed[i]);
      heldout.scored.addDocument("d", "d", scored[i]);
    }
    rsm::RsmCompletionSettings settings;
    settings.burnIn = 20;
    settings.samples = 40000;
    const auto estimate = rsm::rsmCompletionLogLikelihoods(p, heldout, settings, 7);
    QCOMPARE(estimate.size(), std::size_t{2});
    Eigen::VectorXd probabilities(6);
    for (std::size_t i = 0; i < 2; ++i) {
      const auto L = static_cast<double>(observed[i].size() + scored[i].size());
      const auto posterior = hiddenPosterior(p, L, observed[i], static_cast<std::int64_t>(scored[i].size()));
      Eigen::VectorXd predictive = Eigen::VectorXd::Zero(6);
      for (std::uint64_t s = 0; s < posterior.size(); ++s) {
        rsm::wordProbabilities(p, test::bits(s, 3), probabilities);
        predictive += posterior[s] * probabilities;
      }
      double exact = 0.0;
      for (const auto w : scored[i]) exact += std::log(predictive[w]);
      QVERIFY2(std::abs(estimate[i] - exact) < 0.02,
               qPrintable(QStringLiteral("document %1: %2 against %3").arg(i).arg(estimate[i]).arg(exact)));
    }
  }

  // Documents of 20 words from a planted model whose three hidden units each favour a block of
  // four words; c = -1.3 makes the states with one unit on hold nearly all the mass (log S rises
  // by 2.0 from none to one, by 0.6 from one to two), so each document mostly uses one block.
  // CD-1 is scored by the share of the gap between the unigram model and the planted one that it
  // closes in held-out log-likelihood (exact).
  void plantedModelIsFittedBack_data() {
    QTest::addColumn<bool>("adaptive");
    QTest::addColumn<double>("share");
    // One step size for all: CD-1 stalls about 3.4 nats per document short, and larger steps or
    // longer runs diverge (tests/benchmarks/README.md, "Replicated softmax").
    QTest::newRow("momentum") << false << 0.6;
    // Adam's steps from the model's defaults (momentum 0.9, rate 0.01, starting scale 0.1), the
    // rate shrinking by 0.9 an epoch: they come within about 0.6 nats per document (without the
    // shrinking the steps stay about 0.01 to the end, and the fit wanders off as CD-1 does).
    QTest::newRow("adaptive") << true << 0.85;
  }

  void plantedModelIsFittedBack() {
    QFETCH(bool, adaptive);
    QFETCH(double, share);
    auto planted = test::randomRsm(12, 3, 0.2, 8);
    planted.visibleBias.setZero();
    for (Eigen::Index w = 0; w < 12; ++w) planted.weights(w, w / 4) += 3.0;
    planted.hiddenBias.setConstant(-1.3);
    const auto train = exactDocuments(planted, 3000, 20, 9);
    const auto test = exactDocuments(planted, 1000, 20, 10);
    const double truth = meanRsmLogLikelihood(planted, test);
    rsm::RbmParameters unigram(12, 0);
    unigram.visibleBias = rsm::logWordFrequencies(train);
    const double baseline = meanRsmLogLikelihood(unigram, test);
    QVERIFY2(truth > baseline + 8.0, qPrintable(QStringLiteral("planted %1, unigram %2").arg(truth).arg(baseline)));

    rsm::ContrastiveDivergence cd;
    cd.batchSize = 50;
    cd.weightDecay = 0.0;
    cd.adaptive = adaptive;
    if (adaptive) cd.momentum = 0.9;
    const Eigen::VectorXd lengths = rsm::documentLengths(train);
    rsm::RsmTrainer trainer(cd, rsm::initialRsmParameters(train, 3, 11, adaptive ? 0.1 : 0.01), 12, lengths);
    auto order = identityOrder(train.rows());
    core::Rng shuffle(13);
    for (int epoch = 0; epoch < 60; ++epoch) {
      shuffle.shuffle(std::span<Eigen::Index>(order));
      trainer.epoch(train, lengths, order,
                    adaptive ? rsm::learningRateAt(0.01, 0.9, epoch + 1) : (epoch < 30 ? 0.03 : 0.01), {});
    }
    const double fitted = meanRsmLogLikelihood(trainer.parameters(), test);
    qInfo("closed %.3f of the gap (held-out %.3f, planted %.3f, unigram %.3f)",
          (fitted - baseline) / (truth - baseline), fitted, truth, baseline);
    QVERIFY2(fitted > baseline + share * (truth - baseline),
             qPrintable(QStringLiteral("held-out %1, planted %2, unigram %3").arg(fitted).arg(truth).arg(baseline)));
  }

  void trainingIsTheSameOnAnyThreadCount() {
    const auto data = exactDocuments(test::randomRsm(30, 4, 1.0, 14), 300, 15, 15);
    auto train = [&](int threads) {
      tbb::task_arena arena(threads);
      return arena.execute([&] {
        rsm::ContrastiveDivergence cd;
        cd.batchSize = 64;
        rsm::RsmTrainer trainer(cd, rsm::initialRsmParameters(data, 4, 16), 17);
        trainer.epoch(data, rsm::documentLengths(data), identityOrder(data.rows()), 0.01, {});
        return trainer.parameters().weights;
      });
    };
    QCOMPARE(train(1), train(2));
  }

  void stopBeforeAnEpochLeavesTheParameters() {
    const auto data = exactDocuments(test::randomRsm(10, 2, 1.0, 18), 100, 10, 19);
    const auto start = rsm::initialRsmParameters(data, 2, 20);
    rsm::RsmTrainer trainer({}, start, 21);
    std::stop_source stop;
    stop.request_stop();
    QVERIFY(!trainer.epoch(data, rsm::documentLengths(data), identityOrder(data.rows()), 0.01, stop.get_token()));
    QCOMPARE(trainer.parameters().weights, start.weights);
  }

  void stopInsideAMinibatch_data() {
    QTest::addColumn<bool>("persistent");
    QTest::newRow("cd") << false;
    QTest::newRow("pcd") << true;
  }
  void stopInsideAMinibatch() {
    // A stop requested while a minibatch is sampled ends it before the documents not yet started
    // and drops its step (issue 21: rsm at K = 200 on SOTU looked at the stop once per minibatch,
    // about half a second). The stop comes from another thread once the trainer's own count shows
    // a few documents done, so it lands inside the minibatch on any machine; the documents
    // sampled after it are counted, not timed.
    QFETCH(bool, persistent);
    constexpr Eigen::Index V = 4000, K = 200;
    constexpr std::int64_t documents = 400;
    core::Rng rng(23, 0);
    std::vector<Eigen::Triplet<double>> entries;
    for (std::int64_t d = 0; d < documents; ++d)
      for (int n = 0; n < 60; ++n) entries.emplace_back(static_cast<int>(d), static_cast<int>(rng.below(V)), 1.0);
    rsm::WordCounts data(documents, V);
    data.setFromTriplets(entries.begin(), entries.end());
    const Eigen::VectorXd lengths = rsm::documentLengths(data);
    rsm::ContrastiveDivergence cd;
    cd.batchSize = documents;
    cd.persistent = persistent;
    cd.particles = documents;
    const auto start = rsm::initialRsmParameters(data, K, 24);
    rsm::RsmTrainer trainer(cd, start, 25, lengths);
    std::stop_source source;
    std::int64_t sampledAtStop = -1;
    std::thread stopper([&] {
      while (trainer.rowsSampled() < 4) std::this_thread::yield();
      sampledAtStop = trainer.rowsSampled();
      source.request_stop();
    });
    bool complete = true;
    tbb::task_arena arena(1);
    arena.execute(
        [&] { complete = trainer.epoch(data, lengths, identityOrder(data.rows()), 0.01, source.get_token()); });
    stopper.join();
    QVERIFY(!complete);
    QCOMPARE(trainer.updates(), std::int64_t{0});
    QCOMPARE(trainer.parameters().weights, start.weights);
    const auto after = trainer.rowsSampled() - sampledAtStop;
    qInfo("documents and particles sampled after the stop request: %lld of %lld", static_cast<long long>(after),
          static_cast<long long>(persistent ? 2 * documents : documents));
    QVERIFY2(after < documents / 4, qPrintable(QString::number(after)));
  }
};

LATENT_TEST_CASE(ReplicatedSoftmaxTest)
#include "tst_replicated_softmax.moc"
