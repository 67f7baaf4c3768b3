// SPDX-License-Identifier: GPL-3.0-or-later
// loadHiddenRun: the harmonium's matrices, the corpus' words, documents and labels (or the table's
// columns, rows and row labels, or the ratings' items and users), and the analysis the pages show,
// all computed here off the GUI thread.
#include "ui/runs/hidden/hidden_run_data.hpp"

#include <QObject>
#include <QPalette>

#include <algorithm>
#include <cmath>
#include <map>

#include "core/data/adjacency_table.hpp"
#include "core/results/hidden_results.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/run_results.hpp"
#include "core/store/table_store.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/runs/hidden/hidden_ratings_data.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

const std::vector<std::string> kHiddenRequired = {core::hidden::kWeights, core::hidden::kVisibleBias,
                                                  core::hidden::kHiddenBias};

const std::vector<std::string> kHiddenOptional = {core::hidden::kHiddenActivations, core::hidden::kWeightsSd,
                                                  core::hidden::kPriorMean, core::hidden::kPriorSd,
                                                  core::hidden::kWeightTrace};

// The cases' labels as indices into labelNames, by frequency (see HiddenCorpus).
void indexHiddenLabels(HiddenCorpus* corpus);

std::shared_ptr<const HiddenCorpus> readHiddenCorpus(core::Project& project, std::int64_t datasetId) {
  auto corpus = std::make_shared<HiddenCorpus>();
  for (auto& v : core::loadVocabulary(project, datasetId)) corpus->words.push_back(std::move(v.word));
  corpus->documents = core::listDocuments(project, datasetId);
  indexHiddenLabels(corpus.get());
  return corpus;
}

// A table's columns are the visible units, its rows the cases ("documents" named by the row); a
// graph's adjacency rows (core/data/adjacency_table.hpp) are such a table, its nodes both.
std::shared_ptr<const HiddenCorpus> hiddenCorpusOfTable(core::NumericTable table, bool graph) {
  auto corpus = std::make_shared<HiddenCorpus>();
  corpus->table = true;
  corpus->graph = graph;
  corpus->words = std::move(table.featureNames);
  corpus->documents.reserve(table.rowCount());
  for (std::size_t r = 0; r < table.rowCount(); ++r) {
    core::DocumentHeader d;
    d.index = static_cast<std::int64_t>(r);
    d.id = table.rowNames[r];
    d.title = table.rowNames[r];
    if (table.hasLabels()) d.label = table.rowLabels[r];
    corpus->documents.push_back(std::move(d));
  }
  indexHiddenLabels(corpus.get());
  return corpus;
}

std::shared_ptr<const HiddenCorpus> readHiddenTable(core::Project& project, std::int64_t datasetId) {
  return hiddenCorpusOfTable(core::loadTable(project, datasetId), false);
}

std::shared_ptr<const HiddenCorpus> readHiddenGraph(core::Project& project, std::int64_t datasetId) {
  return hiddenCorpusOfTable(core::adjacencyTable(core::loadGraph(project, datasetId)), true);
}

void indexHiddenLabels(HiddenCorpus* corpus) {
  // Labels by frequency (ties by name), so that the commonest get the most distinct colours.
  std::map<std::string, std::int64_t> counts;
  for (const auto& d : corpus->documents)
    if (!d.label.empty()) ++counts[d.label];
  std::vector<std::pair<std::string, std::int64_t>> byCount(counts.begin(), counts.end());
  std::stable_sort(byCount.begin(), byCount.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  const bool other = byCount.size() > static_cast<std::size_t>(kHiddenLabelColours);
  const std::size_t own = other ? kHiddenLabelColours - 1 : byCount.size();
  std::map<std::string, int> index;
  for (std::size_t i = 0; i < byCount.size(); ++i) index[byCount[i].first] = static_cast<int>(std::min(i, own));
  for (std::size_t i = 0; i < own; ++i) {
    corpus->labelNames << qs(byCount[i].first);
    corpus->labelCounts.push_back(byCount[i].second);
  }
  if (other) {
    std::int64_t rest = 0;
    for (std::size_t i = own; i < byCount.size(); ++i) rest += byCount[i].second;
    corpus->labelNames << QObject::tr("%1 other labels").arg(byCount.size() - own);
    corpus->labelCounts.push_back(rest);
    corpus->otherLabels = true;
  }
  corpus->labels.reserve(corpus->documents.size());
  for (const auto& d : corpus->documents) corpus->labels.push_back(d.label.empty() ? -1 : index[d.label]);
}

// A stored column vector of `rows` entries, else an empty one.
Eigen::VectorXd hiddenColumn(const Eigen::MatrixXd* m, Eigen::Index rows) {
  return m && m->rows() == rows && m->cols() >= 1 ? Eigen::VectorXd(m->col(0)) : Eigen::VectorXd();
}

// Fills `data` (whose corpus is set) from a corpus or table run's result; returns what does not
// fit, empty when all does.
QString takeHiddenResult(const core::StoredResult& result, HiddenRunData& data) {
  data.weights = *result.find(core::hidden::kWeights);
  const auto V = data.weights.rows(), K = data.weights.cols();
  if (static_cast<std::size_t>(V) != data.corpus->words.size())
    return (data.corpus->table ? QObject::tr("the weights have %1 rows but the table has %2 columns")
                               : QObject::tr("the weights have %1 rows but the vocabulary has %2 words"))
        .arg(V)
        .arg(data.corpus->words.size());
  const auto* visible = result.find(core::hidden::kVisibleBias);
  const auto* hidden = result.find(core::hidden::kHiddenBias);
  data.visibleBias = visible->rows() == V ? Eigen::VectorXd(visible->col(0)) : Eigen::VectorXd::Zero(V);
  data.hiddenBias = hidden->rows() == K ? Eigen::VectorXd(hidden->col(0)) : Eigen::VectorXd::Zero(K);
  // Activations are stored with the final result only; snapshots (a running fit) have none.
  if (const auto* a = result.find(core::hidden::kHiddenActivations);
      a && a->cols() == K && a->rows() == static_cast<Eigen::Index>(data.corpus->documents.size()))
    data.activations = *a;
  if (const auto* sd = result.find(core::hidden::kWeightsSd); sd && sd->rows() == V && sd->cols() == K)
    data.weightsSd = *sd;
  data.priorMean = hiddenColumn(result.find(core::hidden::kPriorMean), V);
  data.priorSd = hiddenColumn(result.find(core::hidden::kPriorSd), V);
  if (const auto* trace = result.find(core::hidden::kWeightTrace); trace && trace->cols() == 4)
    data.weightTrace = *trace;
  return {};
}

}  // namespace

QString HiddenRunData::wordText(int word) const {
  return corpus && word >= 0 && static_cast<std::size_t>(word) < corpus->words.size()
             ? qs(corpus->words[static_cast<std::size_t>(word)])
             : QStringLiteral("#%1").arg(word + 1);
}

QString HiddenRunData::caseNoun(bool plural) const {
  if (isRatings()) return plural ? QObject::tr("users") : QObject::tr("user");
  if (isGraph()) return plural ? QObject::tr("nodes") : QObject::tr("node");
  if (isTable()) return plural ? QObject::tr("rows") : QObject::tr("row");
  return plural ? QObject::tr("documents") : QObject::tr("document");
}

QString HiddenRunData::visibleNoun(bool plural) const {
  if (isRatings()) return plural ? QObject::tr("items") : QObject::tr("item");
  if (isGraph()) return plural ? QObject::tr("linked nodes") : QObject::tr("linked node");
  if (isTable()) return plural ? QObject::tr("columns") : QObject::tr("column");
  return plural ? QObject::tr("words") : QObject::tr("word");
}

QString HiddenRunData::unitName(int unit) const { return QObject::tr("Unit %1").arg(unit + 1); }

QString HiddenRunData::unitSummary(int unit, int count) const {
  if (unit < 0 || static_cast<std::size_t>(unit) >= topWords.size()) return {};
  auto list = [&](const std::vector<int>& words) {
    QStringList out;
    for (std::size_t i = 0; i < words.size() && static_cast<int>(i) < count; ++i) out << wordText(words[i]);
    return out.join(QStringLiteral(", "));
  };
  const auto& w = topWords[static_cast<std::size_t>(unit)];
  QStringList parts;
  if (!w.positive.empty()) parts << QObject::tr("raises %1").arg(list(w.positive));
  if (!w.negative.empty()) parts << QObject::tr("lowers %1").arg(list(w.negative));
  return parts.join(QStringLiteral("; "));
}

QString HiddenRunData::documentTitle(int document) const {
  if (!corpus || document < 0 || static_cast<std::size_t>(document) >= corpus->documents.size())
    return QStringLiteral("#%1").arg(document + 1);
  const auto& d = corpus->documents[static_cast<std::size_t>(document)];
  return qs(d.title.empty() ? d.id : d.title);
}

QString HiddenRunData::documentLabel(int document) const {
  if (!corpus || document < 0 || static_cast<std::size_t>(document) >= corpus->documents.size()) return {};
  return qs(corpus->documents[static_cast<std::size_t>(document)].label);
}

QString HiddenRunData::sourceText() const {
  return iteration < 0 ? QObject::tr("the final result")
                       : QObject::tr("the snapshot of epoch %1").arg(formatCount(iteration));
}

QColor hiddenLabelColour(const HiddenRunData& data, int label, const QPalette& palette) {
  const bool other =
      data.corpus && data.corpus->otherLabels && label == static_cast<int>(data.corpus->labelNames.size()) - 1;
  if (label < 0 || other) return palette.color(QPalette::PlaceholderText);
  return topicColour(label, palette);
}

HiddenRunLoad loadHiddenRun(const std::filesystem::path& projectFile, std::int64_t runId,
                            std::shared_ptr<const HiddenRunData> previous) {
  HiddenRunLoad out;
  try {
    core::Project project(offGuiThread(projectFile), core::Project::Access::ReadOnly);
    auto data = std::make_shared<HiddenRunData>();
    data->run = core::loadRun(project, runId);
    const auto kind = project.dataset(data->run.datasetId).kind;
    if (kind != core::DataKind::Corpus && kind != core::DataKind::Table && kind != core::DataKind::Graph &&
        kind != core::DataKind::Ratings)
      return out;
    const bool ratings = kind == core::DataKind::Ratings;
    const auto& required = ratings ? hiddenRatingsRequired() : kHiddenRequired;
    const auto iteration = core::latestResultIteration(project, runId, required);
    if (!iteration) return out;
    if (previous && previous->run.id == runId && previous->iteration == *iteration) {
      out.unchanged = true;
      return out;
    }
    auto result =
        core::loadResult(project, runId, required, ratings ? hiddenRatingsOptional() : kHiddenOptional, *iteration);
    if (!result) return out;
    data->iteration = result->iteration;
    data->corpus = previous && previous->run.id == runId && previous->corpus ? previous->corpus
                   : ratings                       ? readHiddenRatings(project, data->run.datasetId)
                   : kind == core::DataKind::Table ? readHiddenTable(project, data->run.datasetId)
                   : kind == core::DataKind::Graph ? readHiddenGraph(project, data->run.datasetId)
                                                   : readHiddenCorpus(project, data->run.datasetId);
    out.error = ratings ? takeHiddenRatingsResult(*result, *data) : takeHiddenResult(*result, *data);
    if (!out.error.isEmpty()) return out;

    data->topWords = unitTopWords(data->weights, kHiddenTopWords);
    data->layout = weightLayout(data->weights, kHeatMapWords);
    if (data->hasActivations()) {
      data->meanActivation = meanActivations(data->activations);
      data->projection = principalComponents(data->activations);
      const double lo = data->activations.minCoeff(), hi = data->activations.maxCoeff();
      if (std::isfinite(lo) && std::isfinite(hi) && (lo < 0.0 || hi > 1.0)) {
        data->activationLow = std::min(0.0, lo);
        data->activationHigh = std::max(0.0, hi);
        if (data->activationHigh <= data->activationLow) data->activationHigh = data->activationLow + 1.0;
      }
    }
    out.data = std::move(data);
  } catch (const std::exception& e) {
    out.error = qs(e.what());
  }
  return out;
}

}  // namespace latent::ui
