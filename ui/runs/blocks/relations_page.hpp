// SPDX-License-Identifier: GPL-3.0-or-later
// The Relations page of a multi-relational irm run: a caption saying what was fitted and found,
// and every relation's adjacency matrix with the node x feature matrix (RelationMatricesView).
#pragma once

#include <QWidget>

#include <memory>

class QLabel;

namespace latent::ui {

class RelationMatricesView;
struct BlockRunData;

class RelationsPage final : public QWidget {
  Q_OBJECT

 public:
  explicit RelationsPage(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const BlockRunData> data);
  RelationMatricesView* view() const noexcept { return m_view; }
  const std::shared_ptr<const BlockRunData>& data() const noexcept { return m_data; }
  QString captionText() const;

 private:
  std::shared_ptr<const BlockRunData> m_data;
  QLabel* m_caption = nullptr;
  RelationMatricesView* m_view = nullptr;
};

}  // namespace latent::ui
