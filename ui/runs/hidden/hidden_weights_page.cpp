// SPDX-License-Identifier: GPL-3.0-or-later
// HiddenWeightsPage: layout, the texts that say what is shown, and the throttled live reading.
#include "ui/runs/hidden/hidden_weights_page.hpp"

#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "ui/jobs/job_controller.hpp"
#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/runs/hidden/weight_heatmap_view.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"

namespace latent::ui {
namespace {

// Live snapshots are read at most this often (twice a second): each read also orders the map.
constexpr int kHiddenRefreshMs = 500;

}  // namespace

HiddenWeightsPage::HiddenWeightsPage(QWidget* parent) : QWidget(parent), m_follower(kHiddenRefreshMs) {
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
}

qint64 HiddenWeightsPage::shownIteration() const noexcept { return m_data ? m_data->iteration : -2; }

QString HiddenWeightsPage::headerText() const { return m_header->text(); }

void HiddenWeightsPage::setData(std::shared_ptr<const HiddenRunData> data) {
  m_follower.stop();
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
  const QString what =
      (d.isRatings() ? tr("the %1 %2 whose expected rating some unit moves most, of %3, against the %4")
                     : tr("the %1 %2 that weigh most with some unit, of %3, against the %4"))
          .arg(formatCount(d.layout.words.size()), d.visibleNoun(true), formatCount(d.wordCount()),
               countOf(d.unitCount(), tr("hidden unit"), tr("hidden units")));
  // On ratings the map shows each unit's effect on the items' expected ratings, not W itself.
  const QString title = d.isRatings() ? tr("Effects on expected ratings") : tr("Weights");
  if (live && d.iteration >= 0)
    m_header->setText(tr("<b>%1 at epoch %2</b> — the latest snapshot of the running fit; the map follows the "
                         "run: %3.")
                          .arg(title, formatCount(d.iteration), what.toHtmlEscaped()));
  else if (d.iteration >= 0)
    m_header->setText(tr("<b>%1 at epoch %2</b> — the run's last snapshot (it has no final result): %3.")
                          .arg(title, formatCount(d.iteration), what.toHtmlEscaped()));
  else
    m_header->setText(tr("<b>%1</b> — the final result: %2.").arg(title, what.toHtmlEscaped()));
  if (d.isRatings())
    m_hint->setText(
        tr("Red raises an item's expected rating when the unit alone is on, blue lowers it, the background "
           "colour leaves it. Each item is listed under the unit that raises it most, and units that move "
           "the items alike stand side by side. Hover a cell for the change and the item's expected "
           "rating with every unit off; right-click to save the picture."));
  else
    m_hint->setText(
        tr("Red raises a %1's odds when the unit is on, blue lowers them, the background colour leaves them. "
           "Each %1 is listed under the unit that raises it most, and units that weigh the %2 alike stand "
           "side by side. Hover a cell for its weight; right-click to save the picture.")
            .arg(d.visibleNoun(), d.visibleNoun(true)));
}

void HiddenWeightsPage::follow(std::filesystem::path projectFile, qint64 runId, JobController* controller) {
  m_follower.follow(
      controller,
      [this, file = std::move(projectFile), runId] {
        // The snapshot shown goes along so that the read can keep what has not changed.
        return [file, runId, previous = m_data] { return loadHiddenRun(file, runId, previous); };
      },
      [this](HiddenRunLoad loaded) {
        if (!loaded.data) return;
        show(loaded.data, true);
        Q_EMIT snapshotShown(loaded.data->iteration);
      });
}

}  // namespace latent::ui
