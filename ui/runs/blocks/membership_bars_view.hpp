// SPDX-License-Identifier: GPL-3.0-or-later
// Every node's memberships as one stacked bar (a column split into its blocks' shares, in the
// blocks' colours), nodes sorted by their largest block and then by its weight, so each block's
// nodes stand together from the surest to the most mixed; names and shares on hover.
#pragma once

#include <QPixmap>
#include <QWidget>

#include <memory>
#include <vector>

namespace latent::ui {

struct BlockRunData;

class MembershipBarsView final : public QWidget {
  Q_OBJECT

 public:
  explicit MembershipBarsView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const BlockRunData> data);
  // The nodes from left to right.
  const std::vector<int>& order() const noexcept { return m_order; }
  // The node whose bar is under a point, or -1.
  int nodeAt(const QPointF& position) const;
  // The bar of the node at position `index` of order(), in widget coordinates.
  QRectF barRect(int index) const;

  QSize sizeHint() const override { return {560, 220}; }
  QSize minimumSizeHint() const override { return {200, 120}; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void layoutBars();
  void render();

  std::shared_ptr<const BlockRunData> m_data;
  std::vector<int> m_order;
  QRectF m_area;      // the bars
  QPixmap m_picture;  // the bars as last drawn (large graphs have thousands)
};

}  // namespace latent::ui
