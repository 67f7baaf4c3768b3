// SPDX-License-Identifier: GPL-3.0-or-later
// BlockNetworkView: colouring by block or attribute, pies of memberships, the tooltips, and the
// network files of the context menu.
#include "ui/runs/blocks/block_network_view.hpp"

#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>
#include <sstream>

#include "core/data/graph_layout.hpp"
#include "ui/runs/blocks/block_run_data.hpp"
#include "ui/util/background.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/topic_colours.hpp"
#include "ui/util/topic_marker.hpp"
#include "ui/widgets/network_canvas.hpp"

namespace latent::ui {
namespace {

constexpr int kNetworkLegendEntries = 12;
// A block named in a mixed node's tooltip holds at least this share of it.
constexpr double kNetworkTooltipShare = 0.05;

struct NetworkLayout {
  Eigen::MatrixX2d positions;
  QString error;
};

// Writes the network file; "" when it worked, else the reason. Reads only what it is given, so it
// runs off the GUI thread.
QString writeBlockNetwork(const BlockRunData& data, const Eigen::MatrixX2d& layout, const QString& file,
                          core::GraphXmlFormat format) {
  core::GraphNodeResults results;
  results.description =
      utf8(QStringLiteral("run %1 (%2), %3").arg(data.run.id).arg(qs(data.run.model), data.sourceText()));
  results.blocks = data.dominant;
  results.memberships = data.memberships;
  if (layout.rows() == data.memberships.rows()) results.positions = layout;
  std::ostringstream text;
  try {
    core::writeGraphXml(*data.graph, results, format, text);
  } catch (const std::exception& e) {
    return qs(e.what());
  }
  QSaveFile out(file);
  if (!out.open(QIODevice::WriteOnly)) return out.errorString();
  const std::string bytes = text.str();
  if (out.write(bytes.data(), static_cast<qint64>(bytes.size())) != static_cast<qint64>(bytes.size()) || !out.commit())
    return out.errorString();
  return {};
}

}  // namespace

BlockNetworkView::BlockNetworkView(QWidget* parent) : QWidget(parent) {
  m_canvas = new NetworkCanvas(this);
  m_canvas->setEmptyText(tr("Laying out the graph…"));
  enableFigureExport(
      m_canvas,
      [this] { return m_data ? QStringLiteral("run-%1-network").arg(m_data->run.id) : QStringLiteral("network"); },
      [this](QMenu& menu) {
        QAction* gexf = menu.addAction(tr("Save Network for &Gephi (GEXF)…"));
        QAction* graphml = menu.addAction(tr("Save Network as Graph&ML…"));
        gexf->setEnabled(m_data != nullptr);
        graphml->setEnabled(m_data != nullptr);
        connect(gexf, &QAction::triggered, this, [this] { saveNetworkInteractively(core::GraphXmlFormat::Gexf); });
        connect(graphml, &QAction::triggered, this,
                [this] { saveNetworkInteractively(core::GraphXmlFormat::GraphMl); });
      });
  m_canvas->setToolTipText([this](std::int64_t node) { return toolTipFor(node); });

  m_colourBy = new QComboBox(this);
  m_colourBy->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  connect(m_colourBy, &QComboBox::currentIndexChanged, this, &BlockNetworkView::recolour);
  auto* row = new QHBoxLayout;
  row->addWidget(new QLabel(tr("Colour nodes by:"), this));
  row->addWidget(m_colourBy);
  row->addStretch(1);

  m_legend = new QLabel(this);
  m_legend->setWordWrap(true);
  m_legend->setTextFormat(Qt::RichText);
  auto* hint = new QLabel(tr("The graph laid out as on its Drawing tab, nodes sized by degree. Hover a node for its "
                             "block; wheel to zoom, drag to pan, double-click to see it all. Right-click to save the "
                             "picture, or the graph with the blocks as node attributes for Gephi or Cytoscape."),
                          this);
  hint->setWordWrap(true);
  hint->setForegroundRole(QPalette::PlaceholderText);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(10, 8, 10, 8);
  layout->addLayout(row);
  layout->addWidget(m_canvas, 1);
  layout->addWidget(m_legend);
  layout->addWidget(hint);
}

void BlockNetworkView::setData(std::shared_ptr<const BlockRunData> data) {
  m_data = std::move(data);
  if (m_data && m_data->graph && !hasLayout() && !m_layingOut) {
    m_layingOut = true;
    runInBackground(
        this,
        [graph = m_data->graph] {
          NetworkLayout out;
          try {
            out.positions = core::layoutGraph(static_cast<std::int64_t>(graph->nodeCount()), graph->edges,
                                              core::kDrawingLayoutSeed);
          } catch (const std::exception& e) {
            out.error = qs(e.what());
          }
          return out;
        },
        [this](NetworkLayout layout) {
          m_layingOut = false;
          m_layout = std::move(layout.positions);
          if (!layout.error.isEmpty()) m_canvas->setEmptyText(tr("The graph cannot be drawn: %1").arg(layout.error));
          recolour();
          Q_EMIT laidOut();
        });
  }
  m_degree.clear();
  if (m_data && m_data->graph) {
    const auto n = static_cast<std::int32_t>(m_data->graph->nodeCount());
    m_degree.assign(static_cast<std::size_t>(n), 0);
    for (const auto& e : m_data->graph->edges) {
      if (e.source >= 0 && e.source < n) ++m_degree[static_cast<std::size_t>(e.source)];
      if (e.target >= 0 && e.target < n) ++m_degree[static_cast<std::size_t>(e.target)];
    }
  }
  // The choices: the run's blocks first, then the graph's attributes, the known label first.
  const QString previous = colouring();
  const QSignalBlocker block(m_colourBy);
  m_colourBy->clear();
  m_colourBy->addItem(tr("Blocks of this run"), QString());
  if (m_data && m_data->graph) {
    QStringList names;
    if (m_data->hasLabels()) names << m_data->labelAttribute;
    for (const auto& a : m_data->graph->attributeNames)
      if (!names.contains(qs(a))) names << qs(a);
    for (const auto& name : names) m_colourBy->addItem(tr("%1 (node attribute)").arg(name), name);
  }
  m_colourBy->setCurrentIndex(std::max(0, m_colourBy->findData(previous)));
  recolour();
}

bool BlockNetworkView::setColouring(const QString& attribute) {
  const int index = m_colourBy->findData(attribute);
  if (index < 0) return false;
  m_colourBy->setCurrentIndex(index);
  recolour();
  return true;
}

QString BlockNetworkView::colouring() const { return m_colourBy->currentData().toString(); }

QString BlockNetworkView::legend() const { return m_legend->text(); }

bool BlockNetworkView::drawsPies() const { return m_canvas->drawing().pieShares.rows() > 0; }

QColor BlockNetworkView::blockColour(int block) const {
  return topicColour(m_data ? m_data->blockColourIndex(block) : block, palette());
}

void BlockNetworkView::recolour() {
  NetworkDrawing drawing;
  QStringList legend;
  const int n = m_data ? m_data->nodeCount() : 0;
  if (n == 0 || !m_data->graph || m_layout.rows() != n || static_cast<int>(m_data->graph->nodeCount()) != n) {
    m_legend->clear();
    m_canvas->setDrawing(std::move(drawing));
    return;
  }
  const auto& graph = *m_data->graph;
  drawing.positions = m_layout;
  for (const auto& e : graph.edges) drawing.edges.emplace_back(e.source, e.target);
  const int largest = m_degree.empty() ? 0 : *std::max_element(m_degree.begin(), m_degree.end());
  for (int i = 0; i < n; ++i) {
    drawing.nodeSizes.push_back(largest > 0 ? double(m_degree[static_cast<std::size_t>(i)]) / largest : 0.0);
    drawing.labels.push_back(m_data->nodeName(i));
  }
  const QString attribute = colouring();
  if (attribute.isEmpty()) {
    drawing.nodeColours.resize(static_cast<std::size_t>(n));
    drawing.nodeMarkers.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      const int block = m_data->dominant[static_cast<std::size_t>(i)];
      drawing.nodeColours[static_cast<std::size_t>(i)] = blockColour(block);
      drawing.nodeMarkers[static_cast<std::size_t>(i)] = topicMarker(m_data->blockColourIndex(block));
    }
    if (m_data->mixed && n <= kMaxPieNodes) {
      drawing.pieShares = m_data->memberships;
      for (int k = 0; k < m_data->blockCount(); ++k) drawing.pieColours.push_back(blockColour(k));
    }
    // Blocks no node has as its most probable one are left out: they colour nothing.
    int shown = 0, empty = 0;
    for (int k = 0; k < m_data->blockCount(); ++k) {
      const auto size = m_data->blockSizes[static_cast<std::size_t>(k)];
      if (size == 0) {
        ++empty;
        continue;
      }
      if (shown++ < kNetworkLegendEntries)
        legend << QStringLiteral("<span style=\"color:%1\">%2</span> %3 (%4)")
                      .arg(blockColour(k).name(), topicMarkerGlyph(topicMarker(m_data->blockColourIndex(k))),
                           m_data->blockName(k), formatCount(size));
    }
    if (shown > kNetworkLegendEntries) legend << tr("and %1 more").arg(shown - kNetworkLegendEntries);
    QString lead = drawing.pieShares.rows() > 0 ? tr("<b>Blocks</b>, each node a pie of its memberships:")
                                                : tr("<b>Most probable block</b> (with node count):");
    if (m_data->mixed && n > kMaxPieNodes)
      lead = tr("<b>Largest membership</b> (pies of the memberships above %1 nodes would not read):").arg(kMaxPieNodes);
    if (empty > 0)
      legend << (empty == 1 ? tr("1 block with no node not shown") : tr("%1 blocks with no node not shown").arg(empty));
    m_legend->setText(lead + QStringLiteral(" ") + legend.join(QStringLiteral(" &nbsp; ")));
  } else {
    const auto a = graph.attributeIndex(utf8(attribute));
    if (a && graph.attributes[*a].size() == static_cast<std::size_t>(n)) {
      // The known label keeps the colours of the other block pages; other attributes take values
      // in order of first appearance. Nodes without a value keep the text colour.
      std::vector<std::string> values;
      if (attribute == m_data->labelAttribute)
        for (const auto& name : m_data->labelNames) values.push_back(utf8(name));
      drawing.nodeColours.resize(static_cast<std::size_t>(n));
      drawing.nodeMarkers.assign(static_cast<std::size_t>(n), TopicMarker::Disc);
      for (int i = 0; i < n; ++i) {
        const auto& v = graph.attributes[*a][static_cast<std::size_t>(i)];
        if (v.empty()) continue;
        auto at = std::find(values.begin(), values.end(), v);
        if (at == values.end()) at = values.insert(values.end(), v);
        const int value = static_cast<int>(at - values.begin());
        drawing.nodeColours[static_cast<std::size_t>(i)] = topicColour(value, palette());
        drawing.nodeMarkers[static_cast<std::size_t>(i)] = topicMarker(value);
      }
      for (std::size_t c = 0; c < values.size() && c < static_cast<std::size_t>(kNetworkLegendEntries); ++c)
        legend << QStringLiteral("<span style=\"color:%1\">%2</span> %3")
                      .arg(topicColour(static_cast<int>(c), palette()).name(),
                           topicMarkerGlyph(topicMarker(static_cast<int>(c))), qs(values[c]).toHtmlEscaped());
      if (values.size() > static_cast<std::size_t>(kNetworkLegendEntries))
        legend << tr("and %1 more").arg(values.size() - kNetworkLegendEntries);
    }
    m_legend->setText(QStringLiteral("<b>%1</b>: %2").arg(attribute.toHtmlEscaped(), legend.join(" &nbsp; ")));
  }
  m_canvas->setDrawing(std::move(drawing));
}

QString BlockNetworkView::toolTipFor(qint64 node) const {
  if (!m_data || node < 0 || node >= m_data->nodeCount()) return {};
  const auto i = static_cast<std::size_t>(node);
  const int block = m_data->dominant[i];
  QString text = QStringLiteral("<b>%1</b><br>%2 (%3)")
                     .arg(m_data->nodeName(static_cast<int>(node)).toHtmlEscaped(), m_data->blockName(block),
                          formatPercent(m_data->memberships(static_cast<Eigen::Index>(node), block)));
  if (m_data->mixed) {
    // The other blocks that hold a visible share of the node, largest first.
    std::vector<int> blocks(static_cast<std::size_t>(m_data->blockCount()));
    std::iota(blocks.begin(), blocks.end(), 0);
    const auto row = static_cast<Eigen::Index>(node);
    std::stable_sort(blocks.begin(), blocks.end(),
                     [&](int a, int b) { return m_data->memberships(row, a) > m_data->memberships(row, b); });
    for (const int k : blocks)
      if (k != block && m_data->memberships(row, k) >= kNetworkTooltipShare)
        text += QStringLiteral("<br>%1 (%2)").arg(m_data->blockName(k), formatPercent(m_data->memberships(row, k)));
  }
  const auto& graph = *m_data->graph;
  for (std::size_t a = 0; a < graph.attributeNames.size(); ++a)
    if (i < graph.attributes[a].size() && !graph.attributes[a][i].empty())
      text += QStringLiteral("<br>%1: %2").arg(qs(graph.attributeNames[a]), qs(graph.attributes[a][i])).toHtmlEscaped();
  if (i < m_degree.size()) text += tr("<br>degree %1").arg(m_degree[i]);
  return text;
}

bool BlockNetworkView::saveNetwork(const QString& file, core::GraphXmlFormat format, QString* error) const {
  if (!m_data || !m_data->graph) {
    if (error) *error = tr("no run is shown");
    return false;
  }
  const QString problem = writeBlockNetwork(*m_data, m_layout, file, format);
  if (error) *error = problem;
  return problem.isEmpty();
}

void BlockNetworkView::saveNetworkInteractively(core::GraphXmlFormat format) {
  if (!m_data || !m_data->graph) return;
  const bool gexf = format == core::GraphXmlFormat::Gexf;
  const QString suffix = gexf ? QStringLiteral("gexf") : QStringLiteral("graphml");
  QString file =
      QFileDialog::getSaveFileName(this, tr("Save Network"), exportName(m_canvas) + QLatin1Char('.') + suffix,
                                   gexf ? tr("GEXF files for Gephi (*.gexf)") : tr("GraphML files (*.graphml)"));
  if (file.isEmpty()) return;
  if (QFileInfo(file).suffix().isEmpty()) file += QLatin1Char('.') + suffix;
  runInBackground(
      this, [data = m_data, layout = m_layout, file, format] { return writeBlockNetwork(*data, layout, file, format); },
      [this](const QString& problem) {
        if (!problem.isEmpty()) QMessageBox::warning(this, tr("Save Network"), problem);
      });
}

void BlockNetworkView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) recolour();
}

}  // namespace latent::ui
