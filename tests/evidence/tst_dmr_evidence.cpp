// SPDX-License-Identifier: GPL-3.0-or-later
// DMR-LDA (Mimno & McCallum 2008) against truth on larger corpora drawn from the model, over
// several seeds: the planted weights (the time's per topic, the groups' contrasts) and the topics
// come back closer than the unit test asks of its small corpus, and held-out perplexity by
// document completion is below lda-gibbs's on the same split every time.
#include <QtTest>

#include <cmath>

#include "core/data/synthetic_dmr.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/topic/dmr.hpp"
#include "core/models/topic/lda_gibbs.hpp"
#include "core/results/topic_results.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

class DmrEvidenceQuiet final : public core::TrainingObserver {
 public:
  bool onReport(const core::IterationReport&) override { return true; }
};

core::FitResult dmrEvidenceFit(const core::ModelDefinition& model, const core::FitData& data,
                               const nlohmann::json& options, std::uint64_t seed) {
  core::FitSettings settings;
  settings.options = core::resolveOptions(model.info(), options);
  settings.seed = seed;
  settings.evalEvery = 100;
  settings.threads = 2;
  DmrEvidenceQuiet observer;
  return model.make()->fit(data, settings, observer, {});
}

}  // namespace

class DmrEvidenceTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void recoversWeightsAndBeatsLdaOverSeeds() {
    for (const std::uint64_t seed : {31u, 32u, 33u}) {
      core::SyntheticDmrSpec spec;
      spec.seed = seed;
      spec.documents = 2500;
      spec.vocabulary = 500;
      const auto truth = core::generateDmrCorpus(spec);
      core::PreparedData prepared(truth.corpus, 0.2, seed);
      const nlohmann::json options = {{"k", 5}, {"iterations", 300}};
      const auto dmr = dmrEvidenceFit(core::dmrModel(), prepared.data(), options, seed);
      const auto lda = dmrEvidenceFit(core::ldaGibbsModel(), prepared.data(), options, seed);
      const auto match = core::matchTopics(test::resultMatrix(dmr, core::topic::kTopicWord), truth.topicWord);
      const Eigen::MatrixXd& lambda = test::resultMatrix(dmr, core::topic::kFeatureWeights);
      Eigen::MatrixXd aligned(5, lambda.cols());
      for (int k = 0; k < 5; ++k) aligned.row(match.truthForEstimate[static_cast<std::size_t>(k)]) = lambda.row(k);
      const auto contrasts = [](const Eigen::MatrixXd& l) {
        Eigen::MatrixXd c = l.rightCols(3);
        c.colwise() -= c.rowwise().mean();
        return c;
      };
      const double timeError = (aligned.col(1) - truth.featureWeights.col(1)).cwiseAbs().maxCoeff();
      const double groupError = (contrasts(aligned) - contrasts(truth.featureWeights)).cwiseAbs().maxCoeff();
      const double dmrPerplexity = dmr.finalMetrics["heldout_perplexity"].get<double>();
      const double ldaPerplexity = lda.finalMetrics["heldout_perplexity"].get<double>();
      qInfo(
          "seed %llu: topics max TV %.3f; time weight error %.3f, group contrast error %.3f; held-out perplexity "
          "dmr %.2f, lda-gibbs %.2f",
          static_cast<unsigned long long>(seed), match.maxTotalVariation, timeError, groupError, dmrPerplexity,
          ldaPerplexity);
      // 2000 training documents: a weight's standard error is about 0.07.
      QVERIFY(match.maxTotalVariation < 0.1);
      QVERIFY(timeError < 0.25);
      QVERIFY(groupError < 0.3);
      QVERIFY(dmrPerplexity < ldaPerplexity);
    }
  }
};

LATENT_TEST_CASE(DmrEvidenceTest)
#include "tst_dmr_evidence.moc"
