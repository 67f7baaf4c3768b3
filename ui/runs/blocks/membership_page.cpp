// SPDX-License-Identifier: GPL-3.0-or-later
// MembershipPage: layout, the texts that say what is shown, and the throttled live reading.
#include "ui/runs/blocks/membership_page.hpp"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include "ui/jobs/job_controller.hpp"
#include "ui/runs/blocks/block_run_data.hpp"
#include "ui/runs/blocks/membership_bars_view.hpp"
#include "ui/runs/blocks/membership_simplex_view.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"

namespace latent::ui {
namespace {

// Live snapshots are read at most this often (twice a second).
constexpr int kRefreshMs = 500;

}  // namespace

MembershipPage::MembershipPage(QWidget* parent) : QWidget(parent), m_follower(kRefreshMs) {
  m_header = new QLabel(this);
  m_header->setTextFormat(Qt::RichText);
  m_header->setWordWrap(true);
  m_hint = new QLabel(this);
  m_hint->setWordWrap(true);
  m_hint->setForegroundRole(QPalette::PlaceholderText);
  m_simplex = new MembershipSimplexView(this);
  m_bars = new MembershipBarsView(this);
  enableFigureExport(m_simplex,
                     [this] { return QStringLiteral("run-%1-memberships").arg(m_data ? m_data->run.id : 0); });
  enableFigureExport(m_bars,
                     [this] { return QStringLiteral("run-%1-membership-bars").arg(m_data ? m_data->run.id : 0); });
  m_bars->hide();
  m_split = new QSplitter(Qt::Vertical, this);
  m_split->addWidget(m_simplex);
  m_split->addWidget(m_bars);
  m_split->setStretchFactor(0, 3);
  m_split->setStretchFactor(1, 2);
  m_split->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addWidget(m_header);
  layout->addWidget(m_hint);
  layout->addWidget(m_split, 1);
}

qint64 MembershipPage::shownIteration() const noexcept { return m_data ? m_data->iteration : -2; }

QString MembershipPage::headerText() const { return m_header->text(); }

bool MembershipPage::showsBars() const noexcept { return m_bars->isVisibleTo(this); }

void MembershipPage::setData(std::shared_ptr<const BlockRunData> data) {
  m_follower.stop();
  show(std::move(data), false);
}

void MembershipPage::show(std::shared_ptr<const BlockRunData> data, bool live) {
  m_data = std::move(data);
  m_simplex->setData(m_data);
  const bool bars = m_data && m_data->blockCount() > 3;
  m_bars->setData(bars ? m_data : nullptr);
  m_bars->setVisible(bars);
  if (!m_data) {
    m_header->clear();
    m_hint->clear();
    return;
  }
  const auto& d = *m_data;
  QString what = d.mixed ? tr("each node's mixture of blocks (posterior mean of its memberships θ)")
                         : tr("each node's posterior probability of belonging to each block");
  if (live && d.iteration >= 0)
    m_header->setText(tr("<b>Memberships at iteration %1</b> — the latest snapshot of the running fit; the picture "
                         "follows the run.")
                          .arg(formatCount(d.iteration)));
  else if (d.iteration >= 0)
    m_header->setText(tr("<b>Memberships at iteration %1</b> — the run's last snapshot (it has no final result): %2.")
                          .arg(formatCount(d.iteration), what.toHtmlEscaped()));
  else
    m_header->setText(tr("<b>Memberships</b> — the final result: %1.").arg(what.toHtmlEscaped()));

  QString hint;
  const int k = d.blockCount();
  if (k == 2)
    hint =
        tr("Each dot is a node: at the left end it belongs to Block 1 alone, at the right end to Block 2, in between "
           "to both in proportion; dots that would overlap are stacked.");
  else if (k == 3)
    hint =
        tr("Each dot is a node at its memberships: in a corner it belongs to that block alone, on a side it shares "
           "two blocks, inside it mixes all three; inside the dashed triangle no block holds half of it.");
  else if (k > 3)
    hint = tr("The %1 blocks sit on a circle and each node at the average of their positions weighted by its "
              "memberships (a projection: different mixtures can land on the same spot). The bars below show each "
              "node's memberships exactly, nodes sorted by their largest block, surest first.")
               .arg(k);
  if (k > 1) {
    hint += QLatin1Char(' ');
    hint += d.hasLabels()
                ? tr("Colour: the node's “%1” in the data, which the model did not see.").arg(d.labelAttribute)
                : tr("Colour: the node's largest block.");
    hint += QLatin1Char(' ') + tr("Hover a dot for its name and memberships.");
  }
  m_hint->setText(hint);
}

void MembershipPage::follow(std::filesystem::path projectFile, qint64 runId, JobController* controller) {
  m_follower.follow(
      controller,
      [this, file = std::move(projectFile), runId] {
        // The snapshot shown goes along so that the read can keep what has not changed.
        return [file, runId, previous = m_data] { return loadBlockRun(file, runId, -1, previous); };
      },
      [this](BlockRunLoad loaded) {
        if (!loaded.data) return;
        show(loaded.data, true);
        Q_EMIT snapshotShown(loaded.data->iteration);
      });
}

}  // namespace latent::ui
