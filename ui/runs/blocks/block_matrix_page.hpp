// SPDX-License-Identifier: GPL-3.0-or-later
// The Blocks page of a block-model run (000 Fig. 27.19): the adjacency matrix in file order and
// permuted by the run's node order with lines where the block changes, side by side, and the
// block-pair link probabilities as a heat map. Graphs too large to draw pair by pair show the
// link density between groups of nodes instead, and say so.
#pragma once

#include <QWidget>

#include <memory>

class QLabel;
class QStackedWidget;

namespace latent::ui {

class AdjacencyView;
class BlockDensityView;
struct BlockRunData;

class BlockMatrixPage final : public QWidget {
  Q_OBJECT

 public:
  explicit BlockMatrixPage(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const BlockRunData> data);
  const std::shared_ptr<const BlockRunData>& data() const noexcept { return m_data; }

  // Pair by pair (graphs up to kMaxPairwiseNodes nodes).
  AdjacencyView* fileOrderView() const noexcept { return m_fileOrder; }
  AdjacencyView* blockOrderView() const noexcept { return m_blockOrder; }
  // Densities between groups of nodes (larger graphs).
  BlockDensityView* fileOrderDensity() const noexcept { return m_fileDensity; }
  BlockDensityView* blockOrderDensity() const noexcept { return m_blockDensity; }
  bool isAggregated() const noexcept;
  // The block-pair link probabilities.
  BlockDensityView* blockMatrixView() const noexcept { return m_blockMatrix; }
  QString captionText() const;

 private:
  std::shared_ptr<const BlockRunData> m_data;
  QLabel* m_caption = nullptr;
  QLabel* m_fileTitle = nullptr;
  QLabel* m_blockTitle = nullptr;
  QStackedWidget* m_fileStack = nullptr;
  QStackedWidget* m_blockStack = nullptr;
  AdjacencyView* m_fileOrder = nullptr;
  AdjacencyView* m_blockOrder = nullptr;
  BlockDensityView* m_fileDensity = nullptr;
  BlockDensityView* m_blockDensity = nullptr;
  BlockDensityView* m_blockMatrix = nullptr;
};

}  // namespace latent::ui
