// SPDX-License-Identifier: GPL-3.0-or-later
// GraphBrowser: loading off the GUI thread, node table, ordering by attribute or degree.
#include "ui/browsers/graph_browser.hpp"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

#include "core/data/graph_layout.hpp"
#include "core/store/graph_store.hpp"
#include "core/util/parse_number.hpp"
#include "ui/browsers/adjacency_view.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/util/background.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/table_style.hpp"
#include "ui/util/topic_colours.hpp"
#include "ui/util/topic_marker.hpp"
#include "ui/widgets/network_canvas.hpp"

namespace latent::ui {
namespace {

struct LoadedGraph {
  core::DatasetInfo dataset;
  std::shared_ptr<const core::Graph> graph;
  Eigen::MatrixX2d layout;
  QString layoutError;
  QString error;
};

constexpr int kLegendValues = 12;

// A numeric item that sorts as a number.
QTableWidgetItem* numberItem(qint64 value) {
  auto* item = new QTableWidgetItem;
  item->setData(Qt::EditRole, value);
  item->setData(Qt::DisplayRole, value);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

}  // namespace

GraphBrowser::GraphBrowser(std::filesystem::path projectFile, qint64 datasetId, QWidget* parent)
    : TabPage(QStringLiteral("dataset:%1").arg(datasetId), parent),
      m_projectFile(std::move(projectFile)),
      m_datasetId(datasetId) {
  auto* page = new QWidget(this);
  m_summary = new QLabel(page);
  m_summary->setWordWrap(true);
  m_summary->setTextFormat(Qt::RichText);

  m_nodes = new QTableWidget(page);
  enableTableExport(m_nodes, [] { return QStringLiteral("nodes.csv"); });
  m_nodes->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_nodes->setSelectionBehavior(QAbstractItemView::SelectRows);
  makeCompact(m_nodes);
  m_nodes->setSortingEnabled(true);

  m_order = new QComboBox(page);
  m_order->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  m_adjacency = new AdjacencyView(page);
  enableFigureExport(m_adjacency, [] { return QStringLiteral("adjacency-matrix"); });
  auto* orderRow = new QHBoxLayout;
  orderRow->addWidget(new QLabel(tr("Order nodes by:"), page));
  orderRow->addWidget(m_order);
  orderRow->addStretch(1);
  auto* hint = new QLabel(tr("Adjacency matrix: a filled cell is an edge from the row's node to the column's "
                             "(stronger colour: heavier). Hover a cell for the two nodes."),
                          page);
  hint->setWordWrap(true);
  hint->setForegroundRole(QPalette::PlaceholderText);

  auto* right = new QWidget(page);
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(0, 0, 0, 0);
  rightLayout->addLayout(orderRow);

  m_drawing = new NetworkCanvas(page);
  enableFigureExport(m_drawing, [] { return QStringLiteral("graph-drawing"); });
  m_drawing->setToolTipText([this](std::int64_t node) {
    if (!m_graph) return QString();
    const auto i = static_cast<std::size_t>(node);
    QString text = QStringLiteral("<b>%1</b>").arg(qs(m_graph->nodeNames[i]).toHtmlEscaped());
    for (std::size_t a = 0; a < m_graph->attributeNames.size(); ++a)
      if (i < m_graph->attributes[a].size() && !m_graph->attributes[a][i].empty())
        text += QStringLiteral("<br>%1: %2")
                    .arg(qs(m_graph->attributeNames[a]), qs(m_graph->attributes[a][i]))
                    .toHtmlEscaped();
    return text + tr("<br>degree %1").arg(m_degree[i]);
  });
  connect(m_drawing, &NetworkCanvas::nodeActivated, this, [this](qint64 node) {
    // The node's row in the table, wherever sorting put it.
    for (int row = 0; row < m_nodes->rowCount(); ++row)
      if (m_nodes->item(row, 0) && m_nodes->item(row, 0)->data(Qt::EditRole).toLongLong() == node + 1) {
        m_nodes->selectRow(row);
        m_nodes->scrollToItem(m_nodes->item(row, 0));
        break;
      }
  });
  m_drawingLegend = new QLabel(page);
  m_drawingLegend->setWordWrap(true);
  m_drawingLegend->setTextFormat(Qt::RichText);
  auto* drawingHint = new QLabel(tr("Nodes placed by a force-directed layout (linked nodes pulled together), sized by "
                                    "degree, coloured by the attribute nodes are ordered by. Wheel to zoom, drag to "
                                    "pan, double-click to see it all; click a node to find it in the table."),
                                 page);
  drawingHint->setWordWrap(true);
  drawingHint->setForegroundRole(QPalette::PlaceholderText);
  auto* drawingPage = new QWidget(page);
  auto* drawingLayout = new QVBoxLayout(drawingPage);
  drawingLayout->setContentsMargins(0, 0, 0, 0);
  drawingLayout->addWidget(m_drawing, 1);
  drawingLayout->addWidget(m_drawingLegend);
  drawingLayout->addWidget(drawingHint);

  auto* matrixPage = new QWidget(page);
  auto* matrixLayout = new QVBoxLayout(matrixPage);
  matrixLayout->setContentsMargins(0, 0, 0, 0);
  matrixLayout->addWidget(m_adjacency, 1);
  matrixLayout->addWidget(hint);
  m_views = new QTabWidget(page);
  m_views->setDocumentMode(true);
  m_views->addTab(matrixPage, tr("Adjacency matrix"));
  m_views->addTab(drawingPage, tr("Drawing"));
  rightLayout->addWidget(m_views, 1);

  auto* splitter = new QSplitter(Qt::Horizontal, page);
  splitter->addWidget(m_nodes);
  splitter->addWidget(right);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({380, 620});
  splitter->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(10, 8, 10, 8);
  layout->addWidget(m_summary);
  layout->addWidget(splitter, 1);
  setContent(page);

  connect(m_order, &QComboBox::currentIndexChanged, this, &GraphBrowser::applyOrder);
  load();
}

void GraphBrowser::load() {
  showLoading();
  runInBackground(
      this,
      [file = m_projectFile, id = m_datasetId] {
        LoadedGraph out;
        try {
          core::Project project(offGuiThread(file), core::Project::Access::ReadOnly);
          out.dataset = project.dataset(id);
          out.graph = std::make_shared<const core::Graph>(core::loadGraph(project, id));
          try {
            out.layout = core::layoutGraph(static_cast<std::int64_t>(out.graph->nodeCount()), out.graph->edges,
                                           core::kDrawingLayoutSeed);
          } catch (const std::exception& e) {
            out.layoutError = qs(e.what());
          }
        } catch (const std::exception& e) {
          out.error = qs(e.what());
        }
        return out;
      },
      [this](LoadedGraph loaded) {
        if (!loaded.error.isEmpty()) {
          showError(tr("Could not read this graph: %1").arg(loaded.error));
          return;
        }
        m_dataset = loaded.dataset;
        m_graph = loaded.graph;
        m_layout = std::move(loaded.layout);
        m_layoutError = loaded.layoutError;
        fill();
        showContent();
      });
}

void GraphBrowser::fill() {
  const auto& g = *m_graph;
  const int n = static_cast<int>(g.nodeCount());
  m_degree.assign(static_cast<std::size_t>(n), 0);
  for (const auto& e : g.edges) {
    if (e.source >= 0 && e.source < n) ++m_degree[static_cast<std::size_t>(e.source)];
    if (e.target >= 0 && e.target < n) ++m_degree[static_cast<std::size_t>(e.target)];
  }
  QStringList attributes;
  for (const auto& a : g.attributeNames) attributes << qs(a);
  const QString density =
      n > 1 ? formatReal(
                  static_cast<double>(g.edgeCount()) / (static_cast<double>(n) * (n - 1) / (g.directed ? 1.0 : 2.0)), 3)
            : QStringLiteral("–");
  m_summary->setText(
      QStringLiteral("<b>%1</b> &nbsp;<span style=\"color:gray\">%2 · %3 · %4</span>")
          .arg(qs(m_dataset.name).toHtmlEscaped(), datasetSummaryText(m_dataset), tr("density %1").arg(density),
               attributes.isEmpty() ? tr("no node attributes")
                                    : tr("attributes: %1").arg(attributes.join(QStringLiteral(", ")).toHtmlEscaped())));

  QStringList headers{tr("#"), tr("Id"), tr("Name")};
  headers << attributes << (g.directed ? tr("Degree (in + out)") : tr("Degree"));
  m_nodes->setSortingEnabled(false);
  m_nodes->clear();
  m_nodes->setColumnCount(static_cast<int>(headers.size()));
  m_nodes->setHorizontalHeaderLabels(headers);
  m_nodes->setRowCount(n);
  for (int i = 0; i < n; ++i) {
    const auto node = static_cast<std::size_t>(i);
    int column = 0;
    m_nodes->setItem(i, column++, numberItem(i + 1));
    m_nodes->setItem(i, column++, new QTableWidgetItem(qs(g.nodeIds[node])));
    m_nodes->setItem(i, column++, new QTableWidgetItem(qs(g.nodeNames[node])));
    for (std::size_t a = 0; a < g.attributeNames.size(); ++a)
      m_nodes->setItem(
          i, column++,
          new QTableWidgetItem(a < g.attributes.size() && node < g.attributes[a].size() ? qs(g.attributes[a][node])
                                                                                        : QString()));
    m_nodes->setItem(i, column, numberItem(m_degree[node]));
  }
  m_nodes->setSortingEnabled(true);
  m_nodes->sortByColumn(0, Qt::AscendingOrder);
  // The row number only repeats ids that are 1..n already.
  bool plainIds = true;
  for (int i = 0; i < n && plainIds; ++i) plainIds = g.nodeIds[static_cast<std::size_t>(i)] == std::to_string(i + 1);
  m_nodes->setColumnHidden(0, plainIds);
  m_nodes->resizeColumnsToContents();

  const QSignalBlocker block(m_order);
  m_order->clear();
  m_order->addItem(tr("File order"), QString());
  for (const auto& a : attributes) m_order->addItem(a, a);
  m_order->addItem(tr("Degree"), QStringLiteral("\x01"
                                                "degree"));
  m_adjacency->setGraph(m_graph);
  if (!m_layoutError.isEmpty()) m_drawing->setEmptyText(tr("The graph cannot be drawn: %1").arg(m_layoutError));
  colourDrawing(QString());
}

void GraphBrowser::changeEvent(QEvent* event) {
  TabPage::changeEvent(event);
  if (event->type() != QEvent::PaletteChange || !m_graph || !m_order) return;
  const QString key = m_order->currentData().toString();
  colourDrawing(key.startsWith(QChar(1)) ? QString() : key);
}

void GraphBrowser::colourDrawing(const QString& attribute) {
  NetworkDrawing drawing;
  const auto n = m_graph ? m_graph->nodeCount() : 0;
  QStringList legend;
  if (n > 0 && m_layout.rows() == static_cast<Eigen::Index>(n)) {
    drawing.positions = m_layout;
    for (const auto& e : m_graph->edges) drawing.edges.emplace_back(e.source, e.target);
    const int largest = m_degree.empty() ? 0 : *std::max_element(m_degree.begin(), m_degree.end());
    for (std::size_t i = 0; i < n; ++i) {
      drawing.nodeSizes.push_back(largest > 0 ? double(m_degree[i]) / largest : 0.0);
      drawing.labels.push_back(qs(m_graph->nodeNames[i]));
    }
    const auto a = attribute.isEmpty() ? std::nullopt : m_graph->attributeIndex(utf8(attribute));
    if (a && m_graph->attributes[*a].size() == n) {
      // Values in order of first appearance, each its own colour; nodes without one keep the text colour.
      std::vector<std::string> values;
      drawing.nodeColours.resize(n);
      drawing.nodeMarkers.assign(n, TopicMarker::Disc);
      for (std::size_t i = 0; i < n; ++i) {
        const auto& v = m_graph->attributes[*a][i];
        if (v.empty()) continue;
        auto at = std::find(values.begin(), values.end(), v);
        if (at == values.end()) at = values.insert(values.end(), v);
        const int value = static_cast<int>(at - values.begin());
        drawing.nodeColours[i] = topicColour(value, palette());
        drawing.nodeMarkers[i] = topicMarker(value);
      }
      for (std::size_t c = 0; c < values.size() && c < static_cast<std::size_t>(kLegendValues); ++c)
        legend << QStringLiteral("<span style=\"color:%1\">%2</span> %3")
                      .arg(topicColour(static_cast<int>(c), palette()).name(),
                           topicMarkerGlyph(topicMarker(static_cast<int>(c))), qs(values[c]).toHtmlEscaped());
      if (values.size() > static_cast<std::size_t>(kLegendValues))
        legend << tr("and %1 more").arg(values.size() - kLegendValues);
    }
  }
  m_drawingLegend->setText(
      legend.isEmpty()
          ? QString()
          : QStringLiteral("<b>%1</b>: %2").arg(attribute.toHtmlEscaped(), legend.join(QStringLiteral(" &nbsp; "))));
  m_drawing->setDrawing(std::move(drawing));
}

QString GraphBrowser::drawingLegend() const { return m_drawingLegend->text(); }

bool GraphBrowser::setOrderBy(const QString& attribute) {
  const QString key = attribute == QLatin1String("degree") && (!m_graph || !m_graph->attributeIndex("degree"))
                          ? QStringLiteral(
                                "\x01"
                                "degree")
                          : attribute;
  const int index = m_order->findData(key);
  if (index < 0) return false;
  m_order->setCurrentIndex(index);
  applyOrder();
  return true;
}

void GraphBrowser::applyOrder() {
  if (!m_graph) return;
  const QString key = m_order->currentData().toString();
  const auto n = m_graph->nodeCount();
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::vector<int> starts;
  if (key == QLatin1String("\x01"
                           "degree")) {
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return m_degree[static_cast<std::size_t>(a)] > m_degree[static_cast<std::size_t>(b)];
    });
  } else if (!key.isEmpty()) {
    const auto a = m_graph->attributeIndex(utf8(key));
    if (a && *a < m_graph->attributes.size() && m_graph->attributes[*a].size() == n) {
      const auto& values = m_graph->attributes[*a];
      // Numbers sort as numbers when every value is one; otherwise as text. Missing values last.
      const bool numeric = std::all_of(values.begin(), values.end(), [](const std::string& v) {
        return v.empty() || core::parseReal(v).has_value();
      });
      auto less = [&](int x, int y) {
        const auto& vx = values[static_cast<std::size_t>(x)];
        const auto& vy = values[static_cast<std::size_t>(y)];
        if (vx.empty() != vy.empty()) return vy.empty();
        if (numeric && !vx.empty()) return *core::parseReal(vx) < *core::parseReal(vy);
        return vx < vy;
      };
      std::stable_sort(order.begin(), order.end(), less);
      for (std::size_t i = 1; i < n; ++i)
        if (values[static_cast<std::size_t>(order[i])] != values[static_cast<std::size_t>(order[i - 1])])
          starts.push_back(static_cast<int>(i));
    }
  }
  m_adjacency->setOrder(std::move(order), std::move(starts));
  colourDrawing(key.startsWith(QChar(1)) ? QString() : key);
}

}  // namespace latent::ui
