// SPDX-License-Identifier: GPL-3.0-or-later
// The wordwise LDA Gibbs sampler (lda_gibbs_wordwise_kernel.hpp): its draws against the exact
// conditional (000 eq. 27.37) after sweeps that moved its word and document counts, through its
// own token step (the others' draws are checked in tst_lda_gibbs.cpp). It runs beside the other
// samplers in tst_lda_gibbs.cpp (its chain against the enumerated posterior, its counts after
// sweeps against a recount, the same chain for the same seed and partitions, the log joint
// reported), tst_lda_gibbs_snapshots.cpp and the evidence suite (planted topics, held-out
// perplexity).
#include <QtTest>

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

}  // namespace

class LdaGibbsWordwiseTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  // The tokens the sparse sampler's test draws, in both widths, with one partition and with two.
  void conditionalIsExact() {
    checkConditional<std::uint32_t>(1, 1, 9);
    checkConditional<std::uint64_t>(2, 2, 15);
  }
};

LATENT_TEST_CASE(LdaGibbsWordwiseTest)
#include "tst_lda_gibbs_wordwise.moc"
