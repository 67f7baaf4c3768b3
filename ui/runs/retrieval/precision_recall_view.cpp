// SPDX-License-Identifier: GPL-3.0-or-later
// PrecisionRecallView: one line per run over recall levels, MAP in the legend, CSV export.
#include "ui/runs/retrieval/precision_recall_view.hpp"

#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <exception>
#include <fstream>

#include "core/store/project.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/util/background.hpp"
#include "ui/util/chart_style.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

QList<qint64> sortedRunIds(QList<qint64> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

QString representationText(const std::string& matrix) {
  if (matrix == "hidden_activations") return QObject::tr("hidden activations");
  if (matrix == "doc_topic") return QObject::tr("topic proportions");
  return qs(matrix);
}

QString runIdsText(const QList<qint64>& ids, const QString& separator) {
  QStringList parts;
  for (const qint64 id : ids) parts << QString::number(id);
  return parts.join(separator);
}

}  // namespace

PrecisionRecallData loadPrecisionRecall(const std::filesystem::path& projectFile,
                                        const std::vector<std::int64_t>& runIds) {
  PrecisionRecallData data;
  try {
    core::Project project(offGuiThread(projectFile), core::Project::Access::ReadOnly);
    const auto levels = core::defaultRecallLevels();
    data.runs = core::retrievalForRuns(project, runIds, levels);
  } catch (const std::exception& e) {
    data.runs.clear();
    data.error = qs(e.what());
  }
  return data;
}

QString PrecisionRecallView::keyFor(QList<qint64> runIds) {
  return QStringLiteral("retrieval:") + runIdsText(sortedRunIds(std::move(runIds)), QStringLiteral(","));
}

PrecisionRecallView::PrecisionRecallView(std::filesystem::path projectFile, QList<qint64> runIds, QWidget* parent)
    : TabPage(keyFor(runIds), parent), m_file(std::move(projectFile)), m_runIds(sortedRunIds(std::move(runIds))) {
  auto* content = new QWidget(this);
  m_view = new QChartView(content);
  m_view->setRenderHint(QPainter::Antialiasing);
  m_view->setMinimumHeight(260);
  enableFigureExport(
      m_view, [this] { return QStringLiteral("precision-recall-runs-") + runIdsText(m_runIds, QStringLiteral("-")); });
  m_logRecall = new QCheckBox(tr("Log scale for recall"), content);
  m_logRecall->setChecked(true);  // as in 000 Fig. 27.33: the low recall levels are where runs differ
  m_logRecall->setToolTip(tr("Recall levels run from 0.0001 to 1; a log scale spreads out the low ones"));
  connect(m_logRecall, &QCheckBox::toggled, this, [this] { rebuild(); });
  m_export = new QPushButton(tr("Export CSV…"), content);
  m_export->setToolTip(tr("Save the curves as run,model,recall,precision (as latent-cli retrieval --out)"));
  connect(m_export, &QPushButton::clicked, this, &PrecisionRecallView::exportInteractively);
  auto* controls = new QHBoxLayout;
  controls->addWidget(m_logRecall);
  controls->addStretch(1);
  controls->addWidget(m_export);
  m_caption = new QLabel(content);
  m_caption->setWordWrap(true);
  m_caption->setTextFormat(Qt::RichText);
  m_caption->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(8, 6, 8, 8);
  layout->addLayout(controls);
  layout->addWidget(m_view, 1);
  layout->addWidget(m_caption);
  setContent(content);
  reload();
}

void PrecisionRecallView::reload() {
  const int generation = ++m_generation;
  m_computing = true;
  if (!isLoaded()) showLoading(tr("Ranking the training documents for every held-out document…"));
  std::vector<std::int64_t> ids(m_runIds.begin(), m_runIds.end());
  runInBackground(
      this, [file = m_file, ids = std::move(ids)] { return loadPrecisionRecall(file, ids); },
      [this, generation](PrecisionRecallData data) {
        if (generation != m_generation) return;  // a later reload supersedes this one
        m_data = std::move(data);
        m_computing = false;
        if (!m_data.error.isEmpty()) {
          showError(tr("These runs cannot be compared by document retrieval:\n%1").arg(m_data.error));
        } else {
          rebuild();
          showContent();
        }
        Q_EMIT computed();
      });
}

QString PrecisionRecallView::seriesName(std::size_t index) const {
  if (index >= m_data.runs.size()) return {};
  const auto& s = m_data.runs[index];
  return tr("#%1 %2 — MAP %3")
      .arg(s.run.id)
      .arg(qs(s.run.model), QString::number(s.result.meanAveragePrecision, 'f', 3));
}

QString PrecisionRecallView::captionText() const {
  if (m_data.runs.empty()) return {};
  const auto& first = m_data.runs.front();
  QStringList lines;
  lines << tr("Held-out documents of <b>%1</b> (held out %2, seed %3) query the labelled training documents, "
              "ranked by the cosine similarity of each run's representation; a document is relevant when its label "
              "is the query's. Precision at each recall level and MAP (mean average precision) are averaged over "
              "the queries.")
               .arg(qs(first.run.datasetName).toHtmlEscaped(), formatPercent(first.run.heldout))
               .arg(first.run.seed);
  for (std::size_t i = 0; i < m_data.runs.size(); ++i) {
    const auto& s = m_data.runs[i];
    const auto& r = s.result;
    QString line =
        tr("<span style=\"color:%1\">&#9632;</span> <b>%2</b>: %3; %4 queries against %5 training "
           "documents")
            .arg(topicColour(static_cast<int>(i), palette()).name(), seriesName(i).toHtmlEscaped(),
                 representationText(s.representation), formatCount(r.queries), formatCount(r.rankedDocuments));
    // The other half of 000 Fig. 27.32-27.33's comparison: the same split's held-out perplexity.
    const auto& metrics = s.run.finalMetrics;
    if (metrics.contains("heldout_perplexity") && metrics["heldout_perplexity"].is_number())
      line += tr("; held-out perplexity %1 (document completion)")
                  .arg(QString::number(metrics["heldout_perplexity"].get<double>(), 'f', 1));
    if (r.skippedQueries > 0) line += tr(", %1 skipped (no training document has their label)").arg(r.skippedQueries);
    if (r.unlabelledQueries + r.unlabelledTraining > 0)
      line += tr(", without a label: %1 held-out and %2 training documents (left out)")
                  .arg(r.unlabelledQueries)
                  .arg(r.unlabelledTraining);
    lines << line;
  }
  return lines.join(QStringLiteral("<br>"));
}

void PrecisionRecallView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange && !m_data.runs.empty()) rebuild();
  TabPage::changeEvent(event);
}

void PrecisionRecallView::rebuild() {
  auto* chart = new QChart;
  chart->setTitle(tr("Precision–recall of document retrieval"));
  const bool log = m_logRecall->isChecked();
  QAbstractAxis* x = nullptr;
  if (log) {
    auto* axis = new QLogValueAxis;
    axis->setBase(10.0);
    // A little room beyond the levels (1e-4 .. 1) so that the end labels and points show.
    axis->setRange(7e-5, 1.4);
    axis->setLabelFormat(QStringLiteral("%g"));
    axis->setMinorTickCount(8);
    x = axis;
  } else {
    auto* axis = new QValueAxis;
    axis->setRange(0.0, 1.02);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(0.1);
    axis->setLabelFormat(QStringLiteral("%.1f"));
    x = axis;
  }
  x->setTitleText(tr("recall"));
  auto* y = new QValueAxis;
  // Precision 1 is common at low recall: a little room above it keeps that line off the frame.
  y->setRange(0.0, 1.04);
  y->setTickType(QValueAxis::TicksDynamic);
  y->setTickAnchor(0.0);
  y->setTickInterval(0.2);
  y->setLabelFormat(QStringLiteral("%.1f"));
  y->setTitleText(tr("precision"));
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  QList<QLineSeries*> series;
  for (std::size_t i = 0; i < m_data.runs.size(); ++i) {
    auto* line = new QLineSeries;
    line->setName(seriesName(i));
    line->setPointsVisible(true);
    QList<QPointF> points;
    for (const auto& p : m_data.runs[i].result.curve) points << QPointF(p.recall, p.precision);
    line->replace(points);
    chart->addSeries(line);
    line->attachAxis(x);
    line->attachAxis(y);
    series << line;
  }
  chart->legend()->setAlignment(Qt::AlignBottom);
  styleChart(chart, palette());
  // styleChart follows the palette; each run keeps its own colour.
  for (int i = 0; i < series.size(); ++i) {
    const QColor colour = topicColour(i, palette());
    series[i]->setPen(QPen(colour, 2));
    series[i]->setColor(colour);
  }
  QChart* old = m_view->chart();
  m_view->setChart(chart);
  delete old;
  m_caption->setText(captionText());
  m_export->setEnabled(!m_data.runs.empty());
}

bool PrecisionRecallView::exportCsv(const QString& file, QString* error) const {
  std::ofstream out(toPath(file), std::ios::binary);
  if (out) core::writeRetrievalCsv(out, m_data.runs);
  if (out) out.close();
  if (!out) {
    if (error) *error = tr("Could not write %1").arg(file);
    return false;
  }
  return true;
}

void PrecisionRecallView::exportInteractively() {
  const QString name =
      QStringLiteral("precision-recall-runs-") + runIdsText(m_runIds, QStringLiteral("-")) + QStringLiteral(".csv");
  const QString file =
      QFileDialog::getSaveFileName(this, tr("Export CSV"), name, tr("CSV files (*.csv);;All files (*)"));
  if (file.isEmpty()) return;
  QString error;
  if (!exportCsv(file, &error)) QMessageBox::warning(this, tr("Export CSV"), error);
}

}  // namespace latent::ui
