// SPDX-License-Identifier: GPL-3.0-or-later
// RunProgressRow: state from the JobController, drawn at the panel's frame rate.
#include "ui/runs/run_progress_row.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QProgressBar>
#include <QToolButton>

#include <climits>

#include "ui/jobs/job_controller.hpp"
#include "ui/runs/run_progress_text.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {

RunProgressRow::RunProgressRow(JobController* controller, QWidget* parent) : QFrame(parent), m_controller(controller) {
  setFrameShape(QFrame::StyledPanel);
  setFrameShadow(QFrame::Plain);
  setAutoFillBackground(true);
  setBackgroundRole(QPalette::Base);

  const auto& request = controller->request();
  m_iterations = plannedIterations(request);

  m_title = new QLabel(this);
  m_title->setTextFormat(Qt::RichText);
  m_title->setText(
      QStringLiteral("<b>%1</b> on %2").arg(qs(request.model).toHtmlEscaped(), qs(request.dataset).toHtmlEscaped()));
  m_status = new QLabel(this);
  QFont small = m_status->font();
  small.setPointSizeF(small.pointSizeF() * 0.92);
  m_status->setFont(small);
  m_status->setWordWrap(true);
  m_bar = new QProgressBar(this);
  m_bar->setTextVisible(false);
  m_bar->setMaximumHeight(10);
  m_stop = new QToolButton(this);
  m_stop->setIcon(themedIcon("stop"));
  m_stop->setToolTip(tr("Stop this run (what it reached is kept)"));
  m_stop->setAutoRaise(true);
  m_open = new QToolButton(this);
  m_open->setText(tr("Open"));
  m_open->setToolTip(tr("Open the run's view"));
  m_dismiss = new QToolButton(this);
  m_dismiss->setText(QStringLiteral("✕"));
  m_dismiss->setToolTip(tr("Remove this line (the run stays in the project)"));
  m_dismiss->setAutoRaise(true);

  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(8, 6, 4, 6);
  grid->setHorizontalSpacing(6);
  grid->setVerticalSpacing(3);
  grid->addWidget(m_title, 0, 0);
  grid->addWidget(m_open, 0, 1);
  grid->addWidget(m_stop, 0, 2);
  grid->addWidget(m_dismiss, 0, 3);
  grid->addWidget(m_bar, 1, 0, 1, 4);
  grid->addWidget(m_status, 2, 0, 1, 4);
  grid->setColumnStretch(0, 1);

  connect(m_stop, &QToolButton::clicked, this, [this] {
    m_controller->requestStop();
    refresh();
  });
  connect(m_open, &QToolButton::clicked, this, [this] {
    if (m_controller->hasRun()) Q_EMIT openRequested(m_controller->runId());
  });
  connect(m_dismiss, &QToolButton::clicked, this, &RunProgressRow::dismissRequested);
  refresh();
}

QString RunProgressRow::statusLine() const { return m_status->text(); }

void RunProgressRow::refresh() {
  const auto& reports = m_controller->reports();
  const bool ended = m_controller->state() == JobController::State::Ended;
  if (m_controller->hasRun())
    m_title->setText(QStringLiteral("<b>#%1 %2</b> on %3")
                         .arg(m_controller->runId())
                         .arg(qs(m_controller->request().model).toHtmlEscaped(),
                              qs(m_controller->request().dataset).toHtmlEscaped()));

  QStringList parts;
  if (ended) {
    const auto& run = m_controller->run();
    parts << (m_controller->hasRun() ? statusText(run.status) : tr("failed"));
    if (const auto v = heldoutValue(run)) parts << QStringLiteral("%1 %2").arg(tr("held-out"), formatReal(*v, 5));
    parts << formatSeconds(run.seconds.value_or(m_controller->elapsedSeconds()));
    if (!m_controller->error().isEmpty()) parts << m_controller->error();
  } else {
    parts << (m_controller->stopRequested() ? tr("stopping…")
                                            : (m_controller->hasRun() ? tr("running") : tr("starting…")));
    if (!reports.isEmpty() && !reports.back().inChain()) {
      // Before the chain it keeps, a model with restarts reports its starts (FitPhase); the bar
      // cannot say how far the run is then.
      parts << phaseText(reports.back());
    } else if (!reports.isEmpty()) {
      const auto& last = reports.back();
      parts << (m_iterations > 0 ? tr("iteration %1 / %2").arg(last.iteration).arg(m_iterations)
                                 : tr("iteration %1").arg(last.iteration));
      parts << tr("objective %1").arg(formatReal(last.trainObjective, 5));
      for (auto it = reports.rbegin(); it != reports.rend(); ++it)
        if (it->heldout) {
          parts << tr("held-out %1").arg(formatReal(*it->heldout, 5));
          break;
        }
    }
    parts << formatSeconds(m_controller->elapsedSeconds());
    if (const auto left = secondsLeft(reports, m_iterations)) parts << tr("about %1 left").arg(formatSeconds(*left));
  }
  m_status->setText(parts.join(QStringLiteral(" · ")));
  if (ended && (!m_controller->hasRun() || m_controller->run().status == core::RunStatus::Failed))
    m_status->setStyleSheet(QStringLiteral("color: #d0443a;"));

  if (ended) {
    m_bar->setRange(0, 1);
    m_bar->setValue(m_controller->run().status == core::RunStatus::Finished ? 1 : 0);
  } else if (m_iterations > 0 && (reports.isEmpty() || reports.back().inChain())) {
    m_bar->setRange(0, static_cast<int>(std::min<qint64>(m_iterations, INT_MAX)));
    m_bar->setValue(reports.isEmpty() ? 0 : static_cast<int>(std::min<qint64>(reports.back().iteration, m_iterations)));
  } else {
    m_bar->setRange(0, 0);  // busy indicator: the model does not say how long it will take
  }
  m_stop->setVisible(!ended);
  m_stop->setEnabled(!m_controller->stopRequested());
  m_open->setVisible(m_controller->hasRun());
  m_dismiss->setVisible(ended);
}

}  // namespace latent::ui
