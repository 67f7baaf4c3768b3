// SPDX-License-Identifier: GPL-3.0-or-later
// The Hidden units page of a harmonium run: the table of units (the words each raises and lowers
// most, its mean activation), sortable by any column and exported to CSV from its context menu,
// with a line that says where the weights come from.
#pragma once

#include <QWidget>

#include <memory>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace latent::ui {

class HiddenUnitModel;
struct HiddenRunData;

class HiddenUnitsPage final : public QWidget {
  Q_OBJECT

 public:
  explicit HiddenUnitsPage(QWidget* parent = nullptr);

  void setData(std::shared_ptr<const HiddenRunData> data);
  const std::shared_ptr<const HiddenRunData>& data() const noexcept { return m_data; }

  QTableView* table() const noexcept { return m_table; }
  HiddenUnitModel* model() const noexcept { return m_model; }
  QString headerText() const;

 private:
  std::shared_ptr<const HiddenRunData> m_data;
  QLabel* m_header = nullptr;
  QLabel* m_hint = nullptr;
  QTableView* m_table = nullptr;
  HiddenUnitModel* m_model = nullptr;
  QSortFilterProxyModel* m_sort = nullptr;
};

}  // namespace latent::ui
