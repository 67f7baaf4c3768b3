// SPDX-License-Identifier: GPL-3.0-or-later
// BarDelegate: the item's panel (selection, alternate rows) from the style, then bar and text.
#include "ui/util/bar_delegate.hpp"

#include <QApplication>
#include <QPainter>

#include <algorithm>

namespace latent::ui {

BarDelegate::BarDelegate(QString widestText, QObject* parent)
    : QStyledItemDelegate(parent), m_widest(std::move(widestText)) {}

void BarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const {
  QStyleOptionViewItem opt = option;
  initStyleOption(&opt, index);
  const QString text = opt.text;
  opt.text.clear();
  const QWidget* widget = opt.widget;
  QStyle* style = widget ? widget->style() : QApplication::style();
  style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

  const int pad = 6;
  const int textWidth = std::max(opt.fontMetrics.horizontalAdvance(m_widest), opt.fontMetrics.horizontalAdvance(text));
  const QRect cell = opt.rect.adjusted(pad, 0, -pad, 0);
  const QRect textRect(cell.right() - textWidth, cell.top(), textWidth, cell.height());
  const int barHeight = std::max(4, std::min(cell.height() - 8, opt.fontMetrics.height() - 4));
  const QRect track(cell.left(), cell.center().y() - barHeight / 2 + 1,
                    std::max(0, textRect.left() - pad - cell.left()), barHeight);
  const double fraction = std::clamp(index.data(kBarFractionRole).toDouble(), 0.0, 1.0);

  painter->save();
  painter->setClipRect(opt.rect);  // a column narrower than planned cuts the bar, never spills over
  const bool selected = opt.state & QStyle::State_Selected;
  const QPalette::ColorGroup group = opt.state & QStyle::State_Enabled ? QPalette::Normal : QPalette::Disabled;
  QColor colour = index.data(kBarColourRole).value<QColor>();
  if (!colour.isValid()) colour = opt.palette.color(group, QPalette::Highlight);
  if (selected) colour = opt.palette.color(group, QPalette::HighlightedText);
  QColor trackColour = opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
  trackColour.setAlphaF(0.07f);
  painter->fillRect(track, trackColour);
  if (fraction > 0) {
    const int length = std::max(1, static_cast<int>(track.width() * fraction + 0.5));
    painter->fillRect(QRect(track.left(), track.top(), length, track.height()), colour);
  }
  painter->setPen(opt.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text));
  painter->setFont(opt.font);
  painter->drawText(textRect, Qt::AlignRight | Qt::AlignVCenter, text);
  painter->restore();
}

QSize BarDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const {
  QSize size = QStyledItemDelegate::sizeHint(option, index);
  size.setWidth(std::max(size.width(), option.fontMetrics.horizontalAdvance(m_widest) + 70));
  return size;
}

}  // namespace latent::ui
