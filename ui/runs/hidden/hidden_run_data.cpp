// SPDX-License-Identifier: GPL-3.0-or-later
// loadHiddenRun: the harmonium's matrices, the corpus' words, documents and labels, and the
// analysis the pages show, all computed here off the GUI thread.
#include "ui/runs/hidden/hidden_run_data.hpp"

#include <QObject>
#include <QPalette>

#include <algorithm>
#include <map>

#include "core/results/hidden_results.hpp"
#include "core/store/run_results.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

const std::vector<std::string> kHiddenRequired = {core::hidden::kWeights, core::hidden::kVisibleBias,
                                                  core::hidden::kHiddenBias};

std::shared_ptr<const HiddenCorpus> readHiddenCorpus(core::Project& project, std::int64_t datasetId) {
  auto corpus = std::make_shared<HiddenCorpus>();
  for (auto& v : core::loadVocabulary(project, datasetId)) corpus->words.push_back(std::move(v.word));
  corpus->documents = core::listDocuments(project, datasetId);

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
  return corpus;
}

}  // namespace

QString HiddenRunData::wordText(int word) const {
  return corpus && word >= 0 && static_cast<std::size_t>(word) < corpus->words.size()
             ? qs(corpus->words[static_cast<std::size_t>(word)])
             : QStringLiteral("#%1").arg(word + 1);
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
    if (project.dataset(data->run.datasetId).kind != core::DataKind::Corpus) return out;
    const auto iteration = core::latestResultIteration(project, runId, kHiddenRequired);
    if (!iteration) return out;
    if (previous && previous->run.id == runId && previous->iteration == *iteration) {
      out.unchanged = true;
      return out;
    }
    auto result = core::loadResult(project, runId, kHiddenRequired, {core::hidden::kHiddenActivations}, *iteration);
    if (!result) return out;
    data->iteration = result->iteration;
    data->corpus = previous && previous->run.id == runId && previous->corpus
                       ? previous->corpus
                       : readHiddenCorpus(project, data->run.datasetId);
    data->weights = *result->find(core::hidden::kWeights);
    const auto V = data->weights.rows(), K = data->weights.cols();
    if (static_cast<std::size_t>(V) != data->corpus->words.size()) {
      out.error = QObject::tr("the weights have %1 rows but the vocabulary has %2 words")
                      .arg(V)
                      .arg(data->corpus->words.size());
      return out;
    }
    const auto* visible = result->find(core::hidden::kVisibleBias);
    const auto* hidden = result->find(core::hidden::kHiddenBias);
    data->visibleBias = visible->rows() == V ? Eigen::VectorXd(visible->col(0)) : Eigen::VectorXd::Zero(V);
    data->hiddenBias = hidden->rows() == K ? Eigen::VectorXd(hidden->col(0)) : Eigen::VectorXd::Zero(K);
    // Activations are stored with the final result only; snapshots (a running fit) have none.
    if (const auto* a = result->find(core::hidden::kHiddenActivations);
        a && a->cols() == K && a->rows() == static_cast<Eigen::Index>(data->corpus->documents.size()))
      data->activations = *a;

    data->topWords = unitTopWords(data->weights, kHiddenTopWords);
    data->layout = weightLayout(data->weights, kHeatMapWords);
    if (data->hasActivations()) {
      data->meanActivation = meanActivations(data->activations);
      data->projection = principalComponents(data->activations);
    }
    out.data = std::move(data);
  } catch (const std::exception& e) {
    out.error = qs(e.what());
  }
  return out;
}

}  // namespace latent::ui
