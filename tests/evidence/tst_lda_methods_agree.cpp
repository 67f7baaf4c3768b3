// SPDX-License-Identifier: GPL-3.0-or-later
// Gibbs and variational Bayes fit the same model (000 §27.3): on one generated corpus and one
// document-completion split, collapsed Gibbs, batch VB and online VB find the same topics (matched
// by the Hungarian method) and predict the held-out halves equally well.
#include <QtTest>

#include <tbb/task_arena.h>

#include <string>
#include <vector>

#include "core/data/synthetic_lda.hpp"
#include "core/eval/heldout.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/models/model.hpp"
#include "quiet_observer.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

struct Fit {
  Eigen::MatrixXd topicWord;
  double heldoutPerplexity = 0.0;
  nlohmann::json metrics;
};

Fit fitMethod(const std::string& model, const core::CorpusSplit& split, std::int64_t documents,
              const nlohmann::json& options, std::uint64_t seed = 11) {
  core::FitData data;
  data.corpus = &split.train;
  data.heldout = &split.heldout;
  data.trainDocuments = split.trainDocuments;
  data.fullDocumentCount = documents;
  auto instance = core::createModel(model);
  core::FitSettings settings;
  settings.options = core::resolveOptions(instance->info(), options);
  settings.seed = seed;
  settings.threads = 2;
  settings.evalEvery = 1000000;
  test::QuietObserver quiet;
  core::FitResult result;
  tbb::task_arena arena(2);
  arena.execute([&] { result = instance->fit(data, settings, quiet, {}); });
  Fit out;
  for (const auto& m : result.matrices)
    if (m.name == "topic_word") out.topicWord = m.values;
  out.heldoutPerplexity = result.finalMetrics["heldout_perplexity"].get<double>();
  out.metrics = result.finalMetrics;
  return out;
}

}  // namespace

class LdaMethodsAgree : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void gibbsAndVariationalBayesAgree() {
    core::SyntheticLdaSpec spec;
    spec.topics = 10;
    spec.vocabulary = 500;
    spec.documents = 800;
    spec.meanLength = 120;
    // Not every generated corpus: each method alone can stop in a local optimum with two true
    // topics merged into one (mean TV to the truth about 0.17). Measured on 2026-11-22 with these
    // settings, one start each: seed 31 lda-vb stuck (from mixture and random starts, and from a
    // 50-sweep Gibbs start tried and dropped), seed 32 lda-gibbs stuck, seed 35 lda-vb stuck;
    // seeds 33 and 34 both fine. Both now restart (restartsAvoidMergedTopics and
    // gibbsRestartsAvoidMergedTopics below); this corpus checks that the methods agree.
    spec.seed = 33;
    const auto truth = core::generateLdaCorpus(spec);
    const auto split = core::splitForDocumentCompletion(truth.corpus, 0.15, 5);
    const auto documents = static_cast<std::int64_t>(truth.corpus.documentCount());
    const auto gibbs = fitMethod("lda-gibbs", split, documents, {{"k", 10}});
    // Held-out perplexity within 3% of Gibbs for batch VB, 5% for online VB: its steps shrink as
    // (tau0 + t)^-kappa and stop short of the batch optimum (measured: Gibbs 89.9, batch 90.9,
    // online 93.3).
    struct Variational {
      std::string name;
      Fit fit;
      double tolerance;
    };
    const std::vector<Variational> variational = {
        {"lda-vb", fitMethod("lda-vb", split, documents, {{"k", 10}}), 0.03},
        {"lda-online", fitMethod("lda-online", split, documents, {{"k", 10}}), 0.05}};
    qInfo("held-out perplexity (document completion): lda-gibbs %.2f", gibbs.heldoutPerplexity);
    qInfo("lda-gibbs against the truth: mean TV %.4f",
          core::matchTopics(gibbs.topicWord, truth.topicWord).meanTotalVariation);
    for (const auto& [name, other, tolerance] : variational) {
      qInfo("%s against the truth: mean TV %.4f", name.c_str(),
            core::matchTopics(other.topicWord, truth.topicWord).meanTotalVariation);
      const auto match = core::matchTopics(other.topicWord, gibbs.topicWord);
      qInfo("%s: held-out perplexity %.2f; topics against lda-gibbs: mean TV %.4f, max TV %.4f", name.c_str(),
            other.heldoutPerplexity, match.meanTotalVariation, match.maxTotalVariation);
      QVERIFY2(match.meanTotalVariation < 0.1,
               qPrintable(QString("%1: mean TV %2").arg(name.c_str()).arg(match.meanTotalVariation)));
      QVERIFY2(std::abs(other.heldoutPerplexity - gibbs.heldoutPerplexity) < tolerance * gibbs.heldoutPerplexity,
               qPrintable(QString("%1 %2 against lda-gibbs %3")
                              .arg(name.c_str())
                              .arg(other.heldoutPerplexity)
                              .arg(gibbs.heldoutPerplexity)));
    }
  }

  // The corpora on which a single lda-vb start stays with two true topics merged: with the
  // default restarts the start with the highest bound after 10 passes is the one that continues,
  // and it finds the topics. Measured 2026-11-22 on corpora 31-40: one start stuck on 31, 35, 36,
  // 38 and 39 (mean TV 0.169-0.175), four starts 0.041-0.051 on all ten, never worse than one.
  void restartsAvoidMergedTopics() {
    for (const std::uint64_t seed : {31, 35, 36, 38, 39}) {
      core::SyntheticLdaSpec spec;
      spec.topics = 10;
      spec.vocabulary = 500;
      spec.documents = 800;
      spec.meanLength = 120;
      spec.seed = seed;
      const auto truth = core::generateLdaCorpus(spec);
      const auto split = core::splitForDocumentCompletion(truth.corpus, 0.15, 5);
      const auto documents = static_cast<std::int64_t>(truth.corpus.documentCount());
      const auto single = fitMethod("lda-vb", split, documents, {{"k", 10}, {"restarts", 1}});
      const auto restarted = fitMethod("lda-vb", split, documents, {{"k", 10}});
      const double singleTv = core::matchTopics(single.topicWord, truth.topicWord).meanTotalVariation;
      const double restartedTv = core::matchTopics(restarted.topicWord, truth.topicWord).meanTotalVariation;
      qInfo("corpus %d: lda-vb one start mean TV %.4f (perplexity %.2f), four starts %.4f (%.2f)", int(seed), singleTv,
            single.heldoutPerplexity, restartedTv, restarted.heldoutPerplexity);
      QVERIFY2(restartedTv < 0.1, qPrintable(QString("corpus %1: mean TV %2").arg(seed).arg(restartedTv)));
    }
  }

  // A corpus and run seed on which a single chain of the sparse sampler (2 partitions) stays with
  // two true topics merged to the end (the wordwise sampler's chain, auto's choice for these short
  // documents, does not on this seed: mean TV 0.044): log joint -4.811 nats per token, mean TV 0.158, where good chains
  // reach -4.74 and 0.044. Run seeds 1-40 on this corpus: 5 single chains stuck (14, 16, 25, 27
  // and 28; before the partitions kept their documents' counts between rounds, 10, 11, 16, 17 and
  // 20 of 1-24; with the word groups of equal totals before issue 22's sixteenth session, 4 and 7
  // of 1-14; with contiguous word ids before that, 2, 9, 31 and 33 of 1-40; with the AD-LDA
  // schedule before 2026-11-25, seed 11). With the default restarts the start with the highest
  // log joint after the two rounds of short chains continues (start 6 here; after 25 sweeps starts
  // 1, 2, 3 and 5 were at -4.86 to -4.88, the others -4.74 to -4.75) and finds the topics; the
  // restarts depend only on the seed, so a second run gives the same numbers.
  void gibbsRestartsAvoidMergedTopics() {
    core::SyntheticLdaSpec spec;
    spec.topics = 10;
    spec.vocabulary = 500;
    spec.documents = 800;
    spec.meanLength = 120;
    spec.seed = 32;
    const auto truth = core::generateLdaCorpus(spec);
    const auto split = core::splitForDocumentCompletion(truth.corpus, 0.15, 5);
    const auto documents = static_cast<std::int64_t>(truth.corpus.documentCount());
    const std::uint64_t runSeed = 14;
    const nlohmann::json sparse = {{"k", 10}, {"sampler", "sparse"}};
    auto oneStart = sparse;
    oneStart["restarts"] = 1;
    const auto single = fitMethod("lda-gibbs", split, documents, oneStart, runSeed);
    const auto restarted = fitMethod("lda-gibbs", split, documents, sparse, runSeed);
    const auto again = fitMethod("lda-gibbs", split, documents, sparse, runSeed);
    const double singleTv = core::matchTopics(single.topicWord, truth.topicWord).meanTotalVariation;
    const double restartedTv = core::matchTopics(restarted.topicWord, truth.topicWord).meanTotalVariation;
    qInfo("lda-gibbs one start: mean TV %.4f, log joint per token %.4f; restarts %s, start %d kept: mean TV %.4f, %.4f",
          singleTv, single.metrics["train_objective"].get<double>(),
          restarted.metrics["restart_log_joints_per_token"].dump().c_str(),
          restarted.metrics["restart_chosen"].get<int>(), restartedTv,
          restarted.metrics["train_objective"].get<double>());
    // Still the stuck case (otherwise this test would check nothing)...
    QVERIFY2(singleTv > 0.1, qPrintable(QString("one start: mean TV %1").arg(singleTv)));
    // ...and the restarts find the topics.
    QVERIFY2(restartedTv < 0.1, qPrintable(QString("restarted: mean TV %1").arg(restartedTv)));
    QVERIFY(restarted.metrics["train_objective"].get<double>() > single.metrics["train_objective"].get<double>());
    QVERIFY(again.topicWord == restarted.topicWord);
    QCOMPARE(again.metrics["restart_log_joints_per_token"], restarted.metrics["restart_log_joints_per_token"]);
    QCOMPARE(again.metrics["restart_chosen"], restarted.metrics["restart_chosen"]);
  }
};

LATENT_TEST_CASE(LdaMethodsAgree)
#include "tst_lda_methods_agree.moc"
