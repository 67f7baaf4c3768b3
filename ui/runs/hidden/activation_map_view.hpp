// SPDX-License-Identifier: GPL-3.0-or-later
// Every document of a harmonium run on the first two principal components of its hidden
// activations (computed off the GUI thread with the run's data): documents that switch on the
// same units lie together. Dots coloured by the document's label when the corpus has labels (the
// model never saw them, so groups that match them are found structure), a key to the colours
// beside the plot,
// the picked document ringed; clicking a dot picks its document, hovering names it.
#pragma once

#include <QWidget>

#include <memory>

namespace latent::ui {

struct HiddenRunData;

class ActivationMapView final : public QWidget {
  Q_OBJECT

 public:
  explicit ActivationMapView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const HiddenRunData> data);
  void setSelected(int document);
  int selected() const noexcept { return m_selected; }
  int pointCount() const noexcept;
  // A document's scores on the two components, and where its dot is drawn.
  QPointF documentScores(int document) const;
  QPointF documentPosition(int document) const;
  // The document whose dot is nearest a widget position, within a few pixels; -1 when none is.
  int documentAt(const QPointF& position) const;
  QColor documentColour(int document) const;
  QString toolTipFor(int document) const;
  QRectF plotRect() const;

  QSize sizeHint() const override { return {560, 420}; }
  QSize minimumSizeHint() const override { return {260, 220}; }

 Q_SIGNALS:
  void documentClicked(int document);

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  void updateRange();
  double keyWidth() const;
  QString keyText(int label) const;  // "Republican (99)"
  QString axisTitle(int component) const;

  std::shared_ptr<const HiddenRunData> m_data;
  int m_selected = -1;
  int m_hovered = -1;
  QRectF m_range;  // the scores shown: x left to right, y bottom to top
};

}  // namespace latent::ui
