// SPDX-License-Identifier: GPL-3.0-or-later
// Categorical PCA (catpca): the softmax per question against finite differences and its fold-in
// against the stationarity condition, answers drawn from the model predicted almost as well as
// the true model predicts them, and the ANES sample's held-out answers predicted better than by
// their frequencies.
#include <QtTest>

#include <Eigen/LU>
#include <cmath>

#include "anes_fit.hpp"
#include "core/data/response_groups.hpp"
#include "core/eval/heldout.hpp"
#include "core/eval/response_evaluation.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/jobs/samples.hpp"
#include "core/models/topic/doc_word_counts.hpp"
#include "core/models/topic/epca.hpp"
#include "core/models/topic/epca_kernels.hpp"
#include "core/models/topic/epca_variational.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"
#include "core/util/random.hpp"
#include "quiet_observer.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

struct GeneratedSurvey {
  core::Corpus corpus;
  Eigen::MatrixXd w;  // answers x K, the true loadings
};

// Answers drawn from categorical PCA (000 eq. 27.7): z ~ N(0, I), question r's answer from
// softmax(W_r z); the words are "q<r>=a<c>", question by question.
GeneratedSurvey generateSurvey(int respondents, int questions, int answers, int K, std::uint64_t seed) {
  core::Rng rng(seed);
  GeneratedSurvey out;
  out.w.resize(questions * answers, K);
  for (Eigen::Index i = 0; i < out.w.size(); ++i) out.w.data()[i] = 1.5 * rng.normal();
  for (int r = 0; r < questions; ++r)
    for (int c = 0; c < answers; ++c) out.corpus.words.push_back("q" + std::to_string(r) + "=a" + std::to_string(c));
  const auto groups = core::responseGroups(out.corpus.words, "test");
  for (int d = 0; d < respondents; ++d) {
    Eigen::VectorXd z(K);
    for (int k = 0; k < K; ++k) z[k] = rng.normal();
    const Eigen::VectorXd p =
        core::topic::epcaLogProbabilities(out.w, Eigen::VectorXd::Zero(out.w.rows()), z, &groups).array().exp();
    std::vector<std::int32_t> words;
    for (int r = 0; r < questions; ++r) {
      double u = rng.uniform();
      int c = 0;
      while (c + 1 < answers && (u -= p[r * answers + c]) >= 0.0) ++c;
      words.push_back(r * answers + c);
    }
    out.corpus.addDocument("r" + std::to_string(d), "", words);
  }
  return out;
}

}  // namespace

class CatpcaTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // The log posterior with a softmax per question: its gradient in W, Z and b.
  void gradientMatchesFiniteDifferences() {
    const auto survey = generateSurvey(6, 3, 4, 2, 3);
    const auto counts = core::topic::buildDocWordCounts(survey.corpus);
    const auto groups = core::responseGroups(survey.corpus.words, "test");
    core::topic::EpcaPriors priors{1.0, 2.0, core::topic::EpcaLikelihood::Multinomial, &groups};
    auto state = core::topic::initEpca(counts, 2, 5);
    core::Rng rng(4);
    for (auto* m : {&state.w, &state.z})
      for (Eigen::Index i = 0; i < m->size(); ++i) m->data()[i] = 0.7 * rng.normal();
    core::topic::EpcaState gradient;
    core::topic::epcaObjective(counts, state, priors, &gradient, {});
    double worst = 0.0;
    const double h = 1e-6;
    const auto check = [&](double& entry, double analytic) {
      const double saved = entry;
      entry = saved + h;
      const double up = core::topic::epcaObjective(counts, state, priors, nullptr, {});
      entry = saved - h;
      const double down = core::topic::epcaObjective(counts, state, priors, nullptr, {});
      entry = saved;
      worst = std::max(worst, std::abs((up - down) / (2 * h) - analytic) / std::max(1.0, std::abs(analytic)));
    };
    for (Eigen::Index i = 0; i < state.w.size(); ++i) check(state.w.data()[i], gradient.w.data()[i]);
    for (Eigen::Index i = 0; i < state.z.size(); ++i) check(state.z.data()[i], gradient.z.data()[i]);
    for (Eigen::Index i = 0; i < state.b.size(); ++i) check(state.b[i], gradient.b[i]);
    qInfo("largest relative error %.2e", worst);
    QVERIFY(worst < 1e-6);
  }

  // Each question's answers' probabilities sum to one; the fold-in is the maximum of its concave
  // objective: W^T (x - sum_r n_r p_r) = lambda z.
  void foldInIsTheMaximum() {
    const auto survey = generateSurvey(1, 4, 3, 2, 7);
    const auto groups = core::responseGroups(survey.corpus.words, "test");
    const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(12, -0.5, 0.5);
    const auto words = survey.corpus.document(0).first(3);  // three of the four questions answered
    const Eigen::VectorXd z = core::topic::epcaFoldIn(words, survey.w, b, 1.5, &groups, 200);
    const Eigen::VectorXd p = core::topic::epcaLogProbabilities(survey.w, b, z, &groups).array().exp();
    Eigen::VectorXd residual = Eigen::VectorXd::Zero(12);
    for (int r = 0; r < 4; ++r) {
      QVERIFY(std::abs(p.segment(3 * r, 3).sum() - 1.0) < 1e-12);
      if (r < 3) residual.segment(3 * r, 3) -= p.segment(3 * r, 3);
    }
    for (const auto v : words) residual[v] += 1.0;
    const Eigen::VectorXd gradient = survey.w.transpose() * residual - 1.5 * z;
    qInfo("|gradient| at the fold-in %.2e", gradient.norm());
    QVERIFY(gradient.norm() < 1e-8);
  }

  // The variational bound with a softmax per question: its gradient in W and b, and its fold-in's
  // fixed point (W^T (x - mu) = lambda m, S^-1 = W^T diag(mu) W + lambda I, mu_v = n_r p_v).
  void variationalGradientAndFixedPoint() {
    const auto survey = generateSurvey(5, 3, 4, 2, 21);
    const auto counts = core::topic::buildDocWordCounts(survey.corpus);
    const auto groups = core::responseGroups(survey.corpus.words, "test");
    const core::topic::EpcaPriors priors{1.2, 0.8, core::topic::EpcaLikelihood::Multinomial, &groups};
    auto state = core::topic::initEpca(counts, 2, 5);
    core::Rng rng(22);
    for (auto* m : {&state.w, &state.z})
      for (Eigen::Index i = 0; i < m->size(); ++i) m->data()[i] = 0.6 * rng.normal();
    auto covariances = core::topic::initEpcaCovariances(5, 2, 2.0);
    const auto bound = [&](core::topic::EpcaState* gradient) {
      core::topic::EpcaState g;
      Eigen::MatrixXd means;
      core::topic::EpcaCovariances next;
      return core::topic::epcaVariationalSweep(counts, state, covariances, priors, gradient ? *gradient : g, means,
                                               next, {});
    };
    core::topic::EpcaState gradient;
    bound(&gradient);
    double worst = 0.0;
    const double h = 1e-6;
    for (Eigen::Index i = 0; i < state.w.size(); ++i) {
      double& entry = state.w.data()[i];
      const double saved = entry;
      entry = saved + h;
      const double up = bound(nullptr);
      entry = saved - h;
      const double down = bound(nullptr);
      entry = saved;
      worst = std::max(worst, std::abs((up - down) / (2 * h) - gradient.w.data()[i]));
    }
    qInfo("largest gradient error %.2e", worst);
    QVERIFY(worst < 1e-6);

    const auto words = survey.corpus.document(0).first(2);  // two of the three questions answered
    const auto q = core::topic::epcaVariationalFoldIn(words, state.w, state.b, priors, 2000, 0.0);
    const Eigen::VectorXd quadratic = ((state.w * q.covariance).array() * state.w.array()).rowwise().sum();
    Eigen::VectorXd mu = Eigen::VectorXd::Zero(12), x = Eigen::VectorXd::Zero(12);
    for (const auto v : words) x[v] += 1.0;
    for (int r = 0; r < 2; ++r) {
      const Eigen::VectorXd t =
          (state.w.middleRows(4 * r, 4) * q.mean + state.b.segment(4 * r, 4) + 0.5 * quadratic.segment(4 * r, 4))
              .array()
              .exp();
      mu.segment(4 * r, 4) = t / t.sum();
    }
    const Eigen::VectorXd stationary = state.w.transpose() * (x - mu) - priors.zPrecision * q.mean;
    Eigen::MatrixXd precision = state.w.transpose() * mu.asDiagonal() * state.w;
    precision.diagonal().array() += priors.zPrecision;
    const Eigen::MatrixXd inverse = q.covariance.inverse();
    QVERIFY(stationary.norm() < 1e-8);
    QVERIFY((inverse - precision).norm() < 1e-8 * inverse.norm());
  }

  // On answers drawn from the model, the fit predicts held-out answers nearly as well as the true
  // loadings do (the same fold-in), and far better than the answers' frequencies.
  void predictsAlmostAsWellAsTheTruth() {
    const auto survey = generateSurvey(800, 10, 4, 2, 11);
    const auto groups = core::responseGroups(survey.corpus.words, "test");
    const auto split = core::splitForDocumentCompletion(survey.corpus, 0.2, 3);
    core::FitData data;
    data.corpus = &split.train;
    data.heldout = &split.heldout;
    data.trainDocuments = split.trainDocuments;
    data.fullDocumentCount = 800;
    core::FitSettings settings;
    // The point estimate, whose fold-in is the one the true loadings are scored with here.
    settings.options = core::resolveOptions(core::catpcaModel().info(), {{"k", 2}, {"inference", "map"}});
    settings.evalEvery = 1000;
    test::QuietObserver quiet;
    const auto result = core::catpcaModel().make()->fit(data, settings, quiet, {});
    const double fitted = result.finalMetrics["heldout_log_loss"].get<double>();
    const double baseline = result.finalMetrics["baseline_log_loss"].get<double>();
    const Eigen::VectorXd zeros = Eigen::VectorXd::Zero(40);
    const auto truth = core::scoreResponses(
        split.heldout, split.train, groups,
        [&](std::span<const std::int32_t> words, std::uint64_t) {
          return core::topic::epcaLogProbabilities(
              survey.w, zeros, core::topic::epcaFoldIn(words, survey.w, zeros, 1.0, &groups), &groups);
        },
        1);
    qInfo("held-out log loss: fitted %.4f, true loadings %.4f, frequencies %.4f; accuracy %.3f (frequencies %.3f)",
          fitted, truth.overall.logLoss, baseline, result.finalMetrics["heldout_accuracy"].get<double>(),
          result.finalMetrics["baseline_accuracy"].get<double>());
    QVERIFY(fitted < truth.overall.logLoss + 0.05);
    QVERIFY(fitted < baseline - 0.1);
    QVERIFY(result.finalMetrics["heldout_by_question"].size() == 10);
  }

  // The ANES sample through the project: two components predict voters' hidden answers better than
  // the answers' frequencies, in log loss and in accuracy.
  void anesThroughTheProject() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    const auto outcome = test::fitOnAnes(file, "catpca", {{"k", 2}});
    QVERIFY(outcome.run.status == core::RunStatus::Finished);
    core::Project project(file, core::Project::Access::ReadOnly);
    const auto metrics = core::loadRun(project, outcome.run.id).finalMetrics;
    qInfo("ANES: log loss %.4f (frequencies %.4f), accuracy %.3f (frequencies %.3f); vote %.3f (%.3f)",
          metrics["heldout_log_loss"].get<double>(), metrics["baseline_log_loss"].get<double>(),
          metrics["heldout_accuracy"].get<double>(), metrics["baseline_accuracy"].get<double>(),
          metrics["heldout_by_question"]["vote"]["accuracy"].get<double>(),
          metrics["heldout_by_question"]["vote"]["baseline_accuracy"].get<double>());
    QVERIFY(metrics["heldout_log_loss"].get<double>() < metrics["baseline_log_loss"].get<double>());
    QVERIFY(metrics["heldout_accuracy"].get<double>() > metrics["baseline_accuracy"].get<double>());
    QVERIFY(core::loadMatrix(project, outcome.run.id, "word_vectors")->rows() == 54);
  }
};

LATENT_TEST_CASE(CatpcaTest)
#include "tst_catpca.moc"
