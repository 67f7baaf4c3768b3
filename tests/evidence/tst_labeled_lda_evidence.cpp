// SPDX-License-Identifier: GPL-3.0-or-later
// Labeled LDA against truth, at a size the unit test cannot afford: documents drawn from labeled
// LDA with 20 planted label topics and 1-3 labels each, fitted back on three seeds: every label's
// topic recovered in label order, held-out labels predicted far above the frequency baseline, and
// on the first seed reported beside one-vs-rest logistic regression on the words (the regression,
// cross-validated, took 85% of the test's time on three). And, when LATENT_DEBTAGS_CSV
// names the CSV that tests/benchmarks/debtags_corpus.py writes, the real corpus: each label's top
// words printed (to be read: are they about the label?) and the held-out scores against the
// baselines.
#include <QtTest>

#include <algorithm>
#include <cstdlib>
#include <numeric>

#include "core/data/corpus_builder.hpp"
#include "core/data/corpus_sink.hpp"
#include "core/data/synthetic_labeled_lda.hpp"
#include "core/io/corpus_import.hpp"
#include "core/io/import_control.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/topic/labeled_lda.hpp"
#include "core/results/topic_results.hpp"
#include "quiet_observer.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"

using namespace latent;

namespace {

core::FitResult fitLldaEvidence(const core::FitData& data, const nlohmann::json& options, std::uint64_t seed) {
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::labeledLdaModel().info(), options);
  settings.seed = seed;
  settings.evalEvery = 100;
  test::QuietObserver observer;
  return core::labeledLdaModel().make()->fit(data, settings, observer, {});
}

// The debtags CSV (id, text, label with ";" between labels) as a corpus: English stop words out,
// words in fewer than 3 packages or in more than half of them dropped.
core::Corpus readDebtags(const std::string& path) {
  core::CorpusBuildOptions build;
  build.stopWords = core::StopWords::english();
  build.prune.minDocumentFrequency = 3;
  build.prune.maxDocumentFraction = 0.5;
  core::MemoryCorpusSink sink;
  core::CorpusBuilder builder(std::move(build), sink);
  core::CorpusReadOptions read;
  read.format = core::CorpusFormat::Csv;
  read.labelColumn = "label";
  core::readCorpus(path, read, builder, core::ImportControl{});
  builder.finish();
  core::Corpus corpus = sink.corpus();
  corpus.labelSeparator = ";";
  for (const auto& d : sink.documents) corpus.labels.push_back(d.label);
  return corpus;
}

}  // namespace

class LabeledLdaEvidenceTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void recoversPlantedLabelTopicsOnThreeSeeds() {
    for (const std::uint64_t seed : {11, 12, 13}) {
      const bool baselines = seed == 11;
      core::SyntheticLabeledLdaSpec spec;
      spec.labels = 20;
      spec.vocabulary = 2000;
      spec.documents = 3000;
      spec.meanLength = 100;
      spec.seed = seed;
      const auto truth = core::generateLabeledLdaCorpus(spec);
      const core::PreparedData prepared(truth.corpus, 0.2, seed);
      const auto result = fitLldaEvidence(prepared.data(), {{"iterations", 200}, {"baselines", baselines}}, seed);
      const auto& phi = test::resultMatrix(result, core::topic::kTopicWord);
      double worst = 0.0, mean = 0.0;
      for (int k = 0; k < phi.rows(); ++k) {
        const double tv = 0.5 * (phi.row(k) - truth.topicWord.row(k)).cwiseAbs().sum();
        worst = std::max(worst, tv);
        mean += tv / static_cast<double>(phi.rows());
      }
      const auto& m = result.finalMetrics;
      qInfo(
          "seed %llu: total variation to the planted topics mean %.3f, worst %.3f; held-out macro-F1 %.3f, "
          "precision@1 %.3f; perplexity %.1f with the labels, %.1f without",
          static_cast<unsigned long long>(seed), mean, worst, m["heldout_macro_f1"].get<double>(),
          m["heldout_precision_at_1"].get<double>(), m["heldout_perplexity"].get<double>(),
          m["heldout_perplexity_unrestricted"].get<double>());
      if (baselines)
        qInfo("  baselines: macro-F1 frequency %.3f, logistic %.3f; precision@1 frequency %.3f, logistic %.3f",
              m["baseline_macro_f1_frequency"].get<double>(), m["baseline_macro_f1_logistic"].get<double>(),
              m["baseline_precision_at_1_frequency"].get<double>(),
              m["baseline_precision_at_1_logistic"].get<double>());
      QVERIFY(worst < 0.15);
      QVERIFY(m["heldout_precision_at_1"].get<double>() > 0.9);
      QVERIFY(m["heldout_macro_f1"].get<double>() > m["baseline_macro_f1_frequency"].get<double>() + 0.5);
      QVERIFY(m["heldout_perplexity"].get<double>() < m["heldout_perplexity_unrestricted"].get<double>());
    }
  }

  void debtagsLabelsHaveTheirWords() {
    const char* path = std::getenv("LATENT_DEBTAGS_CSV");
    if (!path || !*path) QSKIP("LATENT_DEBTAGS_CSV is not set (tests/benchmarks/debtags_corpus.py writes it)");
    const auto corpus = readDebtags(path);
    const core::PreparedData prepared(corpus, 0.2, 1);
    const auto result = fitLldaEvidence(prepared.data(), {{"iterations", 300}}, 1);
    const auto& phi = test::resultMatrix(result, core::topic::kTopicWord);
    for (Eigen::Index k = 0; k < phi.rows(); ++k) {
      std::vector<int> order(static_cast<std::size_t>(phi.cols()));
      std::iota(order.begin(), order.end(), 0);
      std::partial_sort(order.begin(), order.begin() + 10, order.end(),
                        [&](int a, int b) { return phi(k, a) > phi(k, b); });
      std::string words;
      for (int i = 0; i < 10; ++i)
        words += " " + corpus.words[static_cast<std::size_t>(order[static_cast<std::size_t>(i)])];
      qInfo("%-32s%s", result.topicNames[static_cast<std::size_t>(k)].c_str(), words.c_str());
    }
    qInfo("%s", result.finalMetrics.dump(1).c_str());
    QVERIFY(result.finalMetrics["heldout_precision_at_1"].get<double>() >
            result.finalMetrics["baseline_precision_at_1_frequency"].get<double>());
  }
};

LATENT_TEST_CASE(LabeledLdaEvidenceTest)
#include "tst_labeled_lda_evidence.moc"
