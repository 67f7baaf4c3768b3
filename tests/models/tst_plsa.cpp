// SPDX-License-Identifier: GPL-3.0-or-later
// PLSA (EM and tempered EM) against independent computations, generated truth, and its contract
// with the job runtime.
#include <QtTest>

#include <tbb/task_arena.h>

#include <cmath>
#include <sstream>

#include "core/data/synthetic_lda.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/io/run_export.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/models/topic/plsa.hpp"
#include "core/models/topic/plsa_kernels.hpp"
#include "core/store/corpus_store.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

// The chain's reports in `reports`, the restarts' progress in `startReports`; keepGoing and stopAt
// act on the chain's reports, keepGoingInStarts on the restarts'.
class PlsaObserver final : public core::TrainingObserver {
 public:
  bool onReport(const core::IterationReport& r) override {
    if (!r.inChain()) {
      startReports.push_back(r);
      return keepGoingInStarts;
    }
    reports.push_back(r);
    if (stopAt > 0 && r.iteration == stopAt) source.request_stop();
    return keepGoing;
  }
  std::vector<core::IterationReport> reports, startReports;
  bool keepGoing = true;
  bool keepGoingInStarts = true;
  std::int64_t stopAt = 0;
  std::stop_source source;
};

core::FitResult fitPlsa(const core::Corpus& corpus, const nlohmann::json& options, PlsaObserver& observer,
                        std::uint64_t seed = 1, std::stop_token stop = {}) {
  core::FitData data;
  data.corpus = &corpus;
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::plsaModel().info(), options);
  settings.seed = seed;
  return core::plsaModel().make()->fit(data, settings, observer, stop);
}

double extra(const core::IterationReport& r, const std::string& name) {
  for (const auto& [key, value] : r.extras)
    if (key == name) return value;
  return std::numeric_limits<double>::quiet_NaN();
}

core::SyntheticLda smallLda(std::uint64_t seed = 8) {
  core::SyntheticLdaSpec spec;
  spec.topics = 3;
  spec.vocabulary = 40;
  spec.documents = 60;
  spec.meanLength = 20;
  spec.alpha = 0.5;
  spec.beta = 0.2;
  spec.seed = seed;
  return core::generateLdaCorpus(spec);
}

double meanRowEntropy(const Eigen::MatrixXd& m) {
  double sum = 0;
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c)
      if (m(r, c) > 0) sum -= m(r, c) * std::log(m(r, c));
  return sum / static_cast<double>(m.rows());
}

}  // namespace

class PlsaTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // The reported objective is sum_{d,w} n_dw log sum_z p(z|d) p(w|z) + regularization sum log p(w|z),
  // per token, of exactly the parameters returned: recomputed here token by token.
  void objectiveMatchesAnIndependentComputation() {
    const auto truth = smallLda();
    PlsaObserver observer;
    const double reg = 0.3;
    const auto result =
        fitPlsa(truth.corpus, {{"k", 3}, {"iterations", 25}, {"tolerance", 0.0}, {"regularization", reg}}, observer);
    QVERIFY(result.status == core::FitStatus::MaxIterations);
    const auto& phi = test::resultMatrix(result, "topic_word");
    const auto& theta = test::resultMatrix(result, "doc_topic");
    QCOMPARE(phi.rows(), Eigen::Index{3});
    QCOMPARE(phi.cols(), Eigen::Index{40});
    QCOMPARE(theta.rows(), Eigen::Index{60});
    double logLik = 0;
    for (std::size_t d = 0; d < truth.corpus.documentCount(); ++d)
      for (const auto w : truth.corpus.document(d))
        logLik += std::log(theta.row(static_cast<Eigen::Index>(d)).dot(phi.col(w)));
    const double N = static_cast<double>(truth.corpus.tokenCount());
    const auto& last = observer.reports.back();
    QVERIFY(std::abs(extra(last, "log_likelihood_per_token") - logLik / N) < 1e-10);
    QVERIFY(std::abs(last.trainObjective - (logLik + reg * phi.array().log().sum()) / N) < 1e-10);
    for (int k = 0; k < 3; ++k) QVERIFY(std::abs(phi.row(k).sum() - 1.0) < 1e-12);
    // The pseudo-count keeps every word possible in every topic: at least reg / (n_k + V reg).
    QVERIFY(phi.minCoeff() >= reg / (N + 40 * reg) * 0.999);
    // Most likely topic per token: argmax_z p(z|d) p(w|z).
    QCOMPARE(result.tokenTopics.size(), truth.corpus.documentCount());
    const auto w0 = truth.corpus.document(0)[0];
    Eigen::Index best = 0;
    (theta.row(0).transpose().array() * phi.col(w0).array()).maxCoeff(&best);
    QCOMPARE(result.tokenTopics[0][0], static_cast<std::int32_t>(best));
  }

  void emNeverDecreases() {
    const auto truth = smallLda();
    PlsaObserver observer;
    fitPlsa(truth.corpus, {{"k", 3}, {"iterations", 60}, {"tolerance", 0.0}}, observer);
    QCOMPARE(observer.reports.size(), std::size_t{60});
    // The four starts (restarts' default) report their progress at their 10th sweep.
    QCOMPARE(observer.startReports.size(), std::size_t{4});
    for (std::size_t i = 0; i < observer.startReports.size(); ++i) {
      QVERIFY(observer.startReports[i].phase == core::FitPhase::Restarts);
      QCOMPARE(observer.startReports[i].start, static_cast<std::int64_t>(i + 1));
      QCOMPARE(observer.startReports[i].iteration, std::int64_t{10});
    }
    for (std::size_t i = 1; i < observer.reports.size(); ++i) {
      const double before = observer.reports[i - 1].trainObjective, after = observer.reports[i].trainObjective;
      QVERIFY2(after >= before - 1e-12 * std::abs(before), qPrintable(QString("fell at iteration %1").arg(i + 1)));
    }
    QVERIFY(observer.reports.back().trainObjective > observer.reports.front().trainObjective + 1e-4);
  }

  // With a negligible pseudo-count, EM maximises the likelihood itself, which then never falls.
  void plainLikelihoodNeverDecreasesWithoutRegularization() {
    const auto truth = smallLda();
    PlsaObserver observer;
    fitPlsa(truth.corpus, {{"k", 3}, {"iterations", 60}, {"tolerance", 0.0}, {"regularization", 1e-12}}, observer);
    for (std::size_t i = 1; i < observer.reports.size(); ++i) {
      const double before = extra(observer.reports[i - 1], "log_likelihood_per_token");
      const double after = extra(observer.reports[i], "log_likelihood_per_token");
      QVERIFY2(after >= before - 1e-10 * std::abs(before), qPrintable(QString("fell at iteration %1").arg(i + 1)));
    }
  }

  // Tempered EM runs, its objective stays finite, and tempering softens the responsibilities:
  // documents' topic mixes come out less peaked than with plain EM.
  void temperedEmSoftensTheFit() {
    const auto truth = smallLda();
    PlsaObserver plain, tempered;
    const auto em = fitPlsa(truth.corpus, {{"k", 3}, {"iterations", 40}}, plain);
    const auto tem =
        fitPlsa(truth.corpus, {{"k", 3}, {"iterations", 40}, {"method", "tem"}, {"temperature", 0.6}}, tempered);
    QVERIFY(tem.status != core::FitStatus::Cancelled && tem.status != core::FitStatus::Failed);
    for (const auto& r : tempered.reports) QVERIFY(std::isfinite(r.trainObjective));
    QVERIFY(meanRowEntropy(test::resultMatrix(tem, "doc_topic")) >
            meanRowEntropy(test::resultMatrix(em, "doc_topic")) + 0.05);
    // Plain EM fits the training words better than the tempered fit does.
    QVERIFY(extra(plain.reports.back(), "log_likelihood_per_token") >
            extra(tempered.reports.back(), "log_likelihood_per_token"));
  }

  void temperedFoldInAtTemperatureOneIsPlainFoldIn() {
    const auto truth = smallLda();
    const Eigen::MatrixXd& phi = truth.topicWord;
    const auto plain = core::emFoldIn(phi, 30);
    const auto tempered = core::topic::temperedEmFoldIn(phi, 1.0, 30);
    const auto soft = core::topic::temperedEmFoldIn(phi, 0.5, 30);
    Eigen::VectorXd a(3), b(3), c(3);
    const auto words = truth.corpus.document(5);
    plain(words, 1, a);
    tempered(words, 1, b);
    soft(words, 1, c);
    QVERIFY((a - b).cwiseAbs().maxCoeff() < 1e-12);
    QVERIFY(std::abs(c.sum() - 1.0) < 1e-12);
    QVERIFY(c.maxCoeff() < a.maxCoeff());  // tempering flattens the folded-in mix
  }

  void recoversLdaTopics() {
    core::SyntheticLdaSpec spec;
    spec.topics = 5;
    spec.vocabulary = 300;
    spec.documents = 500;
    spec.meanLength = 150;
    spec.alpha = 0.1;
    spec.beta = 0.05;
    spec.seed = 77;
    const auto truth = core::generateLdaCorpus(spec);
    PlsaObserver observer;
    const auto result = fitPlsa(truth.corpus, {{"k", 5}}, observer);
    const auto match = core::matchTopics(test::resultMatrix(result, "topic_word"), truth.topicWord);
    qInfo("mean TV %.4f, max TV %.4f, %lld iterations", match.meanTotalVariation, match.maxTotalVariation,
          static_cast<long long>(result.iterations));
    QVERIFY(match.meanTotalVariation < 0.1);
  }

  void sameSeedSameNumbersAnyThreadCount() {
    const auto truth = smallLda(21);
    for (const char* method : {"em", "tem"}) {
      Eigen::MatrixXd first, firstTheta;
      for (const int threads : {1, 1, 2}) {
        tbb::task_arena arena(threads);
        PlsaObserver observer;
        core::FitResult result;
        arena.execute([&] {
          result = fitPlsa(truth.corpus, {{"k", 3}, {"iterations", 15}, {"method", method}}, observer, 9);
        });
        if (first.size() == 0) {
          first = test::resultMatrix(result, "topic_word");
          firstTheta = test::resultMatrix(result, "doc_topic");
        } else {
          // Bit for bit: document blocks are fixed by the data and topics are summed word by word.
          QVERIFY(test::resultMatrix(result, "topic_word") == first);
          QVERIFY(test::resultMatrix(result, "doc_topic") == firstTheta);
        }
      }
    }
  }

  void stopBeforeStartIsCancelledWithMatrices() {
    const auto truth = smallLda();
    PlsaObserver observer;
    std::stop_source stop;
    stop.request_stop();
    const auto result = fitPlsa(truth.corpus, {{"k", 3}}, observer, 1, stop.get_token());
    QVERIFY(result.status == core::FitStatus::Cancelled);
    QVERIFY(observer.reports.empty());
    const auto& phi = test::resultMatrix(result, "topic_word");
    QCOMPARE(phi.rows(), Eigen::Index{3});
    for (int k = 0; k < 3; ++k) QVERIFY(std::abs(phi.row(k).sum() - 1.0) < 1e-12);
    QCOMPARE(test::resultMatrix(result, "doc_topic").rows(), Eigen::Index{60});
  }

  void observerAndStopTokenAreHonoured() {
    const auto truth = smallLda();
    {
      PlsaObserver observer;
      observer.keepGoing = false;
      const auto result = fitPlsa(truth.corpus, {{"k", 3}, {"tolerance", 0.0}}, observer);
      QVERIFY(result.status == core::FitStatus::Cancelled);
      QCOMPARE(observer.reports.size(), std::size_t{1});
      QCOMPARE(test::resultMatrix(result, "topic_word").cols(), Eigen::Index{40});
    }
    {
      PlsaObserver observer;
      observer.stopAt = 3;
      const auto result =
          fitPlsa(truth.corpus, {{"k", 3}, {"tolerance", 0.0}}, observer, 1, observer.source.get_token());
      QVERIFY(result.status == core::FitStatus::Cancelled);
      QCOMPARE(observer.reports.size(), std::size_t{3});
      QCOMPARE(result.iterations, std::int64_t{3});
    }
    {
      // A false answer to a start's progress report ends the fit before the chain.
      PlsaObserver observer;
      observer.keepGoingInStarts = false;
      const auto result = fitPlsa(truth.corpus, {{"k", 3}, {"tolerance", 0.0}}, observer);
      QVERIFY(result.status == core::FitStatus::Cancelled);
      QCOMPARE(observer.startReports.size(), std::size_t{1});
      QVERIFY(observer.reports.empty());
      QCOMPARE(result.iterations, std::int64_t{0});
      QCOMPARE(test::resultMatrix(result, "topic_word").cols(), Eigen::Index{40});
    }
  }

  void endToEndThroughTheProject() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    const auto truth = smallLda(4);
    {
      core::Project p(file);
      test::addCorpusOf(p, "toy", truth.corpus);
    }
    core::RunRequest request;
    request.model = "plsa";
    request.dataset = "toy";
    request.options = {{"k", 3}, {"iterations", 30}};
    request.seed = 4;
    request.heldout = 0.2;
    request.evalEvery = 10;
    const auto outcome = core::runFit(file, request, nullptr, {});
    QVERIFY(outcome.run.status == core::RunStatus::Finished);

    core::Project p(file, core::Project::Access::ReadOnly);
    const auto corpus = core::loadCorpus(p, p.resolveDataset("toy").id);
    const auto stored = core::loadRun(p, outcome.run.id);
    QCOMPARE(stored.model, std::string("plsa"));
    const double completion = stored.finalMetrics["heldout_perplexity"].get<double>();
    const double full = stored.finalMetrics["heldout_perplexity_full_folding_in"].get<double>();
    QVERIFY(completion > 1.0 && completion < static_cast<double>(corpus.vocabularySize()));
    QVERIFY(full > 1.0 && full < completion);  // full folding-in scores the words it was fitted on
    QCOMPARE(core::loadMetrics(p, outcome.run.id).size(), static_cast<std::size_t>(outcome.result.iterations));
    const auto phi = core::loadMatrix(p, outcome.run.id, "topic_word");
    QVERIFY(phi.has_value());
    QCOMPARE(phi->rows(), Eigen::Index{3});
    QCOMPARE(phi->cols(), static_cast<Eigen::Index>(corpus.vocabularySize()));
    const auto theta = core::loadMatrix(p, outcome.run.id, "doc_topic");
    QVERIFY(theta.has_value());
    QCOMPARE(theta->rows(), Eigen::Index{60});
    for (Eigen::Index d = 0; d < theta->rows(); ++d) QVERIFY(std::abs(theta->row(d).sum() - 1.0) < 1e-9);

    core::Project rw(file);
    std::ostringstream csv;
    core::exportRun(rw, outcome.run.id, "doc-topic", csv);
    std::istringstream lines(csv.str());
    std::string line;
    std::getline(lines, line);
    QCOMPARE(line, std::string("document,topic,proportion"));
    int rows = 0;
    while (std::getline(lines, line)) ++rows;
    QCOMPARE(rows, 60 * 3);
  }
};

LATENT_TEST_CASE(PlsaTest)
#include "tst_plsa.moc"
