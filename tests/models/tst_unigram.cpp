// SPDX-License-Identifier: GPL-3.0-or-later
// The unigram model against numbers worked out by hand, and its contract with the job runtime.
#include <QtTest>

#include <cmath>
#include <map>

#include "core/eval/perplexity.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/models/topic/unigram.hpp"
#include "core/store/corpus_store.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

class UnigramObserver final : public core::TrainingObserver {
 public:
  bool onReport(const core::IterationReport& r) override {
    reports.push_back(r);
    return keepGoing;
  }
  std::vector<core::IterationReport> reports;
  bool keepGoing = true;
};

// Vocabulary {money, bank, loan, river}; training counts 3, 2, 1, 0.
core::Corpus trainingCorpus() {
  core::Corpus c;
  c.words = {"money", "bank", "loan", "river"};
  c.addDocument("1", "", std::vector<std::int32_t>{0, 1, 2, 0});
  c.addDocument("2", "", std::vector<std::int32_t>{0, 1});
  return c;
}

core::HeldoutDocuments heldoutDocuments() {
  core::HeldoutDocuments h;
  h.observed.words = h.scored.words = trainingCorpus().words;
  h.documents = {2, 3};
  h.observed.addDocument("3", "", std::vector<std::int32_t>{2});
  h.scored.addDocument("3", "", std::vector<std::int32_t>{3, 0});  // river, money
  h.observed.addDocument("4", "", std::vector<std::int32_t>{0});
  h.scored.addDocument("4", "", std::vector<std::int32_t>{1});  // bank
  return h;
}

}  // namespace

class UnigramTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void estimateByHand() {
    Eigen::VectorXd counts(4);
    counts << 3, 2, 1, 0;
    const auto beta = core::unigramEstimate(counts, 0.5);
    // (c + 0.5) / (6 + 4 * 0.5)
    QCOMPARE(beta[0], 3.5 / 8);
    QCOMPARE(beta[1], 2.5 / 8);
    QCOMPARE(beta[2], 1.5 / 8);
    QCOMPARE(beta[3], 0.5 / 8);
  }

  void heldoutPerplexityByHand() {
    const auto train = trainingCorpus();
    const auto heldout = heldoutDocuments();
    core::FitData data;
    data.corpus = &train;
    data.heldout = &heldout;
    core::FitSettings settings;
    settings.options = core::resolveOptions(core::unigramModel().info(), {{"beta", 0.5}});
    UnigramObserver observer;
    auto model = core::unigramModel().make();
    const auto result = model->fit(data, settings, observer, {});
    QVERIFY(result.status == core::FitStatus::Converged);
    // Eq. 27.29 with p = (7/16, 5/16, 3/16, 1/16): documents (river, money) and (bank):
    // exp(-((ln 1/16 + ln 7/16)/2 + ln 5/16)/2), worked out by hand to 4.399065925633807.
    QVERIFY(std::abs(result.finalMetrics["heldout_perplexity"].get<double>() - 4.399065925633807) < 1e-12);
    // Token-weighted: exp(-(ln 1/16 + ln 7/16 + ln 5/16)/3) = 4.891371339726077.
    QVERIFY(std::abs(result.finalMetrics["heldout_perplexity_per_token"].get<double>() - 4.891371339726077) < 1e-12);
    // Training log-likelihood per token: (3 ln 7/16 + 2 ln 5/16 + ln 3/16) / 6.
    QCOMPARE(observer.reports.size(), std::size_t{1});
    QVERIFY(std::abs(observer.reports[0].trainObjective - -1.0800522954560727) < 1e-12);
    QVERIFY(std::abs(*observer.reports[0].heldout - 4.399065925633807) < 1e-12);
    QCOMPARE(result.finalMetrics["heldout_tokens"].get<std::int64_t>(), std::int64_t{3});
    QCOMPARE(result.matrices.size(), std::size_t{1});
    QCOMPARE(result.matrices[0].values.rows(), Eigen::Index{1});
    QCOMPARE(result.matrices[0].values.cols(), Eigen::Index{4});
    QVERIFY(std::abs(result.matrices[0].values.sum() - 1.0) < 1e-12);
  }

  void stopBeforeStartIsCancelled() {
    const auto train = trainingCorpus();
    core::FitData data;
    data.corpus = &train;
    core::FitSettings settings;
    settings.options = core::resolveOptions(core::unigramModel().info(), nlohmann::json::object());
    UnigramObserver observer;
    std::stop_source stop;
    stop.request_stop();
    const auto result = core::unigramModel().make()->fit(data, settings, observer, stop.get_token());
    QVERIFY(result.status == core::FitStatus::Cancelled);
    QVERIFY(observer.reports.empty());
    QVERIFY(result.matrices.empty());
  }

  void observerCanStopIt() {
    const auto train = trainingCorpus();
    core::FitData data;
    data.corpus = &train;
    core::FitSettings settings;
    settings.options = core::resolveOptions(core::unigramModel().info(), nlohmann::json::object());
    UnigramObserver observer;
    observer.keepGoing = false;
    const auto result = core::unigramModel().make()->fit(data, settings, observer, {});
    QVERIFY(result.status == core::FitStatus::Cancelled);
  }

  // Through the whole runtime: a corpus in a project file, a seeded held-out split, the run recorded.
  void endToEndMatchesAnIndependentComputation() {
    test::Scratch scratch;
    const auto file = scratch.path("u.latent");
    std::vector<std::string> texts;
    const char* words[] = {"money", "loan", "bank", "river", "stream", "water", "credit"};
    for (int d = 0; d < 40; ++d) {
      std::string t;
      for (int i = 0; i < 5 + d % 9; ++i) t += std::string(words[(d * 3 + i * i) % 7]) + " ";
      texts.push_back(t);
    }
    {
      core::Project p(file);
      test::addCorpus(p, "toy", texts);
    }
    core::RunRequest request;
    request.model = "unigram";
    request.dataset = "toy";
    request.options = {{"beta", 0.1}};
    request.seed = 17;
    request.heldout = 0.25;
    UnigramObserver observer;
    const auto outcome = core::runFit(file, request, &observer, {});
    QVERIFY(outcome.run.status == core::RunStatus::Finished);
    QCOMPARE(observer.reports.size(), std::size_t{1});

    // Recompute with plain loops from the stored corpus and the same split.
    core::Project p(file, core::Project::Access::ReadOnly);
    const auto corpus = core::loadCorpus(p, p.resolveDataset("toy").id);
    const auto split = core::splitForDocumentCompletion(corpus, 0.25, 17);
    QCOMPARE(split.heldout.size(), std::size_t{10});
    std::map<std::int32_t, double> counts;
    double n = 0;
    for (const auto w : split.train.tokens) {
      counts[w] += 1;
      n += 1;
    }
    const double V = static_cast<double>(corpus.vocabularySize());
    std::vector<double> ll;
    std::vector<std::int64_t> lengths;
    for (std::size_t d = 0; d < split.heldout.size(); ++d) {
      double sum = 0;
      for (const auto w : split.heldout.scored.document(d)) sum += std::log((counts[w] + 0.1) / (n + 0.1 * V));
      ll.push_back(sum);
      lengths.push_back(static_cast<std::int64_t>(split.heldout.scored.documentLength(d)));
    }
    const double expected = core::perplexityPerDocument(ll, lengths);
    const double got = outcome.run.finalMetrics["heldout_perplexity"].get<double>();
    QVERIFY2(std::abs(got - expected) < 1e-9 * expected, qPrintable(QString("%1 vs %2").arg(got).arg(expected)));
    // And what was recorded reads back.
    const auto stored = core::loadRun(p, outcome.run.id);
    QCOMPARE(stored.finalMetrics["heldout_perplexity"].get<double>(), got);
    QCOMPARE(core::loadMetrics(p, outcome.run.id).size(), std::size_t{1});
    QVERIFY(core::loadMatrix(p, outcome.run.id, "topic_word").has_value());
  }

  void sameResultForAnyThreadCount() {
    test::Scratch scratch;
    const auto file = scratch.path("t.latent");
    std::vector<std::string> texts;
    for (int d = 0; d < 3000; ++d)
      texts.push_back("w" + std::to_string(d % 50) + " w" + std::to_string(d % 13) + " w" + std::to_string(d % 7));
    {
      core::Project p(file);
      test::addCorpus(p, "many", texts);
    }
    double first = 0;
    Eigen::MatrixXd firstBeta;
    for (const int threads : {1, 2, 4}) {
      core::RunRequest request;
      request.model = "unigram";
      request.dataset = "many";
      request.threads = threads;
      request.heldout = 0.1;
      request.seed = 3;
      const auto outcome = core::runFit(file, request, nullptr, {});
      const double perplexity = outcome.run.finalMetrics["heldout_perplexity"].get<double>();
      const auto& beta = outcome.result.matrices[0].values;
      if (threads == 1) {
        first = perplexity;
        firstBeta = beta;
      } else {
        QCOMPARE(perplexity, first);  // bit for bit
        QVERIFY(beta == firstBeta);
      }
    }
  }
};

LATENT_TEST_CASE(UnigramTest)
#include "tst_unigram.moc"
