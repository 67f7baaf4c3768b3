// SPDX-License-Identifier: GPL-3.0-or-later
// The wordwise LDA Gibbs sampler (lda_gibbs_wordwise_kernel.hpp): its draws against the exact
// conditional (000 eq. 27.37) after sweeps that moved its word and document counts, through its
// own token step (the others' draws are checked in tst_lda_gibbs.cpp). It runs beside the other
// samplers in tst_lda_gibbs.cpp (its chain against the enumerated posterior, its counts after
// sweeps against a recount, the same chain for the same seed and partitions, the log joint
// reported), tst_lda_gibbs_snapshots.cpp and the evidence suite (planted topics, held-out
// perplexity).
#include <QtTest>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/models/topic/lda_gibbs_wordwise_kernel.hpp"
#include "lda_gibbs_test_support.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using core::topic::LdaGibbsState;
using core::topic::WordwiseGibbsKernel;

namespace {

// Both checks' corpus and priors: K = 4 topics, an asymmetric alpha, beta = 0.5.
constexpr int K = 4;
constexpr double beta = 0.5;
core::Corpus smallCorpus() {
  return test::corpusFromIds(6, {{0, 1, 2, 0, 1, 3, 0}, {2, 2, 3, 4, 0, 1}, {4, 5, 5, 1, 0, 2, 3}, {5, 4, 3, 0, 4, 5}});
}
Eigen::VectorXd asymmetricAlpha() {
  Eigen::VectorXd alpha(K);
  alpha << 0.6, 0.3, 1.2, 0.4;
  return alpha;
}

// Draws topics for token i of document d by repeated calls of the kernel's token step (the other
// assignments fixed), after two sweeps, so that the word and document counts it keeps must have
// followed the assignments (with several partitions, through rounds that each saw one group).
// All draws but the first take the document bucket on from the draw before, as the later tokens
// of one word in one document do; checkRunOfOneWordInOneDocument has the walk as well.
template <typename Packed>
void checkConditional(int partitions, std::size_t d, std::size_t i) {
  const auto corpus = smallCorpus();
  const Eigen::VectorXd alpha = asymmetricAlpha();
  LdaGibbsState state(corpus, K, 0.1, beta, partitions, 5);
  state.setAlpha(alpha);
  WordwiseGibbsKernel<Packed> kernel(state);
  std::vector<double> unused;
  const std::vector<std::int32_t> start(state.assignments().begin(), state.assignments().end());
  for (int sweep = 0; sweep < 2; ++sweep) QVERIFY(kernel.sweep({}, false, unused));
  kernel.synchronize(true);
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
    tally[kernel.topicAt(j)] += 1.0;
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

// A word's tokens in one document come one after another in the kernel's order, and all but the
// first of them take the document bucket from the one before instead of walking the document. Word
// 0 is thrice in document 0 (tokens 0, 3, 6) and once in document 1 (token 11); the kernel's token
// step is run on 11, 0, 3, 6 in turn, as a sweep visits them (0 after another document's token:
// the walk; 3 and 6: the bucket carried on), with everything else fixed. That is a Gibbs chain on
// the four tokens' topics given the others, whose stationary law is enumerated here over the K^4
// states (001 eq. 3), and each token's tally is checked against its exact marginal.
void checkRunOfOneWordInOneDocument() {
  const auto corpus = smallCorpus();
  const Eigen::VectorXd alpha = asymmetricAlpha();
  LdaGibbsState state(corpus, K, 0.1, beta, 1, 7);
  state.setAlpha(alpha);
  WordwiseGibbsKernel<std::uint32_t> kernel(state);
  std::vector<double> unused;
  for (int sweep = 0; sweep < 2; ++sweep) QVERIFY(kernel.sweep({}, false, unused));
  kernel.synchronize(true);

  const std::size_t tokens[] = {11, 0, 3, 6};
  std::vector<std::int32_t> z(state.assignments().begin(), state.assignments().end());
  Eigen::MatrixXd exact = Eigen::MatrixXd::Zero(K, 4);
  std::vector<double> logJoint;
  for (int state4 = 0; state4 < K * K * K * K; ++state4) {
    for (int t = 0, rest = state4; t < 4; ++t, rest /= K) z[tokens[t]] = rest % K;
    logJoint.push_back(test::bruteLogJoint(corpus, z, K, alpha, beta));
  }
  const double top = *std::max_element(logJoint.begin(), logJoint.end());
  for (int state4 = 0; state4 < K * K * K * K; ++state4)
    for (int t = 0, rest = state4; t < 4; ++t, rest /= K)
      exact(rest % K, t) += std::exp(logJoint[static_cast<std::size_t>(state4)] - top);
  exact /= exact.col(0).sum();

  kernel.prepareSweep();
  auto& part = kernel.partition(0);
  part.beginSweep();
  part.beginWord(0);
  std::size_t order[4];
  for (int t = 0; t < 4; ++t) order[t] = part.orderOf(tokens[t]);
  // The four draws of a cycle depend on each other; a tally every fourth cycle is near enough to
  // independent draws for the chi-squared bound below.
  const int samples = 40000;
  Eigen::MatrixXd tally = Eigen::MatrixXd::Zero(K, 4);
  for (int n = 0; n < 4 * samples; ++n) {
    for (const auto j : order) part.sampleToken(j);
    if (n % 4 == 3)
      for (int t = 0; t < 4; ++t) tally(kernel.topicAt(order[t]), t) += 1.0;
  }
  part.endWord();
  for (int t = 0; t < 4; ++t) {
    double chi2 = 0.0;
    for (int k = 0; k < K; ++k) chi2 += std::pow(tally(k, t) - samples * exact(k, t), 2) / (samples * exact(k, t));
    // 3 degrees of freedom: P(chi2 > 27.9) = 4e-6 for independent draws.
    QVERIFY2(chi2 < 27.9, qPrintable(QString("token %1: chi2 %2").arg(tokens[t]).arg(chi2)));
    QVERIFY2(exact.col(t).minCoeff() > 0.01,
             qPrintable(QString("token %1: smallest probability %2").arg(tokens[t]).arg(exact.col(t).minCoeff())));
  }
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
  void conditionalIsExactAlongARunOfOneWord() { checkRunOfOneWordInOneDocument(); }
};

LATENT_TEST_CASE(LdaGibbsWordwiseTest)
#include "tst_lda_gibbs_wordwise.moc"
