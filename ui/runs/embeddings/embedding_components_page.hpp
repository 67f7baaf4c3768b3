// SPDX-License-Identifier: GPL-3.0-or-later
// The Components page of an embedding run (lsa): the scree plot (each component's share of the
// weighted matrix's squared norm, and the running total) over the table of components (singular
// value, share, the words at either end), the table sortable and exported to CSV from its context
// menu, the chart to PNG or SVG from its own.
#pragma once

#include <QWidget>

#include <memory>

class QChartView;
class QLabel;
class QStandardItemModel;
class QTableView;

namespace latent::ui {

struct EmbeddingRunData;

class EmbeddingComponentsPage final : public QWidget {
  Q_OBJECT

 public:
  enum Column { ComponentColumn, SingularValueColumn, ShareColumn, CumulativeColumn, PositiveColumn, NegativeColumn };

  explicit EmbeddingComponentsPage(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const EmbeddingRunData> data);
  const std::shared_ptr<const EmbeddingRunData>& data() const noexcept { return m_data; }

  QTableView* table() const noexcept { return m_table; }
  QStandardItemModel* model() const noexcept { return m_model; }
  QChartView* chartView() const noexcept { return m_chart; }
  QString headerText() const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void rebuildChart();

  std::shared_ptr<const EmbeddingRunData> m_data;
  QLabel* m_header = nullptr;
  QChartView* m_chart = nullptr;
  QTableView* m_table = nullptr;
  QStandardItemModel* m_model = nullptr;
};

}  // namespace latent::ui
