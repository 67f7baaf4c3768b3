// SPDX-License-Identifier: GPL-3.0-or-later
// RunDocumentModel and its filter.
#include "ui/runs/topics/run_document_model.hpp"

#include <QLocale>

#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/runs/topics/topic_table_models.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_export.hpp"

namespace latent::ui {

RunDocumentModel::RunDocumentModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunDocumentModel::setData(std::shared_ptr<const TopicRunData> data) {
  beginResetModel();
  m_data = std::move(data);
  m_mainTopic.clear();
  if (m_data && m_data->hasDocTopic())
    for (const auto topic : m_data->mainTopics) m_mainTopic.push_back(static_cast<int>(topic));
  endResetModel();
}

void RunDocumentModel::setColours(QVector<QColor> colours) {
  m_colours = std::move(colours);
  if (rowCount() > 0) Q_EMIT dataChanged(index(0, TopicColumn), index(rowCount() - 1, TopicColumn));
}

void RunDocumentModel::setLabels(QStringList labels) {
  m_labels = std::move(labels);
  if (rowCount() > 0) Q_EMIT dataChanged(index(0, TopicColumn), index(rowCount() - 1, TopicColumn));
}

int RunDocumentModel::mainTopic(int row) const {
  return row >= 0 && static_cast<std::size_t>(row) < m_mainTopic.size() ? m_mainTopic[static_cast<std::size_t>(row)]
                                                                        : -1;
}

int RunDocumentModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !m_data ? 0 : static_cast<int>(m_data->documents.size());
}

int RunDocumentModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunDocumentModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto row = static_cast<std::size_t>(index.row());
  const auto& doc = m_data->documents[row];
  if (role == DocumentIndexRole) return static_cast<qint64>(doc.index);
  if (role == DocumentIdRole) return qs(doc.id);
  const bool heldOut = row < m_data->assigned.size() && !m_data->assigned[row];
  switch (index.column()) {
    case IndexColumn:
      if (role == Qt::DisplayRole || role == kSortRole || role == kExportRole)
        return static_cast<qint64>(doc.index + 1);
      if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
      break;
    case TitleColumn:
      if (role == Qt::DisplayRole || role == kExportRole) return doc.title.empty() ? qs(doc.id) : qs(doc.title);
      if (role == kSortRole) return (doc.title.empty() ? qs(doc.id) : qs(doc.title)).toLower();
      if (role == Qt::ToolTipRole) {
        QStringList parts{doc.title.empty() ? qs(doc.id) : qs(doc.title)};
        if (!doc.id.empty() && doc.id != doc.title) parts << tr("id %1").arg(qs(doc.id));
        if (!doc.time.empty()) parts << qs(doc.time);
        if (!doc.label.empty()) parts << qs(doc.label);
        parts << countOf(doc.tokenCount, tr("kept word"), tr("kept words"));
        return parts.join(QStringLiteral(" · "));
      }
      break;
    case WordsColumn:
      if (role == Qt::DisplayRole) return formatCount(doc.tokenCount);
      if (role == kSortRole || role == kExportRole) return static_cast<qint64>(doc.tokenCount);
      if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
      if (role == Qt::ToolTipRole) return tr("Kept words (tokens the model saw)");
      break;
    case TopicColumn: {
      const int k = mainTopic(index.row());
      if (k < 0) break;
      if (role == Qt::DisplayRole) return QString::number(k + 1);  // the label is in the tooltip: the list is narrow
      if (role == kSortRole || role == kExportRole) return k + 1;
      if (role == Qt::DecorationRole && k < m_colours.size()) return m_colours[k];
      if (role == Qt::ToolTipRole) {
        const QString label = m_labels.value(k);
        return tr("Topic %1%2 has the largest share of this document (%3 %)")
            .arg(k + 1)
            .arg(label.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(label))
            .arg(QLocale().toString(m_data->docTopic(static_cast<Eigen::Index>(row), k) * 100.0, 'f', 1));
      }
      break;
    }
    case SetColumn:
      // Only the exceptions are marked, so the column stays narrow.
      if (role == Qt::DisplayRole) return heldOut ? tr("held out") : QString();
      if (role == kSortRole || role == kExportRole) return heldOut ? tr("held out") : tr("training");
      break;
    default:
      break;
  }
  return {};
}

QVariant RunDocumentModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    switch (section) {
      case IndexColumn:
        return tr("#");
      case TitleColumn:
        return tr("Title");
      case WordsColumn:
        return tr("Words");
      case TopicColumn:
        return tr("Topic");
      case SetColumn:
        return tr("Set");
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole && section == TopicColumn) return tr("The topic with the largest share of the document");
  if (role == Qt::ToolTipRole && section == SetColumn)
    return tr(
        "Training documents have a topic for every word; held-out documents were kept aside to measure "
        "the held-out perplexity.");
  return {};
}

RunDocumentFilter::RunDocumentFilter(QObject* parent) : QSortFilterProxyModel(parent) { setSortRole(kSortRole); }

void RunDocumentFilter::setText(const QString& text) {
  m_text = text.trimmed();
  invalidateFilter();
}

bool RunDocumentFilter::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  if (m_text.isEmpty()) return true;
  const QModelIndex title = sourceModel()->index(sourceRow, RunDocumentModel::TitleColumn, sourceParent);
  return title.data(Qt::DisplayRole).toString().contains(m_text, Qt::CaseInsensitive) ||
         title.data(RunDocumentModel::DocumentIdRole).toString().contains(m_text, Qt::CaseInsensitive);
}

}  // namespace latent::ui
