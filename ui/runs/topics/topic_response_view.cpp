// SPDX-License-Identifier: GPL-3.0-or-later
// TopicResponseView: the class selector and summary; TopicResponseCanvas: the sorted bars.
#include "ui/runs/topics/topic_response_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/util/chart_style.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

constexpr double kResponseRowHeight = 24, kResponseTop = 30, kResponseValueWidth = 72, kResponseMargin = 10;

}  // namespace

TopicResponseView::TopicResponseView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(
      tr("How each topic moves the response the model was fitted to predict, topics from the highest to the lowest. "
         "A document's predicted response is its topics' values weighted by its share of each topic."),
      this);
  intro->setWordWrap(true);
  layout->addWidget(intro);
  auto* row = new QHBoxLayout;
  m_classLabel = new QLabel(tr("Class"), this);
  m_classes = new QComboBox(this);
  m_classes->setAccessibleName(tr("Response class"));
  m_classLabel->setBuddy(m_classes);
  row->addWidget(m_classLabel);
  row->addWidget(m_classes);
  m_summary = new QLabel(this);
  m_summary->setWordWrap(true);
  row->addWidget(m_summary, 1);
  layout->addLayout(row);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  // The bars take the page's width; only many topics scroll (vertically).
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  m_canvas = new TopicResponseCanvas(this);
  scroll->setWidget(m_canvas);
  layout->addWidget(scroll, 1);
  connect(m_classes, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (index >= 0) setCurrentClass(index);
  });
}

void TopicResponseView::setData(std::shared_ptr<const TopicRunData> data) {
  m_data = std::move(data);
  m_labels.clear();
  if (m_data)
    for (int k = 0; k < m_data->topicCount(); ++k) {
      const auto found = m_data->labels.find(k);
      m_labels << (found != m_data->labels.end() ? qs(found->second) : QString());
    }
  const bool classes = m_data && !m_data->responseClasses.isEmpty();
  {
    const QSignalBlocker block(m_classes);
    m_classes->clear();
    if (classes) m_classes->addItems(m_data->responseClasses);
  }
  m_classLabel->setVisible(classes);
  m_classes->setVisible(classes);
  m_class = 0;
  refresh();
}

void TopicResponseView::setLabels(const QStringList& labels) {
  m_labels = labels;
  m_canvas->update();
}

void TopicResponseView::setCurrentClass(int c) {
  if (!m_data || m_data->responseClasses.isEmpty()) return;
  m_class = std::clamp(c, 0, static_cast<int>(m_data->responseClasses.size()) - 1);
  const QSignalBlocker block(m_classes);
  m_classes->setCurrentIndex(m_class);
  refresh();
}

double TopicResponseView::value(int topic) const {
  if (!m_data || topic < 0 || topic >= m_data->responseCoefficients.rows()) return 0.0;
  const auto& eta = m_data->responseCoefficients;
  if (m_data->responseClasses.isEmpty()) return eta(topic, 0);
  // Softmax ignores a constant added to a topic's coefficients for every class: its lean towards
  // the class is its coefficient less their mean.
  return eta(topic, m_class) - eta.row(topic).mean();
}

double TopicResponseView::baseline() const {
  return m_data && m_data->responseClasses.isEmpty() ? m_data->responseMean : 0.0;
}

std::vector<int> TopicResponseView::order() const {
  std::vector<int> topics(m_data ? static_cast<std::size_t>(m_data->responseCoefficients.rows()) : 0);
  std::iota(topics.begin(), topics.end(), 0);
  std::stable_sort(topics.begin(), topics.end(), [this](int a, int b) { return value(a) > value(b); });
  return topics;
}

QString TopicResponseView::rowLabel(int topic) const { return topicDisplayName(m_data.get(), m_labels, topic, 4); }

QString TopicResponseView::summary() const { return m_summary->text(); }

void TopicResponseView::refresh() {
  if (!m_data || m_data->responseCoefficients.size() == 0) {
    m_summary->clear();
  } else if (m_data->responseClasses.isEmpty()) {
    m_summary->setText(tr("Response: %1 (a number). Bars start at its mean, %2, and end at the response of a "
                          "document all about the topic.")
                           .arg(m_data->responseName, QString::number(m_data->responseMean, 'g', 5)));
  } else {
    m_summary->setText(tr("Response: %1 (%2 classes). Bars: how far each topic leans towards %3, in log-odds.")
                           .arg(m_data->responseName)
                           .arg(m_data->responseClasses.size())
                           .arg(m_data->responseClasses.value(m_class)));
  }
  m_canvas->updateGeometry();
  m_canvas->update();
}

TopicResponseCanvas::TopicResponseCanvas(TopicResponseView* owner) : QWidget(owner), m_owner(owner) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::MinimumExpanding);
}

QSize TopicResponseCanvas::sizeHint() const {
  const auto rows = static_cast<int>(m_owner->order().size());
  return {640, static_cast<int>(kResponseTop + rows * kResponseRowHeight + kResponseMargin)};
}

QRectF TopicResponseCanvas::barRect(int topic) const {
  const auto topics = m_owner->order();
  const auto at = std::find(topics.begin(), topics.end(), topic);
  if (at == topics.end()) return {};
  const double labelWidth = std::max(160.0, 0.42 * width());
  // The value sits between the label and its bar; the bars end short of the right edge, where a
  // scroll bar may cover the page.
  const double left = labelWidth + kResponseValueWidth + kResponseMargin, right = width() - 3 * kResponseMargin;
  double lo = m_owner->baseline(), hi = lo;
  for (const int k : topics) {
    lo = std::min(lo, m_owner->value(k));
    hi = std::max(hi, m_owner->value(k));
  }
  const double span = hi > lo ? hi - lo : 1.0;
  const auto x = [&](double v) { return left + (v - lo) / span * std::max(1.0, right - left); };
  const double y = kResponseTop + static_cast<double>(at - topics.begin()) * kResponseRowHeight + 4;
  const double a = x(m_owner->baseline()), b = x(m_owner->value(topic));
  return QRectF(std::min(a, b), y, std::max(1.0, std::abs(b - a)), kResponseRowHeight - 8);
}

void TopicResponseCanvas::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const auto topics = m_owner->order();
  if (topics.empty()) return;
  const QPalette& pal = palette();
  const double labelWidth = std::max(160.0, 0.42 * width());
  const QRectF first = barRect(topics.front());
  // The baseline: where every bar starts.
  const double base = m_owner->value(topics.front()) >= m_owner->baseline() ? first.left() : first.right();
  painter.setPen(QPen(axisColour(pal), 1, Qt::DashLine));
  painter.drawLine(QPointF(base, kResponseTop - 6), QPointF(base, kResponseTop + topics.size() * kResponseRowHeight));
  painter.setPen(pal.color(QPalette::WindowText));
  painter.drawText(QRectF(base - 100, 4, 200, kResponseTop - 10), Qt::AlignCenter,
                   QString::number(m_owner->baseline(), 'g', 5));
  const QFontMetrics metrics(font());
  for (const int k : topics) {
    const QRectF bar = barRect(k);
    const QRectF row(0, bar.top() - 4, width(), kResponseRowHeight);
    painter.setPen(pal.color(QPalette::WindowText));
    painter.drawText(
        QRectF(kResponseMargin, row.top(), labelWidth - kResponseMargin, row.height()),
        Qt::AlignVCenter | Qt::AlignRight,
        metrics.elidedText(m_owner->rowLabel(k), Qt::ElideRight, static_cast<int>(labelWidth - kResponseMargin)));
    const QColor colour = topicColour(k, pal);
    painter.setPen(Qt::NoPen);
    painter.setBrush(colour);
    painter.drawRect(bar);
    painter.setPen(pal.color(QPalette::WindowText));
    painter.drawText(QRectF(labelWidth + 4, row.top(), kResponseValueWidth - 4, row.height()),
                     Qt::AlignVCenter | Qt::AlignRight, QString::number(m_owner->value(k), 'g', 5));
  }
}

}  // namespace latent::ui
