// SPDX-License-Identifier: GPL-3.0-or-later
// The posterior of a Bayesian harmonium's weights (gb-efh) as a table: one row per visible unit and
// hidden unit with the weight's posterior mean and spread, and the visible unit's prior mean and
// spread when stored; sorted through a proxy on kHiddenSortRole, exported with the full numbers.
#pragma once

#include <QAbstractTableModel>

#include <memory>

namespace latent::ui {

struct HiddenRunData;

class HiddenPosteriorModel final : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { VisibleColumn, UnitColumn, MeanColumn, SdColumn, PriorMeanColumn, PriorSdColumn, ColumnCount };

  explicit HiddenPosteriorModel(QObject* parent = nullptr);

  void setData(std::shared_ptr<const HiddenRunData> data);

  // Row r is visible unit r / K and hidden unit r % K.
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::shared_ptr<const HiddenRunData> m_data;
};

}  // namespace latent::ui
