// SPDX-License-Identifier: GPL-3.0-or-later
// NMF (KL and Frobenius; multiplicative updates and HALS) against dense computations of its losses,
// PLSA (003 §3: the same model up to scaling), generated truth, and its contract with the job
// runtime.
#include <QtTest>

#include <tbb/task_arena.h>

#include <cmath>

#include "core/data/synthetic_lda.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/models/topic/nmf.hpp"
#include "core/models/topic/nmf_kernels.hpp"
#include "core/models/topic/plsa.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

class NmfObserver final : public core::TrainingObserver {
 public:
  bool onReport(const core::IterationReport& r) override {
    reports.push_back(r);
    if (stopAt > 0 && r.iteration == stopAt) source.request_stop();
    return keepGoing;
  }
  std::vector<core::IterationReport> reports;
  bool keepGoing = true;
  std::int64_t stopAt = 0;
  std::stop_source source;
};

core::FitResult fitTopicModelForNmf(const core::ModelDefinition& model, const core::Corpus& corpus,
                                    const nlohmann::json& options, core::TrainingObserver& observer,
                                    std::uint64_t seed = 1, std::stop_token stop = {}, int evalEvery = 10) {
  core::FitData data;
  data.corpus = &corpus;
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  core::FitSettings settings;
  settings.options = core::resolveOptions(model.info(), options);
  settings.seed = seed;
  settings.evalEvery = evalEvery;
  return model.make()->fit(data, settings, observer, stop);
}

core::FitResult fitNmf(const core::Corpus& corpus, const nlohmann::json& options, NmfObserver& observer,
                       std::uint64_t seed = 1, std::stop_token stop = {}, int evalEvery = 10) {
  return fitTopicModelForNmf(core::nmfModel(), corpus, options, observer, seed, stop, evalEvery);
}

core::SyntheticLda nmfSmallCorpus(std::uint64_t seed = 8) {
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

// The corpus as a dense D x V count matrix.
Eigen::MatrixXd nmfDenseCounts(const core::Corpus& corpus) {
  Eigen::MatrixXd x = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(corpus.documentCount()),
                                            static_cast<Eigen::Index>(corpus.vocabularySize()));
  for (std::size_t d = 0; d < corpus.documentCount(); ++d)
    for (const auto w : corpus.document(d)) x(static_cast<Eigen::Index>(d), w) += 1.0;
  return x;
}

// The losses written out on dense matrices: sum x log(x / y) - x + y, and 0.5 sum (x - y)^2.
double nmfDenseKl(const Eigen::MatrixXd& x, const Eigen::MatrixXd& y) {
  double sum = 0.0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double a = x.data()[i], b = y.data()[i];
    sum += (a > 0 ? a * std::log(a / b) : 0.0) - a + b;
  }
  return sum;
}
double nmfDenseFrobenius(const Eigen::MatrixXd& x, const Eigen::MatrixXd& y) { return 0.5 * (x - y).squaredNorm(); }

struct NmfVariant {
  const char* loss;
  const char* solver;
};
constexpr NmfVariant kNmfVariants[] = {{"kl", "mu"}, {"frobenius", "mu"}, {"frobenius", "hals"}};

}  // namespace

class NmfTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Every sweep returns the loss of exactly the factors it leaves, as a dense computation of
  // W H gives it, from the start on.
  void lossesMatchADenseComputation() {
    const auto truth = nmfSmallCorpus();
    const auto counts = core::topic::buildDocWordCounts(truth.corpus);
    const Eigen::MatrixXd x = nmfDenseCounts(truth.corpus);
    for (const auto& [loss, solver] :
         {std::pair{core::topic::NmfLoss::KullbackLeibler, core::topic::NmfSolver::Multiplicative},
          std::pair{core::topic::NmfLoss::Frobenius, core::topic::NmfSolver::Multiplicative},
          std::pair{core::topic::NmfLoss::Frobenius, core::topic::NmfSolver::Hals}}) {
      core::topic::NmfState state;
      const auto dense = [&] {
        const Eigen::MatrixXd y = state.w * state.h.transpose();
        return loss == core::topic::NmfLoss::KullbackLeibler ? nmfDenseKl(x, y) : nmfDenseFrobenius(x, y);
      };
      const double start = core::topic::initNmf(counts, 3, loss, 5, state, {});
      QVERIFY(std::abs(start - dense()) < 1e-9 * dense());
      QVERIFY(state.w.minCoeff() >= 0.0 && state.h.minCoeff() >= 0.0);
      for (int sweep = 0; sweep < 5; ++sweep) {
        const double reported = core::topic::nmfSweep(counts, loss, solver, state, true, {});
        QVERIFY2(std::abs(reported - dense()) < 1e-9 * dense(), qPrintable(QString("sweep %1").arg(sweep)));
        QVERIFY(state.w.minCoeff() >= 0.0 && state.h.minCoeff() >= 0.0);
      }
    }
  }

  // Lee & Seung's updates never increase their loss, nor does coordinate descent.
  void sweepsNeverIncreaseTheLoss() {
    const auto truth = nmfSmallCorpus(3);
    for (const auto& [loss, solver] : kNmfVariants) {
      NmfObserver observer;
      // Evaluated every sweep: the KL loss is computed on evaluated sweeps only.
      fitNmf(truth.corpus, {{"k", 3}, {"iterations", 80}, {"tolerance", 0.0}, {"loss", loss}, {"solver", solver}},
             observer, 1, {}, 1);
      QCOMPARE(observer.reports.size(), std::size_t{80});
      for (std::size_t i = 1; i < observer.reports.size(); ++i) {
        const double before = *observer.reports[i - 1].extra("loss"), after = *observer.reports[i].extra("loss");
        QVERIFY2(after <= before * (1 + 1e-12),
                 qPrintable(QString("%1/%2 rose at sweep %3").arg(loss, solver).arg(i + 1)));
      }
      QVERIFY(*observer.reports.back().extra("loss") < *observer.reports.front().extra("loss"));
    }
  }

  // 003 §3: NMF with the KL divergence is PLSA up to scaling. After every W update the
  // reconstruction keeps each document's length, so D(X || W H) = sum x log x - sum_d N_d log N_d
  // - log p(X | theta, phi) for the normalised factors; and fitted long from the same seeding the
  // two reach the same topics.
  void klIsPlsaUpToScaling() {
    core::SyntheticLdaSpec spec;
    spec.topics = 4;
    spec.vocabulary = 80;
    spec.documents = 150;
    spec.meanLength = 60;
    spec.alpha = 0.2;
    spec.beta = 0.05;
    spec.seed = 12;
    const auto truth = core::generateLdaCorpus(spec);
    NmfObserver nmfReports, plsaReports;
    const auto nmf =
        fitNmf(truth.corpus, {{"k", 4}, {"iterations", 600}, {"tolerance", 0.0}, {"smoothing", 0.0}}, nmfReports, 3);
    const auto plsa = fitTopicModelForNmf(
        core::plsaModel(), truth.corpus, {{"k", 4}, {"iterations", 600}, {"tolerance", 0.0}, {"regularization", 1e-12}},
        plsaReports, 3);
    const auto& phi = test::resultMatrix(nmf, "topic_word");
    const auto& theta = test::resultMatrix(nmf, "doc_topic");
    double logLik = 0.0, constant = 0.0;
    const Eigen::MatrixXd x = nmfDenseCounts(truth.corpus);
    for (Eigen::Index d = 0; d < x.rows(); ++d) {
      const double length = x.row(d).sum();
      constant -= length * std::log(length);
      for (Eigen::Index v = 0; v < x.cols(); ++v)
        if (x(d, v) > 0) {
          constant += x(d, v) * std::log(x(d, v));
          logLik += x(d, v) * std::log(theta.row(d).dot(phi.col(v)));
        }
    }
    const double loss = nmf.finalMetrics["train_loss"].get<double>();
    QVERIFY2(std::abs(loss - (constant - logLik)) < 1e-8 * std::abs(loss),
             qPrintable(QString("loss %1, from the likelihood %2").arg(loss).arg(constant - logLik)));
    const auto match = core::matchTopics(phi, test::resultMatrix(plsa, "topic_word"));
    const double N = static_cast<double>(truth.corpus.tokenCount());
    const double plsaLogLik = *plsaReports.reports.back().extra("log_likelihood_per_token");
    qInfo("mean TV to PLSA's topics %.5f (max %.5f); log-likelihood per token %.6f (NMF) %.6f (PLSA)",
          match.meanTotalVariation, match.maxTotalVariation, logLik / N, plsaLogLik);
    QVERIFY(match.maxTotalVariation < 0.01);
    QVERIFY(std::abs(logLik / N - plsaLogLik) < 1e-4);
  }

  // Topics of a corpus drawn from LDA come back under both losses.
  void recoversGeneratedTopics() {
    core::SyntheticLdaSpec spec;
    spec.topics = 5;
    spec.vocabulary = 300;
    spec.documents = 500;
    spec.meanLength = 150;
    spec.alpha = 0.1;
    spec.beta = 0.05;
    spec.seed = 77;
    const auto truth = core::generateLdaCorpus(spec);
    for (const auto& [loss, solver] : kNmfVariants) {
      NmfObserver observer;
      const auto result =
          fitNmf(truth.corpus, {{"k", 5}, {"iterations", 300}, {"loss", loss}, {"solver", solver}}, observer);
      const auto match = core::matchTopics(test::resultMatrix(result, "topic_word"), truth.topicWord);
      qInfo("%s/%s: mean TV %.4f, max TV %.4f, %lld sweeps", loss, solver, match.meanTotalVariation,
            match.maxTotalVariation, static_cast<long long>(result.iterations));
      QVERIFY(match.meanTotalVariation < 0.1);
      QVERIFY(match.maxTotalVariation < 0.2);
    }
  }

  // The Frobenius fold-in is non-negative least squares: at its answer the gradient G w - H^T x
  // vanishes where w > 0 and is non-negative where w = 0 (the KKT conditions).
  void frobeniusFoldInSolvesNonNegativeLeastSquares() {
    const auto truth = nmfSmallCorpus(5);
    core::topic::RowMatrix h = truth.topicWord.transpose();
    h.col(1) *= 3.0;  // columns of different scales, as NMF leaves them
    const Eigen::RowVectorXd mass = h.colwise().sum();
    const auto fold = core::topic::frobeniusFoldIn(h);
    const auto words = truth.corpus.document(7);
    Eigen::VectorXd theta(3);
    fold(words, 1, theta);
    QVERIFY(std::abs(theta.sum() - 1.0) < 1e-12);
    // w back from theta up to its scale, which the least-squares fit then fixes.
    Eigen::RowVectorXd w = theta.transpose().cwiseQuotient(mass);
    Eigen::RowVectorXd b = Eigen::RowVectorXd::Zero(3);
    for (const auto v : words) b += h.row(v);
    const Eigen::MatrixXd gram = h.transpose() * h;
    w *= b.dot(w) / (w * gram).dot(w);
    const Eigen::RowVectorXd gradient = w * gram - b;
    for (int k = 0; k < 3; ++k) {
      if (w[k] > 1e-12)
        QVERIFY2(std::abs(gradient[k]) < 1e-6 * b.norm(), qPrintable(QString("topic %1").arg(k)));
      else
        QVERIFY(gradient[k] > -1e-6 * b.norm());
    }
  }

  void sameSeedSameNumbersAnyThreadCount() {
    const auto truth = nmfSmallCorpus(21);
    for (const auto& [loss, solver] : kNmfVariants) {
      Eigen::MatrixXd first, firstTheta;
      for (const int threads : {1, 1, 2}) {
        tbb::task_arena arena(threads);
        NmfObserver observer;
        core::FitResult result;
        arena.execute([&] {
          result =
              fitNmf(truth.corpus, {{"k", 3}, {"iterations", 15}, {"loss", loss}, {"solver", solver}}, observer, 9);
        });
        if (first.size() == 0) {
          first = test::resultMatrix(result, "topic_word");
          firstTheta = test::resultMatrix(result, "doc_topic");
        } else {
          QVERIFY(test::resultMatrix(result, "topic_word") == first);
          QVERIFY(test::resultMatrix(result, "doc_topic") == firstTheta);
        }
      }
    }
  }

  void halsWithKlIsRefused() {
    const auto truth = nmfSmallCorpus();
    NmfObserver observer;
    QVERIFY_THROWS_EXCEPTION(core::UsageError,
                             fitNmf(truth.corpus, {{"k", 3}, {"loss", "kl"}, {"solver", "hals"}}, observer));
  }

  void stopsAreHonoured() {
    const auto truth = nmfSmallCorpus();
    {
      NmfObserver observer;
      std::stop_source stop;
      stop.request_stop();
      const auto result = fitNmf(truth.corpus, {{"k", 3}}, observer, 1, stop.get_token());
      QVERIFY(result.status == core::FitStatus::Cancelled);
      QVERIFY(observer.reports.empty());
      const auto& phi = test::resultMatrix(result, "topic_word");
      QCOMPARE(phi.rows(), Eigen::Index{3});
      for (int k = 0; k < 3; ++k) QVERIFY(std::abs(phi.row(k).sum() - 1.0) < 1e-12);
      QCOMPARE(test::resultMatrix(result, "doc_topic").rows(), Eigen::Index{60});
    }
    {
      NmfObserver observer;
      observer.keepGoing = false;
      const auto result = fitNmf(truth.corpus, {{"k", 3}, {"tolerance", 0.0}}, observer);
      QVERIFY(result.status == core::FitStatus::Cancelled);
      QCOMPARE(observer.reports.size(), std::size_t{1});
    }
    {
      // The Frobenius loss reports every sweep; stopped at the fourth.
      NmfObserver observer;
      observer.stopAt = 4;
      const auto result = fitNmf(truth.corpus, {{"k", 3}, {"tolerance", 0.0}, {"loss", "frobenius"}}, observer, 1,
                                 observer.source.get_token());
      QVERIFY(result.status == core::FitStatus::Cancelled);
      QCOMPARE(result.iterations, std::int64_t{4});
    }
    {
      // The KL loss is computed on evaluated sweeps only (every 10th here). Stopped at the third
      // sweep (from its snapshot), the run still ends with the loss of the state it kept: with no
      // smoothing, D(X || WH) = sum x log x - sum_d N_d log N_d - log p(X | theta, phi) (003 §3).
      class StopAtSnapshot final : public core::TrainingObserver {
       public:
        bool onReport(const core::IterationReport&) override {
          ++reports;
          return true;
        }
        void onSnapshot(std::shared_ptr<const core::ModelSnapshot>) override { source.request_stop(); }
        int reports = 0;
        std::stop_source source;
      } observer;
      const auto result = fitTopicModelForNmf(core::nmfModel(), truth.corpus,
                                              {{"k", 3}, {"tolerance", 0.0}, {"smoothing", 0.0}, {"snapshot_every", 3}},
                                              observer, 1, observer.source.get_token());
      QVERIFY(result.status == core::FitStatus::Cancelled);
      QCOMPARE(result.iterations, std::int64_t{3});
      QCOMPARE(observer.reports, 0);
      const auto& phi = test::resultMatrix(result, "topic_word");
      const auto& theta = test::resultMatrix(result, "doc_topic");
      const Eigen::MatrixXd x = nmfDenseCounts(truth.corpus);
      double expected = 0.0;
      for (Eigen::Index d = 0; d < x.rows(); ++d) {
        const double length = x.row(d).sum();
        expected -= length * std::log(length);
        for (Eigen::Index v = 0; v < x.cols(); ++v)
          if (x(d, v) > 0) expected += x(d, v) * (std::log(x(d, v)) - std::log(theta.row(d).dot(phi.col(v))));
      }
      QVERIFY(std::abs(result.finalMetrics["train_loss"].get<double>() - expected) < 1e-9 * expected);
    }
  }

  // Through the job and the project: both held-out protocols reported, full folding-in the more
  // optimistic (003), topics and mixes stored.
  void endToEndThroughTheProject() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    const auto truth = nmfSmallCorpus(4);
    {
      core::Project p(file);
      test::addCorpusOf(p, "toy", truth.corpus);
    }
    for (const char* loss : {"kl", "frobenius"}) {
      core::RunRequest request;
      request.model = "nmf";
      request.dataset = "toy";
      request.options = {{"k", 3}, {"iterations", 40}, {"loss", loss}};
      request.seed = 4;
      request.heldout = 0.2;
      request.evalEvery = 10;
      const auto outcome = core::runFit(file, request, nullptr, {});
      QVERIFY(outcome.run.status == core::RunStatus::Finished);
      core::Project p(file, core::Project::Access::ReadOnly);
      const auto corpus = core::loadCorpus(p, p.resolveDataset("toy").id);
      const auto stored = core::loadRun(p, outcome.run.id);
      const double completion = stored.finalMetrics["heldout_perplexity"].get<double>();
      const double full = stored.finalMetrics["heldout_perplexity_full_folding_in"].get<double>();
      qInfo("%s: document completion %.2f, full folding-in %.2f", loss, completion, full);
      QVERIFY(completion > 1.0 && completion < static_cast<double>(corpus.vocabularySize()));
      QVERIFY(full > 1.0 && full < completion);
      const auto phi = core::loadMatrix(p, outcome.run.id, "topic_word");
      QVERIFY(phi.has_value());
      QCOMPARE(phi->cols(), static_cast<Eigen::Index>(corpus.vocabularySize()));
      const auto theta = core::loadMatrix(p, outcome.run.id, "doc_topic");
      QVERIFY(theta.has_value());
      QCOMPARE(theta->rows(), Eigen::Index{60});
      for (Eigen::Index d = 0; d < theta->rows(); ++d) QVERIFY(std::abs(theta->row(d).sum() - 1.0) < 1e-9);
    }
  }
};

LATENT_TEST_CASE(NmfTest)
#include "tst_nmf.moc"
