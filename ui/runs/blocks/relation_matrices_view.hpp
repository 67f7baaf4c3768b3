// SPDX-License-Identifier: GPL-3.0-or-later
// Every relation of a multi-relational irm run as an adjacency matrix, side by side, rows and
// columns permuted by the shared partition with lines at the block boundaries, and the node x
// feature matrix beside them, rows in the same order and features grouped by their clusters
// (000 Fig. 27.26: objects and features co-clustered).
#pragma once

#include <QString>
#include <QWidget>

#include <memory>
#include <vector>

namespace latent::ui {

struct BlockRunData;

class RelationMatricesView final : public QWidget {
  Q_OBJECT

 public:
  explicit RelationMatricesView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const BlockRunData> data);

  // The panels as drawn: one per relation, then the features when there are any. cells[row][column]
  // is 1 for a link (a feature the node has), 0 for none, -1 for a missing value.
  struct Panel {
    QString title;
    std::vector<std::vector<signed char>> cells;
    std::vector<int> columnStarts;  // where a new block (feature cluster) begins along the columns
  };
  const std::vector<Panel>& panels() const noexcept { return m_panels; }
  // Feature indices in the order their columns are drawn (by cluster).
  const std::vector<int>& featureOrder() const noexcept { return m_featureOrder; }

  QSize sizeHint() const override { return {1200, 420}; }
  QSize minimumSizeHint() const override { return {300, 160}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::shared_ptr<const BlockRunData> m_data;
  std::vector<Panel> m_panels;
  std::vector<int> m_featureOrder;
};

}  // namespace latent::ui
