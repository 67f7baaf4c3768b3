// SPDX-License-Identifier: GPL-3.0-or-later
// The URP / simplex factor model (urp, 000 eq. 27.14): with one profile it is the answers'
// frequencies exactly; profiles drawn from the model come back; its stored profiles give each
// question the same weight; the ANES answers are predicted better than by their frequencies.
#include <QtTest>

#include <cmath>

#include "anes_fit.hpp"
#include "core/data/response_groups.hpp"
#include "core/data/synthetic_lda.hpp"
#include "core/eval/heldout.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/jobs/samples.hpp"
#include "core/models/topic/discrete_components.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"
#include "quiet_observer.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

struct GeneratedProfiles {
  core::Corpus corpus;
  Eigen::MatrixXd profiles;  // K x (questions x answers), each question's part summing to one
};

// Respondents drawn from the URP: theta ~ Dir(alpha), each question's answer from
// sum_k theta_k b_k^(r), the b_k^(r) ~ Dir(beta); the words are "q<r>=a<c>".
GeneratedProfiles generateProfiles(int respondents, int questions, int answers, int K, std::uint64_t seed) {
  core::Rng rng(seed);
  GeneratedProfiles out;
  out.profiles.resize(K, questions * answers);
  for (int k = 0; k < K; ++k)
    for (int r = 0; r < questions; ++r)
      out.profiles.block(k, r * answers, 1, answers) = core::sampleSymmetricDirichlet(rng, answers, 0.3).transpose();
  for (int r = 0; r < questions; ++r)
    for (int c = 0; c < answers; ++c) out.corpus.words.push_back("q" + std::to_string(r) + "=a" + std::to_string(c));
  for (int d = 0; d < respondents; ++d) {
    const Eigen::VectorXd theta = core::sampleSymmetricDirichlet(rng, K, 0.3);
    std::vector<std::int32_t> words;
    for (int r = 0; r < questions; ++r) {
      const Eigen::VectorXd p = out.profiles.middleCols(r * answers, answers).transpose() * theta;
      double u = rng.uniform();
      int c = 0;
      while (c + 1 < answers && (u -= p[c]) >= 0.0) ++c;
      words.push_back(r * answers + c);
    }
    out.corpus.addDocument("r" + std::to_string(d), "", words);
  }
  return out;
}

core::FitResult fitUrp(const core::Corpus& corpus, const core::CorpusSplit* split, const nlohmann::json& options) {
  core::FitData data;
  data.corpus = split ? &split->train : &corpus;
  if (split) {
    data.heldout = &split->heldout;
    data.trainDocuments = split->trainDocuments;
  }
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::urpModel().info(), options);
  settings.evalEvery = 1000;
  test::QuietObserver quiet;
  return core::urpModel().make()->fit(data, settings, quiet, {});
}

}  // namespace

class UrpTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // One profile with beta = 1 predicts each question by (1 + its training count) / (answers +
  // answered): the frequency baseline, to rounding.
  void oneProfileIsTheFrequencies() {
    const auto truth = generateProfiles(200, 5, 3, 2, 4);
    const auto split = core::splitForDocumentCompletion(truth.corpus, 0.25, 2);
    const auto result =
        fitUrp(truth.corpus, &split, {{"k", 1}, {"beta", 1.0}, {"optimize_every", 0}, {"iterations", 20}});
    const double fitted = result.finalMetrics["heldout_log_loss"].get<double>();
    const double baseline = result.finalMetrics["baseline_log_loss"].get<double>();
    qInfo("log loss %.12f, frequencies %.12f", fitted, baseline);
    QVERIFY(std::abs(fitted - baseline) < 1e-12);
  }

  // Profiles drawn from the model come back, each question's part a distribution; the stored
  // profiles weigh the questions equally (rows sum to one).
  void recoversGeneratedProfiles() {
    const int questions = 12, answers = 4;
    const auto truth = generateProfiles(1500, questions, answers, 3, 8);
    const auto result = fitUrp(truth.corpus, nullptr, {{"k", 3}, {"iterations", 300}});
    const auto& stored = test::resultMatrix(result, "topic_word");
    for (Eigen::Index k = 0; k < 3; ++k) {
      QVERIFY(std::abs(stored.row(k).sum() - 1.0) < 1e-12);
      for (int r = 0; r < questions; ++r)
        QVERIFY(std::abs(stored.block(k, r * answers, 1, answers).sum() - 1.0 / questions) < 1e-12);
    }
    const auto match = core::matchTopics(stored, truth.profiles / questions);
    qInfo("mean TV %.4f, max TV %.4f", match.meanTotalVariation, match.maxTotalVariation);
    QVERIFY(match.maxTotalVariation < 0.08);
  }

  void anesThroughTheProject() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    const auto outcome = test::fitOnAnes(file, "urp", {{"k", 3}});
    QVERIFY(outcome.run.status == core::RunStatus::Finished);
    core::Project project(file, core::Project::Access::ReadOnly);
    const auto metrics = core::loadRun(project, outcome.run.id).finalMetrics;
    qInfo("ANES: log loss %.4f (frequencies %.4f), accuracy %.3f (frequencies %.3f)",
          metrics["heldout_log_loss"].get<double>(), metrics["baseline_log_loss"].get<double>(),
          metrics["heldout_accuracy"].get<double>(), metrics["baseline_accuracy"].get<double>());
    QVERIFY(metrics["heldout_log_loss"].get<double>() < metrics["baseline_log_loss"].get<double>() - 0.03);
    QVERIFY(metrics["heldout_accuracy"].get<double>() > metrics["baseline_accuracy"].get<double>());
  }

  void refusesACorpusOfWords() {
    core::Corpus corpus;
    corpus.words = {"river", "bank"};
    std::vector<std::int32_t> words = {0, 1};
    corpus.addDocument("d", "", words);
    QVERIFY_THROWS_EXCEPTION(core::UsageError, fitUrp(corpus, nullptr, {{"k", 2}}));
  }
};

LATENT_TEST_CASE(UrpTest)
#include "tst_urp.moc"
