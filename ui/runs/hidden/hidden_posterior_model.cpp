// SPDX-License-Identifier: GPL-3.0-or-later
// HiddenPosteriorModel: the rows (visible unit by hidden unit), their numbers and texts.
#include "ui/runs/hidden/hidden_posterior_model.hpp"

#include <QLocale>

#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/runs/hidden/hidden_unit_model.hpp"
#include "ui/util/format.hpp"
#include "ui/util/table_export.hpp"

namespace latent::ui {

HiddenPosteriorModel::HiddenPosteriorModel(QObject* parent) : QAbstractTableModel(parent) {}

void HiddenPosteriorModel::setData(std::shared_ptr<const HiddenRunData> data) {
  beginResetModel();
  m_data = std::move(data);
  endResetModel();
}

int HiddenPosteriorModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !m_data) return 0;
  return m_data->wordCount() * m_data->unitCount();
}

int HiddenPosteriorModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant HiddenPosteriorModel::data(const QModelIndex& index, int role) const {
  if (!m_data || !index.isValid() || m_data->unitCount() == 0) return {};
  const int K = m_data->unitCount();
  const int visible = index.row() / K, unit = index.row() % K;
  const bool text = role == Qt::DisplayRole, value = role == kHiddenSortRole || role == kExportRole;
  if (role == Qt::TextAlignmentRole && index.column() != VisibleColumn) return int(Qt::AlignRight | Qt::AlignVCenter);
  auto number = [&](double x) -> QVariant {
    if (text) return QLocale().toString(x, 'f', 3);
    if (value) return x;
    return {};
  };
  switch (index.column()) {
    case VisibleColumn:
      if (text || role == kExportRole) return m_data->wordText(visible);
      if (role == kHiddenSortRole) return visible;
      return {};
    case UnitColumn:
      if (text || value) return unit + 1;
      return {};
    case MeanColumn:
      if (role == Qt::ToolTipRole)
        return tr("The posterior mean of the weight between “%1” and %2")
            .arg(m_data->wordText(visible), m_data->unitName(unit));
      return number(m_data->weights(visible, unit));
    case SdColumn:
      if (!m_data->hasPosteriorSd()) return {};
      if (role == Qt::ToolTipRole)
        return tr("The spread of the draws of this weight: its mean is known to about ± this much");
      return number(m_data->weightsSd(visible, unit));
    case PriorMeanColumn:
      return m_data->hasPrior() ? number(m_data->priorMean(visible)) : QVariant();
    case PriorSdColumn:
      return m_data->hasPrior() ? number(m_data->priorSd(visible)) : QVariant();
    default:
      return {};
  }
}

QVariant HiddenPosteriorModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  const bool table = m_data && m_data->isTable();
  if (role == Qt::DisplayRole || role == kExportRole) {
    const bool csv = role == kExportRole;
    switch (section) {
      case VisibleColumn:
        if (csv) return table ? tr("column") : tr("word");
        return table ? tr("Column") : tr("Word");
      case UnitColumn:
        return csv ? tr("unit") : tr("Unit");
      case MeanColumn:
        return csv ? tr("posterior_mean") : tr("Posterior mean");
      case SdColumn:
        return csv ? tr("posterior_sd") : tr("Posterior sd");
      case PriorMeanColumn:
        return csv ? tr("prior_mean") : tr("Prior mean");
      case PriorSdColumn:
        return csv ? tr("prior_sd") : tr("Prior sd");
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case MeanColumn:
        return tr("The weight averaged over the posterior draws (after rotating each onto the first).");
      case SdColumn:
        return tr("The spread (standard deviation) of the draws of the weight.");
      case PriorMeanColumn:
      case PriorSdColumn:
        return tr(
            "The Gaussian prior on this visible unit's weights (estimated from the data with empirical "
            "Bayes).");
      default:
        return {};
    }
  }
  return {};
}

}  // namespace latent::ui
