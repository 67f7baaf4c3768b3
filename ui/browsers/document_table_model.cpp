// SPDX-License-Identifier: GPL-3.0-or-later
// DocumentTableModel and DocumentFilter.
#include "ui/browsers/document_table_model.hpp"

#include "core/data/metadata_columns.hpp"
#include "core/util/parse_number.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {

DocumentTableModel::DocumentTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void DocumentTableModel::setDocuments(std::vector<core::DocumentHeader> documents,
                                      std::vector<core::Corpus::MetadataColumn> metadata) {
  beginResetModel();
  m_documents = std::move(documents);
  m_metadata = std::move(metadata);
  endResetModel();
}

std::vector<core::Corpus::MetadataColumn> metadataColumnsOf(const std::vector<core::DocumentHeader>& documents) {
  core::MetadataColumnsCollector collector;
  for (const auto& d : documents) collector.addText(d.metadata);
  return collector.finish();
}

int DocumentTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_documents.size());
}

int DocumentTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount + metadataColumnCount();
}

QVariant DocumentTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto& d = m_documents[static_cast<std::size_t>(index.row())];
  if (role == DocumentIndexRole) return static_cast<qlonglong>(d.index);
  if (role == Qt::TextAlignmentRole)
    return index.column() == IndexColumn || index.column() == TokensColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                                           : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && index.column() == TitleColumn) return qs(d.title);
  if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
  const bool sortValue = role == Qt::EditRole;  // numbers sort as numbers
  if (index.column() >= ColumnCount) {
    const auto& value = m_metadata.at(static_cast<std::size_t>(index.column() - ColumnCount))
                            .values.at(static_cast<std::size_t>(index.row()));
    if (sortValue) {
      if (value.empty()) return {};  // a missing value sorts last
      if (const auto number = core::parseReal(value)) return *number;
    }
    return qs(value);
  }
  switch (index.column()) {
    case IndexColumn:
      return sortValue ? QVariant(static_cast<qlonglong>(d.index + 1)) : QVariant(QString::number(d.index + 1));
    case IdColumn:
      return qs(d.id);
    case TitleColumn:
      return qs(d.title);
    case TimeColumn:
      return qs(d.time);
    case LabelColumn:
      return qs(d.label);
    case TokensColumn:
      return sortValue ? QVariant(static_cast<qlonglong>(d.tokenCount)) : QVariant(formatCount(d.tokenCount));
    default:
      return {};
  }
}

QVariant DocumentTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
    return QAbstractTableModel::headerData(section, orientation, role);
  if (section >= ColumnCount && section < columnCount())
    return qs(m_metadata[static_cast<std::size_t>(section - ColumnCount)].name);
  switch (section) {
    case IndexColumn:
      return tr("#");
    case IdColumn:
      return tr("Id");
    case TitleColumn:
      return tr("Title");
    case TimeColumn:
      return tr("Time");
    case LabelColumn:
      return tr("Label");
    case TokensColumn:
      return tr("Tokens");
    default:
      return {};
  }
}

DocumentFilter::DocumentFilter(QObject* parent) : QSortFilterProxyModel(parent) { setSortRole(Qt::EditRole); }

void DocumentFilter::setText(const QString& text) {
  m_text = text.trimmed();
  m_wordMatches.clear();
  invalidateFilter();
}

void DocumentFilter::setWordMatches(QSet<qint64> documents) {
  m_wordMatches = std::move(documents);
  invalidateFilter();
}

bool DocumentFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  if (m_text.isEmpty()) return true;
  const auto* model = static_cast<const DocumentTableModel*>(sourceModel());
  const auto& d = model->document(sourceRow);
  (void)sourceParent;
  if (qs(d.title).contains(m_text, Qt::CaseInsensitive) || qs(d.id).contains(m_text, Qt::CaseInsensitive)) return true;
  return m_wordMatches.contains(d.index);
}

}  // namespace latent::ui
