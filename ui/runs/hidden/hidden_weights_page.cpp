// SPDX-License-Identifier: GPL-3.0-or-later
// HiddenWeightsPage: layout, the texts that say what is shown, and the throttled live reading.
#include "ui/runs/hidden/hidden_weights_page.hpp"

#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "ui/jobs/job_controller.hpp"
#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/runs/hidden/weight_heatmap_view.hpp"
#include "ui/util/background.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"

namespace latent::ui {
namespace {

// Live snapshots are read at most this often (twice a second): each read also orders the map.
constexpr int kHiddenRefreshMs = 500;

}  // namespace

HiddenWeightsPage::HiddenWeightsPage(QWidget* parent) : QWidget(parent) {
  m_header = new QLabel(this);
  m_header->setTextFormat(Qt::RichText);
  m_header->setWordWrap(true);
  m_hint = new QLabel(this);
  m_hint->setWordWrap(true);
  m_hint->setForegroundRole(QPalette::PlaceholderText);
  m_heatmap = new WeightHeatmapView(this);
  enableFigureExport(m_heatmap, [this] { return QStringLiteral("run-%1-weights").arg(m_data ? m_data->run.id : 0); });
  // Every word keeps a readable row: a short window scrolls rather than squeezing them.
  m_scroll = new QScrollArea(this);
  m_scroll->setWidget(m_heatmap);
  m_scroll->setWidgetResizable(true);
  m_scroll->setFrameShape(QFrame::NoFrame);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addWidget(m_header);
  layout->addWidget(m_hint);
  layout->addWidget(m_scroll, 1);

  m_throttle.setSingleShot(true);
  connect(&m_throttle, &QTimer::timeout, this, &HiddenWeightsPage::refresh);
}

qint64 HiddenWeightsPage::shownIteration() const noexcept { return m_data ? m_data->iteration : -2; }

QString HiddenWeightsPage::headerText() const { return m_header->text(); }

void HiddenWeightsPage::setData(std::shared_ptr<const HiddenRunData> data) {
  stopFollowing();
  show(std::move(data), false);
}

void HiddenWeightsPage::show(std::shared_ptr<const HiddenRunData> data, bool live) {
  m_data = std::move(data);
  m_heatmap->setData(m_data);
  if (!m_data) {
    m_header->clear();
    m_hint->clear();
    return;
  }
  const auto& d = *m_data;
  const QString what = tr("the %1 words that weigh most with some unit, of %2, against the %3")
                           .arg(formatCount(d.layout.words.size()), formatCount(d.wordCount()),
                                countOf(d.unitCount(), tr("hidden unit"), tr("hidden units")));
  if (live && d.iteration >= 0)
    m_header->setText(tr("<b>Weights at epoch %1</b> — the latest snapshot of the running fit; the map follows the "
                         "run: %2.")
                          .arg(formatCount(d.iteration), what.toHtmlEscaped()));
  else if (d.iteration >= 0)
    m_header->setText(tr("<b>Weights at epoch %1</b> — the run's last snapshot (it has no final result): %2.")
                          .arg(formatCount(d.iteration), what.toHtmlEscaped()));
  else
    m_header->setText(tr("<b>Weights</b> — the final result: %1.").arg(what.toHtmlEscaped()));
  m_hint->setText(
      tr("Red raises a word's odds when the unit is on, blue lowers them, the background colour leaves them. "
         "Each word is listed under the unit that raises it most, and units that weigh the words alike stand "
         "side by side. Hover a cell for its weight; right-click to save the picture."));
}

void HiddenWeightsPage::follow(std::filesystem::path projectFile, qint64 runId, JobController* controller) {
  stopFollowing();
  if (!controller || controller->state() == JobController::State::Ended) return;
  m_projectFile = std::move(projectFile);
  m_runId = runId;
  m_controller = controller;
  connect(controller, &JobController::reportsArrived, this, &HiddenWeightsPage::refresh);
  connect(controller, &JobController::ended, this, &HiddenWeightsPage::stopFollowing);
  refresh();  // a snapshot may exist already
}

void HiddenWeightsPage::stopFollowing() {
  if (m_controller) disconnect(m_controller, nullptr, this, nullptr);
  m_controller = nullptr;
  m_throttle.stop();
  m_again = false;
  ++m_generation;  // a reading under way is dropped
}

void HiddenWeightsPage::refresh() {
  if (!m_controller) return;
  if (m_loading) {
    m_again = true;
    return;
  }
  if (m_sinceLoad.isValid() && m_sinceLoad.elapsed() < kHiddenRefreshMs) {
    if (!m_throttle.isActive()) m_throttle.start(kHiddenRefreshMs - static_cast<int>(m_sinceLoad.elapsed()));
    return;
  }
  m_loading = true;
  m_sinceLoad.restart();
  const int generation = m_generation;
  runInBackground(
      this, [file = m_projectFile, id = m_runId, previous = m_data] { return loadHiddenRun(file, id, previous); },
      [this, generation](HiddenRunLoad loaded) {
        m_loading = false;
        if (generation != m_generation) return;
        if (loaded.data) {
          show(loaded.data, true);
          Q_EMIT snapshotShown(loaded.data->iteration);
        }
        if (m_again) {
          m_again = false;
          refresh();
        }
      });
}

}  // namespace latent::ui
