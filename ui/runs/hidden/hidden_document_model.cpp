// SPDX-License-Identifier: GPL-3.0-or-later
// HiddenDocumentModel and its filter.
#include "ui/runs/hidden/hidden_document_model.hpp"

#include <QGuiApplication>
#include <QPalette>

#include "ui/runs/hidden/hidden_run_data.hpp"
#include "ui/runs/hidden/hidden_unit_model.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_export.hpp"

namespace latent::ui {

HiddenDocumentModel::HiddenDocumentModel(QObject* parent) : QAbstractTableModel(parent) {}

void HiddenDocumentModel::setData(std::shared_ptr<const HiddenRunData> data) {
  beginResetModel();
  m_data = std::move(data);
  endResetModel();
}

int HiddenDocumentModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !m_data ? 0 : m_data->documentCount();
}

int HiddenDocumentModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant HiddenDocumentModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const int d = index.row();
  if (role == DocumentRole) return d;
  const auto& doc = m_data->corpus->documents[static_cast<std::size_t>(d)];
  if (role == SearchRole)
    return QStringList{QString::number(doc.index + 1), m_data->documentTitle(d), qs(doc.id), qs(doc.label),
                       qs(doc.time)}
        .join(QLatin1Char('\n'));
  switch (index.column()) {
    case IndexColumn:
      if (role == Qt::DisplayRole || role == kHiddenSortRole || role == kExportRole)
        return static_cast<qint64>(doc.index + 1);
      if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
      break;
    case TitleColumn:
      if (role == Qt::DisplayRole || role == kExportRole) return m_data->documentTitle(d);
      if (role == kHiddenSortRole) return m_data->documentTitle(d).toLower();
      if (role == Qt::ToolTipRole) {
        QStringList parts{m_data->documentTitle(d)};
        if (!doc.id.empty() && doc.id != doc.title) parts << tr("id %1").arg(qs(doc.id));
        if (!doc.time.empty()) parts << qs(doc.time);
        if (m_data->isRatings())
          parts << countOf(doc.tokenCount, tr("rating"), tr("ratings"));
        else
          parts << countOf(doc.tokenCount, tr("kept word"), tr("kept words"));
        return parts.join(QStringLiteral(" · "));
      }
      break;
    case LabelColumn:
      if (role == Qt::DisplayRole || role == kExportRole) return qs(doc.label);
      if (role == kHiddenSortRole) return qs(doc.label).toLower();
      if (role == Qt::DecorationRole && !doc.label.empty())
        return hiddenLabelColour(*m_data, m_data->corpus->labels[static_cast<std::size_t>(d)],
                                 QGuiApplication::palette());
      break;
    default:
      break;
  }
  return {};
}

QVariant HiddenDocumentModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case IndexColumn:
      return tr("#");
    case TitleColumn:
      if (m_data && m_data->isRatings()) return tr("User");
      return m_data && m_data->isTable() ? tr("Row") : tr("Title");
    case LabelColumn:
      return tr("Label");
    default:
      return {};
  }
}

HiddenDocumentFilter::HiddenDocumentFilter(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(kHiddenSortRole);
}

void HiddenDocumentFilter::setText(const QString& text) {
  m_text = text.trimmed();
  invalidateFilter();
}

bool HiddenDocumentFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  if (m_text.isEmpty()) return true;
  return sourceModel()
      ->index(sourceRow, 0, sourceParent)
      .data(HiddenDocumentModel::SearchRole)
      .toString()
      .contains(m_text, Qt::CaseInsensitive);
}

}  // namespace latent::ui
