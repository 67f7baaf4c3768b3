// SPDX-License-Identifier: GPL-3.0-or-later
// The document network page: its controls, colours, tooltips and predicted links.
#include "ui/runs/topics/document_network_view.hpp"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>

#include <algorithm>

#include "ui/runs/topics/document_links_data.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/topic_colours.hpp"
#include "ui/util/topic_marker.hpp"
#include "ui/widgets/network_canvas.hpp"

namespace latent::ui {
namespace {

// At first as many predicted links as a fortieth of the documents, within 20..100: enough to see
// where the model expects links, few enough to see the links there are.
int initialPredictedShown(std::size_t documents, std::size_t predicted) {
  const auto wanted = std::clamp<std::size_t>(documents / 40, 20, 100);
  return static_cast<int>(std::min(wanted, predicted));
}

constexpr int kTitleCharacters = 80;

}  // namespace

DocumentNetworkView::DocumentNetworkView(QWidget* parent) : QWidget(parent) {
  m_canvas = new NetworkCanvas(this);
  m_canvas->setEmptyText(tr("This corpus has no links to draw."));
  m_canvas->setToolTipText([this](std::int64_t d) { return toolTipFor(d); });
  connect(m_canvas, &NetworkCanvas::nodeActivated, this, &DocumentNetworkView::documentActivated);
  m_showLinks = new QCheckBox(tr("Links"), this);
  m_showLinks->setChecked(true);
  m_showLinks->setToolTip(tr("Draw the corpus's links (grey)."));
  connect(m_showLinks, &QCheckBox::toggled, m_canvas, &NetworkCanvas::setShowEdges);
  m_slider = new QSlider(Qt::Horizontal, this);
  m_slider->setToolTip(tr("How many of the model's most likely new links to draw (dashed), most likely first."));
  connect(m_slider, &QSlider::valueChanged, this, [this] { updateAccents(); });
  m_summary = new QLabel(this);
  m_legend = new QLabel(this);
  m_legend->setWordWrap(true);
  m_legend->setForegroundRole(QPalette::PlaceholderText);

  auto* controls = new QHBoxLayout;
  controls->addWidget(m_showLinks);
  controls->addSpacing(12);
  controls->addWidget(new QLabel(tr("Predicted links:"), this));
  controls->addWidget(m_slider, 1);
  controls->addWidget(m_summary);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(controls);
  layout->addWidget(m_canvas, 1);
  layout->addWidget(m_legend);
}

void DocumentNetworkView::setData(std::shared_ptr<const TopicRunData> data) {
  m_data = std::move(data);
  rebuild();
}

void DocumentNetworkView::setLabels(const QStringList& labels) {
  m_labels = labels;
  updateSummary();
}

int DocumentNetworkView::predictedShown() const noexcept { return m_slider->isEnabled() ? m_slider->value() : 0; }

void DocumentNetworkView::setPredictedShown(int count) { m_slider->setValue(count); }

int DocumentNetworkView::dominantTopic(qint64 document) const {
  if (!m_data || !m_data->hasDocTopic() || document < 0 || document >= m_data->docTopic.rows()) return -1;
  double largest = 0.0;
  const auto best = m_data->docTopic.rowArgMax(document, &largest);
  return largest <= 0.0 ? -1 : static_cast<int>(best);
}

QString DocumentNetworkView::topicName(int topic) const { return topicDisplayName(m_data.get(), m_labels, topic, 3); }

QString DocumentNetworkView::toolTipFor(qint64 document) const {
  if (!m_data || document < 0 || static_cast<std::size_t>(document) >= m_data->documents.size()) return {};
  const auto& d = m_data->documents[static_cast<std::size_t>(document)];
  QString title = d.title.empty() ? tr("Document %1").arg(document + 1) : qs(d.title);
  if (title.size() > kTitleCharacters) title = title.left(kTitleCharacters - 1) + QChar(0x2026);
  QString text = QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped());
  if (const int topic = dominantTopic(document); topic >= 0)
    text +=
        tr("<br>Topic %1 (%2)").arg(topicName(topic).toHtmlEscaped(), formatPercent(m_data->docTopic(document, topic)));
  if (const auto* links = m_data->links.get()) {
    const auto& ends = links->neighbours[static_cast<std::size_t>(document)];
    const auto out = std::count_if(ends.begin(), ends.end(), [](const auto& e) { return e.outgoing; });
    text += tr("<br>Links to %1, linked from %2").arg(out).arg(static_cast<qint64>(ends.size()) - out);
    if (links->hasPredictions() && !links->predictedOf[static_cast<std::size_t>(document)].empty()) {
      const auto& p =
          links->predicted[static_cast<std::size_t>(links->predictedOf[static_cast<std::size_t>(document)][0])];
      text += tr("<br>Most likely new link: %1 (%2)")
                  .arg(qs(m_data->documents[static_cast<std::size_t>(p.a == document ? p.b : p.a)].title)
                           .left(kTitleCharacters)
                           .toHtmlEscaped(),
                       formatPercent(p.probability));
    }
  }
  return text + tr("<br><i>Click to read it.</i>");
}

void DocumentNetworkView::rebuild() {
  NetworkDrawing drawing;
  const auto* links = m_data ? m_data->links.get() : nullptr;
  if (links && links->layout.rows() == static_cast<Eigen::Index>(m_data->documents.size())) {
    drawing.positions = links->layout;
    drawing.nodeColours.resize(m_data->documents.size());
    for (const auto& l : links->links) drawing.edges.emplace_back(l.source, l.target);
  } else if (links && !links->layoutError.isEmpty()) {
    m_canvas->setEmptyText(tr("The network cannot be drawn: %1").arg(links->layoutError));
  }
  m_canvas->setDrawing(std::move(drawing));
  recolour();
  const auto predicted = links ? links->predicted.size() : 0;
  {
    const QSignalBlocker block(m_slider);
    m_slider->setEnabled(predicted > 0);
    m_slider->setRange(0, static_cast<int>(predicted));
    m_slider->setValue(links ? initialPredictedShown(m_data->documents.size(), predicted) : 0);
  }
  updateAccents();
}

void DocumentNetworkView::updateAccents() {
  std::vector<NetworkDrawing::Accent> accents;
  const auto* links = m_data ? m_data->links.get() : nullptr;
  if (links && m_canvas->drawing().positions.rows() > 0) {
    const auto shown = static_cast<std::size_t>(predictedShown());
    const double top = links->predicted.empty() ? 1.0 : std::max(links->predicted.front().probability, 1e-12);
    for (std::size_t i = 0; i < shown && i < links->predicted.size(); ++i) {
      const auto& p = links->predicted[i];
      accents.push_back({p.a, p.b, p.probability / top});
    }
  }
  m_canvas->setAccents(std::move(accents));
  updateSummary();
}

void DocumentNetworkView::updateSummary() {
  const auto* links = m_data ? m_data->links.get() : nullptr;
  if (!links) {
    m_summary->clear();
    m_legend->clear();
    return;
  }
  const auto shown = static_cast<std::size_t>(predictedShown());
  if (links->hasPredictions()) {
    const double lowest = links->predicted[std::max<std::size_t>(shown, 1) - 1].probability;
    m_summary->setText(shown == 0 ? tr("none of %1").arg(links->predicted.size())
                                  : tr("%1 of %2 (probability %3 and above)")
                                        .arg(shown)
                                        .arg(links->predicted.size())
                                        .arg(formatPercent(lowest)));
  } else {
    m_summary->setText(tr("this model predicts none"));
  }
  QString legend = tr("%1 documents and %2 links. Each document is coloured by its most likely topic; grey lines "
                      "are the corpus's links")
                       .arg(m_data->documents.size())
                       .arg(links->links.size());
  legend += links->hasPredictions()
                ? tr("; dashed lines are the model's most likely new links between training documents.")
                : tr(". A model of linked documents (rtm) also draws the links it predicts.");
  m_legend->setText(legend + tr(" Wheel to zoom, drag to pan, double-click to see it all."));
}

QString DocumentNetworkView::summary() const { return m_summary->text(); }
QString DocumentNetworkView::legend() const { return m_legend->text(); }

void DocumentNetworkView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange && m_data) recolour();
}

void DocumentNetworkView::recolour() {
  NetworkDrawing drawing = m_canvas->drawing();
  drawing.nodeMarkers.assign(drawing.nodeColours.size(), TopicMarker::Disc);
  for (std::size_t d = 0; d < drawing.nodeColours.size(); ++d)
    if (const int topic = dominantTopic(static_cast<qint64>(d)); topic >= 0) {
      drawing.nodeColours[d] = topicColour(topic, palette());
      drawing.nodeMarkers[d] = topicMarker(topic);
    }
  m_canvas->setDrawing(std::move(drawing));
}

}  // namespace latent::ui
