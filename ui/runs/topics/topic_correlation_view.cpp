// SPDX-License-Identifier: GPL-3.0-or-later
// TopicCorrelationView: the threshold slider and its summary; TopicCorrelationCanvas: edges,
// nodes, labels, hover and clicks.
#include "ui/runs/topics/topic_correlation_view.hpp"

#include <QEvent>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QSlider>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "core/eval/correlation_map.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/util/format.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

constexpr int kSliderSteps = 100;               // thresholds 0.00 .. 1.00
constexpr double kMarginX = 80, kMarginY = 40;  // room round the map for labels (wide, one line high)
constexpr double kMinRadius = 7, kMaxRadius = 26;
constexpr int kCorrelatesInTooltip = 4;

}  // namespace

TopicCorrelationView::TopicCorrelationView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(
      tr("Topics that tend to appear in the same documents, from the model's covariance of topic proportions. "
         "Larger circles are more common topics; a line joins two topics whose correlation is at least the "
         "threshold. Click a topic to open it."),
      this);
  intro->setWordWrap(true);
  layout->addWidget(intro);
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Show correlations of at least"), this));
  m_slider = new QSlider(Qt::Horizontal, this);
  m_slider->setRange(0, kSliderSteps);
  m_slider->setMaximumWidth(280);
  m_slider->setAccessibleName(tr("Correlation threshold"));
  row->addWidget(m_slider);
  m_summary = new QLabel(this);
  row->addWidget(m_summary, 1);
  layout->addLayout(row);
  m_canvas = new TopicCorrelationCanvas(this);
  layout->addWidget(m_canvas, 1);
  connect(m_slider, &QSlider::valueChanged, this,
          [this](int value) { setThreshold(static_cast<double>(value) / kSliderSteps); });
}

void TopicCorrelationView::setData(std::shared_ptr<const TopicRunData> data) {
  m_data = std::move(data);
  m_labels.clear();
  if (m_data)
    for (int k = 0; k < m_data->topicCount(); ++k) {
      const auto found = m_data->labels.find(k);
      m_labels << (found != m_data->labels.end() ? qs(found->second) : QString());
    }
  // About as many edges as topics to begin with: enough to see groups, few enough to read.
  const double start =
      m_data ? core::strongestCorrelationsThreshold(m_data->topicCorrelation, m_data->topicCount()) : 1.0;
  setThreshold(std::floor(start * kSliderSteps) / kSliderSteps);  // on a step of the slider
}

void TopicCorrelationView::setLabels(const QStringList& labels) {
  m_labels = labels;
  m_canvas->update();
}

void TopicCorrelationView::setThreshold(double threshold) {
  m_threshold = std::clamp(threshold, 0.0, 1.0);
  const QSignalBlocker block(m_slider);
  m_slider->setValue(static_cast<int>(std::lround(m_threshold * kSliderSteps)));
  updateSummary();
  m_canvas->update();
}

std::vector<std::pair<int, int>> TopicCorrelationView::edges() const {
  std::vector<std::pair<int, int>> out;
  if (!m_data) return out;
  const auto& r = m_data->topicCorrelation;
  for (int a = 0; a < r.rows(); ++a)
    for (int b = a + 1; b < r.cols(); ++b)
      if (r(a, b) > 0.0 && r(a, b) >= m_threshold) out.emplace_back(a, b);
  std::sort(out.begin(), out.end(),
            [&r](const auto& x, const auto& y) { return r(x.first, x.second) > r(y.first, y.second); });
  return out;
}

QString TopicCorrelationView::nodeLabel(int topic) const { return topicDisplayName(m_data.get(), m_labels, topic, 3); }

QString TopicCorrelationView::summary() const { return m_summary->text(); }

void TopicCorrelationView::updateSummary() {
  const auto count = edges().size();
  const QString pairs = count == 1 ? tr("1 pair of topics") : tr("%1 pairs of topics").arg(count);
  m_summary->setText(QStringLiteral("%1 (%2)").arg(QString::number(m_threshold, 'f', 2), pairs));
}

TopicCorrelationCanvas::TopicCorrelationCanvas(TopicCorrelationView* owner) : QWidget(owner), m_owner(owner) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

QPointF TopicCorrelationCanvas::nodePosition(int topic) const {
  const auto* data = m_owner->m_data.get();
  if (!data || topic < 0 || topic >= data->correlationMap.rows()) return {};
  const double w = std::max(1.0, width() - 2 * kMarginX), h = std::max(1.0, height() - 2 * kMarginY);
  return {kMarginX + w * data->correlationMap(topic, 0), kMarginY + h * data->correlationMap(topic, 1)};
}

double TopicCorrelationCanvas::nodeRadius(int topic) const {
  const auto* data = m_owner->m_data.get();
  if (!data || data->shares.empty()) return kMinRadius;
  const double largest = *std::max_element(data->shares.begin(), data->shares.end());
  const double share = data->shares[static_cast<std::size_t>(topic)];
  // Area in proportion to the share.
  return largest > 0 ? kMinRadius + (kMaxRadius - kMinRadius) * std::sqrt(std::max(share, 0.0) / largest) : kMinRadius;
}

int TopicCorrelationCanvas::topicAt(const QPointF& point) const {
  const auto* data = m_owner->m_data.get();
  if (!data) return -1;
  int best = -1;
  double bestDistance = 0;
  for (int k = 0; k < data->correlationMap.rows(); ++k) {
    const QPointF d = nodePosition(k) - point;
    const double distance = std::hypot(d.x(), d.y());
    if (distance <= nodeRadius(k) + 3 && (best < 0 || distance < bestDistance)) {
      best = k;
      bestDistance = distance;
    }
  }
  return best;
}

QString TopicCorrelationCanvas::tooltipFor(int topic) const {
  const auto* data = m_owner->m_data.get();
  QString text = QStringLiteral("<b>%1</b>").arg(m_owner->nodeLabel(topic).toHtmlEscaped());
  if (!data->shares.empty())
    text += tr("<br>%1 of the corpus").arg(formatPercent(data->shares[static_cast<std::size_t>(topic)]));
  std::vector<int> others;
  for (int k = 0; k < data->topicCount(); ++k)
    if (k != topic) others.push_back(k);
  const auto& r = data->topicCorrelation;
  std::sort(others.begin(), others.end(), [&](int a, int b) { return r(topic, a) > r(topic, b); });
  text += tr("<br>Goes with:");
  for (std::size_t i = 0; i < others.size() && i < static_cast<std::size_t>(kCorrelatesInTooltip); ++i)
    text += QStringLiteral("<br>&nbsp;&nbsp;%1 &nbsp;<i>%2</i>")
                .arg(QString::number(r(topic, others[i]), 'f', 2), m_owner->nodeLabel(others[i]).toHtmlEscaped());
  if (!others.empty())
    text +=
        tr("<br>Least with: %1 <i>%2</i>")
            .arg(QString::number(r(topic, others.back()), 'f', 2), m_owner->nodeLabel(others.back()).toHtmlEscaped());
  return text;
}

void TopicCorrelationCanvas::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const auto* data = m_owner->m_data.get();
  if (!data || data->topicCorrelation.size() == 0) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, tr("This run has no topic correlations."));
    return;
  }
  const QColor text = palette().color(QPalette::Text);
  const auto edges = m_owner->edges();
  const auto& r = data->topicCorrelation;
  for (const auto& [a, b] : edges) {
    const bool lit = m_hover >= 0 && (a == m_hover || b == m_hover);
    QColor line = text;
    line.setAlphaF(m_hover >= 0 && !lit ? 0.12 : 0.25 + 0.6 * r(a, b));
    painter.setPen(QPen(line, 1.0 + 5.0 * r(a, b), Qt::SolidLine, Qt::RoundCap));
    painter.drawLine(nodePosition(a), nodePosition(b));
  }
  QFont labelFont = font();
  labelFont.setPointSizeF(labelFont.pointSizeF() * 0.9);
  painter.setFont(labelFont);
  const QFontMetricsF metrics(labelFont);
  const int K = data->topicCount();
  std::vector<QRectF> taken;  // the circles, then each label placed
  for (int k = 0; k < K; ++k) {
    const double radius = nodeRadius(k);
    taken.emplace_back(nodePosition(k) - QPointF(radius, radius), QSizeF(2 * radius, 2 * radius));
  }
  for (int k = 0; k < K; ++k) {
    const QPointF at = nodePosition(k);
    const double radius = nodeRadius(k);
    const QColor colour = topicColour(k, palette());
    painter.setPen(QPen(k == m_hover ? text : colour.darker(130), k == m_hover ? 2.0 : 1.0));
    painter.setBrush(topicTint(colour, palette(), 0.55));
    painter.drawEllipse(at, radius, radius);
  }
  // Labels, larger topics first, each below, above, right or left of its circle where it overlaps
  // no circle and no label already placed; a topic without room is named on hover.
  std::vector<int> order(static_cast<std::size_t>(K));
  for (int k = 0; k < K; ++k) order[static_cast<std::size_t>(k)] = k;
  std::stable_sort(order.begin(), order.end(), [this](int a, int b) { return nodeRadius(a) > nodeRadius(b); });
  const auto drawLabel = [&](int k, const QRectF& box) {
    painter.setPen(topicColour(k, palette()));
    painter.drawText(box, Qt::AlignCenter, metrics.elidedText(m_owner->nodeLabel(k), Qt::ElideRight, box.width() + 1));
  };
  for (const int k : order) {
    const QPointF at = nodePosition(k);
    const double radius = nodeRadius(k);
    const QString label = metrics.elidedText(m_owner->nodeLabel(k), Qt::ElideRight, 2 * kMarginX + 20);
    const QSizeF size(metrics.horizontalAdvance(label) + 2, metrics.height());
    const QRectF candidates[] = {
        {QPointF(at.x() - size.width() / 2, at.y() + radius + 1), size},
        {QPointF(at.x() - size.width() / 2, at.y() - radius - 1 - size.height()), size},
        {QPointF(at.x() + radius + 3, at.y() - size.height() / 2), size},
        {QPointF(at.x() - radius - 3 - size.width(), at.y() - size.height() / 2), size},
    };
    for (const auto& box : candidates) {
      const bool inside = rect().contains(box.toAlignedRect());
      const bool free = std::none_of(taken.begin(), taken.end(), [&](const QRectF& other) {
        return other.intersects(box) && other != taken[static_cast<std::size_t>(k)];
      });
      if (inside && free) {
        drawLabel(k, box);
        taken.push_back(box);
        break;
      }
    }
  }
  if (m_hover >= 0) {
    // The hovered topic's whole label, on a plate over whatever is there.
    const QPointF at = nodePosition(m_hover);
    const QString label = m_owner->nodeLabel(m_hover);
    const QSizeF size(metrics.horizontalAdvance(label) + 8, metrics.height() + 2);
    QRectF box(QPointF(at.x() - size.width() / 2, at.y() + nodeRadius(m_hover) + 2), size);
    box.moveLeft(std::clamp(box.left(), 0.0, std::max(0.0, width() - box.width())));
    painter.setPen(Qt::NoPen);
    painter.setBrush(palette().color(QPalette::ToolTipBase));
    painter.drawRoundedRect(box, 3, 3);
    drawLabel(m_hover, box);
  }
}

bool TopicCorrelationCanvas::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const int topic = topicAt(help->pos());
    if (topic < 0) {
      QToolTip::hideText();
      e->ignore();
    } else {
      QToolTip::showText(help->globalPos(), tooltipFor(topic), this);
    }
    return true;
  }
  return QWidget::event(e);
}

void TopicCorrelationCanvas::mouseMoveEvent(QMouseEvent* event) {
  const int topic = topicAt(event->position());
  if (topic != m_hover) {
    m_hover = topic;
    setCursor(topic >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    update();
  }
}

void TopicCorrelationCanvas::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  const int topic = topicAt(event->position());
  if (topic >= 0) Q_EMIT m_owner->topicActivated(topic);
}

void TopicCorrelationCanvas::leaveEvent(QEvent*) {
  if (m_hover < 0) return;
  m_hover = -1;
  update();
}

void TopicCorrelationCanvas::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange) update();
  QWidget::changeEvent(event);
}

}  // namespace latent::ui
