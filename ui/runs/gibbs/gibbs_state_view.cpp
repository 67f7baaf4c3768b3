// SPDX-License-Identifier: GPL-3.0-or-later
// GibbsStateView: two grids of dots drawn with QPainter, and their loading from the project.
#include "ui/runs/gibbs/gibbs_state_view.hpp"

#include <QPainter>

#include <algorithm>
#include <map>

#include "core/models/topic/lda_gibbs.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/util/chart_style.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {

std::shared_ptr<const GibbsStateData> loadGibbsState(const std::filesystem::path& projectFile, std::int64_t runId) {
  core::Project project(offGuiThread(projectFile), core::Project::Access::ReadOnly);
  const auto run = core::loadRun(project, runId);
  if (run.heldout > 0) return nullptr;  // the start is kept for training documents only
  const auto initial = core::loadMatrix(project, runId, core::kInitialTokenTopics);
  if (!initial) return nullptr;
  auto data = std::make_shared<GibbsStateData>();
  data->topics = run.options.value("k", 0);
  data->sweeps = run.iterations.value_or(0);
  for (const auto& entry : core::loadVocabulary(project, run.datasetId)) data->words << qs(entry.word);
  const auto headers = core::listDocuments(project, run.datasetId);
  Eigen::Index row = 0;
  for (const auto& header : headers) {
    const auto document = core::loadDocument(project, run.datasetId, header.index);
    const auto topics = core::loadTokenTopics(project, runId, header.index);
    if (topics.size() != document.wordIds.size() || row + Eigen::Index(topics.size()) > initial->rows()) return nullptr;
    std::vector<std::int32_t> start(topics.size());
    for (auto& z : start) z = static_cast<std::int32_t>((*initial)(row++, 0));
    data->documents << (header.title.empty() ? qs(header.id) : qs(header.title));
    data->wordIds.push_back(document.wordIds);
    data->before.push_back(std::move(start));
    data->after.push_back(topics);
  }
  if (row != initial->rows()) return nullptr;
  return data;
}

GibbsStateView::GibbsStateView(QWidget* parent) : QWidget(parent) {
  setMinimumSize(480, 300);
  setToolTip(
      tr("Each row is a document and each column a word; every dot is one occurrence of the word in the "
         "document, coloured by the topic the sampler assigned it (000 Fig. 27.8)."));
}

void GibbsStateView::setData(std::shared_ptr<const GibbsStateData> data) {
  m_data = std::move(data);
  m_columns.clear();
  m_columnOf.clear();
  m_maxPerCell = 1;
  if (m_data) {
    const auto& data = *m_data;
    // The words in the order of the textbook's columns: those one topic ends up holding, then the
    // shared ones, then the other topic's (ordered by the mean of their final topics).
    std::map<std::int32_t, std::vector<std::int64_t>> byWord;
    for (std::size_t d = 0; d < data.wordIds.size(); ++d)
      for (std::size_t i = 0; i < data.wordIds[d].size(); ++i) {
        auto& c = byWord[data.wordIds[d][i]];
        c.resize(std::size_t(std::max(1, data.topics)), 0);
        ++c[std::size_t(data.after[d][i])];
      }
    std::vector<std::pair<double, int>> order;
    for (const auto& [word, c] : byWord) {
      double mean = 0, n = 0;
      for (std::size_t k = 0; k < c.size(); ++k) {
        mean += double(k) * double(c[k]);
        n += double(c[k]);
      }
      order.push_back({n > 0 ? mean / n : 0.0, word});
    }
    std::sort(order.begin(), order.end());
    for (const auto& [key, word] : order) m_columns.push_back(word);
    m_columnOf.assign(std::size_t(data.words.size()), -1);
    for (std::size_t c = 0; c < m_columns.size(); ++c) m_columnOf[std::size_t(m_columns[c])] = int(c);
    for (const auto& document : data.wordIds) {
      std::map<std::int32_t, std::size_t> perWord;
      for (const auto w : document) m_maxPerCell = std::max(m_maxPerCell, ++perWord[w]);
    }
  }
  update();
}

void GibbsStateView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  p.fillRect(rect(), palette().base());
  if (!m_data || m_data->wordIds.empty()) return;
  const auto& data = *m_data;
  const auto& columns = m_columns;
  const auto& columnOf = m_columnOf;
  const std::size_t maxPerCell = m_maxPerCell;

  const QFontMetrics fm(font());
  const int labelWidth = fm.horizontalAdvance(QStringLiteral("Doc 16")) + 12;
  const int header = fm.height() * 3 + 8;
  const int gap = 28;
  const int panelWidth = (width() - labelWidth - gap - 16) / 2;
  const int rows = int(data.wordIds.size());
  const double rowHeight = double(height() - header - 10) / rows;
  const double columnWidth = double(panelWidth) / double(std::max<std::size_t>(1, columns.size()));
  const double dot = std::clamp(std::min(rowHeight * 0.7, columnWidth / double(maxPerCell + 1)), 3.0, 14.0);
  const QColor line = axisColour(palette());

  for (int panel = 0; panel < 2; ++panel) {
    const auto& assigned = panel == 0 ? data.before : data.after;
    const double left = labelWidth + panel * (panelWidth + gap);
    p.setPen(palette().color(QPalette::Text));
    QFont bold = font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QRectF(left, 2, panelWidth, fm.height()), Qt::AlignCenter,
               panel == 0 ? tr("(a) the random start") : tr("(b) after %1 sweeps").arg(data.sweeps));
    p.setFont(font());
    for (std::size_t c = 0; c < columns.size(); ++c)
      p.drawText(QRectF(left + double(c) * columnWidth, fm.height() + 6, columnWidth, fm.height() * 2), Qt::AlignCenter,
                 data.words.value(columns[c]));
    p.setPen(QPen(line, 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(left, header, panelWidth, rowHeight * rows));
    for (std::size_t c = 1; c < columns.size(); ++c)
      p.drawLine(QPointF(left + double(c) * columnWidth, header),
                 QPointF(left + double(c) * columnWidth, header + rowHeight * rows));
    for (int d = 0; d < rows; ++d) {
      std::vector<int> filled(columns.size(), 0);
      const double y = header + (d + 0.5) * rowHeight;
      for (std::size_t i = 0; i < data.wordIds[std::size_t(d)].size(); ++i) {
        const int c = columnOf[std::size_t(data.wordIds[std::size_t(d)][i])];
        const int slot = filled[std::size_t(c)]++;
        const double x = left + double(c) * columnWidth + (slot + 1) * columnWidth / double(maxPerCell + 1);
        const int topic = assigned[std::size_t(d)][i];
        // Two topics: the textbook's white and black dots; more: the topic colours.
        const QColor fill = data.topics == 2
                                ? (topic == 0 ? palette().color(QPalette::Base) : palette().color(QPalette::Text))
                                : topicColour(topic, palette());
        p.setPen(QPen(palette().color(QPalette::Text), 1));
        p.setBrush(fill);
        p.drawEllipse(QPointF(x, y), dot / 2, dot / 2);
      }
    }
  }
  p.setPen(palette().color(QPalette::Text));
  for (int d = 0; d < rows; ++d)
    p.drawText(QRectF(0, header + d * rowHeight, labelWidth - 6, rowHeight), Qt::AlignRight | Qt::AlignVCenter,
               tr("Doc %1").arg(d + 1));
}

}  // namespace latent::ui
