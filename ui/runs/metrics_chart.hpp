// SPDX-License-Identifier: GPL-3.0-or-later
// The training curve of a run: objective (left axis) and held-out metric (right axis) against
// iteration or wall time, fed live from reports or at once from the stored metrics, with the
// held-out curves of other runs overlaid for comparison and a log scale for the held-out axis.
#pragma once

#include <QChartView>
#include <QPointF>
#include <QVector>

#include <vector>

#include "core/models/training.hpp"
#include "core/store/run_store.hpp"

class QAbstractAxis;
class QLineSeries;
class QValueAxis;

namespace latent::ui {

class MetricsChart final : public QChartView {
  Q_OBJECT

 public:
  enum class XAxis { Iteration, Seconds };

  // One recorded value: where it was reached (iteration and seconds since the start) and what.
  struct Sample {
    double iteration = 0.0, seconds = 0.0, value = 0.0;
  };
  // Another run's held-out curve, drawn thinner on the held-out axis.
  struct Overlay {
    qint64 runId = 0;
    QString label;  // "#12 lda-vb · k 20"
    QVector<Sample> heldout;
  };

  explicit MetricsChart(QWidget* parent = nullptr);

  void setNames(const QString& objectiveName, const QString& heldoutName);
  void setRows(const std::vector<core::MetricRow>& rows);
  // Adds a point; call redraw() (on the frame timer) to show it.
  void append(const core::IterationReport& report);
  void redraw();

  void setXAxis(XAxis axis);
  XAxis xAxis() const noexcept { return m_xAxis; }
  // A log scale for the held-out axis (perplexities span orders of magnitude early in a run);
  // ignored while a held-out value is zero or negative.
  void setLogHeldout(bool log);
  bool logHeldout() const noexcept { return m_logHeldout; }
  bool showsLogHeldout() const;  // the log scale is asked for and possible
  // A text the empty chart shows instead of its axes (a run before its first iteration).
  void setPlaceholder(const QString& text);
  QString placeholder() const { return m_placeholder; }
  // Iterations where the run changed how it goes (a dashed vertical line each, named in the caption):
  // "hyperparameters re-estimated from here".
  struct Mark {
    double iteration = 0.0;
    QString label;
  };
  void setMarks(QVector<Mark> marks);
  const QVector<Mark>& marks() const noexcept { return m_marks; }
  void setOverlays(QVector<Overlay> overlays);
  const QVector<Overlay>& overlays() const noexcept { return m_overlays; }
  static QVector<Sample> heldoutSamples(const std::vector<core::MetricRow>& rows);

  // The series' names in their colours, with the axis each is read on (the chart's legend
  // would cut names this long); the overlaid runs listed after them.
  QString captionHtml() const;

  // The points as drawn: x is the iteration or the seconds, as chosen.
  QVector<QPointF> objectivePoints() const { return points(m_objective); }
  QVector<QPointF> heldoutPoints() const { return points(m_heldout); }
  QVector<QPointF> overlayPoints(int index) const { return points(m_overlays.value(index).heldout); }
  QColor overlayColour(int index) const;
  // A mark's line as drawn (two points), empty until the curve reaches it.
  QVector<QPointF> markPoints(int index) const;

 Q_SIGNALS:
  // After a change of axis, scale or overlays (the caption may need redoing).
  void appearanceChanged();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void build();
  // The value axes named after their series, in their colours, so that a saved image says which is which.
  void titleAxes();
  QVector<QPointF> points(const QVector<Sample>& samples) const;

  QString m_objectiveName, m_heldoutName;
  QVector<Sample> m_objective, m_heldout;
  QVector<Overlay> m_overlays;
  QString m_placeholder;
  QVector<Mark> m_marks;
  QVector<QLineSeries*> m_markSeries;
  XAxis m_xAxis = XAxis::Iteration;
  bool m_logHeldout = false;
  QColor m_objectiveColour, m_heldoutColour;
  QLineSeries* m_objectiveSeries = nullptr;
  QLineSeries* m_heldoutSeries = nullptr;
  QVector<QLineSeries*> m_overlaySeries;
  QValueAxis* m_x = nullptr;
  QValueAxis* m_yObjective = nullptr;
  QAbstractAxis* m_yHeldout = nullptr;  // linear or log
};

}  // namespace latent::ui
