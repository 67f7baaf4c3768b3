// SPDX-License-Identifier: GPL-3.0-or-later
// Link-LDA (Erosheva et al. 2004): documents and links drawn from the model give back the planted
// topics and each topic's link targets, and hidden links and new documents' links are predicted far
// above chance; link probabilities are probabilities; the baselines are reported beside them;
// stops; same seed, same result; a corpus without links is refused.
#include <QtTest>

#include <thread>

#include <chrono>
#include <cmath>
#include <set>
#include <sstream>

#include "core/data/synthetic_linked.hpp"
#include "core/eval/link_metrics.hpp"
#include "core/eval/link_prediction.hpp"
#include "core/eval/topic_matching.hpp"
#include "core/io/run_export.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/jobs/link_import.hpp"
#include "core/models/fit_data.hpp"
#include "core/models/links/link_lda.hpp"
#include "core/models/links/link_lda_sampler.hpp"
#include "core/results/link_results.hpp"
#include "core/results/topic_results.hpp"
#include "core/store/run_results.hpp"
#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"
#include "quiet_observer.hpp"
#include "result_matrix.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

core::FitResult fitLinkLda(const core::FitData& data, const nlohmann::json& options, std::uint64_t seed = 1,
                           std::stop_token stop = {}) {
  core::FitSettings settings;
  settings.options = core::resolveOptions(core::linkLdaModel().info(), options);
  settings.seed = seed;
  settings.evalEvery = 50;
  test::QuietObserver observer;
  return core::linkLdaModel().make()->fit(data, settings, observer, stop);
}

core::SyntheticLinkedSpec linkLdaSpec() {
  core::SyntheticLinkedSpec spec;
  spec.topics = 4;
  spec.documents = 400;
  spec.vocabulary = 300;
  spec.meanLength = 60;
  spec.meanLinks = 8;
  spec.gamma = 0.1;
  spec.seed = 3;
  return spec;
}

}  // namespace

class LinkLdaTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // The links' tokens: one per link in the outgoing bags, one at each end when undirected.
  void linkTokensFollowTheDirection() {
    const std::vector<core::Edge> links = {{0, 1, 1.0}, {2, 0, 1.0}};
    const auto outgoing = core::links::linkTokens(links, core::links::LinkDirection::Outgoing);
    QCOMPARE(outgoing.size(), std::size_t{2});
    QCOMPARE(outgoing[1].document, 2);
    QCOMPARE(outgoing[1].target, 0);
    const auto undirected = core::links::linkTokens(links, core::links::LinkDirection::Undirected);
    QCOMPARE(undirected.size(), std::size_t{4});
    QCOMPARE(undirected[1].document, 1);
    QCOMPARE(undirected[1].target, 0);
  }

  // Drawn from Link-LDA, fitted back: topics and targets matched to the truth, hidden links and new
  // documents' links ranked far above chance.
  void recoversPlantedTopicsAndTargets() {
    const auto truth = core::generateLinkLdaCorpus(linkLdaSpec());
    QVERIFY(truth.corpus.links.size() > 2000);
    const core::PreparedData prepared(truth.corpus, 0.2, 5);
    const auto& data = prepared.data();
    const auto result =
        fitLinkLda(data, {{"k", 4}, {"iterations", 150}, {"direction", "outgoing"}, {"baselines", false}}, 2);
    QCOMPARE(result.status, core::FitStatus::MaxIterations);
    const auto& phi = test::resultMatrix(result, core::topic::kTopicWord);
    const auto match = core::matchTopics(phi, truth.topicWord);
    qInfo("topics: mean TV %.3f, max %.3f", match.meanTotalVariation, match.maxTotalVariation);
    QVERIFY(match.maxTotalVariation < 0.15);

    // Omega over the training documents, against the truth's renormalised to them.
    const auto& omega = test::resultMatrix(result, core::topic::kTopicDocument);
    QCOMPARE(omega.cols(), Eigen::Index{400});
    double worst = 0.0;
    for (int k = 0; k < 4; ++k) {
      Eigen::VectorXd estimated(data.trainDocuments.size()), planted(data.trainDocuments.size());
      for (std::size_t t = 0; t < data.trainDocuments.size(); ++t) {
        estimated[static_cast<Eigen::Index>(t)] = omega(k, data.trainDocuments[t]);
        planted[static_cast<Eigen::Index>(t)] =
            truth.linkTopics(match.truthForEstimate[static_cast<std::size_t>(k)], data.trainDocuments[t]);
      }
      QVERIFY(std::abs(estimated.sum() - 1.0) < 1e-9);
      planted /= planted.sum();
      worst = std::max(worst, core::totalVariation(estimated, planted));
    }
    qInfo("targets: max TV %.3f", worst);
    QVERIFY(worst < 0.3);

    const auto& m = result.finalMetrics;
    qInfo("heldout AUC %.3f, P@10 %.3f, new-document AUC %.3f", m.at("heldout_auc").get<double>(),
          m.at("heldout_precision_at_10").get<double>(), m.at("new_document_auc").get<double>());
    // The ceiling: the same pairs scored as the model scores them, with the planted theta and
    // Omega and every document's bag the planted mean size.
    std::vector<double> planted;
    std::vector<std::uint8_t> linked;
    for (const auto& pair : data.links->hidden) {
      const auto a = data.trainDocuments[static_cast<std::size_t>(pair.a)];
      const auto b = data.trainDocuments[static_cast<std::size_t>(pair.b)];
      planted.push_back(truth.docTopic.row(a).dot(truth.linkTopics.col(b)) +
                        truth.docTopic.row(b).dot(truth.linkTopics.col(a)));
      linked.push_back(pair.linked ? 1 : 0);
    }
    const double ceiling = core::rocAuc(planted, linked);
    qInfo("planted parameters' AUC %.3f", ceiling);
    QVERIFY(m.at("heldout_auc").get<double>() > ceiling - 0.04);
    QVERIFY(m.at("heldout_auc").get<double>() > 0.8);
    // A new document's pairs are linked either way, and Omega has no mass on a document it never
    // saw: the links citing it are beyond the model, which caps this AUC.
    QVERIFY(m.at("new_document_auc").get<double>() > 0.6);
    // The links it makes itself, scored by p(h -> t) = theta_h . Omega_t from the stored matrices
    // (the model's probability is increasing in it), against the pairs linked neither way.
    const auto& docTopic = test::resultMatrix(result, core::topic::kDocTopic);
    std::set<std::pair<std::int64_t, std::int64_t>> cites;
    for (const auto& e : truth.corpus.links) cites.insert({e.source, e.target});
    std::vector<double> scores;
    std::vector<std::uint8_t> positive;
    for (const auto& pair : data.links->newDocuments) {
      const auto h = data.heldout->documents[static_cast<std::size_t>(pair.a)];
      const auto t = data.trainDocuments[static_cast<std::size_t>(pair.b)];
      const bool out = cites.count({h, t}) > 0;
      if (pair.linked && !out) continue;
      scores.push_back(docTopic.row(h).dot(omega.col(t)));
      positive.push_back(out ? 1 : 0);
    }
    const double outgoingAuc = core::rocAuc(scores, positive);
    qInfo("new documents' own links: AUC %.3f", outgoingAuc);
    QVERIFY(outgoingAuc > 0.8);
    qInfo("link perplexity %.3f", m.at("heldout_link_perplexity").get<double>());
    QVERIFY(m.contains("heldout_perplexity"));
    QVERIFY(!m.contains("baseline_auc_lda_cosine"));

    const auto& predicted = test::resultMatrix(result, core::kPredictedLinks);
    QCOMPARE(predicted.cols(), Eigen::Index{3});
    QVERIFY(predicted.rows() > 0);
    QVERIFY(predicted.col(2).minCoeff() >= 0.0 && predicted.col(2).maxCoeff() <= 1.0);
    QCOMPARE(test::resultMatrix(result, core::topic::kDocTopic).rows(), Eigen::Index{400});
  }

  // The baselines are fitted and written beside the model's own scores when asked (the default).
  void reportsTheBaselines() {
    auto spec = linkLdaSpec();
    spec.documents = 150;
    const auto truth = core::generateLinkLdaCorpus(spec);
    const core::PreparedData prepared(truth.corpus, 0.2, 1);
    const auto result = fitLinkLda(prepared.data(), {{"k", 4}, {"iterations", 20}});
    const auto& m = result.finalMetrics;
    QVERIFY(m.contains("baseline_auc_lda_cosine"));
    QVERIFY(m.contains("baseline_new_document_auc_lda_cosine"));
    QVERIFY(m.contains("baseline_auc_mmsb"));
    QVERIFY(m.contains("baseline_seconds"));
    QCOMPARE(m.at("link_direction").get<std::string>(), std::string("undirected"));
  }

  // Through the project: the corpus stored, its links attached from a CSV, a fit as the command
  // line runs it, and its link topics exported as topic,document,probability.
  void endToEndThroughTheProject() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    auto spec = linkLdaSpec();
    spec.documents = 120;
    spec.meanLength = 30;
    const auto truth = core::generateLinkLdaCorpus(spec);
    {
      core::Project p(file);
      core::Transaction tx(p.db());
      const auto dataset =
          p.createDataset("linked", core::DataKind::Corpus, "memory", "lines", nlohmann::json::object());
      core::CorpusWriter writer(p, dataset);
      core::CorpusBuilder builder({}, writer);
      for (std::size_t d = 0; d < truth.corpus.documentCount(); ++d) {
        const std::string id = std::to_string(d + 1), title = "doc " + id;
        std::string text;
        for (const auto w : truth.corpus.document(d)) text += "word" + std::to_string(w) + " ";
        core::DocumentRecord record;
        record.id = id;
        record.title = title;
        record.text = text;
        builder.addText(record);
      }
      const auto summary = builder.finish();
      p.setDatasetSummary(
          dataset, {{"documents", summary.documents}, {"tokens", summary.tokens}, {"vocabulary", summary.vocabulary}});
      tx.commit();
    }
    std::string csv = "source,target\n";
    for (const auto& e : truth.corpus.links)
      csv += std::to_string(e.source + 1) + "," + std::to_string(e.target + 1) + "\n";
    {
      core::Project p(file);
      core::LinksImportRequest links;
      links.corpus = "linked";
      links.source = scratch.write("links.csv", csv);
      core::importDocumentLinks(p, links);
    }
    core::RunRequest request;
    request.model = "link-lda";
    request.dataset = "linked";
    request.options = {{"k", 4}, {"iterations", 20}, {"baselines", false}};
    request.heldout = 0.2;
    const auto outcome = core::runFit(file, request, nullptr, {});
    QVERIFY2(outcome.run.status == core::RunStatus::Finished, outcome.run.message.c_str());
    core::Project p(file, core::Project::Access::ReadOnly);
    const auto stored = core::loadRun(p, outcome.run.id);
    QVERIFY(stored.finalMetrics.contains("heldout_auc"));
    QVERIFY(stored.finalMetrics.contains("new_document_auc"));
    const auto predicted = core::loadMatrix(p, outcome.run.id, core::kPredictedLinks);
    QVERIFY(predicted && predicted->cols() == 3 && predicted->rows() > 0);
    std::ostringstream out;
    core::exportRun(p, outcome.run.id, "topic-documents", out);
    std::istringstream lines(out.str());
    std::string header;
    std::getline(lines, header);
    QCOMPARE(header, std::string("topic,document,probability"));
    std::int64_t rows = 0;
    for (std::string line; std::getline(lines, line);) ++rows;
    // Every training document under every topic (held-out documents are no link's target).
    QCOMPARE(rows, std::int64_t{4} * static_cast<std::int64_t>(truth.corpus.documentCount() - 24));
  }

  void refusesACorpusWithoutLinks() {
    auto spec = linkLdaSpec();
    spec.documents = 50;
    auto truth = core::generateLinkLdaCorpus(spec);
    truth.corpus.links.clear();
    const core::PreparedData prepared(truth.corpus, 0.2, 1);
    QVERIFY_THROWS_EXCEPTION(core::UsageError, fitLinkLda(prepared.data(), {}));
  }

  void stopsWhenAsked() {
    auto spec = linkLdaSpec();
    spec.documents = 100;
    const auto truth = core::generateLinkLdaCorpus(spec);
    const core::PreparedData prepared(truth.corpus, 0.2, 1);
    std::stop_source stop;
    stop.request_stop();
    const auto result = fitLinkLda(prepared.data(), {{"iterations", 1000}}, 1, stop.get_token());
    QCOMPARE(result.status, core::FitStatus::Cancelled);
    QVERIFY(result.iterations < 1000);
    QCOMPARE(test::resultMatrix(result, core::topic::kTopicWord).rows(), Eigen::Index{20});
  }

  // A stop requested while the chain runs ends it within its sweeps, as cancelled, with results.
  void stopsWhileRunning() {
    auto spec = linkLdaSpec();
    spec.documents = 100;
    const auto truth = core::generateLinkLdaCorpus(spec);
    const core::PreparedData prepared(truth.corpus, 0.2, 1);
    std::stop_source stop;
    std::thread stopper([&stop] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      stop.request_stop();
    });
    const auto result = fitLinkLda(prepared.data(), {{"k", 4}, {"iterations", 10000000}}, 1, stop.get_token());
    stopper.join();
    QCOMPARE(result.status, core::FitStatus::Cancelled);
    QVERIFY(result.iterations < 10000000);
    QCOMPARE(test::resultMatrix(result, core::topic::kTopicWord).rows(), Eigen::Index{4});
  }

  void sameSeedSameResult() {
    auto spec = linkLdaSpec();
    spec.documents = 100;
    const auto truth = core::generateLinkLdaCorpus(spec);
    const core::PreparedData prepared(truth.corpus, 0.2, 1);
    const nlohmann::json options = {{"k", 4}, {"iterations", 15}, {"baselines", false}};
    const auto a = fitLinkLda(prepared.data(), options, 4);
    const auto b = fitLinkLda(prepared.data(), options, 4);
    QCOMPARE(a.tokenTopics, b.tokenTopics);
    QCOMPARE(test::resultMatrix(a, core::topic::kTopicDocument), test::resultMatrix(b, core::topic::kTopicDocument));
    QCOMPARE(a.finalMetrics.at("heldout_auc").get<double>(), b.finalMetrics.at("heldout_auc").get<double>());
  }
};

LATENT_TEST_CASE(LinkLdaTest)
#include "tst_link_lda.moc"
