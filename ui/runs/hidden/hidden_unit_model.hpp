// SPDX-License-Identifier: GPL-3.0-or-later
// The hidden units of a harmonium run as a table: one row per unit with the words it raises most,
// those it lowers most (on ratings, the items whose expected rating it moves most each way), and
// its mean activation over the documents; sorted through a proxy on kHiddenSortRole, exported
// with the full numbers (kExportRole).
#pragma once

#include <QAbstractTableModel>

#include <memory>

namespace latent::ui {

struct HiddenRunData;

inline constexpr int kHiddenSortRole = Qt::UserRole + 1;

class HiddenUnitModel final : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { UnitColumn, RaisesColumn, LowersColumn, MeanColumn, ColumnCount };

  explicit HiddenUnitModel(QObject* parent = nullptr);

  void setData(std::shared_ptr<const HiddenRunData> data);
  const HiddenRunData* runData() const noexcept { return m_data.get(); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  QVariant wordsData(int unit, bool positive, int role) const;

  std::shared_ptr<const HiddenRunData> m_data;
};

}  // namespace latent::ui
