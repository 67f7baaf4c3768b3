// SPDX-License-Identifier: GPL-3.0-or-later
// Multinomial ePCA against a dense computation of its objective, finite differences of its
// gradient, the optimality of its fold-in, documents generated from the model, and its contract
// with the job runtime.
#include <QtTest>

#include <tbb/task_arena.h>

#include <Eigen/QR>
#include <cmath>

#include "core/data/corpus.hpp"
#include "core/eval/heldout.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/models/topic/doc_word_counts.hpp"
#include "core/models/topic/epca.hpp"
#include "core/models/topic/epca_kernels.hpp"
#include "core/results/embedding_results.hpp"
#include "core/store/run_store.hpp"
#include "core/util/dense_svd.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"
#include "generated_epca.hpp"
#include "quiet_observer.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

core::FitData epcaWhole(const core::Corpus& corpus) {
  core::FitData data;
  data.corpus = &corpus;
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  return data;
}

core::FitResult fitEpca(const core::FitData& data, const nlohmann::json& options, std::stop_token stop = {}) {
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::epcaModel().info(), options);
  settings.evalEvery = 1000;
  test::QuietObserver observer;
  return core::epcaModel().make()->fit(data, settings, observer, stop);
}

// The largest principal angle's cosine between the column spaces of a and b: 1 when they agree.
// Both are centred first: softmax(W z + b) does not change when a multiple of the all-ones vector
// is added to a column of W, so only the centred columns are identified.
double epcaSubspaceAgreement(Eigen::MatrixXd a, Eigen::MatrixXd b) {
  a.rowwise() -= a.colwise().mean();
  b.rowwise() -= b.colwise().mean();
  const Eigen::MatrixXd qa =
      Eigen::HouseholderQR<Eigen::MatrixXd>(a).householderQ() * Eigen::MatrixXd::Identity(a.rows(), a.cols());
  const Eigen::MatrixXd qb =
      Eigen::HouseholderQR<Eigen::MatrixXd>(b).householderQ() * Eigen::MatrixXd::Identity(b.rows(), b.cols());
  return core::thinSvd(qa.transpose() * qb).singularValues.minCoeff();
}

}  // namespace

class EpcaTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // The objective is sum x log softmax(W z + b) (multinomial) or sum x l - exp(l) (Poisson) minus the
  // two Gaussian penalties, written out here densely; its gradient agrees with central differences
  // in every block of parameters.
  void objectiveAndGradientAgainstDenseAndFiniteDifferences_data() {
    QTest::addColumn<bool>("poisson");
    QTest::newRow("multinomial") << false;
    QTest::newRow("poisson") << true;
  }
  void objectiveAndGradientAgainstDenseAndFiniteDifferences() {
    QFETCH(bool, poisson);
    const auto likelihood = poisson ? core::topic::EpcaLikelihood::Poisson : core::topic::EpcaLikelihood::Multinomial;
    const auto truth = test::generateEpca(12, 15, 2, 20, 3);
    const auto counts = core::topic::buildDocWordCounts(truth.corpus);
    auto state = core::topic::initEpca(counts, 2, 5, likelihood);
    core::Rng rng(9, 0);
    for (Eigen::Index i = 0; i < state.w.size(); ++i) state.w.data()[i] = 0.5 * rng.normal();
    for (Eigen::Index i = 0; i < state.z.size(); ++i) state.z.data()[i] = 0.5 * rng.normal();
    const core::topic::EpcaPriors priors{0.7, 1.3, likelihood};
    core::topic::EpcaState gradient;
    const double objective = core::topic::epcaObjective(counts, state, priors, &gradient, {});
    double dense = -0.5 * priors.zPrecision * state.z.squaredNorm() - 0.5 * priors.wPrecision * state.w.squaredNorm();
    for (std::size_t d = 0; d < truth.corpus.documentCount(); ++d) {
      const Eigen::VectorXd z = state.z.row(static_cast<Eigen::Index>(d)).transpose();
      const Eigen::VectorXd logits = state.w * z + state.b;
      const Eigen::VectorXd logp = core::topic::epcaLogProbabilities(state.w, state.b, z);
      for (const auto v : truth.corpus.document(d)) dense += poisson ? logits[v] : logp[v];
      if (poisson) dense -= logits.array().exp().sum();
    }
    QVERIFY(std::abs(objective - dense) < 1e-10 * std::abs(dense));
    const double h = 1e-6;
    const auto check = [&](Eigen::Ref<Eigen::MatrixXd> values, const Eigen::MatrixXd& analytic, const char* name) {
      for (Eigen::Index i = 0; i < values.size(); i += 3) {
        const double kept = values.data()[i];
        values.data()[i] = kept + h;
        const double up = core::topic::epcaObjective(counts, state, priors, nullptr, {});
        values.data()[i] = kept - h;
        const double down = core::topic::epcaObjective(counts, state, priors, nullptr, {});
        values.data()[i] = kept;
        const double numeric = (up - down) / (2 * h);
        QVERIFY2(std::abs(numeric - analytic.data()[i]) < 1e-5 * std::max(1.0, std::abs(numeric)),
                 qPrintable(QString("%1[%2]: %3 against %4").arg(name).arg(i).arg(analytic.data()[i]).arg(numeric)));
      }
    };
    check(state.w, gradient.w, "W");
    check(state.z, gradient.z, "z");
    check(state.b, gradient.b, "b");
  }

  // A held-out document's z is the maximum of its concave objective: the gradient vanishes there.
  void foldInIsTheMaximum() {
    const auto truth = test::generateEpca(5, 30, 3, 60, 4);
    const Eigen::VectorXd b = Eigen::VectorXd::Constant(30, 0.1);
    const auto words = truth.corpus.document(2);
    const double precision = 0.5;
    const Eigen::VectorXd z = core::topic::epcaFoldIn(words, truth.w, b, precision);
    Eigen::VectorXd counts = Eigen::VectorXd::Zero(30);
    for (const auto v : words) counts[v] += 1.0;
    const Eigen::VectorXd p = core::topic::epcaLogProbabilities(truth.w, b, z).array().exp();
    const Eigen::VectorXd gradient =
        truth.w.transpose() * (counts - static_cast<double>(words.size()) * p) - precision * z;
    QVERIFY2(gradient.norm() < 1e-6, qPrintable(QString::number(gradient.norm())));
  }

  // The canonical form is the SVD of Z W^T.
  void canonicalFormIsTheSvdOfTheLowRankPart() {
    core::Rng rng(2, 0);
    Eigen::MatrixXd z(20, 3), w(40, 3);
    for (Eigen::Index i = 0; i < z.size(); ++i) z.data()[i] = rng.normal();
    for (Eigen::Index i = 0; i < w.size(); ++i) w.data()[i] = rng.normal();
    const auto canonical = core::topic::epcaCanonical(z, w);
    const Eigen::MatrixXd product = z * w.transpose();
    QVERIFY((canonical.docVectors * canonical.singularValues.asDiagonal() * canonical.wordVectors.transpose() - product)
                .cwiseAbs()
                .maxCoeff() < 1e-10);
    const auto dense = core::thinSvd(product);
    QVERIFY((canonical.singularValues - dense.singularValues.head(3)).cwiseAbs().maxCoeff() < 1e-10);
    QVERIFY((canonical.wordVectors.transpose() * canonical.wordVectors - Eigen::MatrixXd::Identity(3, 3))
                .cwiseAbs()
                .maxCoeff() < 1e-10);
  }

  // The canonical form comes from the Gram matrices when they are well conditioned, else from
  // Householder's QR: a factor with a column a million times shorter than the others (its Gram
  // matrix's condition number 1e12) still gives the SVD, orthonormal to rounding.
  void canonicalFormOfAnIllConditionedFactor() {
    core::Rng rng(3, 0);
    Eigen::MatrixXd z(30, 4), w(60, 4);
    for (Eigen::Index i = 0; i < z.size(); ++i) z.data()[i] = rng.normal();
    for (Eigen::Index i = 0; i < w.size(); ++i) w.data()[i] = rng.normal();
    w.col(3) *= 1e-6;
    const auto canonical = core::topic::epcaCanonical(z, w);
    const Eigen::MatrixXd product = z * w.transpose();
    QVERIFY((canonical.docVectors * canonical.singularValues.asDiagonal() * canonical.wordVectors.transpose() - product)
                .cwiseAbs()
                .maxCoeff() < 1e-10);
    const auto dense = core::thinSvd(product);
    QVERIFY((canonical.singularValues - dense.singularValues.head(4)).cwiseAbs().maxCoeff() < 1e-10);
    for (const Eigen::MatrixXd* m : {&canonical.wordVectors, &canonical.docVectors})
      QVERIFY((m->transpose() * *m - Eigen::MatrixXd::Identity(4, 4)).cwiseAbs().maxCoeff() < 1e-12);
  }

  // Documents generated from each model: the fitted loadings span the true ones' subspace. (A
  // Poisson fit of multinomial documents does not: its points must also account for each
  // document's length, which the softmax leaves free.)
  void recoversTheGeneratingSubspace_data() {
    QTest::addColumn<QString>("likelihood");
    QTest::newRow("multinomial") << "multinomial";
    QTest::newRow("poisson") << "poisson";
  }
  void recoversTheGeneratingSubspace() {
    QFETCH(QString, likelihood);
    const auto truth = likelihood == "poisson" ? test::generatePoissonEpca(300, 60, 2, 2.5, 11)
                                               : test::generateEpca(300, 60, 2, 150, 11);
    const auto result =
        fitEpca(epcaWhole(truth.corpus),
                {{"k", 2}, {"iterations", 400}, {"tolerance", 0.0}, {"likelihood", likelihood.toStdString()}});
    const auto& w = test::resultMatrix(result, core::embedding::kWordVectors);
    const double agreement = epcaSubspaceAgreement(w, truth.w);
    qInfo("smallest cosine of the principal angles between the fitted and true loadings: %.4f", agreement);
    QVERIFY(agreement > 0.95);
  }

  void sameNumbersAnyThreadCount() {
    const auto truth = test::generateEpca(70, 25, 2, 30, 6);
    Eigen::MatrixXd first;
    for (const int threads : {1, 2}) {
      tbb::task_arena arena(threads);
      core::FitResult result;
      arena.execute([&] { result = fitEpca(epcaWhole(truth.corpus), {{"k", 2}, {"iterations", 20}}); });
      const auto& w = test::resultMatrix(result, core::embedding::kWordVectors);
      if (first.size() == 0)
        first = w;
      else
        QVERIFY(w == first);
    }
  }

  void refusesTooManyComponentsAndHonoursAStop() {
    const auto truth = test::generateEpca(10, 30, 2, 10, 1);
    QVERIFY_THROWS_EXCEPTION(core::UsageError, fitEpca(epcaWhole(truth.corpus), {{"k", 10}}));
    std::stop_source stop;
    stop.request_stop();
    const auto result = fitEpca(epcaWhole(truth.corpus), {{"k", 2}}, stop.get_token());
    QVERIFY(result.status == core::FitStatus::Cancelled);
    QCOMPARE(test::resultMatrix(result, core::embedding::kWordVectors).rows(), Eigen::Index{30});
  }

  // Through the job and the project: both protocols, full folding-in the more optimistic (003).
  void endToEndThroughTheProject() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    const auto truth = test::generateEpca(80, 40, 2, 40, 8);
    {
      core::Project p(file);
      test::addCorpusOf(p, "toy", truth.corpus);
    }
    core::RunRequest request;
    request.model = "epca";
    request.dataset = "toy";
    request.options = {{"k", 2}, {"iterations", 100}};
    request.seed = 4;
    request.heldout = 0.2;
    const auto outcome = core::runFit(file, request, nullptr, {});
    QVERIFY(outcome.run.status == core::RunStatus::Finished);
    core::Project p(file, core::Project::Access::ReadOnly);
    const auto stored = core::loadRun(p, outcome.run.id);
    const double completion = stored.finalMetrics["heldout_perplexity"].get<double>();
    const double full = stored.finalMetrics["heldout_perplexity_full_folding_in"].get<double>();
    qInfo("document completion %.2f, full folding-in %.2f", completion, full);
    QVERIFY(completion > 1.0 && completion < 40.0);
    QVERIFY(full < completion);
    const auto u = core::loadMatrix(p, outcome.run.id, core::embedding::kDocVectors);
    QVERIFY(u.has_value());
    QCOMPARE(u->rows(), Eigen::Index{80});
  }
};

LATENT_TEST_CASE(EpcaTest)
#include "tst_epca.moc"
