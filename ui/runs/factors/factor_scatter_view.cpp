// SPDX-License-Identifier: GPL-3.0-or-later
// FactorScatterView: data, axis choices, mapping between values and pixels, hit testing and
// tooltips, zoom and pan (the drawing is in factor_scatter_paint.cpp).
#include "ui/runs/factors/factor_scatter_view.hpp"

#include <QEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "ui/runs/factors/factor_run_data.hpp"
#include "ui/util/format.hpp"

namespace latent::ui {
namespace {

constexpr double kPickRadius = 7.0;  // pixels around a dot that still count as on it
constexpr double kUserRadius = 2.8;
constexpr std::size_t kExtremeLabels = 8;  // the items farthest out are named

}  // namespace

FactorScatterView::FactorScatterView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  setFocusPolicy(Qt::StrongFocus);
  setToolTip(QString());  // tooltips come from event(): the dot under the mouse
  updateMargins();
}

void FactorScatterView::setData(std::shared_ptr<const FactorRunData> data) {
  m_data = std::move(data);
  m_highlighted.clear();
  m_recommended.clear();
  m_user = -1;
  m_hoverItem = m_hoverUser = -1;
  m_itemOrder.clear();
  m_maxItemCount = 1.0;
  m_logMaxItemCount = m_logMaxUserCount = std::log1p(1.0);
  if (m_data) {
    const auto& counts = m_data->itemRatingCounts;
    m_itemOrder.resize(static_cast<std::size_t>(m_data->itemCount()));
    for (int i = 0; i < m_data->itemCount(); ++i) m_itemOrder[static_cast<std::size_t>(i)] = i;
    auto count = [&counts](int i) {
      return static_cast<std::size_t>(i) < counts.size() ? counts[static_cast<std::size_t>(i)] : 0;
    };
    std::stable_sort(m_itemOrder.begin(), m_itemOrder.end(), [&](int a, int b) { return count(a) < count(b); });
    if (!counts.empty())
      m_maxItemCount = std::max(1.0, static_cast<double>(*std::max_element(counts.begin(), counts.end())));
    m_logMaxItemCount = std::log1p(m_maxItemCount);
    const auto& users = m_data->userRatingCounts;
    if (!users.empty())
      m_logMaxUserCount = std::log1p(std::max(1.0, static_cast<double>(*std::max_element(users.begin(), users.end()))));
    const int K = m_data->factorCount();
    const auto& order = m_data->factorsByVariance;
    m_x = K > 0 ? order[0] : 0;
    m_y = K > 1 ? order[1] : K;  // one factor: against the bias
  }
  updateDotScale();
  resetView();
}

void FactorScatterView::setDimensions(int x, int y) {
  const int last = m_data ? m_data->factorCount() : 0;
  m_x = std::clamp(x, 0, last);
  m_y = std::clamp(y, 0, last);
  m_hoverItem = m_hoverUser = -1;
  resetView();
}

QString FactorScatterView::dimensionName(int dimension) const {
  if (m_data && dimension == m_data->factorCount()) return tr("Bias");
  return tr("Factor %1").arg(dimension + 1);
}

void FactorScatterView::setShowUsers(bool show) {
  if (show == m_showUsers) return;
  m_showUsers = show;
  m_hoverUser = -1;
  updateDotScale();
  resetView();
}

void FactorScatterView::setHighlightedItems(std::vector<int> items) {
  m_highlighted = std::move(items);
  if (!m_data || m_highlighted.empty()) {
    update();
    return;
  }
  // Centre on the found items; a single one is shown with a third of the plane around it.
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  for (const int i : m_highlighted) {
    const QPointF p = itemPoint(i);
    x0 = std::min(x0, p.x()), x1 = std::max(x1, p.x()), y0 = std::min(y0, p.y()), y1 = std::max(y1, p.y());
  }
  const QRectF full = fullRange();
  const double halfW = std::min(full.width() / 2, std::max((x1 - x0) / 2 * 1.3, full.width() / 6));
  const double halfH = std::min(full.height() / 2, std::max((y1 - y0) / 2 * 1.3, full.height() / 6));
  const QPointF centre((x0 + x1) / 2, (y0 + y1) / 2);
  m_view = QRectF(centre.x() - halfW, centre.y() - halfH, 2 * halfW, 2 * halfH);
  invalidate();
  Q_EMIT viewChanged();
}

void FactorScatterView::setUser(int user, std::vector<int> recommended) {
  m_user = user;
  m_recommended = std::move(recommended);
  update();
}

double FactorScatterView::itemValue(int item, int dimension) const {
  if (dimension >= m_data->factorCount()) return m_data->itemBias(item);
  return m_data->itemFactors(item, dimension);
}

double FactorScatterView::userValue(int user, int dimension) const {
  if (dimension >= m_data->factorCount()) return m_data->userBias(user);
  return m_data->userFactors(user, dimension);
}

QPointF FactorScatterView::itemPoint(int item) const {
  if (!m_data || item < 0 || item >= m_data->itemCount()) return {};
  return {itemValue(item, m_x), itemValue(item, m_y)};
}

QPointF FactorScatterView::userPoint(int user) const {
  if (!m_data || user < 0 || user >= m_data->userCount()) return {};
  return {userValue(user, m_x), userValue(user, m_y)};
}

void FactorScatterView::updateMargins() {
  // Room for the tick labels and the axis titles; measured once per font, as every position
  // mapping (100,000 of them for one hover) goes through plotRect().
  const QFontMetrics fm(font());
  m_leftMargin = fm.horizontalAdvance(QStringLiteral("−0.888")) + fm.height() + 14;
  m_bottomMargin = 2 * fm.height() + 12;
}

QRectF FactorScatterView::plotRect() const {
  return QRectF(m_leftMargin, 10, std::max(10, width() - m_leftMargin - 14),
                std::max(10, height() - m_bottomMargin - 10));
}

QPointF FactorScatterView::toWidget(QPointF v) const {
  const QRectF plot = plotRect();
  return {plot.left() + (v.x() - m_view.left()) / m_view.width() * plot.width(),
          plot.bottom() - (v.y() - m_view.top()) / m_view.height() * plot.height()};
}

QPointF FactorScatterView::toValue(QPointF w) const {
  const QRectF plot = plotRect();
  return {m_view.left() + (w.x() - plot.left()) / plot.width() * m_view.width(),
          m_view.top() + (plot.bottom() - w.y()) / plot.height() * m_view.height()};
}

QRectF FactorScatterView::fullRange() const {
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  auto take = [&](QPointF p) {
    x0 = std::min(x0, p.x()), x1 = std::max(x1, p.x()), y0 = std::min(y0, p.y()), y1 = std::max(y1, p.y());
  };
  if (m_data) {
    for (int i = 0; i < m_data->itemCount(); ++i) take(itemPoint(i));
    if (m_showUsers)
      for (int u = 0; u < m_data->userCount(); ++u) take(userPoint(u));
  }
  if (x0 > x1) x0 = -1, x1 = 1, y0 = -1, y1 = 1;
  // Some room around the outermost dots; a flat direction still gets a visible extent.
  auto pad = [](double& lo, double& hi) {
    const double span = hi - lo;
    const double room = span > 0 ? span * 0.06 : std::max(1e-3, std::abs(lo) * 0.1);
    lo -= room, hi += room;
  };
  pad(x0, x1);
  pad(y0, y1);
  return QRectF(x0, y0, x1 - x0, y1 - y0);
}

void FactorScatterView::resetView() {
  m_view = fullRange();
  m_extremesValid = false;
  invalidate();
  Q_EMIT viewChanged();
}

void FactorScatterView::zoom(double factor, QPointF around) {
  if (!m_data || factor <= 0) return;
  const QPointF anchor = toValue(around);
  const double w = m_view.width() / factor, h = m_view.height() / factor;
  const QRectF full = fullRange();
  if (w > full.width() * 4 || w < full.width() * 1e-4) return;  // neither lost in space nor in one dot
  const double fx = (anchor.x() - m_view.left()) / m_view.width(), fy = (anchor.y() - m_view.top()) / m_view.height();
  m_view = QRectF(anchor.x() - fx * w, anchor.y() - fy * h, w, h);
  invalidate();
  Q_EMIT viewChanged();
}

void FactorScatterView::invalidate() {
  m_dotsValid = false;
  update();
}

double FactorScatterView::itemRadius(int item) const {
  const auto& counts = m_data->itemRatingCounts;
  const double n = static_cast<std::size_t>(item) < counts.size() ? counts[static_cast<std::size_t>(item)] : 0;
  return (1.8 + 3.4 * std::sqrt(n / m_maxItemCount)) * m_dotScale;
}

double FactorScatterView::userRadius() const { return kUserRadius * m_dotScale; }

void FactorScatterView::updateDotScale() {
  // Smaller dots when there are many, so that a crowd still shows where it is densest.
  const double points = m_data ? m_data->itemCount() + (m_showUsers ? m_data->userCount() : 0) : 0;
  m_dotScale = points > 0 ? std::clamp(std::sqrt(20000.0 / points), 0.5, 1.0) : 1.0;
}

double FactorScatterView::itemOpacity(int item) const {
  const auto& counts = m_data->itemRatingCounts;
  const double n = static_cast<std::size_t>(item) < counts.size() ? counts[static_cast<std::size_t>(item)] : 0;
  return 0.25 + 0.65 * std::log1p(n) / m_logMaxItemCount;
}

double FactorScatterView::userOpacity(int user) const {
  const auto& counts = m_data->userRatingCounts;
  const double n = static_cast<std::size_t>(user) < counts.size() ? counts[static_cast<std::size_t>(user)] : 0;
  return 0.15 + 0.45 * std::log1p(n) / m_logMaxUserCount;
}

const std::vector<int>& FactorScatterView::namedExtremes() const {
  if (m_extremesValid) return m_extremes;
  m_extremesValid = true;
  m_extremes.clear();
  if (!m_data) return m_extremes;
  // The items farthest from the origin, relative to the whole plot's extent: the ones that say
  // what the two factors mean. They stay the same while zooming (drawn when in view).
  const QRectF full = fullRange();
  std::vector<std::pair<double, int>> far;
  for (int i = 0; i < m_data->itemCount(); ++i) {
    const QPointF p = itemPoint(i);
    far.emplace_back(std::hypot(p.x() / full.width(), p.y() / full.height()), i);
  }
  const auto keep = std::min<std::size_t>(kExtremeLabels, far.size());
  std::partial_sort(
      far.begin(), far.begin() + static_cast<std::ptrdiff_t>(keep), far.end(),
      [](const auto& a, const auto& b) { return a.first > b.first || (a.first == b.first && a.second < b.second); });
  for (std::size_t k = 0; k < keep; ++k) m_extremes.push_back(far[k].second);
  return m_extremes;
}

int FactorScatterView::itemAt(QPointF position) const {
  if (!m_data || !plotRect().contains(position)) return -1;
  int best = -1;
  double bestDistance = 0;
  for (int i = 0; i < m_data->itemCount(); ++i) {
    const QPointF d = toWidget(itemPoint(i)) - position;
    const double distance = std::hypot(d.x(), d.y());
    if (distance <= std::max(kPickRadius, itemRadius(i) + 2) && (best < 0 || distance < bestDistance))
      best = i, bestDistance = distance;
  }
  return best;
}

int FactorScatterView::userAt(QPointF position) const {
  if (!m_data || !m_showUsers || !plotRect().contains(position)) return -1;
  int best = -1;
  double bestDistance = 0;
  for (int u = 0; u < m_data->userCount(); ++u) {
    const QPointF d = toWidget(userPoint(u)) - position;
    const double distance = std::hypot(d.x(), d.y());
    if (distance <= kPickRadius && (best < 0 || distance < bestDistance)) best = u, bestDistance = distance;
  }
  return best;
}

QString FactorScatterView::toolTipAt(QPointF position) const {
  if (!m_data) return {};
  auto coordinates = [this](QPointF p) {
    return QStringLiteral("%1 %2 · %3 %4")
        .arg(dimensionName(m_x).toHtmlEscaped(), formatReal(p.x(), 3), dimensionName(m_y).toHtmlEscaped(),
             formatReal(p.y(), 3));
  };
  if (const int i = itemAt(position); i >= 0) {
    const auto n = m_data->itemRatingCounts[static_cast<std::size_t>(i)];
    QString html = QStringLiteral("<b>%1</b>").arg(m_data->itemName(i).toHtmlEscaped());
    if (m_data->itemId(i) != m_data->itemName(i))
      html += QStringLiteral(" (%1)").arg(m_data->itemId(i).toHtmlEscaped());
    html += QStringLiteral("<br>") + countOf(n, tr("rating"), tr("ratings")).toHtmlEscaped();
    if (n > 0) html += tr(", mean %1").arg(formatReal(m_data->itemMeanRatings[static_cast<std::size_t>(i)], 3));
    html += tr(" · bias %1").arg(formatReal(m_data->itemBias(i), 3));
    html += QStringLiteral("<br>") + coordinates(itemPoint(i));
    if (m_user >= 0) {
      const auto rated = m_data->ratedBy(m_user);
      const auto at = std::lower_bound(rated.begin(), rated.end(), i);
      QString line =
          tr("Predicted for user %1: %2")
              .arg(m_data->userId(m_user).toHtmlEscaped(), formatReal(m_data->predictor->predict(m_user, i), 3));
      if (at != rated.end() && *at == i)
        line += tr(" (rated %1)")
                    .arg(formatCompact(m_data->ratingsBy(m_user)[static_cast<std::size_t>(at - rated.begin())]));
      html += QStringLiteral("<br>") + line;
    }
    return html;
  }
  if (const int u = userAt(position); u >= 0) {
    return tr("<b>User %1</b><br>%2 · bias %3<br>%4<br><i>Click to list this user's recommendations.</i>")
        .arg(m_data->userId(u).toHtmlEscaped(),
             countOf(m_data->userRatingCounts[static_cast<std::size_t>(u)], tr("rating"), tr("ratings")),
             formatReal(m_data->userBias(u), 3), coordinates(userPoint(u)));
  }
  return {};
}

void FactorScatterView::updateHover(QPointF position) {
  const int item = itemAt(position);
  const int user = item < 0 ? userAt(position) : -1;
  if (item == m_hoverItem && user == m_hoverUser) return;
  m_hoverItem = item;
  m_hoverUser = user;
  setCursor(item >= 0 || user >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
  update();
}

bool FactorScatterView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const QString text = toolTipAt(help->pos());
    if (text.isEmpty()) {
      QToolTip::hideText();
      e->ignore();
    } else {
      QToolTip::showText(help->globalPos(), text, this, QRect(help->pos() - QPoint(4, 4), QSize(8, 8)));
    }
    return true;
  }
  return QWidget::event(e);
}

void FactorScatterView::resizeEvent(QResizeEvent* e) {
  QWidget::resizeEvent(e);
  m_dotsValid = false;
}

void FactorScatterView::changeEvent(QEvent* e) {
  if (e->type() == QEvent::FontChange) updateMargins();
  if (e->type() == QEvent::PaletteChange || e->type() == QEvent::FontChange) invalidate();
  QWidget::changeEvent(e);
}

void FactorScatterView::mousePressEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton) return QWidget::mousePressEvent(e);
  m_pressed = true;
  m_dragged = false;
  m_pressAt = e->position();
  m_pressView = m_view;
}

void FactorScatterView::mouseMoveEvent(QMouseEvent* e) {
  if (m_pressed && (e->buttons() & Qt::LeftButton)) {
    const QPointF delta = e->position() - m_pressAt;
    if (!m_dragged && std::hypot(delta.x(), delta.y()) < 4) return;
    m_dragged = true;
    setCursor(Qt::ClosedHandCursor);
    const QRectF plot = plotRect();
    m_view =
        m_pressView.translated(-delta.x() / plot.width() * m_view.width(), delta.y() / plot.height() * m_view.height());
    invalidate();
    Q_EMIT viewChanged();
    return;
  }
  updateHover(e->position());
}

void FactorScatterView::mouseReleaseEvent(QMouseEvent* e) {
  if (e->button() != Qt::LeftButton || !m_pressed) return QWidget::mouseReleaseEvent(e);
  m_pressed = false;
  if (m_dragged) {
    m_dragged = false;
    updateHover(e->position());
    if (m_hoverItem < 0 && m_hoverUser < 0) setCursor(Qt::ArrowCursor);
    return;
  }
  if (const int u = userAt(e->position()); u >= 0 && itemAt(e->position()) < 0)
    Q_EMIT userClicked(u);
  else if (const int i = itemAt(e->position()); i >= 0)
    Q_EMIT itemClicked(i);
}

void FactorScatterView::mouseDoubleClickEvent(QMouseEvent* e) {
  if (e->button() == Qt::LeftButton) resetView();
}

void FactorScatterView::wheelEvent(QWheelEvent* e) {
  const double steps = e->angleDelta().y() / 120.0;
  if (steps == 0) return;
  zoom(std::pow(1.25, steps), e->position());
  e->accept();
}

void FactorScatterView::keyPressEvent(QKeyEvent* e) {
  const QPointF centre = plotRect().center();
  switch (e->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      zoom(1.25, centre);
      break;
    case Qt::Key_Minus:
      zoom(0.8, centre);
      break;
    case Qt::Key_0:
    case Qt::Key_Home:
      resetView();
      break;
    default:
      QWidget::keyPressEvent(e);
  }
}

void FactorScatterView::leaveEvent(QEvent* e) {
  m_hoverItem = m_hoverUser = -1;
  update();
  QWidget::leaveEvent(e);
}

}  // namespace latent::ui
