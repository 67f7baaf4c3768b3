// SPDX-License-Identifier: GPL-3.0-or-later
// IntertopicMapView: the slider, the computation and the LDAvis export; IntertopicCanvas: the
// circles; IntertopicBars: the words' bars.
#include "ui/runs/topics/intertopic_map_view.hpp"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>

#include "core/io/ldavis_json.hpp"
#include "ui/runs/topics/intertopic_map_data.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/util/background.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

constexpr int kIntertopicSliderSteps = IntertopicMapData::kLambdaSteps;
constexpr double kIntertopicMargin = 12;    // round the map, beyond the largest circle
constexpr double kIntertopicMinRadius = 3;  // a topic with almost no tokens stays visible
constexpr double kBarsWordColumn = 120;     // the most a word's label takes before it is elided

// The largest circle's radius: a tenth of the map's shorter side, within reason, and no more than
// all circles together covering a fifth of the square (as LDAvis keeps many topics apart).
double intertopicMaxRadius(const QWidget* canvas, double largestShare) {
  const double side = std::min(canvas->width(), canvas->height());
  const double byArea = std::sqrt(std::max(largestShare, 0.0) * 0.2 / std::numbers::pi) * side;
  return std::max(6.0, std::min(std::clamp(0.1 * side, 14.0, 56.0), byArea));
}

// The grey of LDAvis's corpus-wide bars, readable on light and dark backgrounds.
QColor intertopicOverallColour(const QPalette& palette) {
  return mixColours(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.3);
}

}  // namespace

IntertopicMapView::IntertopicMapView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* intro = new QLabel(
      tr("Topics placed by how different their words are (Jensen-Shannon divergence, scaled to two principal "
         "coordinates): close topics use similar words. A circle's area is the topic's share of the words. Click "
         "a topic to see its words, ranked by relevance: at λ = 1 the words most probable in the topic, at λ = 0 "
         "those most exclusive to it. Hover a word to see which topics use it; double-click a topic to open it."),
      this);
  intro->setWordWrap(true);
  layout->addWidget(intro);
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Relevance λ"), this));
  m_slider = new QSlider(Qt::Horizontal, this);
  m_slider->setRange(0, kIntertopicSliderSteps);
  m_slider->setMaximumWidth(280);
  m_slider->setAccessibleName(tr("Relevance lambda"));
  m_slider->setValue(static_cast<int>(std::lround(kDefaultLambda * kIntertopicSliderSteps)));
  row->addWidget(m_slider);
  m_lambdaLabel = new QLabel(this);
  row->addWidget(m_lambdaLabel);
  m_status = new QLabel(this);
  m_status->setWordWrap(true);  // a map refused for its size says why in a few lines
  row->addWidget(m_status, 1);
  layout->addLayout(row);
  // Both halves in one figure, so that a saved image shows the map with its words.
  auto* figure = new QWidget(this);
  auto* halves = new QHBoxLayout(figure);
  halves->setContentsMargins(0, 0, 0, 0);
  m_canvas = new IntertopicCanvas(this);
  m_bars = new IntertopicBars(this);
  m_canvas->setParent(figure);
  m_bars->setParent(figure);
  halves->addWidget(m_canvas, 1);
  halves->addWidget(m_bars, 1);
  layout->addWidget(figure, 1);
  enableFigureExport(
      figure,
      [this] { return m_data ? QStringLiteral("run-%1-topic-map").arg(m_data->run.id) : QStringLiteral("topic-map"); },
      [this](QMenu& menu) {
        QAction* json = menu.addAction(tr("Save LDAvis &JSON…"));
        json->setEnabled(m_map != nullptr);
        connect(json, &QAction::triggered, this, &IntertopicMapView::chooseLdavisFile);
      });
  connect(m_slider, &QSlider::valueChanged, this,
          [this](int value) { setLambda(static_cast<double>(value) / kIntertopicSliderSteps); });
  refresh();
}

void IntertopicMapView::setData(std::shared_ptr<const TopicRunData> data) {
  m_data = std::move(data);
  m_map.reset();
  m_labels.clear();
  m_hoveredWord = -1;
  const int generation = ++m_generation;
  if (m_data) {
    m_selected = std::min(m_selected, m_data->topicCount() - 1);
    if (const auto refusal = intertopicMapRefusal(*m_data); !refusal.isEmpty()) {
      m_status->setText(refusal);
      refresh();
      return;
    }
    m_status->setText(tr("Computing the map…"));
    runInBackground(
        this,
        [data = m_data]() -> std::shared_ptr<const IntertopicMapData> {
          try {
            return computeIntertopicMap(*data);
          } catch (const std::exception&) {
            return nullptr;  // said on the page: the map could not be computed
          }
        },
        [this, generation](std::shared_ptr<const IntertopicMapData> map) {
          if (generation != m_generation) return;
          m_map = std::move(map);
          m_status->setText(m_map ? QString() : tr("The map could not be computed for this run."));
          refresh();
          Q_EMIT computed();
        });
  }
  refresh();
}

void IntertopicMapView::setLabels(const QStringList& labels) {
  m_labels = labels;
  refresh();
}

void IntertopicMapView::selectTopic(int topic) {
  m_selected = m_map && topic >= 0 && topic < m_map->topicCount() ? topic : -1;
  refresh();
}

void IntertopicMapView::setLambda(double lambda) {
  m_lambda = std::clamp(lambda, 0.0, 1.0);
  const QSignalBlocker block(m_slider);
  m_slider->setValue(static_cast<int>(std::lround(m_lambda * kIntertopicSliderSteps)));
  refresh();
}

void IntertopicMapView::setHoveredWord(std::int32_t word) {
  if (word == m_hoveredWord) return;
  m_hoveredWord = word;
  m_canvas->update();
  m_bars->update();
}

std::vector<std::int32_t> IntertopicMapView::shownWords() const {
  if (!m_map) return {};
  return m_selected >= 0 ? m_map->mostRelevant(m_selected, m_lambda) : m_map->salient;
}

QString IntertopicMapView::topicLabel(int topic) const { return topicDisplayName(m_data.get(), m_labels, topic, 3); }

QString IntertopicMapView::wordText(std::int32_t word) const { return m_data ? m_data->wordText(word) : QString(); }

void IntertopicMapView::refresh() {
  m_lambdaLabel->setText(QStringLiteral("λ = %1").arg(QString::number(m_lambda, 'f', 2)));
  m_canvas->update();
  m_bars->update();
}

void IntertopicMapView::chooseLdavisFile() {
  const QString suggested = m_data ? QStringLiteral("run-%1-ldavis.json").arg(m_data->run.id) : QString();
  const QString file =
      QFileDialog::getSaveFileName(this, tr("Save LDAvis JSON"), suggested, tr("LDAvis prepared data (*.json)"));
  if (!file.isEmpty()) saveLdavisJson(file);
}

void IntertopicMapView::saveLdavisJson(const QString& file) {
  if (!m_data || !m_map) {
    Q_EMIT ldavisSaved(file, tr("the map is not computed yet"));
    return;
  }
  runInBackground(
      this,
      [data = m_data, map = m_map, target = toPath(file)]() -> QString {
        const auto partial = std::filesystem::path(target.string() + ".partial");
        try {
          {
            std::ofstream out(partial, std::ios::binary | std::ios::trunc);
            if (!out) return QObject::tr("cannot write %1").arg(fromPath(partial));
            data->topicWord.withDense([&](const Eigen::MatrixXd& topicWord) {
              core::writeLdavisJson(out, topicWord, map->map.topicTokens, data->words);
            });
            out.flush();
            if (!out) return QObject::tr("cannot write %1").arg(fromPath(partial));
          }
          std::filesystem::rename(partial, target);
          return {};
        } catch (const std::exception& e) {
          std::error_code ignored;
          std::filesystem::remove(partial, ignored);
          return qs(e.what());
        }
      },
      [this, file](const QString& error) {
        m_status->setText(error.isEmpty() ? tr("Saved %1").arg(file) : tr("Not saved: %1").arg(error));
        Q_EMIT ldavisSaved(file, error);
      });
}

IntertopicCanvas::IntertopicCanvas(IntertopicMapView* owner) : QWidget(owner), m_owner(owner) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

double IntertopicCanvas::largestRadius() const {
  const auto* map = m_owner->map();
  if (!map || map->map.prevalence.empty()) return intertopicMaxRadius(this, 0.0);
  return intertopicMaxRadius(this, *std::max_element(map->map.prevalence.begin(), map->map.prevalence.end()));
}

QPointF IntertopicCanvas::topicPosition(int topic) const {
  const auto* map = m_owner->map();
  if (!map || topic < 0 || topic >= map->topicCount()) return {};
  const auto& xy = map->map.coordinates;
  const double minX = xy.col(0).minCoeff(), maxX = xy.col(0).maxCoeff();
  const double minY = xy.col(1).minCoeff(), maxY = xy.col(1).maxCoeff();
  // Equal scales on both axes: distances on the page are the scaling's distances.
  const double span = std::max({maxX - minX, maxY - minY, 1e-12});
  const double inset = largestRadius() + kIntertopicMargin;
  const double scale = std::max(1.0, std::min(width(), height()) - 2 * inset) / span;
  const QPointF centre(width() / 2.0, height() / 2.0);
  return centre + QPointF((xy(topic, 0) - (minX + maxX) / 2) * scale, -(xy(topic, 1) - (minY + maxY) / 2) * scale);
}

double IntertopicCanvas::topicRadius(int topic) const {
  const auto* map = m_owner->map();
  if (!map || topic < 0 || topic >= map->topicCount()) return 0;
  const double most = *std::max_element(map->map.prevalence.begin(), map->map.prevalence.end());
  const double largest = largestRadius();
  // Hovering a word: each topic's area is its share of the word (LDAvis's token table).
  if (m_owner->hoveredWord() >= 0) return largest * std::sqrt(map->topicShareOfWord(topic, m_owner->hoveredWord()));
  const double share = map->map.prevalence[static_cast<std::size_t>(topic)];
  return std::max(kIntertopicMinRadius, most > 0 ? largest * std::sqrt(share / most) : kIntertopicMinRadius);
}

int IntertopicCanvas::topicAt(const QPointF& point) const {
  const auto* map = m_owner->map();
  if (!map) return -1;
  // The nearest centre among the circles under the point, so that a small topic on a large one is reachable.
  int best = -1;
  double bestDistance = 0;
  for (int k = 0; k < map->topicCount(); ++k) {
    const QPointF d = topicPosition(k) - point;
    const double distance = std::hypot(d.x(), d.y());
    if (distance <= std::max(topicRadius(k), kIntertopicMinRadius) + 2 && (best < 0 || distance < bestDistance)) {
      best = k;
      bestDistance = distance;
    }
  }
  return best;
}

void IntertopicCanvas::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(rect(), palette().color(QPalette::Base));
  const auto* map = m_owner->map();
  if (!map) {
    painter.setPen(palette().color(QPalette::PlaceholderText));
    painter.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                     m_owner->data() ? tr("Computing the intertopic map…") : tr("This run has no topics to map."));
    return;
  }
  const QColor text = palette().color(QPalette::Text);
  // The axes through the origin of the principal coordinates, faint, named as in LDAvis.
  QColor axis = text;
  axis.setAlphaF(0.25f);
  painter.setPen(QPen(axis, 1, Qt::DashLine));
  const auto& xy = map->map.coordinates;
  const double minX = xy.col(0).minCoeff(), maxX = xy.col(0).maxCoeff();
  const double minY = xy.col(1).minCoeff(), maxY = xy.col(1).maxCoeff();
  const double span = std::max({maxX - minX, maxY - minY, 1e-12});
  const double inset = largestRadius() + kIntertopicMargin;
  const double scale = std::max(1.0, std::min(width(), height()) - 2 * inset) / span;
  const QPointF origin =
      QPointF(width() / 2.0, height() / 2.0) + QPointF(-(minX + maxX) / 2 * scale, (minY + maxY) / 2 * scale);
  painter.drawLine(QPointF(0, origin.y()), QPointF(width(), origin.y()));
  painter.drawLine(QPointF(origin.x(), 0), QPointF(origin.x(), height()));
  painter.setPen(axis.darker(100));
  painter.drawText(QRectF(0, origin.y() + 2, width() - 4, 20), Qt::AlignRight | Qt::AlignTop, tr("PC1"));
  painter.drawText(QRectF(origin.x() + 4, 2, 60, 20), Qt::AlignLeft | Qt::AlignTop, tr("PC2"));

  const int K = map->topicCount();
  const int selected = m_owner->selectedTopic();
  const bool byWord = m_owner->hoveredWord() >= 0;
  // Larger circles first, so that smaller ones stay visible on top of them.
  std::vector<int> order(static_cast<std::size_t>(K));
  for (int k = 0; k < K; ++k) order[static_cast<std::size_t>(k)] = k;
  std::stable_sort(order.begin(), order.end(), [this](int a, int b) { return topicRadius(a) > topicRadius(b); });
  QFont numberFont = font();
  numberFont.setBold(true);
  // The selected and the hovered topic on top of the others.
  std::vector<int> drawn = order;
  for (const int lifted : {selected, m_hover})
    if (const auto at = std::find(drawn.begin(), drawn.end(), lifted); at != drawn.end())
      std::rotate(at, at + 1, drawn.end());
  for (const int k : drawn) {
    const QPointF at = topicPosition(k);
    const double radius = topicRadius(k);
    const QColor colour = topicColour(k, palette());
    const bool lit = k == selected || k == m_hover;
    QColor fill = k == selected ? colour : topicTint(colour, palette(), byWord ? 0.7 : 0.45);
    fill.setAlphaF(k == selected ? 0.75f : 0.8f);
    painter.setPen(QPen(lit ? text : colour.darker(130), lit ? 2.0 : 1.0));
    painter.setBrush(fill);
    if (radius > 0.5) painter.drawEllipse(at, radius, radius);
  }
  // Every topic's number over all the circles, so that none is hidden under a neighbour.
  painter.setFont(numberFont);
  painter.setPen(text);
  for (const int k : drawn) {
    const QPointF at = topicPosition(k);
    painter.drawText(QRectF(at.x() - 20, at.y() - 10, 40, 20), Qt::AlignCenter, QString::number(k + 1));
  }
  // Names beside the circles where they fit without covering another name; every name on hover.
  painter.setFont(font());
  const QFontMetricsF metrics(font());
  std::vector<QRectF> placed;  // the circles, then each name placed
  for (int k = 0; k < K; ++k) {
    const double radius = topicRadius(k);
    placed.emplace_back(topicPosition(k) - QPointF(radius, radius), QSizeF(2 * radius, 2 * radius));
  }
  const auto tryLabel = [&](int k, bool always) {
    const QPointF at = topicPosition(k);
    const double radius = std::max(topicRadius(k), 8.0);
    const QString label = metrics.elidedText(m_owner->topicLabel(k), Qt::ElideRight, always ? width() : 180);
    const QSizeF size(metrics.horizontalAdvance(label) + 4, metrics.height());
    const QRectF candidates[] = {
        {QPointF(at.x() - size.width() / 2, at.y() + radius + 1), size},
        {QPointF(at.x() - size.width() / 2, at.y() - radius - 1 - size.height()), size},
        {QPointF(at.x() + radius + 3, at.y() - size.height() / 2), size},
        {QPointF(at.x() - radius - 3 - size.width(), at.y() - size.height() / 2), size},
    };
    for (const auto& box : candidates) {
      const bool inside = rect().contains(box.toAlignedRect());
      const QRectF own = placed[static_cast<std::size_t>(k)];
      const bool free = std::none_of(placed.begin(), placed.end(),
                                     [&](const QRectF& other) { return other != own && other.intersects(box); });
      if (always || (inside && free)) {
        QRectF shown = box;
        shown.moveLeft(std::clamp(shown.left(), 0.0, std::max(0.0, width() - shown.width())));
        if (always) {
          painter.setPen(Qt::NoPen);
          painter.setBrush(palette().color(QPalette::ToolTipBase));
          painter.drawRoundedRect(shown, 3, 3);
        }
        painter.setPen(always ? palette().color(QPalette::ToolTipText) : text);
        painter.drawText(shown, Qt::AlignCenter, label);
        placed.push_back(shown);
        return;
      }
    }
  };
  std::vector<int> byShare = order;  // larger topics named first
  for (const int k : byShare)
    if (k != m_hover) tryLabel(k, false);
  if (m_hover >= 0) tryLabel(m_hover, true);
}

void IntertopicCanvas::mouseMoveEvent(QMouseEvent* event) {
  const int topic = topicAt(event->position());
  if (topic == m_hover) return;
  m_hover = topic;
  setCursor(topic >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
  update();
}

void IntertopicCanvas::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  const int topic = topicAt(event->position());
  // Clicking the selected topic again, or the background, shows the most salient words.
  m_owner->selectTopic(topic == m_owner->selectedTopic() ? -1 : topic);
}

void IntertopicCanvas::mouseDoubleClickEvent(QMouseEvent* event) {
  const int topic = topicAt(event->position());
  if (topic >= 0) Q_EMIT m_owner->topicActivated(topic);
}

void IntertopicCanvas::leaveEvent(QEvent*) {
  if (m_hover < 0) return;
  m_hover = -1;
  update();
}

IntertopicBars::IntertopicBars(IntertopicMapView* owner) : QWidget(owner), m_owner(owner) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

QString IntertopicBars::title() const {
  const int topic = m_owner->selectedTopic();
  const auto* map = m_owner->map();
  if (!map) return {};
  // R words, or as many as the vocabulary has.
  const auto shown = static_cast<int>(m_owner->shownWords().size());
  if (topic < 0) return tr("Top %1 most salient terms").arg(shown);
  return tr("Top %1 most relevant terms for topic %2 (%3 of tokens)")
      .arg(shown)
      .arg(topic + 1)
      .arg(formatPercent(map->map.prevalence[static_cast<std::size_t>(topic)]));
}

namespace {

// Title, legend, then the rows; a row's height shares what is left among the R rows.
constexpr double kBarsHeader = 46, kBarsFooter = 22;

}  // namespace

QRectF IntertopicBars::rowRect(int row) const {
  const double rowHeight = std::clamp((height() - kBarsHeader - kBarsFooter) / IntertopicMapData::kTerms, 8.0, 22.0);
  return {0, kBarsHeader + row * rowHeight, static_cast<double>(width()), rowHeight};
}

int IntertopicBars::rowAt(const QPointF& point) const {
  const auto words = m_owner->shownWords();
  for (int row = 0; row < static_cast<int>(words.size()); ++row)
    if (rowRect(row).contains(point)) return row;
  return -1;
}

void IntertopicBars::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.fillRect(rect(), palette().color(QPalette::Base));
  const auto* map = m_owner->map();
  if (!map) return;
  const QColor text = palette().color(QPalette::Text);
  const int topic = m_owner->selectedTopic();
  const QColor overall = intertopicOverallColour(palette());
  const QColor inTopic = topic >= 0 ? topicColour(topic, palette()) : overall;
  QFont bold = font();
  bold.setBold(true);
  painter.setFont(bold);
  painter.setPen(text);
  painter.drawText(QRectF(4, 2, width() - 8, 20), Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetricsF(bold).elidedText(title(), Qt::ElideRight, width() - 8));
  painter.setFont(font());
  const QFontMetricsF metrics(font());
  // The legend: what the two bars of a row are.
  double x = 4;
  const auto legendEntry = [&](const QColor& colour, const QString& name) {
    painter.fillRect(QRectF(x, 27, 12, 12), colour);
    painter.setPen(text);
    painter.drawText(QRectF(x + 16, 24, metrics.horizontalAdvance(name) + 4, 18), Qt::AlignLeft | Qt::AlignVCenter,
                     name);
    x += 16 + metrics.horizontalAdvance(name) + 14;
  };
  legendEntry(overall, tr("Overall term frequency"));
  if (topic >= 0) legendEntry(inTopic, tr("Estimated term frequency within the selected topic"));

  const auto words = m_owner->shownWords();
  double wordColumn = 0;
  for (const auto w : words) wordColumn = std::max(wordColumn, metrics.horizontalAdvance(m_owner->wordText(w)));
  wordColumn = std::min(wordColumn + 8, kBarsWordColumn);
  double largest = 0;
  for (const auto w : words) largest = std::max(largest, map->map.termFrequency[static_cast<std::size_t>(w)]);
  const double barLeft = wordColumn + 4, barWidth = std::max(10.0, width() - barLeft - 12);
  for (int row = 0; row < static_cast<int>(words.size()); ++row) {
    const auto w = words[static_cast<std::size_t>(row)];
    const QRectF box = rowRect(row);
    if (w == m_owner->hoveredWord()) {
      QColor band = palette().color(QPalette::Highlight);
      band.setAlphaF(0.18f);
      painter.fillRect(box, band);
    }
    painter.setPen(text);
    painter.drawText(QRectF(0, box.top(), wordColumn, box.height()), Qt::AlignRight | Qt::AlignVCenter,
                     metrics.elidedText(m_owner->wordText(w), Qt::ElideRight, wordColumn));
    const double bar = box.height() * 0.75, top = box.top() + (box.height() - bar) / 2;
    const double total = map->map.termFrequency[static_cast<std::size_t>(w)];
    if (largest > 0) {
      painter.fillRect(QRectF(barLeft, top, barWidth * total / largest, bar), overall);
      if (topic >= 0)
        painter.fillRect(QRectF(barLeft, top, barWidth * map->map.termTopicFrequency(topic, w) / largest, bar),
                         inTopic);
    }
  }
  // The scale: 0 and the largest count shown.
  const double axisY = rowRect(static_cast<int>(words.size())).top() + 2;
  painter.setPen(overall);
  painter.drawLine(QPointF(barLeft, axisY), QPointF(barLeft + barWidth, axisY));
  painter.setPen(text);
  painter.drawText(QRectF(barLeft - 20, axisY, 40, 18), Qt::AlignHCenter | Qt::AlignTop, QStringLiteral("0"));
  painter.drawText(QRectF(barLeft + barWidth - 80, axisY, 90, 18), Qt::AlignRight | Qt::AlignTop,
                   formatCount(static_cast<std::int64_t>(std::llround(largest))));
}

void IntertopicBars::mouseMoveEvent(QMouseEvent* event) {
  const int row = rowAt(event->position());
  const auto words = m_owner->shownWords();
  const std::int32_t word = row >= 0 ? words[static_cast<std::size_t>(row)] : -1;
  m_owner->setHoveredWord(word);
  const auto* map = m_owner->map();
  if (word < 0 || !map) {
    setToolTip({});
    return;
  }
  QString tip = QStringLiteral("<b>%1</b><br>").arg(m_owner->wordText(word).toHtmlEscaped()) +
                tr("%1 in the corpus (as the model accounts for it)")
                    .arg(formatReal(map->map.termFrequency[static_cast<std::size_t>(word)], 4));
  if (const int topic = m_owner->selectedTopic(); topic >= 0)
    tip += tr("<br>%1 in topic %2 (%3 of the word)")
               .arg(formatReal(map->map.termTopicFrequency(topic, word), 4))
               .arg(topic + 1)
               .arg(formatPercent(map->topicShareOfWord(topic, word)));
  setToolTip(tip);
}

void IntertopicBars::leaveEvent(QEvent*) { m_owner->setHoveredWord(-1); }

}  // namespace latent::ui
