// SPDX-License-Identifier: GPL-3.0-or-later
// LDA Gibbs against truth: topics recovered from corpora drawn from LDA (both samplers), the two
// samplers agreeing on held-out perplexity, and optimised hyperparameters finding an asymmetric
// alpha that generated the data and predicting better than a fixed symmetric one.
#include <QtTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "../models/lda_gibbs_test_support.hpp"
#include "core/data/synthetic_lda.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/models/topic/lda_gibbs_warp_kernel.hpp"
#include "core/util/random.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

Eigen::MatrixXd topicWordOf(const core::FitResult& r) { return r.matrices.at(0).values; }

// Every fit here is the chain of two partitions (as two threads run it), sampled on one thread: the
// same numbers, without the second thread's waits at each round, which cost about a tenth more
// processor time, and CI runs another suite beside this one.
test::Fitted fitTwoPartitions(const core::CorpusSplit& split, std::int64_t documents, nlohmann::json options,
                              std::uint64_t seed) {
  options["partitions"] = 2;
  return test::fitLdaGibbs(split, documents, options, seed, 1);
}

// LDA's generative process with an asymmetric alpha (generateLdaCorpus draws symmetric ones).
struct Generated {
  core::Corpus corpus;
  Eigen::MatrixXd topicWord;
};
Generated generateAsymmetric(const Eigen::VectorXd& alpha, int vocabulary, int documents, int length, double beta,
                             std::uint64_t seed) {
  core::Rng rng(seed);
  const auto K = alpha.size();
  Generated g;
  g.topicWord.resize(K, vocabulary);
  for (Eigen::Index k = 0; k < K; ++k)
    g.topicWord.row(k) = core::sampleSymmetricDirichlet(rng, vocabulary, beta).transpose();
  std::vector<std::vector<std::int32_t>> docs;
  Eigen::VectorXd theta(K);
  for (int d = 0; d < documents; ++d) {
    for (Eigen::Index k = 0; k < K; ++k) theta[k] = rng.gamma(alpha[k]) + 1e-300;
    theta /= theta.sum();
    std::vector<std::int32_t> doc;
    for (int i = 0; i < length; ++i) {
      double u = rng.uniform();
      Eigen::Index k = 0;
      while (k + 1 < K && (u -= theta[k]) > 0) ++k;
      u = rng.uniform();
      int w = 0;
      while (w + 1 < vocabulary && (u -= g.topicWord(k, w)) > 0) ++w;
      doc.push_back(w);
    }
    docs.push_back(std::move(doc));
  }
  g.corpus = test::corpusFromIds(vocabulary, docs);
  return g;
}

}  // namespace

class LdaGibbsEvidence : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // The warp sampler is approximate (lda_gibbs_warp_kernel.hpp): its chain does not end at the
  // posterior, but near it. On two enumerable corpora it ended 0.06 to 0.11 away
  // (2026-11-24), where the exact samplers end within the Monte Carlo noise of about 0.015. On
  // corpora of a few tokens every token is a large part of the counts its proposals were drawn
  // from, so this is where a phase's delay weighs most.
  void warpChainIsNearThePosterior() {
    for (const int steps : {1, 2, 3, 4}) {  // 3: the steps read at run time, the others compiled in
      const double a = test::distanceFromPosterior<core::topic::WarpGibbsKernel>(test::posteriorCorpus(), steps);
      const double b = test::distanceFromPosterior<core::topic::WarpGibbsKernel>(
          test::corpusFromIds(4, {{0, 1, 0, 2}, {3}, {2, 2, 1, 0}}), steps);
      qInfo("mh_steps %d: total variation %.4f and %.4f", steps, a, b);
      QVERIFY2(a < 0.15 && b < 0.15,
               qPrintable(QString("mh_steps %1: total variation %2 and %3").arg(steps).arg(a).arg(b)));
    }
  }

  void recoversTopics_data() {
    QTest::addColumn<int>("topics");
    QTest::addColumn<int>("vocabulary");
    QTest::addColumn<int>("documents");
    QTest::addColumn<int>("length");
    QTest::addColumn<QString>("sampler");
    for (const char* sampler : {"sparse", "wordwise", "alias", "warp"}) {
      QTest::addRow("K5 V200 short %s", sampler) << 5 << 200 << 400 << 40 << sampler;
      QTest::addRow("K10 V500 %s", sampler) << 10 << 500 << 500 << 100 << sampler;
    }
    // 200,000 tokens for 10,000 topic-word parameters. (With 100,000 tokens for 20,000, topics
    // estimated from the TRUE assignments were already 0.066 from the truth: no room for a test.)
    // With the default sampler only: alias and warp recovered these topics as well (mean TV 0.049
    // and 0.046 against sparse's 0.045) in 36 of this suite's 119 seconds, and they are compared
    // with it on held-out perplexity below.
    QTest::addRow("K20 V500 long sparse") << 20 << 500 << 1000 << 200 << QString("sparse");
  }
  // After Hungarian matching the mean total-variation distance to the true topics is below 0.1.
  void recoversTopics() {
    QFETCH(int, topics);
    QFETCH(int, vocabulary);
    QFETCH(int, documents);
    QFETCH(int, length);
    QFETCH(QString, sampler);
    core::SyntheticLdaSpec spec;
    spec.topics = topics;
    spec.vocabulary = vocabulary;
    spec.documents = documents;
    spec.meanLength = length;
    spec.seed = 21;
    const auto truth = core::generateLdaCorpus(spec);
    const auto fit = fitTwoPartitions(test::wholeCorpus(truth.corpus), documents,
                                      {{"k", topics}, {"sampler", sampler.toStdString()}}, 3);
    const auto match = core::matchTopics(topicWordOf(fit.result), truth.topicWord);
    qInfo("mean TV %.4f, max TV %.4f", match.meanTotalVariation, match.maxTotalVariation);
    QVERIFY2(match.meanTotalVariation < 0.1, qPrintable(QString("mean TV %1").arg(match.meanTotalVariation)));
  }

  // The exact samplers target the same posterior, so on the same split they predict equally well;
  // the approximate warp sampler comes as close on this corpus. A single chain can stay in a mode
  // with two true topics merged (held-out perplexity 7-11% worse here; on eight seeds with two
  // partitions alias, with its one start, did so twice, warp once, sparse after its six starts
  // never), so each sampler is judged by the best of three chains.
  void samplersAgreeOnHeldoutPerplexity() {
    core::SyntheticLdaSpec spec;
    spec.topics = 10;
    spec.vocabulary = 500;
    spec.documents = 600;
    spec.meanLength = 100;
    spec.seed = 8;
    const auto truth = core::generateLdaCorpus(spec);
    const auto split = core::splitForDocumentCompletion(truth.corpus, 0.15, 4);
    // The fourth: the sparse sampler after 100 warp sweeps from each start (option warp_start).
    const char* names[5] = {"sparse", "alias", "warp", "sparse after warp_start", "wordwise"};
    double perplexity[5];
    for (int i = 0; i < 5; ++i) {
      nlohmann::json options = {{"k", 10}, {"iterations", 300}, {"sampler", i == 3 ? "sparse" : names[i]}};
      if (i == 3) options["warp_start"] = 100;
      perplexity[i] = std::numeric_limits<double>::infinity();
      for (std::uint64_t seed = 1; seed <= 3; ++seed)
        perplexity[i] = std::min(perplexity[i], fitTwoPartitions(split, spec.documents, options, seed)
                                                    .result.finalMetrics["heldout_perplexity"]
                                                    .get<double>());
    }
    qInfo(
        "held-out perplexity, best of three chains: sparse %.3f, alias %.3f, warp %.3f, sparse after warp_start %.3f, "
        "wordwise %.3f",
        perplexity[0], perplexity[1], perplexity[2], perplexity[3], perplexity[4]);
    for (int j = 1; j < 5; ++j)
      QVERIFY2(std::abs(perplexity[0] - perplexity[j]) < 0.03 * perplexity[0],
               qPrintable(QString("sparse %1 vs %2 %3").arg(perplexity[0]).arg(names[j]).arg(perplexity[j])));
  }

  // More sweeps must not make the topics worse. With K five times the true number (as K = 1000 is
  // for most corpora) and alpha and beta re-estimated every 20 sweeps after 50, the held-out
  // perplexity after 400 and 800 sweeps may not exceed that after 200 by more than the chains'
  // own Monte Carlo noise: the spread of three seeds at 200 sweeps. A fault in the averaging of the
  // last fifth's samples, or an alpha that the re-estimation drives towards zero for the spare
  // topics, shows here as a perplexity that rises with the sweeps. The same holds for the
  // left-to-right estimate of document completion, which needs no point estimate of a document's
  // topic mixture: the reference that a fold-in's figure must agree with (a variational fold-in
  // does not, with the small alpha re-estimation reaches at large K; tests/benchmarks/README.md).
  void moreSweepsDoNotHurtWithTooManyTopics() {
    core::SyntheticLdaSpec spec;
    spec.topics = 12;
    spec.vocabulary = 600;
    spec.documents = 600;
    spec.meanLength = 80;
    spec.seed = 11;
    const auto truth = core::generateLdaCorpus(spec);
    const auto split = core::splitForDocumentCompletion(truth.corpus, 0.15, 3);
    const std::array<std::int64_t, 3> sweeps{200, 400, 800};
    using BySweeps = std::array<std::array<double, 3>, 3>;  // [sweeps][seed]
    BySweeps foldIn{}, leftToRight{};
    for (std::size_t s = 0; s < sweeps.size(); ++s)
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        const auto fit = fitTwoPartitions(split, spec.documents,
                                          {{"k", 60},
                                           {"iterations", sweeps[s]},
                                           {"restarts", 1},
                                           {"left_to_right_particles", 20},
                                           {"left_to_right_documents", 45}},
                                          seed);
        foldIn[s][seed - 1] = fit.result.finalMetrics["heldout_perplexity"].get<double>();
        leftToRight[s][seed - 1] = fit.result.finalMetrics["heldout_perplexity_left_to_right_completion"].get<double>();
      }
    const auto median = [](std::array<double, 3> v) {
      std::sort(v.begin(), v.end());
      return v[1];
    };
    const auto check = [&](const BySweeps& perplexity, const char* estimator) {
      const double noise = *std::max_element(perplexity[0].begin(), perplexity[0].end()) -
                           *std::min_element(perplexity[0].begin(), perplexity[0].end());
      for (std::size_t s = 0; s < sweeps.size(); ++s)
        qInfo("%s, %lld sweeps: %.2f %.2f %.2f, median %.2f", estimator, static_cast<long long>(sweeps[s]),
              perplexity[s][0], perplexity[s][1], perplexity[s][2], median(perplexity[s]));
      for (std::size_t s = 1; s < sweeps.size(); ++s)
        QVERIFY2(median(perplexity[s]) <= median(perplexity[0]) + noise,
                 qPrintable(QString("%1, %2 sweeps: median %3 against %4 after 200 (seed spread %5)")
                                .arg(estimator)
                                .arg(sweeps[s])
                                .arg(median(perplexity[s]))
                                .arg(median(perplexity[0]))
                                .arg(noise)));
    };
    check(foldIn, "Gibbs fold-in");
    check(leftToRight, "left-to-right document completion");
  }

  // Data from an asymmetric alpha: the optimised alpha (matched to the true topics) comes close
  // to it, beta close to the generating one, and held-out perplexity beats a fixed symmetric alpha.
  void optimisedHyperparametersFindTheTruth() {
    Eigen::VectorXd alpha(8);
    alpha << 1.2, 0.8, 0.5, 0.3, 0.2, 0.1, 0.1, 0.05;
    const double beta = 0.05;
    const auto g = generateAsymmetric(alpha, 400, 1200, 60, beta, 5);
    const auto split = core::splitForDocumentCompletion(g.corpus, 0.2, 2);
    // 1500 sweeps: after 400 a chain still had two true topics in one (mean TV 0.21). Even after
    // 1500 and the restarts, some chains keep two true topics merged (two of seeds 1-8 with two
    // partitions, mean TV 0.12-0.22 where the others reach 0.076), so the fit is the better of two
    // seeds by held-out perplexity, as a user would choose; it must not pick the merged one. Not by
    // the log joint: with alpha re-estimated, a merged chain had the highest of the eight (-279,929
    // against -280,339 to -280,974) and a held-out perplexity 1% worse (101.1 against 100.1-100.4).
    // The optimised side's pick of two barely moves the comparison with the fixed alpha below
    // (100.2 against 104.7).
    const auto fitSeed = [&](std::uint64_t seed) {
      return fitTwoPartitions(split, 1200,
                              {{"k", 8}, {"iterations", 1500}, {"optimize_every", 10}, {"optimize_burn_in", 50}}, seed);
    };
    auto optimised = fitSeed(4);
    auto other = fitSeed(5);
    if (other.result.finalMetrics["heldout_perplexity"].get<double>() <
        optimised.result.finalMetrics["heldout_perplexity"].get<double>())
      optimised = std::move(other);
    const auto fixed =
        fitTwoPartitions(split, 1200, {{"k", 8}, {"iterations", 1500}, {"optimize_every", 0}, {"alpha", 0.1}}, 4);
    const auto match = core::matchTopics(topicWordOf(optimised.result), g.topicWord);
    qInfo("mean TV %.4f, max TV %.4f", match.meanTotalVariation, match.maxTotalVariation);
    QVERIFY(match.meanTotalVariation < 0.1);
    const Eigen::RowVectorXd found = optimised.result.matrices.at(2).values;
    QString table;
    for (int k = 0; k < 8; ++k) {
      const double truth = alpha[match.truthForEstimate[static_cast<std::size_t>(k)]];
      table += QString(" %1/%2").arg(found[k], 0, 'f', 3).arg(truth);
      QVERIFY2(std::abs(found[k] - truth) < 0.35 * truth + 0.03, qPrintable(QString("topic %1:%2").arg(k).arg(table)));
    }
    qInfo("alpha found/true:%s", qPrintable(table));
    QVERIFY2(std::abs(found.sum() - alpha.sum()) < 0.15 * alpha.sum(),
             qPrintable(QString("alpha sum %1").arg(found.sum())));
    const double betaFound = optimised.result.finalMetrics["beta"].get<double>();
    // Measured 0.067 for the generating 0.05: the rare topics' few tokens pull the estimate up.
    QVERIFY2(std::abs(betaFound - beta) < 0.4 * beta, qPrintable(QString("beta %1").arg(betaFound)));
    const double better = optimised.result.finalMetrics["heldout_perplexity"].get<double>();
    const double worse = fixed.result.finalMetrics["heldout_perplexity"].get<double>();
    qInfo("held-out perplexity: optimised %.3f, fixed symmetric alpha 0.1 %.3f", better, worse);
    QVERIFY2(better < worse, qPrintable(QString("optimised %1 vs fixed %2").arg(better).arg(worse)));
  }
};

LATENT_TEST_CASE(LdaGibbsEvidence)
#include "tst_lda_gibbs_evidence.moc"
