// SPDX-License-Identifier: GPL-3.0-or-later
// The training curve of a run: objective (left axis) and held-out metric (right axis) against
// iteration, fed live from reports or at once from the stored metrics.
#pragma once

#include <QChartView>
#include <QPointF>
#include <QVector>

#include <vector>

#include "models/training.hpp"
#include "store/run_store.hpp"

class QLineSeries;
class QValueAxis;

namespace latent::ui {

class MetricsChart final : public QChartView {
  Q_OBJECT

 public:
  explicit MetricsChart(QWidget* parent = nullptr);

  void setNames(const QString& objectiveName, const QString& heldoutName);
  void setRows(const std::vector<core::MetricRow>& rows);
  // Adds a point; call redraw() (on the frame timer) to show it.
  void append(const core::IterationReport& report);
  void redraw();

  // The series' names in their colours, with the axis each is read on (the chart's legend
  // would cut names this long).
  QString captionHtml() const;

  const QVector<QPointF>& objectivePoints() const noexcept { return m_objective; }
  const QVector<QPointF>& heldoutPoints() const noexcept { return m_heldout; }

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void build();

  QString m_objectiveName, m_heldoutName;
  QVector<QPointF> m_objective, m_heldout;
  QColor m_objectiveColour, m_heldoutColour;
  QLineSeries* m_objectiveSeries = nullptr;
  QLineSeries* m_heldoutSeries = nullptr;
  QValueAxis* m_x = nullptr;
  QValueAxis* m_yObjective = nullptr;
  QValueAxis* m_yHeldout = nullptr;
};

}  // namespace latent::ui
