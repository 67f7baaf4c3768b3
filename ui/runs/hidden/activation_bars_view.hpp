// SPDX-License-Identifier: GPL-3.0-or-later
// One document's hidden activations as bars: a bar per unit (in unit order) of height
// P(h_k = 1 | document) on a 0..1 scale, with a tick at the unit's mean over the documents so
// that what is unusual about the document stands out; the unit's top words in each bar's tooltip.
#pragma once

#include <QWidget>

#include <memory>

namespace latent::ui {

struct HiddenRunData;

class ActivationBarsView final : public QWidget {
  Q_OBJECT

 public:
  explicit ActivationBarsView(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const HiddenRunData> data);
  // The document whose activations are drawn (corpus order), -1 for none.
  void setDocument(int document);
  int document() const noexcept { return m_document; }
  int barCount() const noexcept;
  // The activation a bar shows.
  double barValue(int unit) const;
  QRectF barRect(int unit) const;
  int unitAt(const QPointF& position) const;  // -1 when no bar is there
  QString toolTipFor(int unit) const;

  QSize sizeHint() const override { return {560, 220}; }
  QSize minimumSizeHint() const override { return {240, 120}; }

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;

 private:
  QRectF plotRect() const;
  // Where an activation lies on the plot's vertical scale (clamped to it).
  double valueY(double value) const;

  std::shared_ptr<const HiddenRunData> m_data;
  int m_document = -1;
};

}  // namespace latent::ui
