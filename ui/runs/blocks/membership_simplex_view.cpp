// SPDX-License-Identifier: GPL-3.0-or-later
// MembershipSimplexView: corners and dots, names placed where they collide with nothing, the
// legend of colours, painting and tooltips.
#include "ui/runs/blocks/membership_simplex_view.hpp"

#include <QEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>

#include "ui/runs/blocks/block_run_data.hpp"
#include "ui/util/format.hpp"
#include "ui/util/topic_colours.hpp"
#include "ui/util/topic_marker.hpp"

namespace latent::ui {
namespace {

constexpr double kSimplexMargin = 12;
constexpr int kMaxNamedNodes = 300;  // beyond this names are only shown on hover
constexpr int kMaxStackedNames = 8;  // lines of one group of coinciding dots
constexpr int kMaxLegendEntries = 12;

QString roundedPercent(double share) {
  if (share > 0 && share < 0.005) return QStringLiteral("<1%");
  return QStringLiteral("%1%").arg(std::lround(100.0 * share));
}

}  // namespace

MembershipSimplexView::MembershipSimplexView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void MembershipSimplexView::setData(std::shared_ptr<const BlockRunData> data) {
  m_data = std::move(data);
  m_hover = -1;
  layoutView();
  update();
}

QFont MembershipSimplexView::nameFont() const {
  QFont f = font();
  f.setPointSizeF(f.pointSizeF() * 0.9);
  return f;
}

double MembershipSimplexView::dotRadius() const {
  const int n = m_data ? m_data->nodeCount() : 0;
  return n <= 60 ? 5.5 : n <= 300 ? 4.5 : n <= 2000 ? 3.0 : 2.0;
}

std::vector<double> MembershipSimplexView::coordinates(int node) const {
  if (!m_data || node < 0 || node >= m_data->nodeCount()) return {};
  std::vector<double> out(static_cast<std::size_t>(m_data->blockCount()));
  double sum = 0;
  for (int k = 0; k < m_data->blockCount(); ++k) sum += std::max(0.0, m_data->memberships(node, k));
  for (int k = 0; k < m_data->blockCount(); ++k)
    out[static_cast<std::size_t>(k)] =
        sum > 0 ? std::max(0.0, m_data->memberships(node, k)) / sum : 1.0 / m_data->blockCount();
  return out;
}

QPointF MembershipSimplexView::vertexPosition(int block) const {
  return block >= 0 && static_cast<std::size_t>(block) < m_vertices.size() ? m_vertices[static_cast<std::size_t>(block)]
                                                                           : QPointF();
}

QPointF MembershipSimplexView::nodePosition(int node) const {
  return node >= 0 && static_cast<std::size_t>(node) < m_positions.size() ? m_positions[static_cast<std::size_t>(node)]
                                                                          : QPointF();
}

QColor MembershipSimplexView::nodeColour(int node) const {
  return node >= 0 && static_cast<std::size_t>(node) < m_colours.size() ? m_colours[static_cast<std::size_t>(node)]
                                                                        : QColor();
}

TopicMarker MembershipSimplexView::nodeMarker(int node) const {
  return node >= 0 && static_cast<std::size_t>(node) < m_markers.size() ? m_markers[static_cast<std::size_t>(node)]
                                                                        : TopicMarker::Disc;
}

QColor MembershipSimplexView::outlineColour() const {
  // The text colour softened a little towards Base: the shape reads in any palette, light or
  // dark, where the style's Mid can sit next to Base.
  return mixColours(palette().color(QPalette::Text), palette().color(QPalette::Base), 0.3);
}

bool MembershipSimplexView::isNamed(int node) const {
  return node >= 0 && static_cast<std::size_t>(node) < m_named.size() && m_named[static_cast<std::size_t>(node)];
}

int MembershipSimplexView::namedCount() const {
  return static_cast<int>(std::count(m_named.begin(), m_named.end(), 1));
}

void MembershipSimplexView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  layoutView();
}

void MembershipSimplexView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
    layoutView();
    update();
  }
}

QStringList MembershipSimplexView::legendEntries(std::vector<QColor>* colours,
                                                 std::vector<TopicMarker>* markers) const {
  QStringList entries;
  if (!m_data) return entries;
  const QPalette pal = palette();
  if (m_data->hasLabels()) {
    std::vector<std::int64_t> counts(static_cast<std::size_t>(m_data->labelNames.size()), 0);
    std::int64_t missing = 0;
    for (const int l : m_data->labels) l >= 0 ? ++counts[static_cast<std::size_t>(l)] : ++missing;
    for (int l = 0; l < m_data->labelNames.size(); ++l) {
      entries << QStringLiteral("%1 (%2)").arg(m_data->labelNames[l]).arg(counts[static_cast<std::size_t>(l)]);
      if (colours) colours->push_back(topicColour(l, pal));
      if (markers) markers->push_back(topicMarker(l));
    }
    if (missing > 0) {
      entries << tr("no %1 (%2)").arg(m_data->labelAttribute).arg(missing);
      if (colours) colours->push_back(pal.color(QPalette::PlaceholderText));
      if (markers) markers->push_back(TopicMarker::Disc);
    }
  } else {
    for (int k = 0; k < m_data->blockCount(); ++k) {
      entries << m_data->blockName(k);
      if (colours) colours->push_back(topicColour(k, pal));
      if (markers) markers->push_back(topicMarker(k));
    }
  }
  return entries;
}

QRectF MembershipSimplexView::legendRect() const {
  const auto entries = legendEntries(nullptr, nullptr);
  if (entries.isEmpty()) return {};
  const QFontMetricsF fm(nameFont());
  const QString title =
      m_data->hasLabels() ? tr("Colour: %1").arg(m_data->labelAttribute) : tr("Colour: largest block");
  double width = fm.horizontalAdvance(title);
  const int shown = std::min<int>(static_cast<int>(entries.size()), kMaxLegendEntries);
  for (int i = 0; i < shown; ++i) width = std::max(width, fm.horizontalAdvance(entries[i]) + 18);
  const int lines = 1 + shown + (entries.size() > kMaxLegendEntries ? 1 : 0);
  return QRectF(6, 6, std::min(width + 14, 220.0), lines * fm.height() + 10);
}

void MembershipSimplexView::layoutView() {
  m_vertices.clear();
  m_positions.clear();
  m_colours.clear();
  m_markers.clear();
  m_names.clear();
  m_named.clear();
  m_shape = Shape::Empty;
  if (!m_data || m_data->nodeCount() == 0 || m_data->blockCount() == 0) return;
  const int n = m_data->nodeCount(), k = m_data->blockCount();
  m_shape = k == 1 ? Shape::Single : k == 2 ? Shape::Line : k == 3 ? Shape::Triangle : Shape::Polygon;

  const QPalette pal = palette();
  m_colours.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    if (m_data->hasLabels()) {
      const int l = m_data->labels[static_cast<std::size_t>(i)];
      m_colours.push_back(l >= 0 ? topicColour(l, pal) : pal.color(QPalette::PlaceholderText));
      m_markers.push_back(l >= 0 ? topicMarker(l) : TopicMarker::Disc);
    } else {
      const int largest = m_data->largest[static_cast<std::size_t>(i)];
      m_colours.push_back(topicColour(largest, pal));
      m_markers.push_back(topicMarker(largest));
    }
  }
  if (m_shape == Shape::Single) return;

  // Room for the corners' names above and below, and beside the shape for the nodes' names.
  const QFontMetricsF fm(nameFont());
  const double line = fm.height();
  const QRectF area = QRectF(rect()).adjusted(kSimplexMargin, kSimplexMargin, -kSimplexMargin, -kSimplexMargin);
  const double side = n <= kMaxNamedNodes ? std::min(170.0, area.width() * 0.24) : line * 3;
  const QRectF plot = area.adjusted(side, line + 10, -side, -(line + 10));
  if (plot.width() < 20 || plot.height() < 20) return;
  const QPointF centre = plot.center();
  if (m_shape == Shape::Line) {
    const double y = plot.bottom() - line;
    m_vertices = {QPointF(plot.left(), y), QPointF(plot.right(), y)};
  } else if (m_shape == Shape::Triangle) {
    const double s = std::min(plot.width(), plot.height() * 2.0 / std::sqrt(3.0)), h = s * std::sqrt(3.0) / 2.0;
    const double top = centre.y() - h / 2;
    m_vertices = {QPointF(centre.x(), top), QPointF(centre.x() - s / 2, top + h), QPointF(centre.x() + s / 2, top + h)};
  } else {
    const double radius = std::min(plot.width(), plot.height()) / 2;
    for (int b = 0; b < k; ++b) {
      const double angle = -std::numbers::pi / 2 + 2 * std::numbers::pi * b / k;
      m_vertices.emplace_back(centre.x() + radius * std::cos(angle), centre.y() + radius * std::sin(angle));
    }
  }
  m_positions.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const auto c = coordinates(i);
    QPointF p(0, 0);
    for (int b = 0; b < k; ++b) p += c[static_cast<std::size_t>(b)] * m_vertices[static_cast<std::size_t>(b)];
    m_positions[static_cast<std::size_t>(i)] = p;
  }
  if (m_shape == Shape::Line) {
    // Dots that would overlap on the line are stacked above it, in order along it.
    const double r = dotRadius(), step = 2 * r + 1;
    const int maxLevel = std::max(0, static_cast<int>((m_vertices[0].y() - area.top() - line * 2) / step));
    std::vector<int> byX(static_cast<std::size_t>(n));
    std::iota(byX.begin(), byX.end(), 0);
    std::stable_sort(byX.begin(), byX.end(), [&](int a, int b) {
      return m_positions[static_cast<std::size_t>(a)].x() < m_positions[static_cast<std::size_t>(b)].x();
    });
    std::vector<double> lastX;
    for (const int i : byX) {
      auto& p = m_positions[static_cast<std::size_t>(i)];
      std::size_t level = 0;
      while (level < lastX.size() && p.x() - lastX[level] < step) ++level;
      if (level == lastX.size()) lastX.push_back(-1e9);
      lastX[level] = p.x();
      p.setY(p.y() - r - 2 -
             static_cast<double>(std::min<std::size_t>(level, static_cast<std::size_t>(maxLevel))) * step);
    }
  }
  placeNames();
}

void MembershipSimplexView::placeNames() {
  m_named.assign(m_positions.size(), 0);
  const int n = static_cast<int>(m_positions.size());
  if (n == 0 || n > kMaxNamedNodes) return;
  const QFontMetricsF fm(nameFont());
  const double line = fm.height(), r = dotRadius(), reach = r + 4;
  const QRectF bounds = QRectF(rect()).adjusted(2, 2, -2, -2);

  // Everything a name must not cover: the legend, the corners' names, the dots.
  std::vector<QRectF> taken;
  if (const QRectF legend = legendRect(); !legend.isEmpty()) taken.push_back(legend.adjusted(-4, -4, 4, 4));
  for (std::size_t b = 0; b < m_vertices.size(); ++b)
    taken.push_back(vertexNameRect(static_cast<int>(b)).adjusted(-2, -2, 2, 2));
  for (const auto& p : m_positions) taken.emplace_back(p.x() - r, p.y() - r, 2 * r, 2 * r);

  // Coinciding dots share one stack of names.
  std::vector<std::vector<int>> clusters;
  std::vector<QPointF> anchors;
  for (int i = 0; i < n; ++i) {
    const QPointF p = m_positions[static_cast<std::size_t>(i)];
    std::size_t c = 0;
    while (c < anchors.size() && QLineF(anchors[c], p).length() > r * 2.5) ++c;
    if (c == anchors.size()) anchors.push_back(p), clusters.emplace_back();
    clusters[c].push_back(i);
  }
  QPointF centre(0, 0);
  for (const auto& v : m_vertices) centre += v / static_cast<double>(m_vertices.size());
  // Bigger stacks first: they need the room most and name the most nodes.
  std::vector<std::size_t> byCount(clusters.size());
  std::iota(byCount.begin(), byCount.end(), 0);
  std::stable_sort(byCount.begin(), byCount.end(),
                   [&](std::size_t a, std::size_t b) { return clusters[a].size() > clusters[b].size(); });

  for (const std::size_t c : byCount) {
    auto nodes = clusters[c];
    std::sort(nodes.begin(), nodes.end(),
              [&](int a, int b) { return m_data->nodeName(a).localeAwareCompare(m_data->nodeName(b)) < 0; });
    QPointF a(0, 0);
    for (const int i : nodes) a += m_positions[static_cast<std::size_t>(i)] / static_cast<double>(nodes.size());
    // Names beside the group, away from the middle first; a short form when the full stack has no room.
    auto attempt = [&](const QStringList& lines, const std::vector<int>& named) {
      double w = 0;
      for (const auto& l : lines) w = std::max(w, fm.horizontalAdvance(l));
      const double h = lines.size() * line;
      const bool leftFirst = a.x() < centre.x() - 4;
      std::vector<QRectF> candidates;
      const QRectF right(a.x() + reach, a.y() - h / 2, w, h), left(a.x() - reach - w, a.y() - h / 2, w, h);
      const QRectF above(a.x() - w / 2, a.y() - reach - h, w, h), below(a.x() - w / 2, a.y() + reach, w, h);
      // Beside (centred, then slid up or down by up to a stack's height), above, below, then the
      // diagonals: the side away from the middle first.
      const QRectF first = leftFirst ? left : right, second = leftFirst ? right : left;
      for (const bool away : {true, false}) {
        const QRectF side = away ? first : second;
        candidates.push_back(side);
        for (const double shift : {h / 2 - line / 2, -(h / 2 - line / 2), h / 2 + line / 2, -(h / 2 + line / 2)})
          if (shift != 0) candidates.push_back(side.translated(0, shift));
        if (away) candidates.insert(candidates.end(), {above, below});
      }
      for (const QRectF& corner : {first, second})
        for (const double dy : {-(h / 2 + reach), h / 2 + reach}) candidates.push_back(corner.translated(0, dy));
      for (const QRectF& rect : candidates) {
        if (!bounds.contains(rect)) continue;
        const QRectF own = rect.adjusted(-1, -1, 1, 1);
        bool clear = true;
        for (std::size_t t = 0; t < taken.size() && clear; ++t) {
          // A name may touch its own dots.
          if (t >= taken.size() - m_positions.size()) {
            const int dot = static_cast<int>(t - (taken.size() - m_positions.size()));
            if (std::find(nodes.begin(), nodes.end(), dot) != nodes.end()) continue;
          }
          clear = !own.intersects(taken[t]);
        }
        for (const auto& placed : m_names)
          if (clear && own.intersects(placed.rect)) clear = false;
        if (!clear) continue;
        m_names.push_back({rect, lines, named});
        for (const int i : named) m_named[static_cast<std::size_t>(i)] = 1;
        return true;
      }
      return false;
    };
    // The whole stack if it fits, else fewer names and a count of the rest.
    const int total = static_cast<int>(nodes.size());
    for (const int most : {kMaxStackedNames, 4, 2, 1}) {
      if (most > total && most != kMaxStackedNames) continue;
      QStringList lines;
      std::vector<int> named;
      const int shown = total <= most ? total : std::max(1, most - 1);
      for (int j = 0; j < shown; ++j) {
        lines << m_data->nodeName(nodes[static_cast<std::size_t>(j)]);
        named.push_back(nodes[static_cast<std::size_t>(j)]);
      }
      if (shown < total) {
        if (most == 1)
          lines.back() = tr("%1 and %2 more").arg(lines.back()).arg(total - shown);
        else
          lines << tr("and %1 more").arg(total - shown);
      }
      if (attempt(lines, named)) break;
    }
  }
}

QRectF MembershipSimplexView::vertexNameRect(int block) const {
  // Below the corners in the lower half (and on a line), above the others.
  QFont bold = nameFont();
  bold.setBold(true);
  const QFontMetricsF fm(bold);
  QPointF centre(0, 0);
  for (const auto& v : m_vertices) centre += v / static_cast<double>(m_vertices.size());
  const QPointF v = vertexPosition(block);
  const double w = fm.horizontalAdvance(m_data->blockName(block)) + 4, h = fm.height();
  if (m_shape == Shape::Polygon) {
    // Outwards from the middle, just clear of the corner.
    const QPointF out = v - centre;
    const double length = std::max(1.0, std::hypot(out.x(), out.y()));
    const QPointF u = out / length;
    const QPointF middle = v + u * (7 + std::abs(u.x()) * w / 2 + std::abs(u.y()) * h / 2);
    return QRectF(middle.x() - w / 2, middle.y() - h / 2, w, h);
  }
  const bool below = m_shape == Shape::Line || v.y() > centre.y() + 1;
  return QRectF(v.x() - w / 2, below ? v.y() + 6 : v.y() - h - 6, w, h);
}

std::vector<int> MembershipSimplexView::nodesNear(const QPointF& position) const {
  std::vector<std::pair<double, int>> near;
  const double reach = dotRadius() + 3;
  for (std::size_t i = 0; i < m_positions.size(); ++i) {
    const double d = QLineF(m_positions[i], position).length();
    if (d <= reach) near.emplace_back(d, static_cast<int>(i));
  }
  std::sort(near.begin(), near.end());
  std::vector<int> out;
  for (const auto& [d, i] : near) out.push_back(i);
  return out;
}

int MembershipSimplexView::nodeAt(const QPointF& position) const {
  const auto near = nodesNear(position);
  return near.empty() ? -1 : near.front();
}

QString MembershipSimplexView::tooltipFor(const std::vector<int>& nodes) const {
  QStringList parts;
  const int k = m_data->blockCount();
  for (std::size_t j = 0; j < nodes.size() && j < 8; ++j) {
    const int i = nodes[j];
    QString head = m_data->nodeName(i);
    if (m_data->hasLabels()) {
      const int l = m_data->labels[static_cast<std::size_t>(i)];
      head += QStringLiteral(" (%1: %2)").arg(m_data->labelAttribute, l >= 0 ? m_data->labelNames[l] : tr("none"));
    }
    // Memberships, largest first (at most five).
    std::vector<int> blocks(static_cast<std::size_t>(k));
    std::iota(blocks.begin(), blocks.end(), 0);
    std::stable_sort(blocks.begin(), blocks.end(),
                     [&](int a, int b) { return m_data->memberships(i, a) > m_data->memberships(i, b); });
    QStringList shares;
    for (int b = 0; b < std::min(k, 5); ++b)
      shares << QStringLiteral("%1 %2").arg(
          m_data->blockName(blocks[static_cast<std::size_t>(b)]),
          roundedPercent(m_data->memberships(i, blocks[static_cast<std::size_t>(b)])));
    if (k > 5) shares << QStringLiteral("…");
    parts << head + QStringLiteral("\n  ") + shares.join(QStringLiteral(" · "));
  }
  if (nodes.size() > 8) parts << tr("and %1 more here").arg(nodes.size() - 8);
  return parts.join(QLatin1Char('\n'));
}

void MembershipSimplexView::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QPalette pal = palette();
  painter.fillRect(rect(), pal.color(QPalette::Base));
  painter.setRenderHint(QPainter::Antialiasing);
  const QFont small = nameFont();
  const QFontMetricsF fm(small);
  painter.setFont(small);
  if (m_shape == Shape::Empty || m_shape == Shape::Single || m_vertices.empty()) {
    painter.setPen(pal.color(QPalette::PlaceholderText));
    const QString text = m_shape == Shape::Single ? tr("The run has a single block: every node belongs to it entirely.")
                         : m_data                 ? tr("Too small to draw")
                                                  : tr("No memberships");
    painter.drawText(rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, text);
    return;
  }

  // The shape: the simplex (or the circle of blocks) lightly filled, with guides.
  const QColor outline = outlineColour();
  const QColor guide = mixColours(pal.color(QPalette::Text), pal.color(QPalette::Base), 0.65);
  if (m_shape == Shape::Line) {
    painter.setPen(QPen(outline, 1.5));
    painter.drawLine(m_vertices[0], m_vertices[1]);
    painter.setPen(QPen(guide, 1));
    for (int t = 0; t <= 4; ++t) {
      const QPointF p = m_vertices[0] + (m_vertices[1] - m_vertices[0]) * (t / 4.0);
      painter.drawLine(p, p + QPointF(0, 5));
    }
  } else {
    QPolygonF shape;
    for (const auto& v : m_vertices) shape << v;
    painter.setPen(QPen(outline, 1.2));
    painter.setBrush(mixColours(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.04));
    painter.drawPolygon(shape);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(guide, 1, Qt::DashLine));
    if (m_shape == Shape::Triangle) {
      // The half-way triangle: inside it no block has more than half a node's membership.
      QPolygonF middle;
      for (int b = 0; b < 3; ++b)
        middle << (m_vertices[static_cast<std::size_t>(b)] + m_vertices[static_cast<std::size_t>((b + 1) % 3)]) / 2;
      painter.drawPolygon(middle);
    } else {
      QPointF centre(0, 0);
      for (const auto& v : m_vertices) centre += v / static_cast<double>(m_vertices.size());
      for (const auto& v : m_vertices) painter.drawLine(centre, v);
    }
  }
  // The blocks' names at their corners.
  painter.setPen(pal.color(QPalette::Text));
  QFont bold = small;
  bold.setBold(true);
  painter.setFont(bold);
  for (std::size_t b = 0; b < m_vertices.size(); ++b)
    painter.drawText(vertexNameRect(static_cast<int>(b)), Qt::AlignCenter, m_data->blockName(static_cast<int>(b)));
  painter.setFont(small);

  // The dots, each ringed in the background colour so that coinciding ones stay apart.
  const double r = dotRadius();
  painter.setPen(QPen(pal.color(QPalette::Base), r >= 4 ? 1.2 : 0.6));
  for (std::size_t i = 0; i < m_positions.size(); ++i) {
    QColor fill = m_colours[i];
    fill.setAlphaF(0.88f);
    painter.setBrush(fill);
    drawTopicMarker(painter, m_markers[i], m_positions[i], r);
  }
  painter.setBrush(Qt::NoBrush);
  if (m_hover >= 0 && static_cast<std::size_t>(m_hover) < m_positions.size()) {
    painter.setPen(QPen(pal.color(QPalette::Text), 1.5));
    painter.drawEllipse(m_positions[static_cast<std::size_t>(m_hover)], r + 2.5, r + 2.5);
  }
  // Names, each in its node's colour (readable on Base by construction).
  for (const auto& block : m_names)
    for (int l = 0; l < block.lines.size(); ++l) {
      const bool own = static_cast<std::size_t>(l) < block.nodes.size();
      painter.setPen(own ? m_colours[static_cast<std::size_t>(block.nodes[static_cast<std::size_t>(l)])]
                         : pal.color(QPalette::PlaceholderText));
      painter.drawText(
          QRectF(block.rect.left(), block.rect.top() + l * fm.height(), block.rect.width() + 2, fm.height()),
          Qt::AlignLeft | Qt::AlignVCenter, block.lines[l]);
    }

  // The legend of colours.
  std::vector<QColor> colours;
  std::vector<TopicMarker> markers;
  const auto entries = legendEntries(&colours, &markers);
  const QRectF legend = legendRect();
  if (!entries.isEmpty() && !legend.isEmpty()) {
    QColor back = pal.color(QPalette::Base);
    back.setAlphaF(0.9f);
    painter.setBrush(back);
    painter.setPen(QPen(guide, 1));
    painter.drawRoundedRect(legend, 4, 4);
    painter.setPen(pal.color(QPalette::PlaceholderText));
    double y = legend.top() + 5;
    painter.drawText(QRectF(legend.left() + 7, y, legend.width() - 10, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
                     m_data->hasLabels() ? tr("Colour: %1").arg(m_data->labelAttribute) : tr("Colour: largest block"));
    y += fm.height();
    const int shown = std::min<int>(static_cast<int>(entries.size()), kMaxLegendEntries);
    for (int e = 0; e < shown; ++e, y += fm.height()) {
      painter.setPen(Qt::NoPen);
      painter.setBrush(colours[static_cast<std::size_t>(e)]);
      drawTopicMarker(painter, markers[static_cast<std::size_t>(e)], QPointF(legend.left() + 12, y + fm.height() / 2),
                      4.5);
      painter.setPen(pal.color(QPalette::Text));
      painter.drawText(QRectF(legend.left() + 22, y, legend.width() - 26, fm.height()),
                       Qt::AlignLeft | Qt::AlignVCenter,
                       fm.elidedText(entries[e], Qt::ElideRight, legend.width() - 26));
    }
    if (entries.size() > kMaxLegendEntries) {
      painter.setPen(pal.color(QPalette::PlaceholderText));
      painter.drawText(QRectF(legend.left() + 22, y, legend.width() - 26, fm.height()),
                       Qt::AlignLeft | Qt::AlignVCenter, tr("and %1 more").arg(entries.size() - kMaxLegendEntries));
    }
  }
}

void MembershipSimplexView::mouseMoveEvent(QMouseEvent* event) {
  const int hover = nodeAt(event->position());
  if (hover != m_hover) {
    m_hover = hover;
    update();
  }
  QWidget::mouseMoveEvent(event);
}

void MembershipSimplexView::leaveEvent(QEvent* event) {
  if (m_hover >= 0) {
    m_hover = -1;
    update();
  }
  QWidget::leaveEvent(event);
}

bool MembershipSimplexView::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const auto near = m_data ? nodesNear(help->pos()) : std::vector<int>{};
    if (near.empty()) {
      QToolTip::hideText();
      e->ignore();
      return true;
    }
    QToolTip::showText(help->globalPos(), tooltipFor(near), this);
    return true;
  }
  return QWidget::event(e);
}

}  // namespace latent::ui
