// SPDX-License-Identifier: GPL-3.0-or-later
// TopicMetadataView: the feature chooser, the range line and the sorted effects;
// TopicMetadataCanvas: the bars.
#include "ui/runs/topics/topic_metadata_view.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/util/chart_style.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

constexpr int kMetadataRowHeight = 24;
constexpr int kMetadataTextWidth = 380;  // the topic's words, left of the bars
constexpr int kMetadataValueWidth = 90;  // "x 2.35", "x 7.81e+05": right of the bars
constexpr std::size_t kMetadataWords = 5;

// Whether feature f is a number (its coding has a scale other than an indicator's 0..1).
bool metadataNumeric(const TopicRunData& data, int f) {
  const auto r = data.featureRanges.row(f);
  return !(r(0) == 0.0 && r(1) == 1.0 && r(2) == 0.0 && r(3) == 1.0);
}

// A value in the field's own units, as plain as it came: a year stays 1850, not 1,850.0.
QString metadataNumber(double value, int digits = 6) { return QString::number(value, 'g', digits); }

// x_max - x_min in the coding of feature f.
double metadataSpan(const TopicRunData& data, int f) {
  const auto r = data.featureRanges.row(f);
  return r(3) > 0.0 ? (r(1) - r(0)) / r(3) : 0.0;
}

}  // namespace

TopicMetadataView::TopicMetadataView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* intro =
      new QLabel(tr("How a document's metadata shift its topics. Each document's prior weight of a topic is a "
                    "log-linear function of its features; a bar shows how many times larger (right) or smaller "
                    "(left) that weight becomes from the feature's smallest to its largest value, with everything "
                    "else the same (for a category or a label: with it against without it)."),
                 this);
  intro->setWordWrap(true);
  layout->addWidget(intro);
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Feature"), this));
  m_box = new QComboBox(this);
  m_box->setAccessibleName(tr("Feature"));
  m_box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  row->addWidget(m_box);
  m_range = new QLabel(this);
  m_range->setWordWrap(true);
  row->addWidget(m_range, 1);
  layout->addLayout(row);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  m_canvas = new TopicMetadataCanvas(this);
  scroll->setWidget(m_canvas);
  layout->addWidget(scroll, 1);
  connect(m_box, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (index >= 0) setFeature(index);
  });
}

void TopicMetadataView::setData(std::shared_ptr<const TopicRunData> data) {
  m_data = std::move(data);
  m_labels.clear();
  if (m_data)
    for (int k = 0; k < m_data->topicCount(); ++k) {
      const auto found = m_data->labels.find(k);
      m_labels << (found != m_data->labels.end() ? qs(found->second) : QString());
    }
  {
    const QSignalBlocker block(m_box);
    m_box->clear();
    m_box->addItems(features());
  }
  setFeature(0);
}

void TopicMetadataView::setLabels(const QStringList& labels) {
  m_labels = labels;
  m_canvas->update();
}

QStringList TopicMetadataView::features() const {
  QStringList out;
  if (!m_data) return out;
  for (std::size_t f = 1; f < m_data->featureNames.size(); ++f) out << qs(m_data->featureNames[f]);
  return out;
}

void TopicMetadataView::setFeature(int index) {
  m_feature = std::clamp(index, 0, std::max(0, static_cast<int>(features().size()) - 1));
  const QSignalBlocker block(m_box);
  m_box->setCurrentIndex(m_feature);
  refresh();
}

std::vector<MetadataEffect> TopicMetadataView::effects() const {
  std::vector<MetadataEffect> out;
  if (!m_data || features().isEmpty()) return out;
  const int f = m_feature + 1;  // column 0 is the intercept
  const double span = metadataSpan(*m_data, f);
  for (int k = 0; k < m_data->topicCount(); ++k) out.push_back({k, m_data->featureWeights(k, f) * span});
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.logChange > b.logChange; });
  return out;
}

QString TopicMetadataView::rangeText() const { return m_range->text(); }

QString TopicMetadataView::topicText(int topic) const {
  return topicDisplayName(m_data.get(), m_labels, topic, kMetadataWords);
}

void TopicMetadataView::refresh() {
  QString text;
  if (m_data && !features().isEmpty()) {
    const int f = m_feature + 1;
    const auto r = m_data->featureRanges.row(f);
    const QString name = qs(m_data->featureNames[static_cast<std::size_t>(f)]);
    if (metadataNumeric(*m_data, f))
      text = tr("%1 runs from %2 to %3 in the training documents (mean %4, standard deviation %5); the bars "
                "compare its smallest value with its largest.")
                 .arg(name, metadataNumber(r(0)), metadataNumber(r(1)), metadataNumber(r(2)), metadataNumber(r(3)));
    else
      text = tr("%1 is present or absent; the bars compare documents with it against documents without it.").arg(name);
  }
  m_range->setText(text);
  m_canvas->setMinimumHeight(m_data ? (m_data->topicCount() + 1) * kMetadataRowHeight : 0);
  m_canvas->updateGeometry();
  m_canvas->update();
}

TopicMetadataCanvas::TopicMetadataCanvas(TopicMetadataView* owner) : QWidget(owner), m_owner(owner) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

QSize TopicMetadataCanvas::sizeHint() const {
  const int rows = m_owner->m_data ? m_owner->m_data->topicCount() + 1 : 4;
  return {kMetadataTextWidth + 400 + kMetadataValueWidth, rows * kMetadataRowHeight};
}

void TopicMetadataCanvas::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  const auto effects = m_owner->effects();
  if (effects.empty()) return;
  const QPalette& pal = palette();
  const double largest =
      std::max(1e-9, std::max(std::abs(effects.front().logChange), std::abs(effects.back().logChange)));
  const int barLeft = kMetadataTextWidth + 10, barRight = width() - kMetadataValueWidth - 10;
  const double half = std::max(20, (barRight - barLeft) / 2);
  const double zero = barLeft + half;
  painter.setPen(pal.color(QPalette::WindowText));
  painter.drawText(QRectF(barLeft, 0, half - 6, kMetadataRowHeight), Qt::AlignRight | Qt::AlignVCenter,
                   TopicMetadataView::tr("lowers"));
  painter.drawText(QRectF(zero + 6, 0, half - 6, kMetadataRowHeight), Qt::AlignLeft | Qt::AlignVCenter,
                   TopicMetadataView::tr("raises"));
  for (std::size_t i = 0; i < effects.size(); ++i) {
    const auto& e = effects[i];
    const double y = static_cast<double>(i + 1) * kMetadataRowHeight;
    const QColor colour = topicColour(e.topic, pal);
    painter.setPen(colour);
    const QString text =
        painter.fontMetrics().elidedText(m_owner->topicText(e.topic), Qt::ElideRight, kMetadataTextWidth - 8);
    painter.drawText(QRectF(4, y, kMetadataTextWidth - 8, kMetadataRowHeight), Qt::AlignLeft | Qt::AlignVCenter, text);
    const double length = half * e.logChange / largest;
    const QRectF bar = length >= 0 ? QRectF(zero, y + 5, length, kMetadataRowHeight - 10)
                                   : QRectF(zero + length, y + 5, -length, kMetadataRowHeight - 10);
    painter.fillRect(bar, colour);
    painter.setPen(pal.color(QPalette::WindowText));
    painter.drawText(QRectF(barRight + 10, y, kMetadataValueWidth, kMetadataRowHeight),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     QStringLiteral("\u00d7 %1").arg(metadataNumber(std::exp(e.logChange), 3)));
  }
  painter.setPen(QPen(axisColour(pal), 1));
  painter.drawLine(QPointF(zero, kMetadataRowHeight), QPointF(zero, (effects.size() + 1) * kMetadataRowHeight));
}

}  // namespace latent::ui
