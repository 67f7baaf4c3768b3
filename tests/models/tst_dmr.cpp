// SPDX-License-Identifier: GPL-3.0-or-later
// DMR-LDA (Mimno & McCallum 2008): the regression objective's gradient against finite
// differences and its maximisation, the coding of document fields as features, the sampler's
// counts, recovery of planted weights and topics from a corpus drawn from the model, held-out
// perplexity against lda-gibbs on the same split, determinism and stops.
#include <QtTest>

#include <cmath>
#include <limits>

#include "core/data/synthetic_dmr.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/topic/dmr.hpp"
#include "core/models/topic/dmr_features.hpp"
#include "core/models/topic/dmr_regression.hpp"
#include "core/models/topic/dmr_sampler.hpp"
#include "core/models/topic/lda_gibbs.hpp"
#include "core/results/topic_results.hpp"
#include "core/util/errors.hpp"
#include "core/util/random.hpp"
#include "lda_gibbs_test_support.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

core::FitResult fitDmrModel(const core::ModelDefinition& model, const core::FitData& data,
                            const nlohmann::json& options, core::TrainingObserver& observer, std::uint64_t seed = 1,
                            std::stop_token stop = {}) {
  core::FitSettings settings;
  settings.options = core::resolveOptions(model.info(), options);
  settings.seed = seed;
  settings.evalEvery = 50;
  return model.make()->fit(data, settings, observer, stop);
}

core::FitData dmrWholeCorpus(const core::Corpus& corpus) {
  core::FitData data;
  data.corpus = &corpus;
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  return data;
}

// A random problem: features with an intercept, counts from a few topics.
struct DmrToyProblem {
  Eigen::MatrixXd features;
  core::topic::DmrTopicCounts counts;
  core::topic::DmrRegressionProblem problem;
};

void makeToyProblem(DmrToyProblem& toy, int D, int K, int F, std::uint64_t seed) {
  core::Rng rng(seed);
  toy.features = Eigen::MatrixXd::Zero(D, F);
  toy.counts = core::topic::DmrTopicCounts::Zero(D, K);
  for (int d = 0; d < D; ++d) {
    toy.features(d, 0) = 1.0;
    for (int f = 1; f < F; ++f) toy.features(d, f) = rng.normal();
    const int length = 5 + static_cast<int>(rng.below(60));
    const auto favourite = static_cast<int>(rng.below(static_cast<std::uint64_t>(K)));
    for (int i = 0; i < length; ++i)
      ++toy.counts(d, rng.uniform() < 0.6 ? favourite : static_cast<int>(rng.below(static_cast<std::uint64_t>(K))));
  }
  toy.problem.features = &toy.features;
  toy.problem.counts = &toy.counts;
  toy.problem.priorVariance = Eigen::VectorXd::Ones(F);
  toy.problem.priorVariance[0] = 100.0;
}

}  // namespace

class DmrTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // The analytic gradient (digamma terms, the prior's included) against central differences.
  void gradientMatchesFiniteDifferences() {
    DmrToyProblem toy;
    makeToyProblem(toy, 40, 4, 3, 11);
    core::Rng rng(5);
    Eigen::MatrixXd lambda(4, 3);
    for (Eigen::Index i = 0; i < lambda.size(); ++i) lambda.data()[i] = 0.5 * rng.normal();
    Eigen::MatrixXd gradient;
    core::topic::dmrObjective(toy.problem, lambda, &gradient);
    const double h = 1e-5;
    double worst = 0.0;
    for (Eigen::Index i = 0; i < lambda.size(); ++i) {
      Eigen::MatrixXd up = lambda, down = lambda;
      up.data()[i] += h;
      down.data()[i] -= h;
      const double numeric = (core::topic::dmrObjective(toy.problem, up, nullptr) -
                              core::topic::dmrObjective(toy.problem, down, nullptr)) /
                             (2 * h);
      worst = std::max(worst, std::abs(numeric - gradient.data()[i]) / std::max(1.0, std::abs(numeric)));
    }
    qInfo("largest relative gradient error %.3g", worst);
    QVERIFY(worst < 1e-6);
    // A wrong sign or a missing term is far outside that.
    QVERIFY(gradient.norm() > 1e-2);
  }

  // L-BFGS reaches a stationary point above where it starts, and never goes down.
  void optimiserReachesAStationaryPoint() {
    DmrToyProblem toy;
    makeToyProblem(toy, 60, 5, 4, 12);
    Eigen::MatrixXd lambda = Eigen::MatrixXd::Zero(5, 4);
    lambda.col(0).setConstant(std::log(0.1));
    const double start = core::topic::dmrObjective(toy.problem, lambda, nullptr);
    const auto result = core::topic::maximiseDmrObjective(toy.problem, lambda, 500, 1e-14);
    Eigen::MatrixXd gradient;
    const double end = core::topic::dmrObjective(toy.problem, lambda, &gradient);
    qInfo("objective %.4f -> %.4f in %d steps, gradient norm %.3g", start, end, result.iterations, gradient.norm());
    QVERIFY(end > start + 1.0);
    QCOMPARE(result.objective, end);
    QVERIFY(gradient.norm() < 1e-3);
  }

  // Numbers standardised on the training documents, categories one-hot, label sets multi-hot,
  // missing values 0, time bins; held-out documents coded like the training ones.
  void codesFieldsAsFeatures() {
    auto train = test::corpusFromIds(2, {{0}, {1}, {0, 1}, {1, 1}});
    train.times = {"1800", "1900", "", "2000"};
    train.labels = {"a;b", "b", "", "c"};
    train.labelSeparator = ";";
    train.metadata = {{"party", {"Whig", "Dem", "Dem", ""}}, {"rating", {"1", "2", "3", "6"}}};
    const core::topic::DmrFeatureCoder coder(train, "", 2);
    const std::vector<std::string> names{"default", "time",    "time in 1800-1900", "time in 1900-2000", "label=a",
                                         "label=b", "label=c", "party=Dem",         "party=Whig",        "rating"};
    QCOMPARE(coder.names(), names);
    const Eigen::MatrixXd x = coder.code(train);
    QCOMPARE(x.rows(), Eigen::Index{4});
    QVERIFY((x.col(0).array() == 1.0).all());
    // time: mean 1900, population sd sqrt(20000/3); the missing one at 0 (the mean).
    const double sd = std::sqrt(20000.0 / 3.0);
    QVERIFY(std::abs(x(0, 1) + 100.0 / sd) < 1e-12);
    QCOMPARE(x(1, 1), 0.0);
    QCOMPARE(x(2, 1), 0.0);
    QVERIFY(std::abs(x(3, 1) - 100.0 / sd) < 1e-12);
    QCOMPARE(x.row(0).segment(2, 2), Eigen::RowVector2d(1, 0));
    QCOMPARE(x.row(1).segment(2, 2), Eigen::RowVector2d(0, 1));  // 1900 starts the second bin
    QCOMPARE(x.row(2).segment(2, 2), Eigen::RowVector2d(0, 0));
    QCOMPARE(x.row(3).segment(2, 2), Eigen::RowVector2d(0, 1));  // the last value closes the last bin
    QCOMPARE(x.row(0).segment(4, 3), Eigen::RowVector3d(1, 1, 0));
    QCOMPARE(x.row(2).segment(4, 3), Eigen::RowVector3d(0, 0, 0));
    QCOMPARE(x.row(0).segment(7, 2), Eigen::RowVector2d(0, 1));
    QCOMPARE(x.row(3).segment(7, 2), Eigen::RowVector2d(0, 0));
    QVERIFY(std::abs(x.col(9).mean()) < 1e-12);
    QVERIFY(std::abs(x.col(9).squaredNorm() / 4 - 1.0) < 1e-12);
    // The ranges in the fields' own units.
    QVERIFY((coder.ranges().row(1) - Eigen::RowVector4d(1800, 2000, 1900, sd)).cwiseAbs().maxCoeff() < 1e-9);
    QCOMPARE(coder.ranges().row(4), Eigen::RowVector4d(0, 1, 0, 1));
    QCOMPARE(coder.ranges().row(9)(1), 6.0);

    // Held out: an unseen party is missing; a time outside the training range falls in an end bin.
    auto heldout = test::corpusFromIds(2, {{0}});
    heldout.times = {"2100"};
    heldout.labels = {"b;z"};
    heldout.labelSeparator = ";";
    heldout.metadata = {{"party", {"Tory"}}, {"rating", {"4"}}};
    const Eigen::MatrixXd h = coder.code(heldout);
    QVERIFY(std::abs(h(0, 1) - 200.0 / sd) < 1e-12);
    QCOMPARE(h.row(0).segment(2, 7), (Eigen::RowVectorXd(7) << 0, 1, 0, 1, 0, 0, 0).finished());
    QVERIFY(std::abs(h(0, 9) - (4.0 - 3.0) / std::sqrt(3.5)) < 1e-12);

    // A chosen subset, in the order asked; an unknown field is an error naming it.
    const core::topic::DmrFeatureCoder some(train, " party ,time", 0);
    QCOMPARE(some.names(), (std::vector<std::string>{"default", "party=Dem", "party=Whig", "time"}));
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::topic::DmrFeatureCoder(train, "colour", 0));
  }

  // The counts the sampler keeps are those of its assignments after sweeps with unequal alphas,
  // and its log joint is the brute-force one.
  void samplerCountsStayConsistent() {
    core::SyntheticDmrSpec spec;
    spec.documents = 40;
    spec.meanLength = 20;
    spec.vocabulary = 30;
    const auto truth = core::generateDmrCorpus(spec);
    core::topic::DmrGibbsSampler sampler(truth.corpus, 5, 0.1, 0.05, 3);
    sampler.setAlpha((truth.features * truth.featureWeights.transpose()).array().exp().matrix());
    for (int s = 0; s < 5; ++s) QVERIFY(sampler.sweep({}));
    const auto z = sampler.tokenTopics();
    core::topic::DmrTopicCounts nd = core::topic::DmrTopicCounts::Zero(40, 5);
    Eigen::MatrixXi nw = Eigen::MatrixXi::Zero(30, 5);
    for (std::size_t d = 0; d < z.size(); ++d)
      for (std::size_t i = 0; i < z[d].size(); ++i) {
        ++nd(static_cast<Eigen::Index>(d), z[d][i]);
        ++nw(truth.corpus.document(d)[i], z[d][i]);
      }
    QVERIFY(nd == sampler.documentTopicCounts());
    double words = 0.0, prior = 0.0;
    const double beta = 0.05;
    for (int k = 0; k < 5; ++k) {
      words += std::lgamma(30 * beta) - std::lgamma(nw.col(k).sum() + 30 * beta);
      for (int w = 0; w < 30; ++w) {
        QCOMPARE(sampler.wordTopicCount(w, k), nw(w, k));
        words += std::lgamma(nw(w, k) + beta) - std::lgamma(beta);
      }
    }
    for (int d = 0; d < 40; ++d) {
      const auto a = sampler.alpha().row(d);
      prior += std::lgamma(a.sum()) - std::lgamma(a.sum() + nd.row(d).sum());
      for (int k = 0; k < 5; ++k) prior += std::lgamma(a(k) + nd(d, k)) - std::lgamma(a(k));
    }
    QVERIFY(std::abs(sampler.logLikelihoodOfWords() - words) < 1e-8 * std::abs(words));
    QVERIFY(std::abs(sampler.logPriorOfAssignments() - prior) < 1e-8 * std::abs(prior));
  }

  // Data drawn from DMR: the topics and the planted weights come back after matching the topics
  // (the time's weight per topic, and the contrasts between groups, which the intercept does not
  // confound).
  void recoversPlantedWeightsAndTopics() {
    core::SyntheticDmrSpec spec;
    spec.seed = 21;
    const auto truth = core::generateDmrCorpus(spec);
    test::CollectingObserver observer;
    const auto result = fitDmrModel(core::dmrModel(), dmrWholeCorpus(truth.corpus),
                                    {{"k", 5}, {"iterations", 300}, {"features", "time,group"}}, observer, 3);
    QCOMPARE(result.status, core::FitStatus::MaxIterations);
    QCOMPARE(result.finalMetrics[core::topic::kFeatureNamesMetric].get<std::vector<std::string>>(), truth.featureNames);
    const auto match = core::matchTopics(test::resultMatrix(result, core::topic::kTopicWord), truth.topicWord);
    const Eigen::MatrixXd& lambda = test::resultMatrix(result, core::topic::kFeatureWeights);
    Eigen::MatrixXd aligned(5, lambda.cols());
    for (int k = 0; k < 5; ++k) aligned.row(match.truthForEstimate[static_cast<std::size_t>(k)]) = lambda.row(k);
    const auto& planted = truth.featureWeights;
    // Group contrasts: each group against the mean of the groups.
    const auto contrasts = [](const Eigen::MatrixXd& l) {
      Eigen::MatrixXd c = l.rightCols(3);
      c.colwise() -= c.rowwise().mean();
      return c;
    };
    const double timeError = (aligned.col(1) - planted.col(1)).cwiseAbs().maxCoeff();
    const double groupError = (contrasts(aligned) - contrasts(planted)).cwiseAbs().maxCoeff();
    qInfo("topics: mean TV %.3f, max %.3f; largest error of a time weight %.3f, of a group contrast %.3f",
          match.meanTotalVariation, match.maxTotalVariation, timeError, groupError);
    QVERIFY(match.maxTotalVariation < 0.15);
    // With 600 documents a weight is known to about +-0.15 (its prior pulls it a little to 0).
    QVERIFY(timeError < 0.35);
    QVERIFY(groupError < 0.45);
    // The weights' signs say which topic rises with time and which group raises which topic.
    QVERIFY(aligned(0, 1) > 0.5 && aligned(1, 1) < -0.5);
    for (int g = 0; g < 3; ++g) {
      Eigen::Index best = 0;
      aligned.col(2 + g).maxCoeff(&best);
      QCOMPARE(best, Eigen::Index{2 + g});
    }
    const auto& ranges = test::resultMatrix(result, core::topic::kFeatureRanges);
    QCOMPARE(ranges.rows(), Eigen::Index{5});
    QVERIFY(ranges(1, 0) >= 1900 && ranges(1, 1) <= 2000 && ranges(1, 1) > ranges(1, 0));
  }

  // Metadata that shape the topic mix make held-out words more predictable: DMR's perplexity by
  // document completion is below lda-gibbs's on the same split, at equal K and sweeps.
  void beatsLdaOnHeldOutWordsWhenMetadataMatter() {
    core::SyntheticDmrSpec spec;
    spec.seed = 22;
    spec.meanLength = 40;
    const auto truth = core::generateDmrCorpus(spec);
    core::PreparedData prepared(truth.corpus, 0.2, 4);
    test::CollectingObserver a, b;
    const auto dmr = fitDmrModel(core::dmrModel(), prepared.data(), {{"k", 5}, {"iterations", 200}}, a, 2);
    const auto lda = fitDmrModel(core::ldaGibbsModel(), prepared.data(), {{"k", 5}, {"iterations", 200}}, b, 2);
    const double dmrPerplexity = dmr.finalMetrics["heldout_perplexity"].get<double>();
    const double ldaPerplexity = lda.finalMetrics["heldout_perplexity"].get<double>();
    qInfo("held-out perplexity: dmr %.3f, lda-gibbs %.3f", dmrPerplexity, ldaPerplexity);
    QVERIFY(dmrPerplexity < ldaPerplexity);
    QCOMPARE(dmr.finalMetrics["heldout_tokens"], lda.finalMetrics["heldout_tokens"]);
    QCOMPARE(test::resultMatrix(dmr, core::topic::kDocTopic).rows(), Eigen::Index{600});
    // The last report scores what the run returns.
    QCOMPARE(*a.reports.back().heldout, dmrPerplexity);
  }

  void sameSeedSameResult() {
    core::SyntheticDmrSpec spec;
    spec.documents = 80;
    const auto truth = core::generateDmrCorpus(spec);
    const auto data = dmrWholeCorpus(truth.corpus);
    const nlohmann::json options = {{"k", 5}, {"iterations", 30}, {"burn_in", 5}, {"optimize_every", 5}};
    test::CollectingObserver a, b, c;
    const auto one = fitDmrModel(core::dmrModel(), data, options, a, 4);
    const auto two = fitDmrModel(core::dmrModel(), data, options, b, 4);
    const auto other = fitDmrModel(core::dmrModel(), data, options, c, 5);
    QVERIFY(one.tokenTopics == two.tokenTopics);
    QVERIFY(test::resultMatrix(one, core::topic::kFeatureWeights) ==
            test::resultMatrix(two, core::topic::kFeatureWeights));
    QVERIFY(one.tokenTopics != other.tokenTopics);
  }

  // A stop before the start returns at once with topics; one from the observer ends the run after
  // that sweep.
  void stopsAtOnceAndAfterTheSweep() {
    core::SyntheticDmrSpec spec;
    spec.documents = 60;
    const auto truth = core::generateDmrCorpus(spec);
    const auto data = dmrWholeCorpus(truth.corpus);
    {
      test::CollectingObserver observer;
      std::stop_source stop;
      stop.request_stop();
      const auto result = fitDmrModel(core::dmrModel(), data, {{"k", 5}}, observer, 1, stop.get_token());
      QCOMPARE(result.status, core::FitStatus::Cancelled);
      QVERIFY(observer.reports.empty());
      const auto& phi = test::resultMatrix(result, core::topic::kTopicWord);
      for (int k = 0; k < 5; ++k) QVERIFY(std::abs(phi.row(k).sum() - 1.0) < 1e-12);
    }
    test::CollectingObserver observer;
    observer.stopAfter = 2;
    core::FitSettings settings;
    settings.options = core::resolveOptions(core::dmrModel().info(), {{"k", 5}, {"iterations", 100}});
    settings.evalEvery = 5;
    const auto result = core::dmrModel().make()->fit(data, settings, observer, {});
    QCOMPARE(result.status, core::FitStatus::Cancelled);
    QCOMPARE(result.iterations, std::int64_t{10});
    QCOMPARE(result.tokenTopics.size(), truth.corpus.documentCount());
  }
};

LATENT_TEST_CASE(DmrTest)
#include "tst_dmr.moc"
