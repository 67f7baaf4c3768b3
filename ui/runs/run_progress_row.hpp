// SPDX-License-Identifier: GPL-3.0-or-later
// One run's line in the run panel: model and dataset, iteration, last objective and held-out
// value, elapsed time, a progress bar, and Stop (while running) or Open (after).
#pragma once

#include <QFrame>

class QLabel;
class QProgressBar;
class QToolButton;

namespace latent::ui {

class JobController;

class RunProgressRow final : public QFrame {
  Q_OBJECT

 public:
  RunProgressRow(JobController* controller, QWidget* parent = nullptr);

  JobController* controller() const noexcept { return m_controller; }
  // Brings the labels up to date with the controller (the panel calls this on its frame timer).
  void refresh();
  QString statusLine() const;

 Q_SIGNALS:
  void openRequested(qint64 runId);
  void dismissRequested();

 private:
  JobController* m_controller;
  qint64 m_iterations = 0;  // from the options' "iterations" when the model has one, else 0
  QLabel* m_title = nullptr;
  QLabel* m_status = nullptr;
  QProgressBar* m_bar = nullptr;
  QToolButton* m_stop = nullptr;
  QToolButton* m_open = nullptr;
  QToolButton* m_dismiss = nullptr;
};

}  // namespace latent::ui
