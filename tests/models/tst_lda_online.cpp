// SPDX-License-Identifier: GPL-3.0-or-later
// Online variational Bayes for LDA: the step sizes of Alg. 27.2, the textbook's toy topics, small
// recovery, determinism, stopping, the observer contract, and a run through the job runtime.
#include <QtTest>

#include <cmath>

#include "core/data/gibbs_toy.hpp"
#include "core/data/synthetic_lda.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/io/run_export.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/models/topic/lda_online.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"
#include "lda_vb_test_support.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {}  // namespace

class LdaOnlineTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // rho_t = (tau0 + t)^-kappa with t counting minibatch updates: 300 documents in minibatches of
  // 64 make 5 updates per pass.
  void stepSizesFollowAlgorithm272() {
    const auto synthetic = test::vb::smallSynthetic();
    const auto fit = test::vb::fitModel(
        "lda-online", test::vb::dataOf(synthetic.corpus),
        {{"k", 3}, {"iterations", 4}, {"batch_size", 64}, {"tau0", 3.0}, {"kappa", 0.8}, {"optimize_every", 0}}, 1);
    QCOMPARE(fit.observer.reports.size(), std::size_t{4});
    for (std::size_t p = 0; p < 4; ++p) {
      const auto& extras = fit.observer.reports[p].extras;
      const auto rho = std::find_if(extras.begin(), extras.end(), [](const auto& e) { return e.first == "rho"; });
      QVERIFY(rho != extras.end());
      QCOMPARE(rho->second, std::pow(3.0 + 5.0 * static_cast<double>(p + 1), -0.8));
    }
  }

  // 000 §27.3.5: two topics, {money, loan, bank} and {river, stream, bank}. From random topics
  // (init "random") online VB ends in a merged-topics optimum for seed 1 here ({bank, loan, stream}
  // and {bank, money, stream}, a lower ELBO), as scikit-learn's online LDA does for some seeds; the
  // mixture start (the default, 000 Alg. 27.1 line 2) finds the textbook's topics for every seed.
  void gibbsToyTopics() {
    const auto corpus = test::vb::corpusFromTexts(core::generateGibbsToyCorpus());
    const auto fit = test::vb::fitModel("lda-online", test::vb::dataOf(corpus),
                                        {{"k", 2}, {"iterations", 64}, {"batch_size", 4}}, 1);
    const auto& phi = fit.topicWord();
    const std::set<std::string> money = {"money", "loan", "bank"}, river = {"river", "stream", "bank"};
    const auto a = test::vb::topWords(phi, 0, corpus, 3), b = test::vb::topWords(phi, 1, corpus, 3);
    QVERIFY2((a == money && b == river) || (a == river && b == money), "the two topics are not the textbook's");
  }

  // Seeds 2 and 4 are the ones where random starting topics (init "random") merge two true topics
  // and split a third (mean total variation 0.25 and 0.45, ELBO -2.21 and -2.32 against -2.01 per
  // token): a local optimum, not a faulty update; more passes, a larger tau0, kappa near 0.5 or warm
  // E-step starts do not get out of it, scikit-learn's online LDA at equal settings is stuck on 3 of
  // 8 seeds. The default mixture start recovers the topics for all of them.
  void recoversSmallSyntheticTopics() {
    const auto synthetic = test::vb::smallSynthetic();
    for (const std::uint64_t seed : {1, 2, 3, 4}) {
      const auto fit =
          test::vb::fitModel("lda-online", test::vb::dataOf(synthetic.corpus),
                             {{"k", 3}, {"iterations", 30}, {"batch_size", 50}, {"optimize_every", 0}}, seed);
      const auto match = core::matchTopics(fit.topicWord(), synthetic.topicWord);
      QVERIFY2(match.meanTotalVariation < 0.1,
               qPrintable(QString("seed %1: %2").arg(seed).arg(match.meanTotalVariation)));
    }
  }

  // The random start is still available and learns: on this corpus seed 1 recovers the topics from it.
  void randomStartRecoversForAGoodSeed() {
    const auto synthetic = test::vb::smallSynthetic();
    const auto fit = test::vb::fitModel(
        "lda-online", test::vb::dataOf(synthetic.corpus),
        {{"k", 3}, {"iterations", 30}, {"batch_size", 50}, {"optimize_every", 0}, {"init", "random"}}, 1);
    const auto match = core::matchTopics(fit.topicWord(), synthetic.topicWord);
    QVERIFY2(match.meanTotalVariation < 0.1, qPrintable(QString::number(match.meanTotalVariation)));
  }

  // Same seed, same numbers, whatever the thread count; another seed shuffles differently.
  void deterministicForAnyThreadCount() {
    const auto synthetic = test::vb::smallSynthetic();
    const auto data = test::vb::dataOf(synthetic.corpus);
    const nlohmann::json options = {{"k", 4}, {"iterations", 6}, {"batch_size", 40}, {"optimize_every", 2}};
    const auto one = test::vb::fitModel("lda-online", data, options, 5, 1);
    for (const int threads : {2, 4}) {
      const auto other = test::vb::fitModel("lda-online", data, options, 5, threads);
      QVERIFY(other.topicWord() == one.topicWord());
      QVERIFY(other.matrix(core::topic::kDocTopic) == one.matrix(core::topic::kDocTopic));
      QVERIFY(other.matrix(core::topic::kAlpha) == one.matrix(core::topic::kAlpha));
      QCOMPARE(other.result.finalMetrics["elbo_per_token"].get<double>(),
               one.result.finalMetrics["elbo_per_token"].get<double>());
      for (std::size_t i = 0; i < one.observer.reports.size(); ++i)
        QCOMPARE(other.observer.reports[i].trainObjective, one.observer.reports[i].trainObjective);
    }
    const auto reseeded = test::vb::fitModel("lda-online", data, options, 6, 1);
    QVERIFY(reseeded.topicWord() != one.topicWord());
  }

  void stopsWithinOneIteration() {
    const auto synthetic = test::vb::smallSynthetic();
    const auto data = test::vb::dataOf(synthetic.corpus);
    {
      std::stop_source stop;
      stop.request_stop();
      const auto fit = test::vb::fitModel("lda-online", data, {{"k", 3}}, 1, 1, stop.get_token());
      QVERIFY(fit.result.status == core::FitStatus::Cancelled);
      QCOMPARE(fit.result.iterations, std::int64_t{0});
      QVERIFY((fit.topicWord().rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-12);
    }
    test::vb::Observer byAnswer;
    byAnswer.stopAfter = 2;
    const auto a = test::vb::fitModel("lda-online", data, {{"k", 3}, {"batch_size", 64}}, 1, 2, {}, 10, byAnswer);
    QVERIFY(a.result.status == core::FitStatus::Cancelled);
    QCOMPARE(a.result.iterations, std::int64_t{2});
    QCOMPARE(a.observer.reports.size(), std::size_t{2});
    QVERIFY(!a.result.finalMetrics.contains("elbo_per_token"));

    std::stop_source stop;
    test::vb::Observer byToken;
    byToken.stopSource = &stop;
    byToken.requestStopAt = 3;
    const auto b =
        test::vb::fitModel("lda-online", data, {{"k", 3}, {"batch_size", 64}}, 1, 2, stop.get_token(), 10, byToken);
    QVERIFY(b.result.status == core::FitStatus::Cancelled);
    QCOMPARE(b.result.iterations, std::int64_t{3});
  }

  void observerContract() {
    const auto synthetic = test::vb::smallSynthetic();
    const auto split = core::splitForDocumentCompletion(synthetic.corpus, 0.2, 3);
    const auto data = test::vb::dataOf(split, 300);
    const auto fit = test::vb::fitModel(
        "lda-online", data, {{"k", 3}, {"iterations", 9}, {"batch_size", 32}, {"snapshot_every", 3}}, 1, 1, {}, 4);
    const auto& reports = fit.observer.reports;
    QCOMPARE(reports.size(), std::size_t{9});
    for (std::size_t i = 0; i < reports.size(); ++i) {
      QCOMPARE(reports[i].iteration, static_cast<std::int64_t>(i + 1));
      QCOMPARE(reports[i].heldout.has_value(), (i + 1) % 4 == 0 || i + 1 == 9);
      QVERIFY(std::isfinite(reports[i].trainObjective) && reports[i].trainObjective < 0.0);
    }
    QCOMPARE(fit.observer.snapshots.size(), std::size_t{3});
    QCOMPARE(fit.observer.snapshots[2]->iteration, std::int64_t{9});
    QVERIFY(fit.observer.snapshots[2]->matrices.at(0).values == fit.topicWord());
    QVERIFY(fit.result.status == core::FitStatus::MaxIterations);
    // The exact ELBO of the final topics: a bound on log p(w), above the first pass's estimate.
    const double elbo = fit.result.finalMetrics["elbo_per_token"].get<double>();
    QVERIFY(elbo < 0.0 && elbo > reports.front().trainObjective);
    QCOMPARE(fit.matrix(core::topic::kDocTopic).rows(), Eigen::Index{300});
    QCOMPARE(fit.result.tokenTopics.size(), split.train.documentCount());
    QVERIFY(fit.result.finalMetrics.contains("heldout_perplexity_full_folding_in"));
  }

  void optionsAreChecked() {
    const auto& info = core::ldaOnlineModel().info();
    QCOMPARE(info.name, std::string("lda-online"));
    const auto rejection = [&](const nlohmann::json& given) {
      try {
        core::resolveOptions(info, given);
      } catch (const core::UsageError& e) {
        return std::string(e.what());
      }
      return std::string();
    };
    QVERIFY(rejection({{"kappa", 0.5}}).find("--kappa of lda-online must be greater than 0.5 and at most 1") !=
            std::string::npos);
    QVERIFY(rejection({{"kappa", 1.0}}).empty());
    QVERIFY(rejection({{"batch_size", 0}}).find("--batch-size") != std::string::npos);
    QVERIFY(rejection({{"tau0", -1.0}}).find("--tau0") != std::string::npos);
    QVERIFY(rejection({{"init", "kmeans"}}).find("--init") != std::string::npos);
    QCOMPARE(core::resolveOptions(info, nlohmann::json::object())["init"].get<std::string>(), std::string("mixture"));
  }

  void endToEndThroughRunFit() {
    test::Scratch scratch;
    const auto file = scratch.path("online.latent");
    const auto synthetic = test::vb::smallSynthetic(21);
    std::vector<std::string> texts;
    for (std::size_t d = 0; d < synthetic.corpus.documentCount(); ++d) {
      std::string t;
      for (const auto w : synthetic.corpus.document(d)) t += "w" + std::to_string(w) + "x ";
      texts.push_back(t);
    }
    {
      core::Project p(file);
      test::addCorpus(p, "synthetic", texts);
    }
    core::RunRequest request;
    request.model = "lda-online";
    request.dataset = "synthetic";
    request.options = {{"k", 3}, {"iterations", 10}, {"batch_size", 64}};
    request.seed = 4;
    request.threads = 2;
    request.heldout = 0.2;
    const auto outcome = core::runFit(file, request, nullptr, {});
    QVERIFY(outcome.run.status == core::RunStatus::Finished);
    QVERIFY(outcome.run.finalMetrics.contains("elbo_per_token"));
    core::Project p(file, core::Project::Access::ReadOnly);
    const auto stored = core::loadCorpus(p, p.resolveDataset("synthetic").id);
    const auto topicWord = core::loadMatrix(p, outcome.run.id, "topic_word");
    QVERIFY(topicWord.has_value());
    QCOMPARE(topicWord->cols(), static_cast<Eigen::Index>(stored.vocabularySize()));
    QCOMPARE(core::loadMatrix(p, outcome.run.id, "doc_topic")->rows(), Eigen::Index{300});
    QCOMPARE(core::loadMatrix(p, outcome.run.id, "alpha")->cols(), Eigen::Index{3});
    std::ostringstream assignments;
    core::exportRun(p, outcome.run.id, "assignments", assignments);
    const auto split = core::splitForDocumentCompletion(stored, 0.2, 4);
    const auto text = assignments.str();
    QCOMPARE(std::count(text.begin(), text.end(), '\n'), static_cast<std::ptrdiff_t>(1 + split.train.tokenCount()));
  }
};

LATENT_TEST_CASE(LdaOnlineTest)
#include "tst_lda_online.moc"
