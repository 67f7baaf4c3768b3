// SPDX-License-Identifier: GPL-3.0-or-later
// The wordwise LDA Gibbs sampler (lda_gibbs_wordwise_kernel.hpp): its draws against the exact
// conditional (000 eq. 27.37) after sweeps that moved its word and document counts, its chain
// against the enumerated posterior (001 eq. 3), and its counts after sweeps against a recount.
// Through the model it runs beside the other samplers in tst_lda_gibbs.cpp (the same chain for
// the same seed and partitions, the log joint reported), tst_lda_gibbs_snapshots.cpp and the
// evidence suite (planted topics, held-out perplexity).
#include <QtTest>

#include <cstdint>
#include <vector>

#include "core/data/synthetic_lda.hpp"
#include "core/models/topic/lda_gibbs_wordwise_kernel.hpp"
#include "lda_gibbs_test_support.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using core::topic::LdaGibbsState;
using core::topic::WordwiseGibbsKernel;

namespace {

// Draws topics for token i of document d by repeated calls of the kernel's token step (the other
// assignments fixed), after two sweeps, so that the word and document counts it keeps must have
// followed the assignments (with several partitions, through rounds that each saw one group).
template <typename Packed>
void checkConditional(int partitions, std::size_t d, std::size_t i) {
  const auto corpus =
      test::corpusFromIds(6, {{0, 1, 2, 0, 1, 3, 0}, {2, 2, 3, 4, 0, 1}, {4, 5, 5, 1, 0, 2, 3}, {5, 4, 3, 0, 4, 5}});
  const int K = 4;
  Eigen::VectorXd alpha(K);
  alpha << 0.6, 0.3, 1.2, 0.4;
  const double beta = 0.5;
  LdaGibbsState state(corpus, K, 0.1, beta, partitions, 5);
  state.setAlpha(alpha);
  WordwiseGibbsKernel<Packed> kernel(state);
  std::vector<double> unused;
  const std::vector<std::int32_t> start(state.assignments().begin(), state.assignments().end());
  for (int sweep = 0; sweep < 2; ++sweep) QVERIFY(kernel.sweep({}, false, unused));
  QVERIFY2(!std::equal(start.begin(), start.end(), state.assignments().begin()), "the sweeps changed nothing");

  const Eigen::VectorXd exact = test::exactConditional(corpus, state.assignments(), K, alpha, beta, d, i);
  kernel.prepareSweep();
  std::size_t p = 0;
  while (state.partitions()[p].end <= d) ++p;
  auto& part = kernel.partition(p);
  part.beginSweep();
  part.beginWord(static_cast<std::size_t>(corpus.tokens[i]));
  const std::size_t j = part.orderOf(i);
  const int samples = 60000;
  Eigen::VectorXd tally = Eigen::VectorXd::Zero(K);
  for (int n = 0; n < samples; ++n) {
    part.sampleToken(j);
    tally[state.assignments()[i]] += 1.0;
  }
  part.endWord();
  double chi2 = 0.0;
  for (int k = 0; k < K; ++k) chi2 += std::pow(tally[k] - samples * exact[k], 2) / (samples * exact[k]);
  // 3 degrees of freedom: P(chi2 > 27.9) = 4e-6.
  QVERIFY2(chi2 < 27.9, qPrintable(QString("chi2 %1").arg(chi2)));
  // Every topic has real mass here, so a sampler that ignored a bucket would fail.
  QVERIFY2(exact.minCoeff() > 0.02,
           qPrintable(QString("token %1: smallest probability %2").arg(i).arg(exact.minCoeff())));
}

void checkCounts(int partitions) {
  core::SyntheticLdaSpec spec;
  spec.topics = 6;
  spec.vocabulary = 80;
  spec.documents = 40;
  spec.meanLength = 30;
  spec.seed = 4;
  const auto synthetic = core::generateLdaCorpus(spec);
  const int K = 7;
  LdaGibbsState state(synthetic.corpus, K, 0.2, 0.05, partitions, 11);
  WordwiseGibbsKernel<std::uint32_t> kernel(state);
  std::vector<double> logPrior;
  for (int sweep = 0; sweep < 4; ++sweep) QVERIFY(kernel.sweep({}, true, logPrior));
  const auto brute = test::bruteCounts(synthetic.corpus, state.assignments(), K);
  const auto V = static_cast<int>(synthetic.corpus.vocabularySize());
  Eigen::MatrixXi counted = Eigen::MatrixXi::Zero(V, K);
  for (int w = 0; w < V; ++w)
    kernel.forEachTopicOfWord(static_cast<std::size_t>(w),
                              [&](std::int32_t k, std::int64_t c) { counted(w, k) += static_cast<int>(c); });
  QVERIFY(counted == brute.wordTopic);
  for (int k = 0; k < K; ++k) QCOMPARE(kernel.topicTotals()[static_cast<std::size_t>(k)], std::int64_t{brute.topic[k]});
  QVERIFY(std::abs(logPrior[0] - state.logPriorOfAssignments()) < 1e-8 * std::abs(logPrior[0]));
}

}  // namespace

class LdaGibbsWordwiseTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // The tokens the sparse sampler's test draws, in both widths, with one partition and with two.
  void conditionalIsExact() {
    checkConditional<std::uint32_t>(1, 1, 9);
    checkConditional<std::uint64_t>(2, 2, 15);
  }

  // The whole chain on 9 tokens and K = 2 against the enumerated posterior P(Z | W) (001 eq. 3),
  // with a word seen once and a document of one word among them.
  void chainMatchesThePosterior() {
    const double noise = 0.03;  // Monte Carlo noise alone gives about 0.015 at this length
    double distance = test::distanceFromPosterior<WordwiseGibbsKernel<std::uint32_t>>(test::posteriorCorpus());
    QVERIFY2(distance < noise, qPrintable(QString("total variation %1").arg(distance)));
    distance = test::distanceFromPosterior<WordwiseGibbsKernel<std::uint32_t>>(
        test::corpusFromIds(4, {{0, 1, 0, 2}, {3}, {2, 2, 1, 0}}));
    QVERIFY2(distance < noise, qPrintable(QString("total variation %1").arg(distance)));
  }

  // The word counts and totals it keeps, and the log prior it reports, against a recount, after
  // sweeps of one partition and of three.
  void countsFollowTheAssignments() {
    checkCounts(1);
    checkCounts(3);
  }
};

LATENT_TEST_CASE(LdaGibbsWordwiseTest)
#include "tst_lda_gibbs_wordwise.moc"
