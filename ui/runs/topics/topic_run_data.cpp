// SPDX-License-Identifier: GPL-3.0-or-later
// loadTopicRun: matrices, vocabulary, documents, which documents have assignments, labels, and
// the topics over time of a dynamic topic model.
#include "ui/runs/topics/topic_run_data.hpp"

#include "core/data/document_fields.hpp"

#include <QObject>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "core/eval/correlation_map.hpp"
#include "core/models/topic/mixture.hpp"
#include "core/models/topic/topic_model_support.hpp"
#include "core/store/run_results.hpp"
#include "core/store/topic_label_store.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/runs/topics/document_links_data.hpp"
#include "ui/runs/topics/topic_time_data.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {

bool TopicRunData::hasAssignments() const noexcept {
  return std::any_of(assigned.begin(), assigned.end(), [](std::uint8_t a) { return a != 0; });
}

QString TopicRunData::wordText(std::int32_t word) const {
  return word >= 0 && static_cast<std::size_t>(word) < words.size() ? qs(words[static_cast<std::size_t>(word)])
                                                                    : QStringLiteral("#%1").arg(word);
}

TopicRunLoad loadLiveTopicRun(const std::filesystem::path& projectFile, std::int64_t runId,
                              std::shared_ptr<const TopicRunData> previous) {
  if (previous) {
    try {
      core::Project project(offGuiThread(projectFile), core::Project::Access::ReadOnly);
      std::int64_t latest = -1;
      for (const auto& [name, iteration] : core::listMatrices(project, runId))
        if (name == core::topic::kTopicWord) latest = std::max(latest, iteration);
      if (latest == previous->topicWordIteration) return {std::move(previous), {}};
    } catch (const std::exception& e) {
      return {nullptr, qs(e.what())};
    }
  }
  return loadTopicRun(projectFile, runId);
}

TopicRunLoad loadTopicRun(const std::filesystem::path& projectFile, std::int64_t runId) {
  TopicRunLoad out;
  try {
    core::Project project(offGuiThread(projectFile), core::Project::Access::ReadOnly);
    auto data = std::make_shared<TopicRunData>();
    data->run = core::loadRun(project, runId);
    if (project.dataset(data->run.datasetId).kind != core::DataKind::Corpus) return out;

    // The final topic-word matrix, or the latest snapshot of a run that has no final one yet, read
    // in its stored form.
    auto topicWord = core::loadStoredResult(project, runId, core::topic::kTopicWord);
    if (!topicWord) return out;
    if (topicWord->iteration >= 0) data->topicWordIteration = topicWord->iteration;
    data->topicWord = core::TopicWordTable(std::move(topicWord->values));

    for (auto& v : core::loadVocabulary(project, data->run.datasetId)) {
      data->words.push_back(std::move(v.word));
      data->wordCounts.push_back(v.count);
    }
    if (static_cast<std::size_t>(data->topicWord.cols()) != data->words.size()) {
      out.error = QObject::tr("the topic-word matrix has %1 columns but the vocabulary has %2 words")
                      .arg(data->topicWord.cols())
                      .arg(data->words.size());
      return out;
    }
    data->corpusFrequency = corpusFrequencies(data->wordCounts);
    data->documents = core::listDocuments(project, data->run.datasetId);
    data->hasText =
        std::any_of(data->documents.begin(), data->documents.end(), [](const auto& d) { return d.hasText; });
    if (auto docTopic = core::loadStoredMatrix(project, runId, "doc_topic")) {
      core::DenseTable table(std::move(*docTopic));
      if (table.rows() == static_cast<Eigen::Index>(data->documents.size()) && table.cols() == data->topicWord.rows()) {
        data->docTopic = std::move(table);
        data->mainTopics = data->docTopic.rowArgMaxes();  // here, off the GUI thread: D x K reads
      }
    }
    if (data->hasDocTopic())
      if (auto fields = core::loadDocumentFields(project, data->run.datasetId);
          !core::documentFieldNames(fields).empty())
        data->fields = std::make_shared<const core::Corpus>(std::move(fields));

    // Held-out documents have no per-token topics; the assignments also give the shares when
    // there are no document proportions.
    const auto K = data->topicWord.rows();
    std::vector<double> assignedCounts(static_cast<std::size_t>(K), 0.0);
    data->assigned.assign(data->documents.size(), 0);
    for (std::size_t d = 0; d < data->documents.size(); ++d) {
      const auto topics = core::loadTokenTopics(project, runId, data->documents[d].index);
      data->assigned[d] = topics.empty() ? 0 : 1;
      for (const auto t : topics)
        if (t >= 0 && t < K) assignedCounts[static_cast<std::size_t>(t)] += 1.0;
    }
    if (data->hasDocTopic()) {
      std::vector<std::int64_t> lengths;
      for (const auto& d : data->documents) lengths.push_back(d.tokenCount);
      data->shares = topicShares(data->docTopic, lengths);
      data->sharesSource = QObject::tr(
          "Each document's topic proportions weighted by its number of kept words "
          "(held-out documents included, with their folded-in proportions).");
    } else if (const double total = std::accumulate(assignedCounts.begin(), assignedCounts.end(), 0.0); total > 0) {
      for (auto& c : assignedCounts) c /= total;
      data->shares = std::move(assignedCounts);
      data->sharesSource = QObject::tr("The fraction of the training words assigned to each topic.");
    } else if (K == 1) {
      data->shares = {1.0};
      data->sharesSource = QObject::tr("The model has a single word distribution.");
    }
    data->topWords = rankTopics(data->topicWord, data->corpusFrequency, 1.0, 10);
    data->labels = core::loadTopicLabels(project, runId);
    data->clusters = core::hasResultMatrix(project, runId, core::kMixingWeights);
    const auto layers = core::listTokenValues(project, runId);
    data->syntacticClasses = std::find(layers.begin(), layers.end(), core::topic::kTokenClass) != layers.end();
    if (auto correlation = core::loadMatrix(project, runId, core::topic::kTopicCorrelation);
        correlation && correlation->rows() == K && correlation->cols() == K) {
      data->topicCorrelation = std::move(*correlation);
      // Nodes kept further apart when there are few of them, for their labels.
      data->correlationMap =
          core::correlationMap(data->topicCorrelation, std::min(0.16, 0.6 / std::sqrt(static_cast<double>(K))));
    }
    if (auto coefficients = core::loadMatrix(project, runId, core::topic::kResponseCoefficients);
        coefficients && coefficients->rows() == K && coefficients->cols() > 0) {
      data->responseCoefficients = std::move(*coefficients);
      const auto& metrics = data->run.finalMetrics;
      data->responseName = qs(metrics.value("response_name", std::string()));
      data->responseMean = metrics.value("response_mean", 0.0);
      if (const auto classes = metrics.find("response_classes"); classes != metrics.end() && classes->is_array())
        for (const auto& c : *classes) data->responseClasses << qs(c.get<std::string>());
      if (auto predicted = core::loadMatrix(project, runId, core::topic::kResponsePredicted);
          predicted && predicted->rows() == static_cast<Eigen::Index>(data->documents.size()) &&
          predicted->cols() == std::max<Eigen::Index>(1, data->responseClasses.size()))
        data->responsePredicted = std::move(*predicted);
    }
    if (auto scores = core::loadMatrix(project, runId, core::topic::kLabelScores);
        scores && scores->rows() == static_cast<Eigen::Index>(data->documents.size()) && scores->cols() <= K)
      data->labelScores = std::move(*scores);
    // The metadata weights with their names and ranges, only when all three agree.
    if (auto weights = core::loadMatrix(project, runId, core::topic::kFeatureWeights);
        weights && weights->rows() == K) {
      auto ranges = core::loadMatrix(project, runId, core::topic::kFeatureRanges);
      const auto names = data->run.finalMetrics.find(core::topic::kFeatureNamesMetric);
      if (ranges && ranges->rows() == weights->cols() && ranges->cols() == 4 && names != data->run.finalMetrics.end() &&
          names->is_array() && static_cast<Eigen::Index>(names->size()) == weights->cols()) {
        data->featureNames = names->get<std::vector<std::string>>();
        data->featureWeights = std::move(*weights);
        data->featureRanges = std::move(*ranges);
      }
    }
    data->links = loadDocumentLinksData(project, data->run.datasetId, runId, data->documents.size());
    // The topics over time read apart, so that a fault in them leaves the other pages.
    try {
      data->overTime = loadTopicTime(project, runId, *data);
    } catch (const std::exception& e) {
      data->overTimeError = qs(e.what());
    }
    out.data = std::move(data);
  } catch (const std::exception& e) {
    out.error = qs(e.what());
  }
  return out;
}

QString topicDisplayName(const TopicRunData* data, const QStringList& labels, int topic, int words) {
  if (!data || topic < 0 || topic >= data->topicCount()) return {};
  if (!labels.value(topic).isEmpty()) return QStringLiteral("%1 %2").arg(topic + 1).arg(labels[topic]);
  QStringList top;
  const auto& ranked = data->topWords[static_cast<std::size_t>(topic)];
  for (std::size_t i = 0; i < ranked.size() && i < static_cast<std::size_t>(words); ++i)
    top << data->wordText(ranked[i].word);
  return QStringLiteral("%1 %2").arg(topic + 1).arg(top.join(QLatin1Char(' ')));
}

QString assignmentMeaning(const TopicRunData& data) {
  const auto* info = findModel(data.run.model);
  const bool sampled = info && std::any_of(info->options.begin(), info->options.end(),
                                           [](const auto& o) { return o.name == "sampler"; });
  if (data.clusters)
    return QObject::tr(
        "A mixture model gives every word of a document the document's one topic (its cluster); the "
        "small number is the topic's.");
  if (sampled)
    return QObject::tr(
        "Each kept word is coloured by the topic the sampler assigned it in its last sweep; the small "
        "number is the topic's.");
  return QObject::tr(
      "Each kept word is coloured by its most likely topic under the fitted model (the topic that "
      "explains it best in this document); the small number is the topic's.");
}

}  // namespace latent::ui
