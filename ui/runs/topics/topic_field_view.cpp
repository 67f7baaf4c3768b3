// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/runs/topics/topic_field_view.hpp"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include "core/data/document_fields.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/util/background.hpp"
#include "ui/util/chart_style.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/topic_colours.hpp"
#include "ui/util/topic_marker.hpp"

namespace latent::ui {
namespace {

// With more topics than this the legend would crowd the chart: hovering names a topic instead.
constexpr int kFieldLegendTopics = 12;

struct FieldShares {
  core::FieldTopicShares shares;
  QString error;
};

}  // namespace

TopicFieldView::TopicFieldView(QWidget* parent) : QWidget(parent) {
  m_field = new QComboBox(this);
  m_field->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_stacked = new QCheckBox(tr("Stacked"), this);
  m_stacked->setChecked(true);
  m_stacked->setToolTip(tr("Stacked areas (each topic's part of the whole) or one line per topic"));
  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Topics by"), this));
  controls->addWidget(m_field);
  controls->addWidget(m_stacked);
  controls->addStretch(1);
  m_chart = new QChartView(this);
  m_chart->setRenderHint(QPainter::Antialiasing);
  m_chart->setMinimumHeight(260);
  enableFigureExport(m_chart, [this] { return QStringLiteral("topics-by-%1").arg(m_field->currentText()); });
  m_caption = new QLabel(this);
  m_caption->setWordWrap(true);
  m_caption->setTextFormat(Qt::RichText);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(m_chart, 1);
  layout->addWidget(m_caption);
  connect(m_field, &QComboBox::currentTextChanged, this, [this] { compute(); });
  connect(m_stacked, &QCheckBox::toggled, this, [this] { draw(); });
}

void TopicFieldView::setData(std::shared_ptr<const TopicRunData> data) {
  m_data = std::move(data);
  const QString previous = m_field->currentText();
  {
    const QSignalBlocker block(m_field);
    m_field->clear();
    if (m_data && m_data->fields)
      for (const auto& name : core::documentFieldNames(*m_data->fields)) m_field->addItem(qs(name));
    const int index = m_field->findText(previous);
    m_field->setCurrentIndex(index >= 0 ? index : (m_field->count() > 0 ? 0 : -1));
  }
  compute();
}

void TopicFieldView::setLabels(const QStringList& labels) {
  m_labels = labels;
  draw();
}

void TopicFieldView::setField(const QString& field) {
  const int index = m_field->findText(field);
  if (index >= 0) m_field->setCurrentIndex(index);
}

QStringList TopicFieldView::fields() const {
  QStringList out;
  for (int i = 0; i < m_field->count(); ++i) out << m_field->itemText(i);
  return out;
}

void TopicFieldView::setStacked(bool stacked) { m_stacked->setChecked(stacked); }

QString TopicFieldView::caption() const { return m_caption->text(); }

void TopicFieldView::compute() {
  const int generation = ++m_generation;
  if (!m_data || !m_data->fields || m_field->currentIndex() < 0 || !m_data->hasDocTopic()) {
    m_shares = {};
    draw();
    return;
  }
  runInBackground(
      this,
      [data = m_data, field = utf8(m_field->currentText())] {
        FieldShares out;
        try {
          const auto values = core::documentField(*data->fields, field);
          std::vector<std::int64_t> lengths;
          lengths.reserve(data->documents.size());
          for (const auto& d : data->documents) lengths.push_back(d.tokenCount);
          out.shares =
              data->docTopic.visit([&](const auto& theta) { return core::topicSharesByField(values, theta, lengths); });
        } catch (const std::exception& e) {
          out.error = qs(e.what());
        }
        return out;
      },
      [this, generation](FieldShares result) {
        if (generation != m_generation) return;
        m_shares = std::move(result.shares);
        m_error = result.error;
        draw();
        Q_EMIT sharesShown();
      });
}

void TopicFieldView::draw() {
  auto* chart = new QChart;
  const auto& s = m_shares;
  const int K = static_cast<int>(s.shares.cols());
  const auto G = static_cast<int>(s.groups.size());
  const auto name = [this](int k) { return topicDisplayName(m_data.get(), m_labels, k, 3); };
  m_stacked->setVisible(s.numeric);
  if (G > 0 && K > 0 && s.numeric) {
    auto* x = new QValueAxis;
    x->setTitleText(qs(s.field));
    x->setLabelFormat(QStringLiteral("%.0f"));
    auto* y = new QValueAxis;
    y->setTitleText(tr("share of the words"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    const bool stacked = m_stacked->isChecked();
    std::vector<double> below(static_cast<std::size_t>(G), 0.0);
    double top = 0.0;
    for (int k = 0; k < K; ++k) {
      auto* upper = new QLineSeries;
      QLineSeries* lower = stacked ? new QLineSeries : nullptr;
      for (int g = 0; g < G; ++g) {
        const double share = s.shares(g, k);
        const auto u = static_cast<std::size_t>(g);
        const double position = s.positions[u] + s.binWidth / 2;
        if (stacked) {
          lower->append(position, below[u]);
          below[u] += share;
          upper->append(position, below[u]);
        } else {
          upper->append(position, share);
          top = std::max(top, share);
        }
      }
      const QColor colour = topicColour(k, palette());
      QAbstractSeries* series = nullptr;
      if (stacked) {
        auto* area = new QAreaSeries(upper, lower);
        area->setColor(colour);
        area->setBorderColor(colour.darker(115));
        series = area;
      } else {
        upper->setPen(QPen(colour, 2, topicPenStyle(k)));
        series = upper;
      }
      series->setName(name(k));
      chart->addSeries(series);
      series->attachAxis(x);
      series->attachAxis(y);
      if (auto* area = qobject_cast<QAreaSeries*>(series)) {
        connect(area, &QAreaSeries::clicked, this, [this, k] { Q_EMIT topicActivated(k); });
        connect(area, &QAreaSeries::hovered, this,
                [this, k, name](const QPointF&, bool on) { m_chart->setToolTip(on ? name(k) : QString()); });
      } else if (auto* line = qobject_cast<QLineSeries*>(series)) {
        connect(line, &QLineSeries::clicked, this, [this, k] { Q_EMIT topicActivated(k); });
        connect(line, &QLineSeries::hovered, this,
                [this, k, name](const QPointF&, bool on) { m_chart->setToolTip(on ? name(k) : QString()); });
      }
    }
    const double first = s.positions.front(), last = s.positions.back() + s.binWidth;
    x->setRange(first, last > first ? last : first + 1);
    y->setRange(0.0, stacked ? 1.0 : std::max(top * 1.08, 1e-6));
    y->applyNiceNumbers();
  } else if (G > 0 && K > 0) {
    auto* bars = new QHorizontalStackedBarSeries;
    for (int k = 0; k < K; ++k) {
      auto* set = new QBarSet(name(k));
      set->setColor(topicColour(k, palette()));
      set->setBorderColor(topicColour(k, palette()).darker(115));
      for (int g = G - 1; g >= 0; --g) *set << s.shares(g, k);  // the largest group on top
      bars->append(set);
      connect(set, &QBarSet::clicked, this, [this, k](int) { Q_EMIT topicActivated(k); });
      connect(set, &QBarSet::hovered, this,
              [this, k, name](bool on, int) { m_chart->setToolTip(on ? name(k) : QString()); });
    }
    bars->setBarWidth(0.75);
    chart->addSeries(bars);
    auto* groups = new QBarCategoryAxis;
    QStringList names;
    for (int g = G - 1; g >= 0; --g)
      names << QStringLiteral("%1 (%2)")
                   .arg(qs(s.groups[static_cast<std::size_t>(g)]))
                   .arg(s.documents[static_cast<std::size_t>(g)]);
    groups->append(names);
    auto* share = new QValueAxis;
    share->setRange(0.0, 1.0);
    share->setTitleText(tr("share of the words"));
    chart->addAxis(groups, Qt::AlignLeft);
    chart->addAxis(share, Qt::AlignBottom);
    bars->attachAxis(groups);
    bars->attachAxis(share);
  }
  chart->legend()->setVisible(K > 0 && K <= kFieldLegendTopics);
  chart->legend()->setAlignment(Qt::AlignRight);
  chart->setTitle(G > 0 ? tr("Topics by %1").arg(qs(s.field)) : QString());
  styleChart(chart, palette());
  QChart* old = m_chart->chart();
  m_chart->setChart(chart);
  delete old;

  if (!m_error.isEmpty()) {
    m_caption->setText(tr("The topics cannot be broken down by this field: %1").arg(m_error.toHtmlEscaped()));
  } else if (!m_data || !m_data->hasDocTopic()) {
    m_caption->setText(tr("This run keeps no topic proportions of its documents."));
  } else if (m_field->count() == 0) {
    m_caption->setText(tr("The corpus has no times, labels or metadata to break the topics down by."));
  } else if (G > 0) {
    std::int64_t counted = 0;
    for (const auto n : s.documents) counted += n;
    QString text = tr("Each topic's share of the words of the documents with each %1, every document weighted by "
                      "its words (held-out documents with their folded-in proportions).")
                       .arg(qs(s.field).toHtmlEscaped());
    if (s.binWidth > 0) text += QLatin1Char(' ') + tr("Values in bins of %1.").arg(formatCompact(s.binWidth, 6));
    if (!s.numeric && s.groups.back() == "other")
      text += QLatin1Char(' ') + tr("The smallest groups are together as “other”.");
    if (K > kFieldLegendTopics)
      text += QLatin1Char(' ') + tr("Hover a topic for its name; click it to open it.");
    else
      text += QLatin1Char(' ') + tr("Click a topic to open it.");
    m_caption->setText(text);
  } else {
    m_caption->setText(tr("No document has a value of this field."));
  }
}

void TopicFieldView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) draw();
}

}  // namespace latent::ui
