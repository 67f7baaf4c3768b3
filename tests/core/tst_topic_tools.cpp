// SPDX-License-Identifier: GPL-3.0-or-later
// The tools every topic model shares: synthetic LDA corpora, topic matching, held-out scoring and
// fold-ins, Dirichlet hyperparameter updates.
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "core/data/synthetic_lda.hpp"
#include "core/eval/topic_evaluation.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/models/topic/dirichlet_hyperparameters.hpp"
#include "core/util/random.hpp"
#include "core/util/special_functions.hpp"
#include "test_case.hpp"

using namespace latent;

class TopicToolsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void hungarianMatchesBruteForce() {
    core::Rng rng(4);
    for (int trial = 0; trial < 20; ++trial) {
      const int n = 6;
      Eigen::MatrixXd cost(n, n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) cost(i, j) = rng.uniform();
      const auto assignment = core::minimumCostAssignment(cost);
      double got = 0;
      for (int i = 0; i < n; ++i) got += cost(i, assignment[static_cast<std::size_t>(i)]);
      std::vector<int> perm(n);
      std::iota(perm.begin(), perm.end(), 0);
      double best = 1e300;
      do {
        double c = 0;
        for (int i = 0; i < n; ++i) c += cost(i, perm[static_cast<std::size_t>(i)]);
        best = std::min(best, c);
      } while (std::next_permutation(perm.begin(), perm.end()));
      QVERIFY(std::abs(got - best) < 1e-12);
    }
  }

  void matchingUndoesAPermutation() {
    core::Rng rng(8);
    Eigen::MatrixXd truth(4, 30);
    for (int k = 0; k < 4; ++k) truth.row(k) = core::sampleSymmetricDirichlet(rng, 30, 0.1).transpose();
    const std::vector<int> order{2, 0, 3, 1};
    Eigen::MatrixXd estimated(4, 30);
    for (int k = 0; k < 4; ++k) estimated.row(k) = truth.row(order[static_cast<std::size_t>(k)]);
    const auto match = core::matchTopics(estimated, truth);
    QCOMPARE(match.truthForEstimate, order);
    QCOMPARE(match.meanTotalVariation, 0.0);
  }

  void syntheticCorpusFollowsItsSpec() {
    core::SyntheticLdaSpec spec;
    spec.topics = 5;
    spec.vocabulary = 100;
    spec.documents = 400;
    spec.meanLength = 60;
    spec.seed = 3;
    const auto a = core::generateLdaCorpus(spec);
    const auto b = core::generateLdaCorpus(spec);
    QCOMPARE(a.corpus.tokens, b.corpus.tokens);  // reproducible
    QCOMPARE(a.corpus.documentCount(), std::size_t{400});
    const double meanLength = static_cast<double>(a.corpus.tokenCount()) / 400.0;
    QVERIFY2(std::abs(meanLength - 60) < 2.0, qPrintable(QString::number(meanLength)));
    for (int k = 0; k < 5; ++k) QVERIFY(std::abs(a.topicWord.row(k).sum() - 1.0) < 1e-12);
    // Empirical word frequencies of each true topic follow phi: compare pooled counts.
    Eigen::MatrixXd counts = Eigen::MatrixXd::Zero(5, 100);
    for (std::size_t d = 0; d < 400; ++d) {
      const auto words = a.corpus.document(d);
      for (std::size_t i = 0; i < words.size(); ++i) counts(a.assignments[d][i], words[i]) += 1;
    }
    for (int k = 0; k < 5; ++k) {
      const Eigen::VectorXd empirical = counts.row(k).transpose() / counts.row(k).sum();
      QVERIFY(core::totalVariation(empirical, a.topicWord.row(k).transpose()) < 0.1);
    }
  }

  void heldoutScoreByHand() {
    // Two topics over three words; the fold-in is replaced by a fixed theta so the arithmetic is
    // checkable: p(w) = 0.5 phi_0w + 0.5 phi_1w.
    Eigen::MatrixXd phi(2, 3);
    phi << 0.5, 0.5, 0.0,  //
        0.0, 0.5, 0.5;
    core::HeldoutDocuments h;
    h.observed.words = h.scored.words = {"a", "b", "c"};
    h.documents = {0};
    h.observed.addDocument("1", "", std::vector<std::int32_t>{0});
    h.scored.addDocument("1", "", std::vector<std::int32_t>{1, 2});
    core::FoldIn half = [](std::span<const std::int32_t>, std::uint64_t, Eigen::Ref<Eigen::VectorXd> theta) {
      theta << 0.5, 0.5;
    };
    const auto score = core::scoreHeldout(h, phi, half, core::HeldoutProtocol::DocumentCompletion, 1);
    // p(b) = 0.5, p(c) = 0.25: perplexity exp(-(ln 0.5 + ln 0.25) / 2) = 2^1.5.
    QVERIFY(std::abs(score.perplexity - std::pow(2.0, 1.5)) < 1e-12);
    QCOMPARE(score.tokens, std::int64_t{2});
    const auto full = core::scoreHeldout(h, phi, half, core::HeldoutProtocol::FullFoldingIn, 1);
    // All three words: p(a) = 0.25, p(b) = 0.5, p(c) = 0.25.
    QVERIFY(std::abs(full.perplexity - std::exp(-(std::log(0.25) * 2 + std::log(0.5)) / 3)) < 1e-12);
    QCOMPARE(full.tokens, std::int64_t{3});
  }

  void mixtureFoldInIsTheComponentPosterior() {
    Eigen::MatrixXd phi(2, 2);
    phi << 0.9, 0.1,  //
        0.2, 0.8;
    Eigen::VectorXd pi(2);
    pi << 0.3, 0.7;
    Eigen::VectorXd theta(2);
    const std::vector<std::int32_t> words{0, 0, 1};
    core::mixtureFoldIn(phi, pi)(words, 0, theta);
    const double a = 0.3 * 0.9 * 0.9 * 0.1, b = 0.7 * 0.2 * 0.2 * 0.8;
    QVERIFY(std::abs(theta[0] - a / (a + b)) < 1e-12);
  }

  void foldInsRecoverALongDocumentsMixture() {
    core::Rng rng(12);
    Eigen::MatrixXd phi(3, 60);
    for (int k = 0; k < 3; ++k) phi.row(k) = core::sampleSymmetricDirichlet(rng, 60, 0.05).transpose();
    Eigen::VectorXd truth(3);
    truth << 0.6, 0.3, 0.1;
    std::vector<std::int32_t> words;
    for (int i = 0; i < 3000; ++i) {
      double u = rng.uniform();
      int k = u < 0.6 ? 0 : u < 0.9 ? 1 : 2;
      double v = rng.uniform();
      int w = 0;
      while (w + 1 < 60 && (v -= phi(k, w)) > 0) ++w;
      words.push_back(w);
    }
    Eigen::VectorXd alpha = Eigen::VectorXd::Constant(3, 0.1), theta(3);
    for (const auto& [name, foldIn] :
         std::vector<std::pair<const char*, core::FoldIn>>{{"variational", core::variationalFoldIn(phi, alpha)},
                                                           {"gibbs", core::gibbsFoldIn(phi, alpha)},
                                                           {"em", core::emFoldIn(phi)}}) {
      foldIn(words, 5, theta);
      QVERIFY2(std::abs(theta.sum() - 1.0) < 1e-9, name);
      QVERIFY2(core::totalVariation(theta, truth) < 0.03,
               qPrintable(QString("%1: %2").arg(name).arg(core::totalVariation(theta, truth))));
    }
  }

  // The Gibbs fold-in's theta is E[(n_dk + alpha_k) / (N_d + alpha_0) | words, phi]; for short
  // documents that posterior mean can be computed by enumerating every assignment z, with
  // p(z | w) ~ prod_i phi_{z_i w_i} prod_k Gamma(n_k + alpha_k) / Gamma(alpha_k). Two cases: few
  // topics and a repeated word (the document part of the sparse draw), and more topics than
  // tokens, so that most draws come from the smoothing part's cumulative sums.
  void gibbsFoldInMatchesTheEnumeratedPosterior() {
    struct Case {
      int topics, vocabulary;
      std::vector<std::int32_t> words;
    };
    core::Rng rng(31);
    for (const Case& c : {Case{3, 4, {0, 1, 1, 3, 2}}, Case{40, 6, {5, 0, 5}}}) {
      const int K = c.topics;
      Eigen::MatrixXd phi(K, c.vocabulary);
      for (int k = 0; k < K; ++k) phi.row(k) = core::sampleSymmetricDirichlet(rng, c.vocabulary, 0.5).transpose();
      Eigen::VectorXd alpha(K);
      for (int k = 0; k < K; ++k) alpha[k] = 0.05 + 0.5 * rng.uniform();
      const auto n = c.words.size();
      const double alpha0 = alpha.sum();

      Eigen::VectorXd exact = Eigen::VectorXd::Zero(K);
      double normaliser = 0.0;
      std::vector<int> z(n, 0), counts(static_cast<std::size_t>(K), 0);
      for (bool more = true; more;) {
        std::fill(counts.begin(), counts.end(), 0);
        double logWeight = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
          logWeight += std::log(phi(z[i], c.words[i]));
          ++counts[static_cast<std::size_t>(z[i])];
        }
        for (int k = 0; k < K; ++k)
          logWeight += std::lgamma(counts[static_cast<std::size_t>(k)] + alpha[k]) - std::lgamma(alpha[k]);
        const double weight = std::exp(logWeight);
        normaliser += weight;
        for (int k = 0; k < K; ++k)
          exact[k] += weight * (counts[static_cast<std::size_t>(k)] + alpha[k]) / (static_cast<double>(n) + alpha0);
        std::size_t i = 0;  // next assignment, as an odometer
        while (i < n && ++z[i] == K) z[i++] = 0;
        more = i < n;
      }
      exact /= normaliser;

      Eigen::VectorXd theta(K);
      core::gibbsFoldIn(phi, alpha, 200000, 100)(c.words, 7, theta);
      QVERIFY(std::abs(theta.sum() - 1.0) < 1e-9);
      const double gap = (theta - exact).cwiseAbs().maxCoeff();
      QVERIFY2(gap < 0.004, qPrintable(QString("K %1: largest gap %2").arg(K).arg(gap)));
    }
  }

  // A long document whose columns do not all fit the fold-in's budget keeps its most frequent
  // words' columns and makes the others' at each of their tokens' draws: the same chain, to the
  // bit, with doubles and with floats, whatever the budget.
  void gibbsFoldInIsTheSameChainWithinAnyColumnBudget() {
    core::Rng rng(41);
    const int K = 40, V = 300;
    Eigen::MatrixXd phi(K, V);
    for (int k = 0; k < K; ++k) phi.row(k) = core::sampleSymmetricDirichlet(rng, V, 0.1).transpose();
    const Eigen::MatrixXf floats = phi.cast<float>();
    Eigen::VectorXd alpha(K);
    for (int k = 0; k < K; ++k) alpha[k] = 0.02 + 0.2 * rng.uniform();
    std::vector<std::int32_t> words;  // Zipf-like: a few words often, many once
    for (int i = 0; i < 400; ++i) words.push_back(static_cast<std::int32_t>(V * std::pow(rng.uniform(), 3.0)));
    std::vector<std::int32_t> distinct = words;
    std::sort(distinct.begin(), distinct.end());
    const auto D = static_cast<std::size_t>(std::unique(distinct.begin(), distinct.end()) - distinct.begin());
    QVERIFY(D > 50);

    const auto thetaOf = [&](const auto& topics, std::size_t budget) {
      Eigen::VectorXd theta(K);
      core::gibbsFoldIn(topics, alpha, 30, 10, budget)(words, 9, theta);
      return theta;
    };
    const auto check = [&](const auto& topics, std::size_t valueBytes) {
      const auto reference = thetaOf(topics, std::numeric_limits<std::size_t>::max());
      const std::size_t column = K * (valueBytes + sizeof(double));
      for (const std::size_t budget : {std::size_t{0}, column, 2 * column, 11 * column, D * column - 1, D * column,
                                       core::kGibbsFoldInColumnBudget}) {
        const auto theta = thetaOf(topics, budget);
        QVERIFY2(theta == reference, qPrintable(QString("budget %1 bytes").arg(budget)));
      }
    };
    check(phi, sizeof(double));
    check(floats, sizeof(float));
  }

  void gibbsFoldInKeepsTheMostFrequentWordsColumns() {
    // How many columns are kept: all within the budget, else as many as fit beside one more (its
    // values alone: 400 bytes here).
    const std::size_t column = 100 * (4 + 8);
    QCOMPARE(core::gibbsFoldInKeptColumns(10, 100, 4, 10 * column), std::size_t{10});
    QCOMPARE(core::gibbsFoldInKeptColumns(10, 100, 4, 10 * column - 1), std::size_t{9});
    QCOMPARE(core::gibbsFoldInKeptColumns(10, 100, 4, 9 * column + 399), std::size_t{8});
    QCOMPARE(core::gibbsFoldInKeptColumns(10, 100, 4, 3 * column), std::size_t{2});
    QCOMPARE(core::gibbsFoldInKeptColumns(10, 100, 4, column), std::size_t{0});
    QCOMPARE(core::gibbsFoldInKeptColumns(10, 100, 4, 399), std::size_t{0});

    // Which: a fold-in that may keep two columns reads those of the document's two most frequent
    // words once, and the others' again for their draws.
    struct CountingColumns final : core::TopicColumns {
      const Eigen::MatrixXd& phi;
      mutable std::map<std::int32_t, int> reads;
      explicit CountingColumns(const Eigen::MatrixXd& p) : phi(p) {}
      Eigen::Index topics() const override { return phi.rows(); }
      void column(std::int32_t w, double* out) const override {
        ++reads[w];
        for (Eigen::Index k = 0; k < phi.rows(); ++k) out[k] = phi(k, w);
      }
    };
    core::Rng rng(43);
    const int K = 5;
    Eigen::MatrixXd phi(K, 10);
    for (int k = 0; k < K; ++k) phi.row(k) = core::sampleSymmetricDirichlet(rng, 10, 0.5).transpose();
    const std::vector<std::int32_t> words{3, 1, 7, 3, 2, 3, 7, 9, 3, 7, 3, 3, 7, 3, 2};  // 3: 7 times, 7: 4
    const CountingColumns columns(phi);
    Eigen::VectorXd theta(K);
    core::gibbsFoldIn(columns, Eigen::VectorXd::Constant(K, 0.1), 6, 2, 3 * K * (8 + 8))(words, 1, theta);
    QCOMPARE(columns.reads[3], 1);
    QCOMPARE(columns.reads[7], 1);
    for (const std::int32_t w : {1, 2, 9}) QVERIFY2(columns.reads[w] > 1, qPrintable(QString::number(w)));
  }

  void alphaFixedPointRecoversAKnownPrior() {
    // Documents drawn from Dirichlet-multinomials with a known asymmetric alpha: the fixed point
    // on their count histograms should land near it.
    core::Rng rng(21);
    Eigen::VectorXd truth(4);
    truth << 0.05, 0.2, 0.5, 1.0;
    core::DocumentTopicHistograms h;
    h.topic.assign(4, std::vector<std::int64_t>(200, 0));
    h.length.assign(200, 0);
    for (int d = 0; d < 20000; ++d) {
      Eigen::VectorXd theta(4);
      for (int k = 0; k < 4; ++k) theta[k] = rng.gamma(truth[k]);
      theta /= theta.sum();
      std::vector<int> counts(4, 0);
      for (int i = 0; i < 50; ++i) {
        double u = rng.uniform();
        int k = 0;
        while (k < 3 && (u -= theta[k]) > 0) ++k;
        ++counts[static_cast<std::size_t>(k)];
      }
      ++h.length[50];
      for (int k = 0; k < 4; ++k)
        if (counts[static_cast<std::size_t>(k)] > 0)
          ++h.topic[static_cast<std::size_t>(k)][static_cast<std::size_t>(counts[static_cast<std::size_t>(k)])];
    }
    Eigen::VectorXd alpha = Eigen::VectorXd::Constant(4, 0.5);
    core::optimizeAsymmetricAlpha(alpha, h);
    for (int k = 0; k < 4; ++k)
      QVERIFY2(std::abs(alpha[k] - truth[k]) < 0.1 * truth[k],
               qPrintable(QString("%1 vs %2").arg(alpha[k]).arg(truth[k])));
  }

  void alphaFromMeanLogRecoversAKnownPrior() {
    core::Rng rng(22);
    Eigen::VectorXd truth(3);
    truth << 0.3, 1.5, 4.0;
    Eigen::VectorXd meanLog = Eigen::VectorXd::Zero(3);
    const int n = 50000;
    for (int d = 0; d < n; ++d) {
      Eigen::VectorXd theta(3);
      for (int k = 0; k < 3; ++k) theta[k] = rng.gamma(truth[k]);
      meanLog += (theta / theta.sum()).array().log().matrix();
    }
    meanLog /= n;
    Eigen::VectorXd alpha = Eigen::VectorXd::Ones(3);
    core::optimizeAlphaFromMeanLog(alpha, meanLog);
    for (int k = 0; k < 3; ++k)
      QVERIFY2(std::abs(alpha[k] - truth[k]) < 0.05 * truth[k], qPrintable(QString::number(alpha[k])));
  }

  void symmetricPriorsFromCountsAndLogs() {
    // Topic-word counts from Dirichlet(0.05)-multinomials over 200 words.
    core::Rng rng(23);
    const double truth = 0.05;
    core::TopicWordHistograms h;
    h.count.assign(5001, 0);
    h.topicSize.assign(5001, 0);
    double sumLog = 0;
    const int K = 300, V = 200, N = 5000;
    for (int k = 0; k < K; ++k) {
      const Eigen::VectorXd phi = core::sampleSymmetricDirichlet(rng, V, truth);
      sumLog += phi.array().max(1e-300).log().sum();
      std::vector<int> counts(V, 0);
      for (int i = 0; i < N; ++i) {
        double u = rng.uniform();
        int w = 0;
        while (w + 1 < V && (u -= phi[w]) > 0) ++w;
        ++counts[static_cast<std::size_t>(w)];
      }
      for (const int c : counts)
        if (c > 0) ++h.count[static_cast<std::size_t>(c)];
      ++h.topicSize[N];
    }
    const double beta = core::optimizeSymmetricBeta(0.5, V, h);
    QVERIFY2(std::abs(beta - truth) < 0.1 * truth, qPrintable(QString::number(beta)));
    const double eta = core::optimizeSymmetricEtaFromLog(0.5, K, V, sumLog);
    QVERIFY2(std::abs(eta - truth) < 0.1 * truth, qPrintable(QString::number(eta)));
  }
};

LATENT_TEST_CASE(TopicToolsTest)
#include "tst_topic_tools.moc"
