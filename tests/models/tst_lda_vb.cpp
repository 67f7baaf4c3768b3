// SPDX-License-Identifier: GPL-3.0-or-later
// Batch variational Bayes for LDA: the kernels against the textbook's formulas computed by brute
// force, the mixture start's counts, a monotone ELBO, the textbook's toy topics, small recovery,
// determinism, stopping, the observer contract, and a run through the job runtime into a project file.
#include <QtTest>

#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>

#include "core/data/gibbs_toy.hpp"
#include "core/data/synthetic_lda.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/io/run_export.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/models/topic/lda_vb.hpp"
#include "core/models/topic/lda_vb_kernels.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"
#include "core/util/special_functions.hpp"
#include "lda_vb_test_support.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;
namespace topic = latent::core::topic;

namespace {

// Words 2 and 6 are in the vocabulary but in no document: the kernels keep statistics for the words
// in use only, and must still line them up with the right words.
core::Corpus vbTinyCorpus() {
  core::Corpus c;
  c.words = {"a", "b", "unused", "c", "d", "e", "unused too"};
  c.addDocument("1", "", std::vector<std::int32_t>{0, 0, 1, 3});
  c.addDocument("2", "", std::vector<std::int32_t>{3, 4, 4, 5, 5});
  c.addDocument("3", "", std::vector<std::int32_t>{0, 1, 5});
  c.addDocument("4", "", std::vector<std::int32_t>{4, 4, 4, 3, 1, 0});
  return c;
}

// E_q[log x] for x ~ Dir(v): psi(v_i) - psi(sum v).
Eigen::VectorXd dirichletLog(const Eigen::VectorXd& v) {
  Eigen::VectorXd out(v.size());
  for (Eigen::Index i = 0; i < v.size(); ++i) out[i] = core::digamma(v[i]) - core::digamma(v.sum());
  return out;
}

// E_q[log Dir(x | prior)] for x ~ Dir(v).
double expectedLogDirichlet(const Eigen::VectorXd& prior, const Eigen::VectorXd& v) {
  const Eigen::VectorXd e = dirichletLog(v);
  double out = std::lgamma(prior.sum());
  for (Eigen::Index i = 0; i < v.size(); ++i) out += -std::lgamma(prior[i]) + (prior[i] - 1.0) * e[i];
  return out;
}

}  // namespace

class LdaVbTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // The E step, the statistics of the M step and the bound against the formulas of Blei et al.
  // (2003, A.3) written out term by term with explicit phi, on a corpus small enough to see.
  void mostLikelyTopicsAreEachTokensArgmax() {
    // Each token's topic is argmax_k theta_dk phi_kw, worked out here by the definition on the Gibbs
    // toy (words recur within documents, which the function works out once per document).
    const auto corpus = test::vb::corpusFromTexts(core::generateGibbsToyCorpus());
    constexpr Eigen::Index K = 3;
    core::Rng rng(5, 0);
    Eigen::MatrixXd phi(K, static_cast<Eigen::Index>(corpus.vocabularySize()));
    Eigen::MatrixXd theta(static_cast<Eigen::Index>(corpus.documentCount()), K);
    for (Eigen::Index i = 0; i < phi.size(); ++i) phi.data()[i] = rng.uniform();
    for (Eigen::Index i = 0; i < theta.size(); ++i) theta.data()[i] = rng.uniform();
    const auto topics = core::topic::mostLikelyTopics(corpus, phi, theta);
    QCOMPARE(topics.size(), corpus.documentCount());
    std::set<std::int32_t> used;
    for (std::size_t d = 0; d < corpus.documentCount(); ++d) {
      const auto words = corpus.document(d);
      QCOMPARE(topics[d].size(), words.size());
      for (std::size_t i = 0; i < words.size(); ++i) {
        std::int32_t best = 0;
        for (std::int32_t k = 1; k < K; ++k)
          if (phi(k, words[i]) * theta(static_cast<Eigen::Index>(d), k) >
              phi(best, words[i]) * theta(static_cast<Eigen::Index>(d), best))
            best = k;
        QCOMPARE(topics[d][i], best);
        used.insert(best);
      }
    }
    QCOMPARE(used.size(), std::size_t{K});
  }

  void kernelsMatchTheTextbookFormulas() {
    const auto corpus = vbTinyCorpus();
    const auto docs = topic::countDocumentWords(corpus);
    QCOMPARE(docs.entryCount(), std::size_t{13});  // distinct words per document: 3 + 3 + 3 + 4
    QCOMPARE(docs.counts[0], 2.0);                 // "a" twice in document 1
    const Eigen::Index K = 3, V = 7;
    const double eta = 0.1;
    Eigen::VectorXd alpha(K);
    alpha << 0.3, 0.5, 0.2;
    topic::VariationalTopics topics;
    topics.lambda.resize(K, V);
    for (Eigen::Index k = 0; k < K; ++k)
      for (Eigen::Index w = 0; w < V; ++w) topics.lambda(k, w) = 0.2 + static_cast<double>((k * 7 + w * 3) % 5) * 0.6;
    topic::refreshTopics(topics, eta, nullptr);
    const Eigen::MatrixXd oldElogBeta = topics.elogBeta, oldExpElogBeta = topics.expElogBeta;

    std::vector<std::int32_t> all(4);
    std::iota(all.begin(), all.end(), 0);
    topic::EStepState state;
    state.reset(docs, alpha, all.size());
    QVERIFY(topic::corpusEStep(docs, all, topics.expElogBeta, alpha, topic::EStepControl{3, 0.0},
                               topic::EStepStart::Warm, -std::numeric_limits<double>::infinity(), state, {}));
    topic::WordPostings postings;
    std::vector<std::int64_t> scratch(V, -1);
    postings.build(docs, all, scratch);
    QCOMPARE(postings.words.size(), std::size_t{5});
    Eigen::MatrixXd compact;
    QVERIFY(topic::expectedWordTopicCounts(postings, state.expElogTheta, state.scaledCounts, topics.expElogBeta,
                                           compact, {}));

    // phi from its definition (eq. 27.48) with the exp(E[log theta]) the last pass used.
    Eigen::MatrixXd statistics = Eigen::MatrixXd::Zero(K, V);
    std::vector<std::vector<Eigen::VectorXd>> phi(4);
    for (std::size_t d = 0; d < 4; ++d) {
      Eigen::VectorXd expected = Eigen::VectorXd::Zero(K);
      for (auto e = docs.offsets[d]; e < docs.offsets[d + 1]; ++e) {
        const auto w = docs.words[static_cast<std::size_t>(e)];
        const double n = docs.counts[static_cast<std::size_t>(e)];
        Eigen::VectorXd p(K);
        for (Eigen::Index k = 0; k < K; ++k)
          p[k] = std::exp(std::log(state.expElogTheta(k, static_cast<Eigen::Index>(d))) + oldElogBeta(k, w));
        p /= p.sum();
        phi[d].push_back(p);
        statistics.col(w) += n * p;
        expected += n * p;
      }
      // eq. 27.44: gamma = alpha + expected counts of the last pass.
      QVERIFY((state.gammas.col(static_cast<Eigen::Index>(d)) - (alpha + expected)).cwiseAbs().maxCoeff() < 1e-12);
    }
    for (std::size_t i = 0; i < postings.words.size(); ++i)
      QVERIFY((compact.col(static_cast<Eigen::Index>(i)) - statistics.col(postings.words[i])).cwiseAbs().maxCoeff() <
              1e-12);

    // M step (eq. 27.49) and the bound reported after it, also after alpha moved.
    topics.lambda = statistics.array() + eta;
    const topic::WordStatistics counted{compact, postings.words};
    const auto topicBound = topic::refreshTopics(topics, eta, &counted);
    for (const bool newAlpha : {false, true}) {
      Eigen::VectorXd prior = alpha;
      if (newAlpha) prior << 0.9, 0.1, 0.4;
      const topic::AlphaTerms terms(prior);
      double reported = topicBound.prior + topicBound.correction;
      for (std::size_t d = 0; d < 4; ++d)
        reported += topic::documentBound(state.logNormalizers[d], state.gammas.col(static_cast<Eigen::Index>(d)),
                                         state.expElogTheta.col(static_cast<Eigen::Index>(d)), alpha, prior,
                                         terms.logGammaSum, terms.sumLogGamma);

      double brute = 0.0;
      for (Eigen::Index k = 0; k < K; ++k) {
        const Eigen::VectorXd lambdaK = topics.lambda.row(k).transpose();
        const Eigen::VectorXd eLogBeta = dirichletLog(lambdaK);
        brute += expectedLogDirichlet(Eigen::VectorXd::Constant(V, eta), lambdaK);  // E[log p(beta_k | eta)]
        brute -= expectedLogDirichlet(lambdaK, lambdaK);                            // -E[log q(beta_k)]
        QVERIFY((eLogBeta - topics.elogBeta.row(k).transpose()).cwiseAbs().maxCoeff() < 1e-12);
      }
      for (std::size_t d = 0; d < 4; ++d) {
        const Eigen::VectorXd gamma = state.gammas.col(static_cast<Eigen::Index>(d));
        const Eigen::VectorXd eLogTheta = dirichletLog(gamma);
        brute += expectedLogDirichlet(prior, gamma) - expectedLogDirichlet(gamma, gamma);
        std::size_t i = 0;
        for (auto e = docs.offsets[d]; e < docs.offsets[d + 1]; ++e, ++i) {
          const auto w = docs.words[static_cast<std::size_t>(e)];
          const double n = docs.counts[static_cast<std::size_t>(e)];
          for (Eigen::Index k = 0; k < K; ++k) {
            const double p = phi[d][i][k];
            // E[log p(z | theta)] + E[log p(w | z, beta)] - E[log q(z)]
            brute += n * p * (eLogTheta[k] + topics.elogBeta(k, w) - std::log(p));
          }
        }
      }
      QVERIFY2(std::abs(reported - brute) < 1e-10 * std::abs(brute),
               qPrintable(QString("reported %1, brute force %2").arg(reported, 0, 'g', 17).arg(brute, 0, 'g', 17)));
    }
    Q_UNUSED(oldExpElogBeta);
  }

  // The mixture start's lambda is eta plus the expected counts, and each document's counts are
  // shared out among the components: over the topics, a word's lambda holds K eta plus its corpus
  // count, and an unused word's is eta everywhere.
  void mixtureStartCountsEachWordOnce() {
    const auto corpus = vbTinyCorpus();
    const auto docs = topic::countDocumentWords(corpus);
    const Eigen::Index K = 3, V = 7;
    const double eta = 0.1;
    std::vector<std::int32_t> all(docs.documentCount());
    std::iota(all.begin(), all.end(), 0);
    topic::WordPostings postings;
    std::vector<std::int64_t> scratch(V, -1);
    postings.build(docs, all, scratch);
    const Eigen::MatrixXd lambda = topic::mixtureInitialLambda(docs, postings, K, V, eta, 10, 3, 0, {});
    QCOMPARE(lambda.rows(), K);
    QCOMPARE(lambda.cols(), V);
    const std::array<double, 7> corpusCounts{4.0, 3.0, 0.0, 3.0, 5.0, 3.0, 0.0};
    for (Eigen::Index w = 0; w < V; ++w) {
      const double count = corpusCounts[static_cast<std::size_t>(w)];
      QVERIFY(std::abs(lambda.col(w).sum() - (static_cast<double>(K) * eta + count)) < 1e-12);
      if (count == 0.0) QVERIFY((lambda.col(w).array() == eta).all());
    }
  }

  // Alg. 27.1 is coordinate ascent: the reported bound never goes down with alpha and eta fixed,
  // with the default E step and with a single E-step pass per document.
  void elboNeverDecreases() {
    const auto synthetic = test::vb::smallSynthetic(11);
    const auto data = test::vb::dataOf(synthetic.corpus);
    // From random topics the bound has far to climb; from the mixture start (the default) less so,
    // but it must not go down either.
    for (const auto& extra :
         {nlohmann::json::object(), nlohmann::json{{"estep_restart", false}, {"estep_iterations", 1}},
          nlohmann::json{{"init", "mixture"}}}) {
      // One start: restarts would hand over a chain that has already climbed for 10 passes.
      nlohmann::json options = {
          {"k", 4}, {"iterations", 40}, {"optimize_every", 0}, {"init", "random"}, {"restarts", 1}};
      options.update(extra);
      const auto fit = test::vb::fitModel("lda-vb", data, options, 3);
      const auto& reports = fit.observer.reports;
      QCOMPARE(reports.size(), std::size_t{40});
      for (std::size_t i = 1; i < reports.size(); ++i)
        QVERIFY2(reports[i].trainObjective >=
                     reports[i - 1].trainObjective - 1e-12 * std::abs(reports[i - 1].trainObjective),
                 qPrintable(QString("iteration %1: %2 after %3 (%4)")
                                .arg(i + 1)
                                .arg(reports[i].trainObjective, 0, 'g', 17)
                                .arg(reports[i - 1].trainObjective, 0, 'g', 17)
                                .arg(QString::fromStdString(extra.dump()))));
      // A bound on log p(w) per token: below zero, and clearly above its start.
      QVERIFY(reports.back().trainObjective < 0.0);
      if (options["init"] == "random") QVERIFY(reports.back().trainObjective > reports.front().trainObjective + 0.05);
    }
  }

  // Restarts: every start's bound after its passes is recorded, the highest continues, and the
  // reports start from that chain (so with one start the first report is the first pass).
  void restartsKeepTheBestBound() {
    const auto synthetic = test::vb::smallSynthetic(11);
    const auto data = test::vb::dataOf(synthetic.corpus);
    const auto four = test::vb::fitModel("lda-vb", data, {{"k", 4}, {"iterations", 5}, {"init", "random"}}, 3);
    const auto& metrics = four.result.finalMetrics;
    QVERIFY(metrics.contains("restart_bounds_per_token"));
    const auto bounds = metrics["restart_bounds_per_token"].get<std::vector<double>>();
    QCOMPARE(bounds.size(), std::size_t{4});
    const auto best = std::max_element(bounds.begin(), bounds.end()) - bounds.begin();
    QCOMPARE(metrics["restart_chosen"].get<std::int64_t>(), std::int64_t(best) + 1);
    // The chosen chain goes on climbing from where its start ended.
    QCOMPARE(four.observer.reports.size(), std::size_t{5});
    // Each start reports its progress at its 10th and last pass (eval_every 10).
    QCOMPARE(four.observer.startReports.size(), std::size_t{4});
    for (std::size_t i = 0; i < four.observer.startReports.size(); ++i) {
      QVERIFY(four.observer.startReports[i].phase == core::FitPhase::Restarts);
      QCOMPARE(four.observer.startReports[i].start, static_cast<std::int64_t>(i + 1));
      QCOMPARE(four.observer.startReports[i].iteration, std::int64_t{10});
    }
    QVERIFY(four.observer.reports.front().trainObjective >= bounds[std::size_t(best)] - 1e-9);
    const auto one =
        test::vb::fitModel("lda-vb", data, {{"k", 4}, {"iterations", 5}, {"init", "random"}, {"restarts", 1}}, 3);
    QVERIFY(!one.result.finalMetrics.contains("restart_bounds_per_token"));
    // The first start is the single start's chain: its bound after 10 passes is the one-start
    // run's 10th report.
    const auto ten =
        test::vb::fitModel("lda-vb", data, {{"k", 4}, {"iterations", 10}, {"init", "random"}, {"restarts", 1}}, 3);
    QVERIFY(std::abs(ten.observer.reports.back().trainObjective - bounds[0]) < 1e-12);
  }

  // 000 §27.3.5: two topics, {money, loan, bank} and {river, stream, bank}.
  void gibbsToyTopics() {
    const auto corpus = test::vb::corpusFromTexts(core::generateGibbsToyCorpus());
    const auto fit = test::vb::fitModel("lda-vb", test::vb::dataOf(corpus), {{"k", 2}, {"iterations", 64}}, 1);
    const auto& phi = fit.topicWord();
    const std::set<std::string> money = {"money", "loan", "bank"}, river = {"river", "stream", "bank"};
    const auto a = test::vb::topWords(phi, 0, corpus, 3), b = test::vb::topWords(phi, 1, corpus, 3);
    QVERIFY2((a == money && b == river) || (a == river && b == money), "the two topics are not the textbook's");
  }

  // From both starts: the mixture (the default) and random topics.
  void recoversSmallSyntheticTopics() {
    const auto synthetic = test::vb::smallSynthetic();
    for (const char* init : {"mixture", "random"}) {
      const auto fit = test::vb::fitModel("lda-vb", test::vb::dataOf(synthetic.corpus),
                                          {{"k", 3}, {"iterations", 50}, {"init", init}}, 2);
      const auto match = core::matchTopics(fit.topicWord(), synthetic.topicWord);
      QVERIFY2(match.meanTotalVariation < 0.1, qPrintable(QString("%1: %2").arg(init).arg(match.meanTotalVariation)));
    }
  }

  // Same seed, same numbers, whatever the thread count; another seed, other numbers.
  void deterministicForAnyThreadCount() {
    const auto synthetic = test::vb::smallSynthetic();
    const auto data = test::vb::dataOf(synthetic.corpus);
    const nlohmann::json options = {{"k", 4}, {"iterations", 8}, {"optimize_every", 3}};
    const auto one = test::vb::fitModel("lda-vb", data, options, 5, 1);
    for (const int threads : {2, 3, 4}) {
      const auto other = test::vb::fitModel("lda-vb", data, options, 5, threads);
      QVERIFY(other.topicWord() == one.topicWord());
      QVERIFY(other.matrix(core::topic::kDocTopic) == one.matrix(core::topic::kDocTopic));
      QVERIFY(other.matrix(core::topic::kAlpha) == one.matrix(core::topic::kAlpha));
      QCOMPARE(other.result.tokenTopics, one.result.tokenTopics);
      for (std::size_t i = 0; i < one.observer.reports.size(); ++i)
        QCOMPARE(other.observer.reports[i].trainObjective, one.observer.reports[i].trainObjective);
    }
    const auto reseeded = test::vb::fitModel("lda-vb", data, options, 6, 1);
    QVERIFY(reseeded.topicWord() != one.topicWord());
  }

  void stopBeforeStartKeepsTheStart() {
    const auto synthetic = test::vb::smallSynthetic();
    std::stop_source stop;
    stop.request_stop();
    const auto fit =
        test::vb::fitModel("lda-vb", test::vb::dataOf(synthetic.corpus), {{"k", 3}}, 1, 1, stop.get_token());
    QVERIFY(fit.result.status == core::FitStatus::Cancelled);
    QCOMPARE(fit.result.iterations, std::int64_t{0});
    QVERIFY(fit.observer.reports.empty());
    QCOMPARE(fit.topicWord().rows(), Eigen::Index{3});
    QCOMPARE(fit.topicWord().cols(), Eigen::Index{60});
    QVERIFY((fit.topicWord().rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-12);
    QCOMPARE(fit.matrix(core::topic::kDocTopic).rows(), Eigen::Index{300});
  }

  // Stopping by the observer's answer or by the stop token: Cancelled after that very iteration,
  // with the topics it had reached (the snapshot of that iteration holds the same numbers).
  void stopsWithinOneIteration() {
    const auto synthetic = test::vb::smallSynthetic();
    const auto data = test::vb::dataOf(synthetic.corpus);
    test::vb::Observer byAnswer;
    byAnswer.stopAfter = 3;
    const auto a = test::vb::fitModel("lda-vb", data, {{"k", 3}, {"snapshot_every", 1}}, 1, 2, {}, 10, byAnswer);
    QVERIFY(a.result.status == core::FitStatus::Cancelled);
    QCOMPARE(a.result.iterations, std::int64_t{3});
    QCOMPARE(a.observer.reports.size(), std::size_t{3});
    QCOMPARE(a.observer.snapshots.size(), std::size_t{3});
    QVERIFY(a.observer.snapshots.back()->matrices.at(0).values == a.topicWord());

    std::stop_source stop;
    test::vb::Observer byToken;
    byToken.stopSource = &stop;
    byToken.requestStopAt = 2;
    const auto b = test::vb::fitModel("lda-vb", data, {{"k", 3}}, 1, 2, stop.get_token(), 10, byToken);
    QVERIFY(b.result.status == core::FitStatus::Cancelled);
    QCOMPARE(b.result.iterations, std::int64_t{2});
    QCOMPARE(b.observer.reports.size(), std::size_t{2});
    QVERIFY(!b.result.finalMetrics.contains("heldout_perplexity"));
  }

  // One report per iteration, held-out values exactly when due, snapshots every snapshot_every.
  void observerContract() {
    const auto synthetic = test::vb::smallSynthetic();
    const auto split = core::splitForDocumentCompletion(synthetic.corpus, 0.2, 3);
    const auto data = test::vb::dataOf(split, 300);
    const auto fit =
        test::vb::fitModel("lda-vb", data, {{"k", 3}, {"iterations", 12}, {"snapshot_every", 5}}, 1, 1, {}, 4);
    const auto& reports = fit.observer.reports;
    QCOMPARE(reports.size(), std::size_t{12});
    for (std::size_t i = 0; i < reports.size(); ++i) {
      QCOMPARE(reports[i].iteration, static_cast<std::int64_t>(i + 1));
      if (i > 0) QVERIFY(reports[i].seconds >= reports[i - 1].seconds);
      const bool due = (i + 1) % 4 == 0 || i + 1 == 12;
      QCOMPARE(reports[i].heldout.has_value(), due);
      if (due) QVERIFY(*reports[i].heldout > 1.0 && *reports[i].heldout < 60.0);  // V = 60 is uniform guessing
      QCOMPARE(reports[i].extras.size(), std::size_t{3});
      QCOMPARE(reports[i].extras[0].first, std::string("alpha_sum"));
      QCOMPARE(reports[i].extras[1].first, std::string("eta"));
    }
    // The restarts (four starts of 10 passes) report passes 4, 8 and 10 of each start, in a phase
    // of their own, and make no snapshots.
    QCOMPARE(fit.observer.startReports.size(), std::size_t{12});
    for (const auto& r : fit.observer.startReports) QVERIFY(r.phase == core::FitPhase::Restarts);
    QCOMPARE(fit.observer.startReports[2].iteration, std::int64_t{10});
    QCOMPARE(fit.observer.snapshots.size(), std::size_t{2});
    QCOMPARE(fit.observer.snapshots[1]->iteration, std::int64_t{10});
    QCOMPARE(fit.observer.snapshots[1]->matrices.at(0).values.rows(), Eigen::Index{3});
    QVERIFY(fit.result.status == core::FitStatus::MaxIterations);
    QCOMPARE(fit.result.finalMetrics["heldout_perplexity"].get<double>(), *reports.back().heldout);
    QVERIFY(fit.result.finalMetrics.contains("heldout_perplexity_full_folding_in"));
    // Results: doc_topic in corpus order, a most likely topic for every training token.
    QCOMPARE(fit.matrix(core::topic::kDocTopic).rows(), Eigen::Index{300});
    QCOMPARE(fit.result.tokenTopics.size(), split.train.documentCount());
    for (std::size_t d = 0; d < split.train.documentCount(); ++d)
      QCOMPARE(fit.result.tokenTopics[d].size(), split.train.documentLength(d));
  }

  void optionsAreChecked() {
    const auto& info = core::ldaVbModel().info();
    QCOMPARE(info.name, std::string("lda-vb"));
    QCOMPARE(info.objectiveName, std::string("evidence lower bound (ELBO) per token (nats)"));
    const auto resolved = core::resolveOptions(info, nlohmann::json::object());
    QCOMPARE(resolved["k"].get<std::int64_t>(), std::int64_t{20});
    QCOMPARE(resolved["iterations"].get<std::int64_t>(), std::int64_t{100});
    const auto rejection = [&](const nlohmann::json& given) {
      try {
        core::resolveOptions(info, given);
      } catch (const core::UsageError& e) {
        return std::string(e.what());
      }
      return std::string();
    };
    QVERIFY(rejection({{"estep_tolerance", -1.0}}).find("--estep-tolerance") != std::string::npos);
    QVERIFY(rejection({{"beta", 0.0}}).find("--beta") != std::string::npos);
    QVERIFY(rejection({{"estep_restart", 3}}).find("true or false") != std::string::npos);
    QVERIFY(rejection({{"init", "uniform"}}).find("--init") != std::string::npos);
    QCOMPARE(resolved["init"].get<std::string>(), std::string("mixture"));
    // alpha 0 stands for 1/K.
    core::LdaVbOptions o;
    o.topics = 8;
    QCOMPARE(o.startAlpha()[0], 0.125);
  }

  // Through the runtime: a project, a held-out split, the run recorded, results exported; LDA
  // must predict the held-out words better than the unigram model on the same split.
  void endToEndThroughRunFit() {
    test::Scratch scratch;
    const auto file = scratch.path("vb.latent");
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
    request.model = "lda-vb";
    request.dataset = "synthetic";
    request.options = {{"k", 3}, {"iterations", 20}};
    request.seed = 4;
    request.threads = 2;
    request.heldout = 0.2;
    const auto outcome = core::runFit(file, request, nullptr, {});
    QVERIFY(outcome.run.status == core::RunStatus::Finished);
    request.model = "unigram";
    request.options = nlohmann::json::object();
    const auto unigram = core::runFit(file, request, nullptr, {});
    const double lda = outcome.run.finalMetrics["heldout_perplexity"].get<double>();
    QVERIFY2(lda < 0.9 * unigram.run.finalMetrics["heldout_perplexity"].get<double>(),
             qPrintable(QString::number(lda)));

    core::Project p(file, core::Project::Access::ReadOnly);
    const auto stored = core::loadCorpus(p, p.resolveDataset("synthetic").id);
    const auto topicWord = core::loadMatrix(p, outcome.run.id, "topic_word");
    QVERIFY(topicWord.has_value());
    QCOMPARE(topicWord->rows(), Eigen::Index{3});
    QCOMPARE(topicWord->cols(), static_cast<Eigen::Index>(stored.vocabularySize()));
    const auto docTopic = core::loadMatrix(p, outcome.run.id, "doc_topic");
    QVERIFY(docTopic.has_value());
    QCOMPARE(docTopic->rows(), Eigen::Index{300});
    QVERIFY((docTopic->rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-9);
    QCOMPARE(core::loadMetrics(p, outcome.run.id).size(), std::size_t{20});

    std::ostringstream docTopicCsv, assignmentsCsv;
    core::exportRun(p, outcome.run.id, "doc-topic", docTopicCsv);
    core::exportRun(p, outcome.run.id, "assignments", assignmentsCsv);
    const auto lines = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
    QCOMPARE(lines(docTopicCsv.str()), std::ptrdiff_t{1 + 300 * 3});
    const auto split = core::splitForDocumentCompletion(stored, 0.2, 4);
    QCOMPARE(lines(assignmentsCsv.str()), static_cast<std::ptrdiff_t>(1 + split.train.tokenCount()));
  }
};

LATENT_TEST_CASE(LdaVbTest)
#include "tst_lda_vb.moc"
