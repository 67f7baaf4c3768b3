// SPDX-License-Identifier: GPL-3.0-or-later
// A table cell drawn as a horizontal bar with its number beside it (probabilities, shares): the
// bar's length is the cell's kBarFractionRole (0..1), its colour kBarColourRole or the palette's
// highlight; the display text is drawn right-aligned in a space wide enough for `widestText`,
// so the bars of every row start and end at the same place and compare by length.
#pragma once

#include <QStyledItemDelegate>

namespace latent::ui {

inline constexpr int kBarFractionRole = Qt::UserRole + 0x300;
inline constexpr int kBarColourRole = Qt::UserRole + 0x301;

class BarDelegate final : public QStyledItemDelegate {
  Q_OBJECT

 public:
  BarDelegate(QString widestText, QObject* parent = nullptr);

  void paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
  QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

 private:
  QString m_widest;
};

}  // namespace latent::ui
