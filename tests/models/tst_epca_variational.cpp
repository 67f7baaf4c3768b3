// SPDX-License-Identifier: GPL-3.0-or-later
// Bayesian ePCA (epca --inference variational): its bound against Monte Carlo expectations under
// q, its gradient against finite differences, the fold-in's fixed point against the stationarity
// conditions, the predictive against quadrature, and the contract with the job runtime.
#include <QtTest>

#include <Eigen/Cholesky>

#include <tbb/task_arena.h>

#include <Eigen/LU>
#include <cmath>

#include "core/models/topic/doc_word_counts.hpp"
#include "core/models/topic/epca.hpp"
#include "core/models/topic/epca_variational.hpp"
#include "core/util/random.hpp"
#include "generated_epca.hpp"
#include "quiet_observer.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

// A state away from any optimum: random loadings, biases, means and covariances.
struct VariationalPoint {
  core::topic::EpcaState state;
  core::topic::EpcaCovariances covariances;
};
VariationalPoint randomVariationalPoint(Eigen::Index D, Eigen::Index V, Eigen::Index K, std::uint64_t seed) {
  core::Rng rng(seed);
  VariationalPoint p;
  p.state.w.resize(V, K);
  for (Eigen::Index i = 0; i < p.state.w.size(); ++i) p.state.w.data()[i] = 0.5 * rng.normal();
  p.state.b.resize(V);
  for (Eigen::Index v = 0; v < V; ++v) p.state.b[v] = 0.3 * rng.normal() - 1.0;
  p.state.z.resize(D, K);
  for (Eigen::Index i = 0; i < p.state.z.size(); ++i) p.state.z.data()[i] = rng.normal();
  for (Eigen::Index d = 0; d < D; ++d) {
    Eigen::MatrixXd a(K, K);
    for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = 0.4 * rng.normal();
    p.covariances.blocks.push_back(a * a.transpose() + 0.05 * Eigen::MatrixXd::Identity(K, K));
  }
  return p;
}

double variationalBound(const core::topic::DocWordCounts& counts, const VariationalPoint& p,
                        const core::topic::EpcaPriors& priors, core::topic::EpcaState* gradient = nullptr) {
  core::topic::EpcaState g;
  Eigen::MatrixXd means;
  core::topic::EpcaCovariances next;
  const double bound = core::topic::epcaVariationalSweep(counts, p.state, p.covariances, priors,
                                                         gradient ? *gradient : g, means, next, {});
  return bound;
}

core::FitResult fitVariational(const core::Corpus& corpus, const nlohmann::json& options, std::stop_token stop = {}) {
  core::FitData data;
  data.corpus = &corpus;
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  core::FitSettings settings;
  auto given = options;
  given["inference"] = "variational";
  settings.options = core::resolveOptions(core::epcaModel().info(), given);
  settings.evalEvery = 1000;
  test::QuietObserver observer;
  return core::epcaModel().make()->fit(data, settings, observer, stop);
}

}  // namespace

class EpcaVariationalTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // The bound is E_q[log p(x | z)] - KL(q || prior) - wPrecision/2 ||W||^2: exact for the Poisson
  // likelihood, below it for the multinomial (Jensen), here against Monte Carlo over q.
  void boundAgainstMonteCarlo() {
    const auto truth = test::generateEpca(3, 8, 2, 15, 5);
    const auto counts = core::topic::buildDocWordCounts(truth.corpus);
    const auto point = randomVariationalPoint(3, 8, 2, 6);
    for (const auto likelihood : {core::topic::EpcaLikelihood::Poisson, core::topic::EpcaLikelihood::Multinomial}) {
      const core::topic::EpcaPriors priors{1.3, 0.7, likelihood};
      const double bound = variationalBound(counts, point, priors);
      core::Rng rng(9);
      double expected = -0.5 * priors.wPrecision * point.state.w.squaredNorm(), variance = 0.0;
      const int samples = 200000;
      for (Eigen::Index d = 0; d < 3; ++d) {
        const Eigen::MatrixXd& s = point.covariances.blocks[static_cast<std::size_t>(d)];
        const Eigen::VectorXd m = point.state.z.row(d).transpose();
        const Eigen::MatrixXd root = s.llt().matrixL();
        Eigen::VectorXd x = Eigen::VectorXd::Zero(8);
        for (const auto v : truth.corpus.document(static_cast<std::size_t>(d))) x[v] += 1.0;
        double sum = 0.0, squares = 0.0;
        for (int i = 0; i < samples; ++i) {
          Eigen::VectorXd e(2);
          e << rng.normal(), rng.normal();
          const Eigen::VectorXd eta = point.state.w * (m + root * e) + point.state.b;
          const double value =
              likelihood == core::topic::EpcaLikelihood::Poisson
                  ? x.dot(eta) - eta.array().exp().sum()
                  : x.dot(core::topic::epcaLogProbabilities(point.state.w, point.state.b, m + root * e));
          sum += value;
          squares += value * value;
        }
        const double mean = sum / samples;
        variance += (squares / samples - mean * mean) / samples;
        const double kl = 0.5 * (priors.zPrecision * (s.trace() + m.squaredNorm()) - 2.0 - std::log(s.determinant()) -
                                 2.0 * std::log(priors.zPrecision));
        expected += mean - kl;
      }
      const double se = std::sqrt(variance);
      qInfo("%s: bound %.5f, Monte Carlo %.5f (se %.5f)",
            likelihood == core::topic::EpcaLikelihood::Poisson ? "poisson" : "multinomial", bound, expected, se);
      if (likelihood == core::topic::EpcaLikelihood::Poisson)
        QVERIFY(std::abs(bound - expected) < 4.0 * se);
      else
        QVERIFY(bound < expected + 4.0 * se && bound > expected - 0.1 * std::abs(expected));
    }
  }

  // The gradient in W and b is the bound's, at the state the sweep starts from.
  void gradientMatchesFiniteDifferences() {
    const auto truth = test::generateEpca(4, 7, 2, 12, 7);
    const auto counts = core::topic::buildDocWordCounts(truth.corpus);
    for (const auto likelihood : {core::topic::EpcaLikelihood::Poisson, core::topic::EpcaLikelihood::Multinomial}) {
      const core::topic::EpcaPriors priors{1.0, 0.5, likelihood};
      auto point = randomVariationalPoint(4, 7, 2, 8);
      core::topic::EpcaState gradient;
      variationalBound(counts, point, priors, &gradient);
      QVERIFY(gradient.z.isZero());
      const double h = 1e-5;
      double worst = 0.0;
      for (Eigen::Index v = 0; v < 7; ++v) {
        for (Eigen::Index k = 0; k < 3; ++k) {
          double& entry = k < 2 ? point.state.w(v, k) : point.state.b[v];
          const double analytic = k < 2 ? gradient.w(v, k) : gradient.b[v];
          const double saved = entry;
          entry = saved + h;
          const double up = variationalBound(counts, point, priors);
          entry = saved - h;
          const double down = variationalBound(counts, point, priors);
          entry = saved;
          worst = std::max(worst, std::abs((up - down) / (2 * h) - analytic) / std::max(1.0, std::abs(analytic)));
        }
      }
      qInfo("largest relative error %.2e", worst);
      QVERIFY(worst < 1e-6);
    }
  }

  // The fold-in stops where the bound is stationary: W^T (x - mu) = lambda m and
  // S^-1 = W^T diag(mu) W + lambda I, mu = L softmax(W m + b + q / 2), q_v = w_v^T S w_v.
  void foldInIsAStationaryPoint() {
    const auto truth = test::generateEpca(1, 30, 3, 40, 12);
    const auto point = randomVariationalPoint(1, 30, 3, 13);
    const core::topic::EpcaPriors priors{0.8, 1.0, core::topic::EpcaLikelihood::Multinomial};
    const auto q =
        core::topic::epcaVariationalFoldIn(truth.corpus.document(0), point.state.w, point.state.b, priors, 2000, 0.0);
    const Eigen::MatrixXd& w = point.state.w;
    Eigen::VectorXd x = Eigen::VectorXd::Zero(30);
    for (const auto v : truth.corpus.document(0)) x[v] += 1.0;
    const Eigen::VectorXd quadratic = ((w * q.covariance).array() * w.array()).rowwise().sum();
    Eigen::VectorXd logits = w * q.mean + point.state.b + 0.5 * quadratic;
    logits.array() -= logits.maxCoeff();
    const Eigen::VectorXd mu = 40.0 * logits.array().exp() / logits.array().exp().sum();
    const Eigen::VectorXd gradient = w.transpose() * (x - mu) - priors.zPrecision * q.mean;
    Eigen::MatrixXd precision = w.transpose() * mu.asDiagonal() * w;
    precision.diagonal().array() += priors.zPrecision;
    const Eigen::MatrixXd inverse = q.covariance.inverse();
    qInfo("|gradient| %.2e, |S^-1 - fixed point| / |S^-1| %.2e", gradient.norm(),
          (inverse - precision).norm() / inverse.norm());
    QVERIFY(gradient.norm() < 1e-6);
    QVERIFY((inverse - precision).norm() < 1e-6 * inverse.norm());
  }

  // The predictive averages the softmax over q: with two words and one dimension it is
  // E[sigmoid(a z + c)], z ~ N(m, s^2), here against quadrature.
  void predictiveIntegratesOverQ() {
    Eigen::MatrixXd w(2, 1);
    w << 1.7, -0.4;
    Eigen::VectorXd b(2);
    b << 0.3, -0.2;
    core::topic::EpcaDocumentPosterior q;
    q.mean = Eigen::VectorXd::Constant(1, 0.6);
    q.covariance = Eigen::MatrixXd::Constant(1, 1, 1.44);
    const double a = w(0, 0) - w(1, 0), c = b[0] - b[1];
    double exact = 0.0;
    const int steps = 200000;
    const double lo = q.mean[0] - 10 * 1.2, width = 20 * 1.2 / steps;
    for (int i = 0; i < steps; ++i) {
      const double z = lo + (i + 0.5) * width;
      exact += width * std::exp(-0.5 * std::pow((z - 0.6) / 1.2, 2)) / (1.2 * std::sqrt(2 * M_PI)) /
               (1.0 + std::exp(-(a * z + c)));
    }
    const Eigen::VectorXd p = core::topic::epcaPredictiveLogProbabilities(w, b, q, 3, 40000).array().exp();
    const double plugIn = 1.0 / (1.0 + std::exp(-(a * 0.6 + c)));
    qInfo("P(word 0): predictive %.4f, quadrature %.4f, plug-in at the mean %.4f", p[0], exact, plugIn);
    QVERIFY(std::abs(p[0] - exact) < 0.004);
    QVERIFY(std::abs(p.sum() - 1.0) < 1e-12);
    QVERIFY(std::abs(plugIn - exact) > 0.03);  // the integration matters here
  }

  // The fit through the model: its bound rises, the result is the same on any number of threads,
  // and a stop keeps a complete state.
  void fitsThroughTheModel() {
    const auto truth = test::generateEpca(60, 25, 2, 30, 14);
    Eigen::MatrixXd first;
    for (const int threads : {1, 2}) {
      tbb::task_arena arena(threads);
      core::FitResult result;
      arena.execute([&] { result = fitVariational(truth.corpus, {{"k", 2}, {"iterations", 40}, {"tolerance", 0.0}}); });
      QVERIFY(result.status == core::FitStatus::MaxIterations);
      const auto& words = test::resultMatrix(result, "word_vectors");
      if (first.size() == 0)
        first = words;
      else
        QVERIFY(words == first);
    }
    std::stop_source stop;
    stop.request_stop();
    const auto stopped = fitVariational(truth.corpus, {{"k", 2}}, stop.get_token());
    QVERIFY(stopped.status == core::FitStatus::Cancelled);
    QCOMPARE(test::resultMatrix(stopped, "word_vectors").rows(), Eigen::Index{25});
  }
};

LATENT_TEST_CASE(EpcaVariationalTest)
#include "tst_epca_variational.moc"
