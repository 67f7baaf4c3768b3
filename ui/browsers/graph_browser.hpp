// SPDX-License-Identifier: GPL-3.0-or-later
// The graph browser tab: summary, node list (id, name, attributes, degree), the adjacency preview,
// orderable by a node attribute so that known groups show as blocks, and a node-link drawing (a
// force-directed layout computed off the GUI thread) with nodes sized by degree and coloured by
// the same attribute.
#pragma once

#include <filesystem>
#include <memory>

#include <Eigen/Core>

#include "core/data/graph.hpp"
#include "core/store/project.hpp"
#include "ui/widgets/tab_page.hpp"

class QComboBox;
class QLabel;
class QTabWidget;
class QTableWidget;

namespace latent::ui {

class AdjacencyView;
class NetworkCanvas;

class GraphBrowser final : public TabPage {
  Q_OBJECT

 public:
  GraphBrowser(std::filesystem::path projectFile, qint64 datasetId, QWidget* parent = nullptr);

  // "" = file order, "degree", or an attribute name. Returns false when there is no such order.
  bool setOrderBy(const QString& attribute);

  AdjacencyView* adjacency() const noexcept { return m_adjacency; }
  QTableWidget* nodeTable() const noexcept { return m_nodes; }
  NetworkCanvas* drawing() const noexcept { return m_drawing; }
  QTabWidget* views() const noexcept { return m_views; }
  // The drawing's colour key: "colour value" pairs as shown under it.
  QString drawingLegend() const;
  const core::Graph* graph() const noexcept { return m_graph.get(); }

 protected:
  // The drawing's node colours are drawn from the palette: recoloured when it changes.
  void changeEvent(QEvent* event) override;

 private:
  void load();
  void fill();
  void applyOrder();
  void colourDrawing(const QString& attribute);

  std::filesystem::path m_projectFile;
  qint64 m_datasetId;
  core::DatasetInfo m_dataset;
  std::shared_ptr<const core::Graph> m_graph;
  std::vector<int> m_degree;
  Eigen::MatrixX2d m_layout;
  QString m_layoutError;

  QLabel* m_summary = nullptr;
  QTableWidget* m_nodes = nullptr;
  QComboBox* m_order = nullptr;
  AdjacencyView* m_adjacency = nullptr;
  QTabWidget* m_views = nullptr;
  NetworkCanvas* m_drawing = nullptr;
  QLabel* m_drawingLegend = nullptr;
};

}  // namespace latent::ui
