// SPDX-License-Identifier: GPL-3.0-or-later
// BlockMatrixPage: three panes with titles, what goes in each, and the caption that explains them.
#include "ui/runs/blocks/block_matrix_page.hpp"

#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "ui/browsers/adjacency_view.hpp"
#include "ui/runs/blocks/block_density_view.hpp"
#include "ui/runs/blocks/block_run_data.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"

namespace latent::ui {
namespace {

QLabel* title(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  QFont f = label->font();
  f.setBold(true);
  label->setFont(f);
  label->setAlignment(Qt::AlignHCenter);
  label->setWordWrap(true);
  return label;
}

QWidget* pane(QLabel* heading, QWidget* body, QWidget* parent) {
  auto* box = new QWidget(parent);
  auto* layout = new QVBoxLayout(box);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addWidget(heading);
  layout->addWidget(body, 1);
  return box;
}

// "1–3" or "1, 4 and 6": block numbers (1-based) for a caption.
QString blockList(const std::vector<int>& blocks) {
  QStringList parts;
  for (std::size_t i = 0; i < blocks.size();) {
    std::size_t j = i;
    while (j + 1 < blocks.size() && blocks[j + 1] == blocks[j] + 1) ++j;
    parts << (j > i + 1 ? QStringLiteral("%1–%2").arg(blocks[i] + 1).arg(blocks[j] + 1)
                        : QString::number(blocks[i] + 1));
    if (j == i + 1) parts << QString::number(blocks[j] + 1);
    i = j + 1;
  }
  return parts.join(QStringLiteral(", "));
}

// The rows and columns of `kept` blocks (all of them when that is every one).
DensityGrid keepBlocks(DensityGrid grid, const std::vector<int>& kept) {
  if (static_cast<Eigen::Index>(kept.size()) == grid.values.rows()) return grid;
  const auto pick = [&](const Eigen::MatrixXd& m) {
    if (m.rows() != grid.values.rows() || m.cols() != grid.values.cols()) return m;
    Eigen::MatrixXd out(static_cast<Eigen::Index>(kept.size()), static_cast<Eigen::Index>(kept.size()));
    for (std::size_t r = 0; r < kept.size(); ++r)
      for (std::size_t c = 0; c < kept.size(); ++c)
        out(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = m(kept[r], kept[c]);
    return out;
  };
  const auto pickList = [&](const auto& list) {
    auto out = list;
    if (static_cast<Eigen::Index>(list.size()) != grid.values.rows()) return out;
    out.clear();
    for (const int k : kept) out.push_back(list[static_cast<decltype(list.size())>(k)]);
    return out;
  };
  grid.links = pick(grid.links);
  grid.pairs = pick(grid.pairs);
  grid.rowSizes = pickList(grid.rowSizes);
  grid.columnSizes = pickList(grid.columnSizes);
  grid.rowNames = pickList(grid.rowNames);
  grid.columnNames = pickList(grid.columnNames);
  grid.values = pick(grid.values);
  return grid;
}

}  // namespace

BlockMatrixPage::BlockMatrixPage(QWidget* parent) : QWidget(parent) {
  m_caption = new QLabel(this);
  m_caption->setTextFormat(Qt::RichText);
  m_caption->setWordWrap(true);

  m_fileOrder = new AdjacencyView(this);
  m_blockOrder = new AdjacencyView(this);
  m_fileDensity = new BlockDensityView(this);
  m_blockDensity = new BlockDensityView(this);
  m_blockMatrix = new BlockDensityView(this);
  auto name = [this](const char* what) {
    return
        [this, what] { return QStringLiteral("run-%1-%2").arg(m_data ? m_data->run.id : 0).arg(QLatin1String(what)); };
  };
  enableFigureExport(m_fileOrder, name("adjacency-file-order"));
  enableFigureExport(m_blockOrder, name("adjacency-by-block"));
  enableFigureExport(m_fileDensity, name("densities-file-order"));
  enableFigureExport(m_blockDensity, name("densities-by-block"));
  enableFigureExport(m_blockMatrix, name("block-matrix"));
  m_fileStack = new QStackedWidget(this);
  m_fileStack->addWidget(m_fileOrder);
  m_fileStack->addWidget(m_fileDensity);
  m_blockStack = new QStackedWidget(this);
  m_blockStack->addWidget(m_blockOrder);
  m_blockStack->addWidget(m_blockDensity);

  m_fileTitle = title(tr("File order"), this);
  m_blockTitle = title(tr("Ordered by block"), this);
  auto* panes = new QSplitter(Qt::Horizontal, this);
  panes->addWidget(pane(m_fileTitle, m_fileStack, panes));
  panes->addWidget(pane(m_blockTitle, m_blockStack, panes));
  panes->addWidget(pane(title(tr("Link probability between blocks"), this), m_blockMatrix, panes));
  for (int i = 0; i < 3; ++i) panes->setStretchFactor(i, 1);
  panes->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addWidget(m_caption);
  layout->addWidget(panes, 1);
}

bool BlockMatrixPage::isAggregated() const noexcept { return m_data && m_data->aggregated; }

QString BlockMatrixPage::captionText() const { return m_caption->text(); }

void BlockMatrixPage::setData(std::shared_ptr<const BlockRunData> data) {
  m_data = std::move(data);
  if (!m_data) {
    m_fileOrder->setGraph(nullptr);
    m_blockOrder->setGraph(nullptr);
    m_blockMatrix->setGrid({});
    m_caption->clear();
    return;
  }
  const auto& d = *m_data;
  const bool directed = d.graph && d.graph->directed;
  QStringList names;
  for (int k = 0; k < d.blockCount(); ++k)
    names << (d.twoTypes() && d.blockType[static_cast<std::size_t>(k)] >= 0
                  ? QStringLiteral("%1 · %2").arg(d.blockName(k), d.typeNames[d.blockType[static_cast<std::size_t>(k)]])
                  : d.blockName(k));

  // A block no node has as its most probable one holds no pairs: its row of link probabilities is
  // the prior's, not something the data showed, so the matrices leave it out.
  std::vector<int> kept;
  for (int k = 0; k < d.blockCount(); ++k)
    if (d.blockSizes[static_cast<std::size_t>(k)] > 0) kept.push_back(k);
  const int emptyBlocks = d.blockCount() - static_cast<int>(kept.size());

  // Pair by pair when the graph is small enough, else densities between groups of nodes.
  if (d.aggregated) {
    m_fileOrder->setGraph(nullptr);
    m_blockOrder->setGraph(nullptr);
    m_fileDensity->setGrid(d.fileOrderDensity);
    DensityGrid blocks = d.blockDensity;
    blocks.rowNames = blocks.columnNames = names;
    m_blockDensity->setGrid(keepBlocks(std::move(blocks), kept));
    m_fileStack->setCurrentWidget(m_fileDensity);
    m_blockStack->setCurrentWidget(m_blockDensity);
  } else {
    m_fileOrder->setGraph(d.graph);
    m_blockOrder->setGraph(d.graph, d.nodeOrder, d.blockStarts);
    m_fileStack->setCurrentWidget(m_fileOrder);
    m_blockStack->setCurrentWidget(m_blockOrder);
  }

  DensityGrid grid;
  grid.values = d.blockMatrix;
  grid.rowSizes = grid.columnSizes = d.blockSizes;
  grid.rowNames = grid.columnNames = names;
  grid.links = d.blockLinks;
  grid.pairs = d.blockPairs;
  grid.valueName = tr("link probability");
  grid.directed = directed;
  if (directed) {
    grid.rowAxis = tr("from block");
    grid.columnAxis = tr("to block");
  }
  m_blockMatrix->setGrid(keepBlocks(std::move(grid), kept));
  m_blockMatrix->setToolTip(QString());

  QStringList caption;
  caption << tr("<b>File order</b>: the adjacency matrix as the nodes come in the file. <b>Ordered by block</b>: the "
                "same matrix with the nodes sorted by their block (%1), lines where the block changes; a good fit "
                "shows dense and empty rectangles. <b>Link probability between blocks</b>: the model's estimate "
                "(posterior mean) for a node of the row's block and one of the column's, with the number of nodes "
                "in each block; hover a cell for the links actually seen.")
                 .arg(d.storedOrder ? tr("the run's own order: by most likely block, then by how surely")
                                    : tr("by largest membership, then by its weight"));
  if (d.aggregated)
    caption << tr("With %1 nodes the graph is too large to draw pair by pair: the left matrix groups every %2 nodes in "
                  "file order, the middle one groups the nodes by block (wider cells for bigger blocks), and each cell "
                  "is shaded by the share of its pairs that are linked.")
                   .arg(formatCount(d.nodeCount()))
                   .arg(d.binSize);
  if (d.twoTypes()) {
    std::vector<int> first, second;
    for (int k = 0; k < d.blockCount(); ++k) {
      if (d.blockType[static_cast<std::size_t>(k)] == 0) first.push_back(k);
      if (d.blockType[static_cast<std::size_t>(k)] == 1) second.push_back(k);
    }
    caption << tr("A two-type model: nodes of type “%1” and of type “%2” are clustered separately (blocks %3 hold "
                  "“%1” nodes, blocks %4 “%2” nodes), and links only join the two types, so the matrices are empty "
                  "within a type.")
                   .arg(d.typeNames[0].toHtmlEscaped(), d.typeNames[1].toHtmlEscaped(), blockList(first),
                        blockList(second));
  }
  if (emptyBlocks > 0)
    caption << (emptyBlocks == 1
                    ? tr("One block has no node as its most likely one and is not shown.")
                    : tr("%1 blocks have no node as their most likely one and are not shown.").arg(emptyBlocks));
  if (d.iteration >= 0)
    caption << tr("From the snapshot at %1: the run has no final result.").arg(d.sourceText().toHtmlEscaped());
  m_caption->setText(caption.join(QLatin1Char(' ')));
  m_fileTitle->setText(d.aggregated ? tr("File order (%1 nodes per cell)").arg(d.binSize) : tr("File order"));
  m_blockTitle->setText(d.aggregated ? tr("Ordered by block (densities)") : tr("Ordered by block"));
}

}  // namespace latent::ui
