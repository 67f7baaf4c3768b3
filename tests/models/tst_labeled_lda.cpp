// SPDX-License-Identifier: GPL-3.0-or-later
// Labeled LDA (Ramage et al. 2009): each document's topics are its labels' and the background
// ones; documents drawn from the model give back the planted label topics in label order; held-out
// documents' labels are predicted far above the frequency baseline; documents without labels
// follow the chosen policy; stops; options that cannot work are refused; and a run end to end
// through the project stores its topics named by their labels.
#include <QtTest>

#include <cmath>

#include "core/data/document_fields.hpp"
#include "core/data/synthetic_labeled_lda.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/topic/labeled_lda.hpp"
#include "core/models/topic/labeled_lda_sampler.hpp"
#include "core/results/topic_results.hpp"
#include "core/store/run_results.hpp"
#include "core/store/run_store.hpp"
#include "core/store/topic_label_store.hpp"
#include "core/util/errors.hpp"
#include "quiet_observer.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

core::FitResult fitLlda(const core::FitData& data, const nlohmann::json& options, std::uint64_t seed = 1,
                        std::stop_token stop = {}) {
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::labeledLdaModel().info(), options);
  settings.seed = seed;
  settings.evalEvery = 50;
  test::QuietObserver observer;
  return core::labeledLdaModel().make()->fit(data, settings, observer, stop);
}

core::FitData lldaWholeCorpus(const core::Corpus& corpus) {
  core::FitData data;
  data.corpus = &corpus;
  data.fullDocumentCount = static_cast<std::int64_t>(corpus.documentCount());
  return data;
}

// Half the L1 distance between two distributions (rows).
double lldaTotalVariation(const Eigen::RowVectorXd& a, const Eigen::RowVectorXd& b) {
  return 0.5 * (a - b).cwiseAbs().sum();
}

}  // namespace

class LabeledLdaTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void allowedTopicsAreLabelsAndBackground() {
    const std::vector<std::vector<std::int32_t>> sets = {{0, 2}, {}, {1}};
    const auto all = core::llda::allowedTopics(sets, 3, 1, core::llda::UnlabeledDocuments::AllTopics);
    QCOMPARE(std::vector<std::int32_t>(all.of(0).begin(), all.of(0).end()), (std::vector<std::int32_t>{0, 2, 3}));
    QCOMPARE(std::vector<std::int32_t>(all.of(1).begin(), all.of(1).end()), (std::vector<std::int32_t>{0, 1, 2, 3}));
    QCOMPARE(std::vector<std::int32_t>(all.of(2).begin(), all.of(2).end()), (std::vector<std::int32_t>{1, 3}));
    const auto background = core::llda::allowedTopics(sets, 3, 2, core::llda::UnlabeledDocuments::BackgroundOnly);
    QCOMPARE(std::vector<std::int32_t>(background.of(1).begin(), background.of(1).end()),
             (std::vector<std::int32_t>{3, 4}));
  }

  // Every token stays among its document's allowed topics, and the log joint rises from the
  // random start.
  void tokensStayAmongTheirDocumentsLabels() {
    core::SyntheticLabeledLdaSpec spec;
    spec.documents = 200;
    spec.meanLength = 40;
    const auto truth = core::generateLabeledLdaCorpus(spec);
    core::llda::LabeledLdaSampler sampler(
        truth.corpus,
        core::llda::allowedTopics(truth.labelSets, spec.labels, 1, core::llda::UnlabeledDocuments::AllTopics),
        spec.labels + 1, 0.1, 0.01, 3);
    const double start = sampler.logJoint();
    for (int s = 0; s < 20; ++s) QVERIFY(sampler.sweep({}));
    QVERIFY2(sampler.logJoint() > start + 1000.0, "the log joint did not rise");
    const auto z = sampler.tokenTopics();
    const Eigen::MatrixXd theta = sampler.docTopic();
    for (std::size_t d = 0; d < z.size(); ++d) {
      const auto& labels = truth.labelSets[d];
      const auto allowed = [&](std::int32_t k) {
        return k == spec.labels || std::find(labels.begin(), labels.end(), k) != labels.end();
      };
      for (const auto k : z[d]) QVERIFY(allowed(k));
      for (int k = 0; k <= spec.labels; ++k)
        if (!allowed(k)) QCOMPARE(theta(static_cast<Eigen::Index>(d), k), 0.0);
      QVERIFY(std::abs(theta.row(static_cast<Eigen::Index>(d)).sum() - 1.0) < 1e-9);
    }
  }

  // Documents drawn from labeled LDA with planted label topics: topic l is label l's, recovered
  // without any matching; the held-out documents' labels predicted from their words far better
  // than by the labels' frequencies.
  void recoversPlantedLabelTopicsAndPredictsLabels() {
    core::SyntheticLabeledLdaSpec spec;
    const auto truth = core::generateLabeledLdaCorpus(spec);
    const core::PreparedData prepared(truth.corpus, 0.2, 7);
    // Without the logistic regression on the words (baselinesCanLeaveTheRegressionOut checks it).
    const auto result = fitLlda(prepared.data(), {{"iterations", 150}, {"baselines", false}});
    QCOMPARE(result.status, core::FitStatus::MaxIterations);
    const auto& phi = test::resultMatrix(result, core::topic::kTopicWord);
    QCOMPARE(phi.rows(), Eigen::Index{spec.labels + 1});
    double worst = 0.0;
    for (int k = 0; k <= spec.labels; ++k)
      worst = std::max(worst, lldaTotalVariation(phi.row(k), truth.topicWord.row(k)));
    qInfo("worst total variation to the planted topic: %.3f", worst);
    QVERIFY2(worst < 0.2, "a label topic is far from its planted one");
    QCOMPARE(result.topicNames.size(), static_cast<std::size_t>(spec.labels + 1));
    QCOMPARE(result.topicNames[3], core::syntheticLabelName(3));
    QCOMPARE(result.topicNames.back(), std::string("background 1"));

    const auto& m = result.finalMetrics;
    qInfo(
        "held-out macro-F1 %.3f (frequency %.3f), precision@1 %.3f (frequency %.3f), perplexity %.1f (unrestricted "
        "%.1f)",
        m["heldout_macro_f1"].get<double>(), m["baseline_macro_f1_frequency"].get<double>(),
        m["heldout_precision_at_1"].get<double>(), m["baseline_precision_at_1_frequency"].get<double>(),
        m["heldout_perplexity"].get<double>(), m["heldout_perplexity_unrestricted"].get<double>());
    QVERIFY(m["heldout_precision_at_1"].get<double>() > 0.9);
    QVERIFY(m["heldout_precision_at_1"].get<double>() > m["baseline_precision_at_1_frequency"].get<double>() + 0.5);
    QVERIFY(m["heldout_macro_f1"].get<double>() > 0.6);
    QVERIFY(m["heldout_macro_f1"].get<double>() > m["baseline_macro_f1_frequency"].get<double>() + 0.4);
    // Knowing the labels narrows the topics a document can use: a better predictive.
    QVERIFY(m["heldout_perplexity"].get<double>() < m["heldout_perplexity_unrestricted"].get<double>());
    QCOMPARE(m["heldout_responses"].get<std::int64_t>(), static_cast<std::int64_t>(prepared.data().heldout->size()));

    const auto& scores = test::resultMatrix(result, core::topic::kLabelScores);
    QCOMPARE(scores.rows(), static_cast<Eigen::Index>(truth.corpus.documentCount()));
    QCOMPARE(scores.cols(), Eigen::Index{spec.labels});
    QVERIFY((scores.rowwise().sum().array() - 1.0).abs().maxCoeff() < 1e-9);
    const auto& docTopic = test::resultMatrix(result, core::topic::kDocTopic);
    QCOMPARE(docTopic.rows(), static_cast<Eigen::Index>(truth.corpus.documentCount()));
    // A held-out document's doc_topic row uses its own labels only.
    const auto& h = *prepared.data().heldout;
    const auto d = h.documents.front();
    for (int k = 0; k < spec.labels; ++k) {
      const auto& set = truth.labelSets[static_cast<std::size_t>(d)];
      if (std::find(set.begin(), set.end(), k) == set.end()) QCOMPARE(docTopic(d, k), 0.0);
    }
  }

  // --baselines false leaves the logistic regression on the words out, and nothing else: the label
  // frequencies stay, and the model's own held-out scores are the same.
  void baselinesCanLeaveTheRegressionOut() {
    core::SyntheticLabeledLdaSpec spec;
    spec.documents = 80;
    const auto truth = core::generateLabeledLdaCorpus(spec);
    const core::PreparedData prepared(truth.corpus, 0.2, 7);
    const auto with = fitLlda(prepared.data(), {{"iterations", 20}});
    const auto without = fitLlda(prepared.data(), {{"iterations", 20}, {"baselines", false}});
    const auto keysEndingIn = [](const nlohmann::json& metrics, const std::string& suffix) {
      int n = 0;
      for (const auto& [key, value] : metrics.items())
        n += key.rfind("baseline_", 0) == 0 && key.ends_with(suffix) ? 1 : 0;
      return n;
    };
    QVERIFY(keysEndingIn(with.finalMetrics, "_logistic") >= 3);
    QCOMPARE(keysEndingIn(without.finalMetrics, "_logistic"), 0);
    QCOMPARE(keysEndingIn(without.finalMetrics, "_frequency"), keysEndingIn(with.finalMetrics, "_frequency"));
    QVERIFY(keysEndingIn(without.finalMetrics, "_frequency") >= 3);
    for (const char* key : {"heldout_macro_f1", "heldout_precision_at_1", "heldout_perplexity"})
      QCOMPARE(without.finalMetrics.at(key).get<double>(), with.finalMetrics.at(key).get<double>());
  }

  // Unlabeled documents: "background" keeps them off the label topics entirely.
  void unlabeledDocumentsFollowThePolicy() {
    core::SyntheticLabeledLdaSpec spec;
    spec.documents = 200;
    spec.meanLength = 30;
    auto truth = core::generateLabeledLdaCorpus(spec);
    for (std::size_t d = 0; d < 50; ++d) truth.corpus.labels[d].clear();
    const auto result = fitLlda(lldaWholeCorpus(truth.corpus), {{"iterations", 20}, {"unlabeled", "background"}});
    for (std::size_t d = 0; d < 50; ++d)
      for (const auto k : result.tokenTopics[d]) QCOMPARE(k, spec.labels);
    const auto open = fitLlda(lldaWholeCorpus(truth.corpus), {{"iterations", 20}});
    bool someLabelTopic = false;
    for (std::size_t d = 0; d < 50; ++d)
      for (const auto k : open.tokenTopics[d]) someLabelTopic |= k < spec.labels;
    QVERIFY(someLabelTopic);
    QCOMPARE(open.finalMetrics["unlabeled_training_documents"].get<std::int64_t>(), std::int64_t{50});
  }

  // Any categorical metadata column can be the labels (one per document).
  void metadataColumnAsLabels() {
    core::SyntheticLabeledLdaSpec spec;
    spec.documents = 100;
    spec.maxLabels = 1;
    spec.labels = 3;
    auto truth = core::generateLabeledLdaCorpus(spec);
    core::Corpus::MetadataColumn column{"party", {}};
    for (const auto& set : truth.labelSets)
      column.values.push_back(set.front() == 0 ? "red" : set.front() == 1 ? "green" : "blue");
    truth.corpus.metadata.push_back(column);
    const auto result =
        fitLlda(lldaWholeCorpus(truth.corpus), {{"iterations", 10}, {"labels", "party"}, {"background", 0}});
    QCOMPARE(result.topicNames, (std::vector<std::string>{"blue", "green", "red"}));
    QCOMPARE(test::resultMatrix(result, core::topic::kTopicWord).rows(), Eigen::Index{3});
    // The memory estimate counts the field's labels (3) and the background topics (0).
    const auto data = lldaWholeCorpus(truth.corpus);
    const auto options = core::resolveOptions(core::labeledLdaModel().info(), {{"labels", "party"}, {"background", 0}});
    const auto V = static_cast<std::uint64_t>(truth.corpus.vocabularySize()), D = std::uint64_t{100},
               N = static_cast<std::uint64_t>(truth.corpus.tokenCount());
    QCOMPARE(core::labeledLdaModel().info().needs(data, options).memoryBytes, 3 * V * 28 + D * 3 * 16 + N * 8);
  }

  void refusesWhatCannotWork() {
    core::SyntheticLabeledLdaSpec spec;
    spec.documents = 20;
    const auto truth = core::generateLabeledLdaCorpus(spec);
    QVERIFY_THROWS_EXCEPTION(core::UsageError, fitLlda(lldaWholeCorpus(truth.corpus), {{"labels", "party"}}));
    QVERIFY_THROWS_EXCEPTION(core::UsageError,
                             fitLlda(lldaWholeCorpus(truth.corpus), {{"unlabeled", "background"}, {"background", 0}}));
    core::Corpus unlabeled = truth.corpus;
    for (auto& l : unlabeled.labels) l.clear();
    QVERIFY_THROWS_EXCEPTION(core::UsageError, fitLlda(lldaWholeCorpus(unlabeled), {}));
  }

  // A stop before the first sweep ends the run as cancelled, with topics.
  void stopsWhenAsked() {
    core::SyntheticLabeledLdaSpec spec;
    spec.documents = 100;
    const auto truth = core::generateLabeledLdaCorpus(spec);
    std::stop_source stop;
    stop.request_stop();
    const auto result = fitLlda(lldaWholeCorpus(truth.corpus), {{"iterations", 1000}}, 1, stop.get_token());
    QCOMPARE(result.status, core::FitStatus::Cancelled);
    QVERIFY(result.iterations < 1000);
    QCOMPARE(test::resultMatrix(result, core::topic::kTopicWord).rows(), Eigen::Index{spec.labels + 1});
  }

  void sameSeedSameResult() {
    core::SyntheticLabeledLdaSpec spec;
    spec.documents = 100;
    const auto truth = core::generateLabeledLdaCorpus(spec);
    const auto a = fitLlda(lldaWholeCorpus(truth.corpus), {{"iterations", 15}}, 4);
    const auto b = fitLlda(lldaWholeCorpus(truth.corpus), {{"iterations", 15}}, 4);
    QCOMPARE(a.tokenTopics, b.tokenTopics);
    QCOMPARE(test::resultMatrix(a, core::topic::kLabelScores), test::resultMatrix(b, core::topic::kLabelScores));
  }

  // Through the project: one label per stored document; the run's topics carry the labels' names.
  void endToEndThroughTheProject() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    core::SyntheticLabeledLdaSpec spec;
    spec.labels = 4;
    spec.maxLabels = 1;
    spec.documents = 120;
    spec.meanLength = 30;
    const auto truth = core::generateLabeledLdaCorpus(spec);
    const std::vector<std::string> names = {"economy", "health", "space", "sport"};
    {
      core::Project p(file);
      core::Transaction tx(p.db());
      const auto id = p.createDataset("labelled", core::DataKind::Corpus, "memory", "lines", nlohmann::json::object());
      core::CorpusWriter writer(p, id);
      core::CorpusBuilder builder({}, writer);
      for (std::size_t d = 0; d < truth.corpus.documentCount(); ++d) {
        const std::string id = std::to_string(d + 1), title = "doc " + id;
        std::string text;
        for (const auto w : truth.corpus.document(d)) text += "word" + std::to_string(w) + " ";
        core::DocumentRecord record;
        record.id = id;
        record.title = title;
        record.text = text;
        record.label = names[static_cast<std::size_t>(truth.labelSets[d].front())];
        builder.addText(record);
      }
      const auto summary = builder.finish();
      p.setDatasetSummary(
          id, {{"documents", summary.documents}, {"tokens", summary.tokens}, {"vocabulary", summary.vocabulary}});
      tx.commit();
    }
    core::RunRequest request;
    request.model = "labeled-lda";
    request.dataset = "labelled";
    request.options = {{"iterations", 30}};
    request.heldout = 0.2;
    const auto outcome = core::runFit(file, request, nullptr, {});
    QVERIFY2(outcome.run.status == core::RunStatus::Finished, outcome.run.message.c_str());
    core::Project p(file, core::Project::Access::ReadOnly);
    const auto labels = core::loadTopicLabels(p, outcome.run.id);
    QCOMPARE(labels.size(), std::size_t{5});
    QCOMPARE(labels.at(0), std::string("economy"));
    QCOMPARE(labels.at(3), std::string("sport"));
    QCOMPARE(labels.at(4), std::string("background 1"));
    const auto scores = core::loadMatrix(p, outcome.run.id, core::topic::kLabelScores);
    QVERIFY(scores && scores->rows() == static_cast<Eigen::Index>(spec.documents) && scores->cols() == 4);
    const auto stored = core::loadRun(p, outcome.run.id);
    QVERIFY(stored.finalMetrics.contains("heldout_perplexity"));
    QVERIFY(stored.finalMetrics.contains("heldout_macro_f1"));
  }
};

LATENT_TEST_CASE(LabeledLdaTest)
#include "tst_labeled_lda.moc"
