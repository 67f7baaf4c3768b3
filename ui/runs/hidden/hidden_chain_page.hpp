// SPDX-License-Identifier: GPL-3.0-or-later
// The Langevin chain page of a Bayesian harmonium run (gb-efh, 004 Fig. 3): the first four weights
// after every iteration against the iteration, the burn-in marked, and a sortable table of every
// weight's posterior mean and spread with its visible unit's prior when stored.
#pragma once

#include <QWidget>

#include <memory>

class QChartView;
class QLabel;
class QLineSeries;
class QSortFilterProxyModel;
class QTableView;

namespace latent::ui {

class HiddenPosteriorModel;
struct HiddenRunData;

class HiddenChainPage final : public QWidget {
  Q_OBJECT

 public:
  explicit HiddenChainPage(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const HiddenRunData> data);
  const std::shared_ptr<const HiddenRunData>& data() const noexcept { return m_data; }

  QChartView* chartView() const noexcept { return m_view; }
  QTableView* table() const noexcept { return m_table; }
  HiddenPosteriorModel* model() const noexcept { return m_model; }
  // The traced weights as drawn (series 0..3: W_11, W_12, W_21, W_22), point i at iteration i + 1.
  int traceSeriesCount() const;
  QList<QPointF> tracePoints(int series) const;
  QString headerText() const;
  // The iteration the burn-in ends at, 0 when the run has none (or is not Langevin).
  int burnIn() const noexcept { return m_burnIn; }

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void rebuild();

  std::shared_ptr<const HiddenRunData> m_data;
  int m_burnIn = 0;
  QLabel* m_header = nullptr;
  QChartView* m_view = nullptr;
  QLabel* m_tableHeader = nullptr;
  QTableView* m_table = nullptr;
  HiddenPosteriorModel* m_model = nullptr;
  QSortFilterProxyModel* m_sort = nullptr;
  QLabel* m_hint = nullptr;
  QList<QLineSeries*> m_series;
};

}  // namespace latent::ui
