// SPDX-License-Identifier: GPL-3.0-or-later
// HiddenUnitModel: the cells, their sort keys, export values and tooltips.
#include "ui/runs/hidden/hidden_unit_model.hpp"

#include <QLocale>
#include <QStringList>

#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/util/bar_delegate.hpp"
#include "ui/util/format.hpp"
#include "ui/util/table_export.hpp"

namespace latent::ui {

HiddenUnitModel::HiddenUnitModel(QObject* parent) : QAbstractTableModel(parent) {}

void HiddenUnitModel::setData(std::shared_ptr<const HiddenRunData> data) {
  beginResetModel();
  m_data = std::move(data);
  endResetModel();
}

int HiddenUnitModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !m_data ? 0 : m_data->unitCount();
}

int HiddenUnitModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant HiddenUnitModel::wordsData(int unit, bool positive, int role) const {
  const auto& unitWords = m_data->topWords[static_cast<std::size_t>(unit)];
  const auto& words = positive ? unitWords.positive : unitWords.negative;
  if (role == Qt::DisplayRole || role == kExportRole || role == kHiddenSortRole) {
    QStringList out;
    for (const int w : words) out << m_data->wordText(w);
    // The export separates words by spaces (a CSV cell stays one field), items (whose titles may
    // hold spaces and commas) by semicolons; the table by commas.
    if (role == kExportRole) return out.join(m_data->isRatings() ? QStringLiteral("; ") : QStringLiteral(" "));
    return out.join(QStringLiteral(", "));
  }
  if (role == Qt::ToolTipRole) {
    const bool ratings = m_data->isRatings();
    if (words.empty() && ratings)
      return positive ? tr("This unit raises no item's expected rating.")
                      : tr("This unit lowers no item's expected rating.");
    if (words.empty())
      return positive ? tr("No word has a positive weight on this unit.")
                      : tr("No word has a negative weight on this unit.");
    QStringList lines{ratings ? (positive ? tr("%1 raises, by change in expected rating:").arg(m_data->unitName(unit))
                                          : tr("%1 lowers, by change in expected rating:").arg(m_data->unitName(unit)))
                      : positive ? tr("%1 raises, by weight:").arg(m_data->unitName(unit))
                                 : tr("%1 lowers, by weight:").arg(m_data->unitName(unit))};
    for (const int w : words)
      lines << QStringLiteral("%1  %2").arg(m_data->wordText(w), formatReal(m_data->weights(w, unit), 3));
    return lines.join(QLatin1Char('\n'));
  }
  return {};
}

QVariant HiddenUnitModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !m_data || index.row() >= rowCount()) return {};
  const int unit = index.row();
  switch (index.column()) {
    case UnitColumn:
      if (role == Qt::DisplayRole || role == kHiddenSortRole || role == kExportRole) return unit + 1;
      if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
      break;
    case RaisesColumn:
      return wordsData(unit, true, role);
    case LowersColumn:
      return wordsData(unit, false, role);
    case MeanColumn: {
      if (m_data->meanActivation.empty()) break;
      const double mean = m_data->meanActivation[static_cast<std::size_t>(unit)];
      if (role == Qt::DisplayRole) return QLocale().toString(mean, 'f', 3);
      if (role == kHiddenSortRole || role == kExportRole) return mean;
      // Activations that are probabilities have the absolute scale, 0 to 1; others (Gaussian
      // hidden units) the range of the run's activations.
      if (role == kBarFractionRole)
        return (mean - m_data->activationLow) / (m_data->activationHigh - m_data->activationLow);
      if (role == Qt::ToolTipRole && !m_data->activationsAreProbabilities())
        return tr("On average over the %1, unit %2's activation is %3")
            .arg(m_data->caseNoun(true))
            .arg(unit + 1)
            .arg(formatReal(mean, 4));
      if (role == Qt::ToolTipRole)
        return tr("On average over the %1, P(unit %2 on | %3) = %4")
            .arg(m_data->caseNoun(true))
            .arg(unit + 1)
            .arg(m_data->caseNoun())
            .arg(formatReal(mean, 4));
      break;
    }
    default:
      break;
  }
  return {};
}

namespace {

// The titles, CSV names and tooltips of the raise and lower columns and the tooltip of the mean:
// a harmonium's words (or columns) by their weights, or on ratings the items by how far the unit
// on alone moves their expected rating.
struct HiddenUnitColumnTexts {
  QString raises, lowers, raisesExport, lowersExport, raisesTip, lowersTip, meanTip;
};

HiddenUnitColumnTexts hiddenUnitColumnTexts(bool ratings) {
  if (ratings)
    return {HiddenUnitModel::tr("Raises (expected rating up most)"),
            HiddenUnitModel::tr("Lowers (expected rating down most)"),
            HiddenUnitModel::tr("raised_items"),
            HiddenUnitModel::tr("lowered_items"),
            HiddenUnitModel::tr("The items whose expected rating rises most when this unit alone is on: E[r | h = "
                                "unit] - E[r | h = 0]."),
            HiddenUnitModel::tr("The items whose expected rating falls most when this unit alone is on."),
            HiddenUnitModel::tr(
                "The unit's activation P(h = 1 | user's ratings) averaged over the users: how often it is on.")};
  return {HiddenUnitModel::tr("Raises (strongest positive weights)"),
          HiddenUnitModel::tr("Lowers (strongest negative weights)"),
          HiddenUnitModel::tr("positive_words"),
          HiddenUnitModel::tr("negative_words"),
          HiddenUnitModel::tr(
              "The words whose weight to this unit is largest: when the unit is on, they become more likely."),
          HiddenUnitModel::tr(
              "The words whose weight to this unit is most negative: when the unit is on, they become less likely."),
          HiddenUnitModel::tr(
              "The unit's activation P(h = 1 | document) averaged over the documents: how often it is on.")};
}

}  // namespace

QVariant HiddenUnitModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  const auto texts = hiddenUnitColumnTexts(m_data && m_data->isRatings());
  if (role == Qt::DisplayRole || role == kExportRole) {
    const bool csv = role == kExportRole;
    switch (section) {
      case UnitColumn:
        return csv ? tr("unit") : tr("Unit");
      case RaisesColumn:
        return csv ? texts.raisesExport : texts.raises;
      case LowersColumn:
        return csv ? texts.lowersExport : texts.lowers;
      case MeanColumn:
        return csv ? tr("mean_activation") : tr("Mean activation");
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case RaisesColumn:
        return texts.raisesTip;
      case LowersColumn:
        return texts.lowersTip;
      case MeanColumn:
        return texts.meanTip;
      default:
        return {};
    }
  }
  return {};
}

}  // namespace latent::ui
