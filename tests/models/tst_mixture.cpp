// SPDX-License-Identifier: GPL-3.0-or-later
// The mixture of categoricals (EM and VB) against independent computations, generated truth, and
// its contract with the job runtime.
#include <QtTest>

#include <tbb/task_arena.h>

#include <cmath>
#include <sstream>

#include "core/eval/topic_matching.hpp"
#include "core/io/run_export.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/models/topic/mixture.hpp"
#include "core/models/topic/mixture_kernels.hpp"
#include "core/store/corpus_store.hpp"
#include "core/util/special_functions.hpp"
#include "result_matrix.hpp"
#include "synthetic_mixture.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

// The chain's reports in `reports`, the restarts' progress in `startReports`; keepGoing and stopAt
// act on the chain's reports.
class MixtureObserver final : public core::TrainingObserver {
 public:
  bool onReport(const core::IterationReport& r) override {
    if (!r.inChain()) {
      startReports.push_back(r);
      return true;
    }
    reports.push_back(r);
    if (stopAt > 0 && r.iteration == stopAt) source.request_stop();
    return keepGoing;
  }
  void onSnapshot(std::shared_ptr<const core::ModelSnapshot> s) override { snapshots.push_back(s); }
  std::vector<core::IterationReport> reports, startReports;
  std::vector<std::shared_ptr<const core::ModelSnapshot>> snapshots;
  bool keepGoing = true;
  std::int64_t stopAt = 0;
  std::stop_source source;
};

core::FitResult fitMixture(const core::Corpus& corpus, const nlohmann::json& options, MixtureObserver& observer,
                           std::uint64_t seed = 1, std::stop_token stop = {}) {
  core::FitData data;
  data.corpus = &corpus;
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::mixtureModel().info(), options);
  settings.seed = seed;
  return core::mixtureModel().make()->fit(data, settings, observer, stop);
}

void verifyNeverDecreases(const std::vector<core::IterationReport>& reports) {
  QVERIFY(reports.size() >= 5);
  for (std::size_t i = 1; i < reports.size(); ++i) {
    const double before = reports[i - 1].trainObjective, after = reports[i].trainObjective;
    QVERIFY2(after >= before - 1e-12 * std::abs(before),
             qPrintable(QString("objective fell from %1 to %2 at iteration %3")
                            .arg(before, 0, 'g', 17)
                            .arg(after, 0, 'g', 17)
                            .arg(i + 1)));
  }
  // And it did climb: a flat series would pass the loop above without testing anything.
  QVERIFY(reports.back().trainObjective > reports.front().trainObjective + 1e-4);
}

// Overlapping components and short documents: responsibilities stay soft for many iterations.
test::SyntheticMixture softCorpus() { return test::generateMixtureCorpus(3, 30, 80, 3, 8, 1.0, 11); }

}  // namespace

class MixtureTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void dirichletKlByHand() {
    // KL(Dir(2, 3) || Dir(1, 1)) = ln G(5) - ln G(2) - ln G(3) - ln G(2) + 2 ln G(1)
    //   + (2 - 1)(psi(2) - psi(5)) + (3 - 1)(psi(3) - psi(5)) = ln 12 - 13/12 - 7/6 = ln 12 - 9/4.
    Eigen::VectorXd a(2);
    a << 2, 3;
    QVERIFY(std::abs(core::topic::dirichletKl(a, 1.0) - (std::log(12.0) - 2.25)) < 1e-12);
    QVERIFY(std::abs(core::topic::dirichletKl(Eigen::VectorXd::Constant(4, 0.7), 0.7)) < 1e-12);
  }

  // The reported EM objective is log p(W | pi, phi) + alpha sum log pi + beta sum log phi, per
  // token, of the parameters returned: recomputed here with plain loops.
  void emObjectiveMatchesAnIndependentComputation() {
    const auto truth = softCorpus();
    MixtureObserver observer;
    const double alpha = 0.7, beta = 0.3;
    const auto result =
        fitMixture(truth.corpus,
                   {{"k", 3}, {"iterations", 5000}, {"tolerance", 1e-15}, {"alpha", alpha}, {"beta", beta}}, observer);
    QVERIFY(result.status == core::FitStatus::Converged);
    const auto& phi = test::resultMatrix(result, "topic_word");
    const auto& pi = test::resultMatrix(result, "mixing_weights");
    QCOMPARE(phi.rows(), Eigen::Index{3});
    QCOMPARE(phi.cols(), Eigen::Index{30});
    double logLik = 0;
    for (std::size_t d = 0; d < truth.corpus.documentCount(); ++d) {
      double p = 0;
      for (int k = 0; k < 3; ++k) {
        double term = pi(0, k);
        for (const auto w : truth.corpus.document(d)) term *= phi(k, w);
        p += term;
      }
      logLik += std::log(p);
    }
    const double prior = alpha * pi.array().log().sum() + beta * phi.array().log().sum();
    const double N = static_cast<double>(truth.corpus.tokenCount());
    const auto& last = observer.reports.back();
    QVERIFY2(std::abs(last.trainObjective - (logLik + prior) / N) < 1e-10,
             qPrintable(QString("%1 vs %2").arg(last.trainObjective).arg((logLik + prior) / N)));
    QCOMPARE(last.extras[0].first, std::string("log_likelihood_per_token"));
    QVERIFY(std::abs(last.extras[0].second - logLik / N) < 1e-10);
    // MAP mixing weights: (N_k + alpha) / (D + K alpha) with N_k the summed responsibilities.
    const auto& R = test::resultMatrix(result, "doc_topic");
    // R is one E step newer than pi; at convergence they agree (the objective is flat there, so loosely).
    for (int k = 0; k < 3; ++k) QVERIFY(std::abs(pi(0, k) - (R.col(k).sum() + alpha) / (80 + 3 * alpha)) < 1e-6);
  }

  void emNeverDecreases() {
    MixtureObserver observer;
    fitMixture(softCorpus().corpus, {{"k", 3}, {"iterations", 40}, {"tolerance", 0.0}}, observer);
    verifyNeverDecreases(observer.reports);
  }

  void vbBoundNeverDecreases() {
    MixtureObserver observer;
    fitMixture(softCorpus().corpus, {{"k", 3}, {"iterations", 40}, {"tolerance", 0.0}, {"method", "vb"}}, observer);
    verifyNeverDecreases(observer.reports);
  }

  // The ELBO is a lower bound on log p(W), which for four tiny documents we can compute exactly by
  // summing over all 2^4 assignments: p(z) p(W | z) with pi and phi integrated out (Dirichlet-
  // categorical marginals). A wrong KL term would break the bound or leave it far below.
  void vbBoundIsBelowTheExactEvidence() {
    core::Corpus corpus;
    corpus.words = {"a", "b", "c"};
    const std::vector<std::vector<std::int32_t>> docs = {{0, 0, 1}, {0, 0, 0, 1}, {2, 2, 1}, {2, 2, 2}};
    for (std::size_t d = 0; d < docs.size(); ++d) corpus.addDocument(std::to_string(d), "", docs[d]);
    const double alpha = 1.0, beta = 0.5;
    const int K = 2, V = 3, D = 4;
    std::vector<double> terms;
    for (int z = 0; z < (1 << D); ++z) {
      double n[2][3] = {{0, 0, 0}, {0, 0, 0}}, Nk[2] = {0, 0}, tokens[2] = {0, 0};
      for (int d = 0; d < D; ++d) {
        const int k = (z >> d) & 1;
        Nk[k] += 1;
        for (const auto w : docs[static_cast<std::size_t>(d)]) {
          n[k][w] += 1;
          tokens[k] += 1;
        }
      }
      double logp = std::lgamma(K * alpha) - std::lgamma(K * alpha + D);
      for (int k = 0; k < K; ++k) {
        logp += std::lgamma(alpha + Nk[k]) - std::lgamma(alpha);
        logp += std::lgamma(V * beta) - std::lgamma(V * beta + tokens[k]);
        for (int w = 0; w < V; ++w) logp += std::lgamma(beta + n[k][w]) - std::lgamma(beta);
      }
      terms.push_back(logp);
    }
    double top = *std::max_element(terms.begin(), terms.end()), sum = 0;
    for (const double t : terms) sum += std::exp(t - top);
    const double logEvidence = top + std::log(sum);

    MixtureObserver observer;
    const auto result = fitMixture(
        corpus,
        {{"k", K}, {"iterations", 5000}, {"tolerance", 1e-15}, {"method", "vb"}, {"alpha", alpha}, {"beta", beta}},
        observer);
    QVERIFY(result.status == core::FitStatus::Converged);
    const double elbo = observer.reports.back().trainObjective * 13.0;  // 13 tokens
    qInfo("ELBO %.6f, exact log evidence %.6f", elbo, logEvidence);
    QVERIFY(elbo <= logEvidence + 1e-9);
    // The two labellings of the same clustering each carry half the evidence; mean field sits on
    // one of them, so the gap is at least about ln 2.
    QVERIFY(elbo >= logEvidence - std::log(2.0) - 0.5);

    // The bound written out term by term (002 "Variational Bayesian learning") from the converged
    // q(z) = R, q(pi) = Dir(alpha + sum_d r_d), q(phi_k) = Dir(beta + sum_d r_dk n_d):
    // E[log p(W | z, phi)] + E[log p(z | pi)] + E[log p(pi)] + E[log p(phi)] - E[log q(...)].
    const auto& R = test::resultMatrix(result, "doc_topic");
    Eigen::VectorXd a = Eigen::VectorXd::Constant(K, alpha);
    Eigen::MatrixXd b = Eigen::MatrixXd::Constant(K, V, beta);
    for (int d = 0; d < D; ++d) {
      a += R.row(d).transpose();
      for (const auto w : docs[static_cast<std::size_t>(d)]) b.col(w) += R.row(d).transpose();
    }
    // E_q[log Dir(x | c)] for q = Dir(q) of the same size.
    const auto expectedLogDirichlet = [](const Eigen::VectorXd& c, const Eigen::VectorXd& q) {
      double value = std::lgamma(c.sum());
      for (Eigen::Index i = 0; i < c.size(); ++i)
        value += -std::lgamma(c[i]) + (c[i] - 1) * (core::digamma(q[i]) - core::digamma(q.sum()));
      return value;
    };
    double bound = expectedLogDirichlet(Eigen::VectorXd::Constant(K, alpha), a) - expectedLogDirichlet(a, a);
    for (int k = 0; k < K; ++k) {
      const Eigen::VectorXd bk = b.row(k).transpose();
      bound += expectedLogDirichlet(Eigen::VectorXd::Constant(V, beta), bk) - expectedLogDirichlet(bk, bk);
    }
    for (int d = 0; d < D; ++d) {
      for (int k = 0; k < K; ++k) {
        const double r = R(d, k);
        if (r <= 0) continue;
        double inner = core::digamma(a[k]) - core::digamma(a.sum()) - std::log(r);
        for (const auto w : docs[static_cast<std::size_t>(d)])
          inner += core::digamma(b(k, w)) - core::digamma(b.row(k).sum());
        bound += r * inner;
      }
    }
    QVERIFY2(std::abs(bound - elbo) < 1e-7,
             qPrintable(QString("reported %1, written out %2").arg(elbo, 0, 'g', 12).arg(bound, 0, 'g', 12)));
  }

  void recoversComponentsAndAssignments_data() {
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("K");
    QTest::addColumn<int>("V");
    QTest::addColumn<int>("D");
    QTest::newRow("em K5 V300 D300") << "em" << 5 << 300 << 300;
    QTest::newRow("vb K5 V300 D300") << "vb" << 5 << 300 << 300;
  }

  void recoversComponentsAndAssignments() {
    QFETCH(QString, method);
    QFETCH(int, K);
    QFETCH(int, V);
    QFETCH(int, D);
    const auto truth = test::generateMixtureCorpus(K, V, D, 50, 200, 0.1, 2024);
    MixtureObserver observer;
    const auto result = fitMixture(truth.corpus, {{"k", K}, {"method", method.toStdString()}}, observer);
    const auto match = core::matchTopics(test::resultMatrix(result, "topic_word"), truth.topicWord);
    const auto& R = test::resultMatrix(result, "doc_topic");
    int correct = 0;
    for (int d = 0; d < D; ++d) {
      Eigen::Index best = 0;
      R.row(d).maxCoeff(&best);
      if (match.truthForEstimate[static_cast<std::size_t>(best)] == truth.component[static_cast<std::size_t>(d)])
        ++correct;
    }
    const double accuracy = static_cast<double>(correct) / D;
    qInfo("mean TV %.4f, max TV %.4f, assignment accuracy %.4f, %lld iterations", match.meanTotalVariation,
          match.maxTotalVariation, accuracy, static_cast<long long>(result.iterations));
    QVERIFY(match.meanTotalVariation < 0.1);
    QVERIFY(accuracy > 0.95);
  }

  void sameSeedSameNumbersAnyThreadCount() {
    const auto truth = test::generateMixtureCorpus(4, 100, 200, 5, 40, 0.3, 5);
    for (const char* method : {"em", "vb"}) {
      Eigen::MatrixXd first;
      std::vector<double> firstObjectives;
      for (const int threads : {1, 1, 2}) {
        tbb::task_arena arena(threads);
        MixtureObserver observer;
        core::FitResult result;
        arena.execute([&] {
          result = fitMixture(truth.corpus, {{"k", 4}, {"iterations", 15}, {"method", method}}, observer, 9);
        });
        std::vector<double> objectives;
        for (const auto& r : observer.reports) objectives.push_back(r.trainObjective);
        if (first.size() == 0) {
          first = test::resultMatrix(result, "topic_word");
          firstObjectives = objectives;
        } else {
          // Bit for bit: document blocks are fixed by the data and word counts are summed word by word.
          QVERIFY(test::resultMatrix(result, "topic_word") == first);
          QVERIFY(objectives == firstObjectives);
        }
      }
    }
  }

  void stopBeforeStartIsCancelledWithMatrices() {
    const auto truth = softCorpus();
    MixtureObserver observer;
    std::stop_source stop;
    stop.request_stop();
    const auto result = fitMixture(truth.corpus, {{"k", 3}}, observer, 1, stop.get_token());
    QVERIFY(result.status == core::FitStatus::Cancelled);
    QVERIFY(observer.reports.empty());
    const auto& phi = test::resultMatrix(result, "topic_word");
    QCOMPARE(phi.rows(), Eigen::Index{3});
    QCOMPARE(phi.cols(), Eigen::Index{30});
    for (int k = 0; k < 3; ++k) QVERIFY(std::abs(phi.row(k).sum() - 1.0) < 1e-12);
    QCOMPARE(test::resultMatrix(result, "doc_topic").rows(), Eigen::Index{80});
    QCOMPARE(result.tokenTopics.size(), std::size_t{80});
  }

  void observerAndStopTokenAreHonoured() {
    const auto truth = softCorpus();
    {
      MixtureObserver observer;
      observer.keepGoing = false;
      const auto result = fitMixture(truth.corpus, {{"k", 3}, {"tolerance", 0.0}}, observer);
      QVERIFY(result.status == core::FitStatus::Cancelled);
      QCOMPARE(observer.reports.size(), std::size_t{1});
      QCOMPARE(result.iterations, std::int64_t{1});
      QCOMPARE(test::resultMatrix(result, "topic_word").rows(), Eigen::Index{3});
    }
    {
      MixtureObserver observer;
      observer.stopAt = 3;
      const auto result =
          fitMixture(truth.corpus, {{"k", 3}, {"tolerance", 0.0}}, observer, 1, observer.source.get_token());
      QVERIFY(result.status == core::FitStatus::Cancelled);
      QCOMPARE(observer.reports.size(), std::size_t{3});
    }
  }

  void snapshotsCarryTheTopics() {
    MixtureObserver observer;
    fitMixture(softCorpus().corpus, {{"k", 3}, {"iterations", 10}, {"tolerance", 0.0}, {"snapshot_every", 4}},
               observer);
    QCOMPARE(observer.snapshots.size(), std::size_t{2});
    QCOMPARE(observer.snapshots[1]->iteration, std::int64_t{8});
    QCOMPARE(observer.snapshots[1]->matrices[0].name, std::string("topic_word"));
    QCOMPARE(observer.snapshots[1]->matrices[0].values.rows(), Eigen::Index{3});
  }

  // Through the whole runtime: project file, held-out split, run record, matrices, export.
  void endToEndThroughTheProject() {
    test::Scratch scratch;
    const auto file = scratch.path("m.latent");
    const auto truth = test::generateMixtureCorpus(3, 40, 60, 10, 30, 0.2, 3);
    {
      core::Project p(file);
      test::addCorpusOf(p, "toy", truth.corpus);
    }
    core::RunRequest request;
    request.model = "mixture";
    request.dataset = "toy";
    request.options = {{"k", 3}, {"iterations", 30}};
    request.seed = 4;
    request.heldout = 0.25;
    request.evalEvery = 5;
    const auto outcome = core::runFit(file, request, nullptr, {});
    QVERIFY(outcome.run.status == core::RunStatus::Finished);

    core::Project p(file, core::Project::Access::ReadOnly);
    const auto corpus = core::loadCorpus(p, p.resolveDataset("toy").id);
    const auto stored = core::loadRun(p, outcome.run.id);
    QCOMPARE(stored.model, std::string("mixture"));
    const double perplexity = stored.finalMetrics["heldout_perplexity"].get<double>();
    QVERIFY(perplexity > 1.0 && perplexity < static_cast<double>(corpus.vocabularySize()));
    QVERIFY(stored.finalMetrics["heldout_perplexity_full_folding_in"].get<double>() > 1.0);
    QCOMPARE(stored.finalMetrics["heldout_protocol"].get<std::string>(), std::string("document-completion"));
    QCOMPARE(core::loadMetrics(p, outcome.run.id).size(), static_cast<std::size_t>(outcome.result.iterations));
    const auto phi = core::loadMatrix(p, outcome.run.id, "topic_word");
    QVERIFY(phi.has_value());
    QCOMPARE(phi->rows(), Eigen::Index{3});
    QCOMPARE(phi->cols(), static_cast<Eigen::Index>(corpus.vocabularySize()));
    const auto theta = core::loadMatrix(p, outcome.run.id, "doc_topic");
    QVERIFY(theta.has_value());
    QCOMPARE(theta->rows(), Eigen::Index{60});  // every document, held-out ones folded in
    QCOMPARE(theta->cols(), Eigen::Index{3});
    for (Eigen::Index d = 0; d < theta->rows(); ++d) QVERIFY(std::abs(theta->row(d).sum() - 1.0) < 1e-9);
    QCOMPARE(core::loadMatrix(p, outcome.run.id, "mixing_weights")->cols(), Eigen::Index{3});

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

LATENT_TEST_CASE(MixtureTest)
#include "tst_mixture.moc"
