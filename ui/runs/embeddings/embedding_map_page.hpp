// SPDX-License-Identifier: GPL-3.0-or-later
// The Map page of an embedding run (lsa): documents or words placed by two chosen components
// (words: the ones with the longest vectors), and for a word or document found by name or clicked,
// its nearest neighbours by cosine over all the components; the map saves as PNG or SVG and the
// neighbours as CSV from their context menus.
#pragma once

#include <QWidget>

#include <memory>
#include <vector>

#include "ui/runs/embeddings/embedding_run_data.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace latent::ui {

class EmbeddingMapView;

// Words drawn on the map: the ones farthest from the origin over all components.
inline constexpr int kMapWords = 1500;
// Neighbours listed for the selection.
inline constexpr int kMapNeighbours = 12;

class EmbeddingMapPage final : public QWidget {
  Q_OBJECT

 public:
  explicit EmbeddingMapPage(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const EmbeddingRunData> data);
  const std::shared_ptr<const EmbeddingRunData>& data() const noexcept { return m_data; }

  // Shows words (true) or documents; places them by components x and y (0-based).
  void showWords(bool words);
  bool showsWords() const noexcept { return m_words; }
  void setComponents(int x, int y);
  // Selects the word or document with that text (a document's title or id), case aside; false
  // when there is none.
  bool selectByName(const QString& name);
  // The selection (a row of data()->words or ->documents; -1: none) and its neighbours.
  int selectedRow() const noexcept { return m_selectedRow; }
  const std::vector<Neighbour>& neighbours() const noexcept { return m_neighbours; }
  // The rows drawn, in the map view's point order.
  const std::vector<int>& drawnRows() const noexcept { return m_drawn; }
  EmbeddingMapView* view() const noexcept { return m_view; }
  QTableWidget* neighbourTable() const noexcept { return m_neighbourTable; }

 private:
  const Eigen::MatrixXd& coordinates() const;
  QString rowName(int row) const;
  void redraw();
  void select(int row);

  std::shared_ptr<const EmbeddingRunData> m_data;
  bool m_words = false;
  int m_x = 0, m_y = 1;
  std::vector<int> m_drawn;
  int m_selectedRow = -1;
  std::vector<Neighbour> m_neighbours;
  QLabel* m_header = nullptr;
  QComboBox* m_kind = nullptr;
  QComboBox* m_xBox = nullptr;
  QComboBox* m_yBox = nullptr;
  QLineEdit* m_find = nullptr;
  QLabel* m_findStatus = nullptr;
  EmbeddingMapView* m_view = nullptr;
  QTableWidget* m_neighbourTable = nullptr;
};

}  // namespace latent::ui
