// SPDX-License-Identifier: GPL-3.0-or-later
// The Network page of a block-model run on a graph: the graph drawn as on the dataset's Drawing tab
// (the same seeded force-directed layout, nodes sized by degree), each node coloured by the run's
// most probable block for it or, for mixed memberships on a graph of at most kMaxPieNodes nodes,
// drawn as a pie of its memberships. Any node attribute (known groups) can colour the nodes instead.
// Hovering a node names it and its block; the context menu saves the picture (PNG, SVG) and the
// graph with the blocks as node attributes (GEXF for Gephi, GraphML for Cytoscape), written off the
// GUI thread.
#pragma once

#include <QString>
#include <QWidget>

#include <Eigen/Core>

#include <memory>
#include <vector>

#include "core/io/graph_xml_export.hpp"

class QComboBox;
class QLabel;

namespace latent::ui {

class NetworkCanvas;
struct BlockRunData;

// Above this many nodes a pie is a few pixels across and its slices cannot be told apart: nodes
// are coloured by their largest membership instead.
inline constexpr int kMaxPieNodes = 150;

class BlockNetworkView final : public QWidget {
  Q_OBJECT

 public:
  explicit BlockNetworkView(QWidget* parent = nullptr);

  // The run's blocks. The first time, the graph is laid out off the GUI thread (the Drawing tab's
  // seed, so that it looks the same there), and drawn when that ends (laidOut()).
  void setData(std::shared_ptr<const BlockRunData> data);
  bool hasLayout() const noexcept { return m_layout.rows() > 0; }
  bool isLayingOut() const noexcept { return m_layingOut; }

  // What colours the nodes: "" for the run's blocks, else a node attribute's name. False when the
  // graph has no such attribute.
  bool setColouring(const QString& attribute);
  QString colouring() const;

  NetworkCanvas* canvas() const noexcept { return m_canvas; }
  QComboBox* colourChoice() const noexcept { return m_colourBy; }
  QString legend() const;
  QString toolTipFor(qint64 node) const;
  bool drawsPies() const;

  // The graph with the run's blocks and memberships and the drawing's positions, as the context
  // menu writes it (there off the GUI thread). False with the reason in `error`.
  bool saveNetwork(const QString& file, core::GraphXmlFormat format, QString* error = nullptr) const;

 Q_SIGNALS:
  // The layout arrived (or the graph could not be laid out: the canvas says why).
  void laidOut();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void recolour();
  void saveNetworkInteractively(core::GraphXmlFormat format);
  QColor blockColour(int block) const;

  std::shared_ptr<const BlockRunData> m_data;
  Eigen::MatrixX2d m_layout;
  std::vector<int> m_degree;
  bool m_layingOut = false;
  NetworkCanvas* m_canvas = nullptr;
  QComboBox* m_colourBy = nullptr;
  QLabel* m_legend = nullptr;
};

}  // namespace latent::ui
