// SPDX-License-Identifier: GPL-3.0-or-later
// MembershipBarsView: layout, the bars drawn once into a pixmap per size and data, block names
// under their runs of bars, tooltips.
#include "ui/runs/blocks/membership_bars_view.hpp"

#include <QEvent>
#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "ui/runs/blocks/block_run_data.hpp"
#include "ui/util/chart_style.hpp"
#include "ui/util/format.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

constexpr double kBarsMargin = 8;

}  // namespace

MembershipBarsView::MembershipBarsView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void MembershipBarsView::setData(std::shared_ptr<const BlockRunData> data) {
  m_data = std::move(data);
  m_order = m_data ? m_data->barOrder : std::vector<int>{};
  layoutBars();
  update();
}

void MembershipBarsView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  layoutBars();
}

void MembershipBarsView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) layoutBars();
}

void MembershipBarsView::layoutBars() {
  const QFontMetricsF fm(font());
  m_area = QRectF(rect()).adjusted(kBarsMargin, kBarsMargin, -kBarsMargin, -(kBarsMargin + fm.height() + 8));
  render();
}

QRectF MembershipBarsView::barRect(int index) const {
  const int n = static_cast<int>(m_order.size());
  if (index < 0 || index >= n || m_area.width() <= 0) return {};
  const double w = m_area.width() / n;
  return QRectF(m_area.left() + index * w, m_area.top(), w, m_area.height());
}

int MembershipBarsView::nodeAt(const QPointF& p) const {
  const int n = static_cast<int>(m_order.size());
  if (n == 0 || !m_area.contains(p)) return -1;
  const int index = std::clamp(static_cast<int>((p.x() - m_area.left()) / (m_area.width() / n)), 0, n - 1);
  return m_order[static_cast<std::size_t>(index)];
}

void MembershipBarsView::render() {
  const qreal dpr = devicePixelRatioF();
  m_picture = QPixmap((QSizeF(size()) * dpr).toSize());
  m_picture.setDevicePixelRatio(dpr);
  const QPalette pal = palette();
  m_picture.fill(pal.color(QPalette::Base));
  const int n = static_cast<int>(m_order.size());
  if (!m_data || n == 0 || m_area.width() < 10 || m_area.height() < 10) return;
  QPainter painter(&m_picture);
  const int k = m_data->blockCount();
  std::vector<QColor> colours;
  for (int b = 0; b < k; ++b) colours.push_back(topicColour(m_data->blockColourIndex(b), pal));
  const double w = m_area.width() / n;
  const double gap = w >= 4 ? 1.0 : 0.0;
  // Each bar: the blocks' shares stacked from the top in block order.
  for (int index = 0; index < n; ++index) {
    const int node = m_order[static_cast<std::size_t>(index)];
    const double x = m_area.left() + index * w;
    double y = m_area.top();
    for (int b = 0; b < k; ++b) {
      const double h = std::max(0.0, m_data->memberships(node, b)) * m_area.height();
      if (h <= 0) continue;
      painter.fillRect(QRectF(x, y, std::max(w - gap, 0.6), h), colours[static_cast<std::size_t>(b)]);
      y += h;
    }
  }
  painter.setPen(QPen(axisColour(pal), 1));
  painter.drawRect(m_area);

  // Under the bars: each block's run of nodes, named where the name fits.
  const QFontMetricsF fm(font());
  int start = 0;
  for (int index = 1; index <= n; ++index) {
    const int block = m_data->largest[static_cast<std::size_t>(m_order[static_cast<std::size_t>(start)])];
    if (index < n && m_data->largest[static_cast<std::size_t>(m_order[static_cast<std::size_t>(index)])] == block)
      continue;
    const QRectF run(m_area.left() + start * w, m_area.bottom() + 3, (index - start) * w, fm.height() + 4);
    painter.setPen(QPen(colours[static_cast<std::size_t>(block)], 2));
    painter.drawLine(QPointF(run.left() + 1, run.top()), QPointF(run.right() - 1, run.top()));
    const QString name = QStringLiteral("%1 (%2)").arg(m_data->blockName(block)).arg(index - start);
    const QString shown = fm.horizontalAdvance(name) <= run.width()                         ? name
                          : fm.horizontalAdvance(QString::number(block + 1)) <= run.width() ? QString::number(block + 1)
                                                                                            : QString();
    painter.setPen(pal.color(QPalette::Text));
    painter.drawText(run.adjusted(0, 3, 0, 0), Qt::AlignHCenter | Qt::AlignTop, shown);
    start = index;
  }
}

void MembershipBarsView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  if (m_picture.isNull() || m_picture.size() != (QSizeF(size()) * devicePixelRatioF()).toSize()) render();
  painter.drawPixmap(0, 0, m_picture);
  if (m_order.empty()) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter, tr("No memberships"));
  }
}

bool MembershipBarsView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const int node = m_data ? nodeAt(help->pos()) : -1;
    if (node < 0) {
      QToolTip::hideText();
      e->ignore();
      return true;
    }
    const int k = m_data->blockCount();
    std::vector<int> blocks(static_cast<std::size_t>(k));
    for (int b = 0; b < k; ++b) blocks[static_cast<std::size_t>(b)] = b;
    std::stable_sort(blocks.begin(), blocks.end(),
                     [&](int a, int b) { return m_data->memberships(node, a) > m_data->memberships(node, b); });
    QString tip = m_data->nodeName(node);
    if (m_data->hasLabels()) {
      const int l = m_data->labels[static_cast<std::size_t>(node)];
      tip += QStringLiteral(" (%1: %2)").arg(m_data->labelAttribute, l >= 0 ? m_data->labelNames[l] : tr("none"));
    }
    for (int j = 0; j < std::min(k, 6); ++j) {
      const int b = blocks[static_cast<std::size_t>(j)];
      tip += QStringLiteral("\n%1: %2").arg(m_data->blockName(b), formatCompact(m_data->memberships(node, b), 3));
    }
    if (k > 6) tip += QStringLiteral("\n…");
    QToolTip::showText(help->globalPos(), tip, this);
    return true;
  }
  return QWidget::event(e);
}

}  // namespace latent::ui
