// SPDX-License-Identifier: GPL-3.0-or-later
// SliceWordsModel and SliceDocumentModel.
#include "ui/runs/topics/topic_time_models.hpp"

#include <QFont>
#include <QLocale>

#include <cmath>

#include "core/data/time_slices.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/runs/topics/topic_table_models.hpp"
#include "ui/runs/topics/topic_time_data.hpp"
#include "ui/util/bar_delegate.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_export.hpp"

namespace latent::ui {

SliceWordsModel::SliceWordsModel(QObject* parent) : QAbstractTableModel(parent) {}

const TopicTimeData* SliceWordsModel::time() const noexcept { return m_data ? m_data->overTime.get() : nullptr; }

void SliceWordsModel::setData(std::shared_ptr<const TopicRunData> data) {
  beginResetModel();
  m_data = std::move(data);
  m_topic = 0;
  endResetModel();
}

void SliceWordsModel::setTopic(int topic) {
  beginResetModel();
  m_topic = topic;
  endResetModel();
}

void SliceWordsModel::setRankCount(int count) {
  beginResetModel();
  m_ranks = std::max(1, count);
  endResetModel();
}

void SliceWordsModel::setWordColours(QHash<std::int32_t, QColor> colours, QColor muted) {
  m_colours = std::move(colours);
  m_muted = muted;
  if (rowCount() > 0 && columnCount() > 0) {
    Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
  }
}

void SliceWordsModel::setCurrentSlice(int slice, QColor tint) {
  const int previous = m_slice;
  m_slice = slice;
  m_tint = tint;
  for (const int column : {previous, slice})
    if (column >= 0 && column < columnCount()) {
      if (rowCount() > 0) Q_EMIT dataChanged(index(0, column), index(rowCount() - 1, column));
      Q_EMIT headerDataChanged(Qt::Horizontal, column, column);
    }
}

std::int32_t SliceWordsModel::wordAt(int rank, int slice) const {
  const auto* t = time();
  if (!t || rank < 0 || slice < 0 || slice >= t->sliceCount() || m_topic < 0 || m_topic >= t->topicCount()) return -1;
  const auto& top = t->topWords(slice, m_topic);
  return static_cast<std::size_t>(rank) < top.size() ? top[static_cast<std::size_t>(rank)].word : -1;
}

int SliceWordsModel::rowCount(const QModelIndex& parent) const {
  const auto* t = time();
  if (parent.isValid() || !t || t->ranked.empty()) return 0;
  return std::min(m_ranks, static_cast<int>(t->ranked.front().size()));
}

int SliceWordsModel::columnCount(const QModelIndex& parent) const {
  const auto* t = time();
  return parent.isValid() || !t ? 0 : t->sliceCount();
}

QVariant SliceWordsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
  const auto* t = time();
  const int slice = index.column();
  const auto word = wordAt(index.row(), slice);
  if (word < 0) return {};
  const bool observed = t->hasDocuments(slice);
  switch (role) {
    case Qt::BackgroundRole:
      if (slice == m_slice && m_tint.isValid()) return m_tint;
      return {};
    case Qt::DisplayRole:
    case kExportRole:
      return m_data->wordText(word);
    case WordIdRole:
      return word;
    case Qt::ToolTipRole: {
      const double p = t->probability(slice, m_topic, word);
      QString tip = tr("<b>%1</b>: %2 of topic %3's words in %4 (rank %5)")
                        .arg(m_data->wordText(word).toHtmlEscaped(), formatPercent(p))
                        .arg(m_topic + 1)
                        .arg(t->sliceLabels[slice])
                        .arg(index.row() + 1);
      tip += QStringLiteral("<br>p = %1").arg(QString::number(p, 'g', 4));
      if (!observed)
        tip += tr("<br><i>No documents in this slice: the model's topic here only bridges the slices around it.</i>");
      if (!m_colours.contains(word)) tip += tr("<br>Double-click to draw it over time.");
      return tip;
    }
    case Qt::ForegroundRole:
      if (const auto found = m_colours.find(word); found != m_colours.end()) return *found;
      if (!observed && m_muted.isValid()) return m_muted;
      return {};
    case Qt::FontRole:
      if (m_colours.contains(word)) {
        QFont bold;
        bold.setBold(true);
        return bold;
      }
      return {};
    default:
      return {};
  }
}

QVariant SliceWordsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  const auto* t = time();
  if (!t) return {};
  if (orientation == Qt::Vertical) {
    if (role == Qt::DisplayRole) return section + 1;
    if (role == Qt::ToolTipRole) return tr("Rank %1 in each slice").arg(section + 1);
    return {};
  }
  if (section < 0 || section >= t->sliceCount()) return {};
  const auto documents = t->slices.documents[static_cast<std::size_t>(section)];
  switch (role) {
    case Qt::DisplayRole:
    case kExportRole:
      return t->sliceLabels[section];
    case Qt::ToolTipRole:
      return documents > 0 ? tr("%1: %2. Click to list them.")
                                 .arg(t->sliceLabels[section], countOf(documents, tr("document"), tr("documents")))
                           : tr("%1: no documents.").arg(t->sliceLabels[section]);
    case Qt::ForegroundRole:
      if (documents == 0 && m_muted.isValid()) return m_muted;
      return {};
    case Qt::FontRole:
      if (section == m_slice) {
        QFont bold;
        bold.setBold(true);
        return bold;
      }
      return {};
    default:
      return {};
  }
}

SliceDocumentModel::SliceDocumentModel(QObject* parent) : QAbstractTableModel(parent) {}

void SliceDocumentModel::setDocuments(std::shared_ptr<const TopicRunData> data, std::vector<std::size_t> positions,
                                      int topic) {
  beginResetModel();
  m_data = std::move(data);
  m_positions = std::move(positions);
  m_topic = topic;
  endResetModel();
}

void SliceDocumentModel::setColour(QColor colour) {
  m_colour = colour;
  if (rowCount() > 0) Q_EMIT dataChanged(index(0, ShareColumn), index(rowCount() - 1, ShareColumn));
}

bool SliceDocumentModel::hasShares() const {
  return m_data && m_data->hasDocTopic() && m_topic >= 0 && m_topic < m_data->docTopic.cols();
}

std::int64_t SliceDocumentModel::documentIndex(int row) const {
  return row >= 0 && static_cast<std::size_t>(row) < m_positions.size()
             ? m_data->documents[m_positions[static_cast<std::size_t>(row)]].index
             : -1;
}

int SliceDocumentModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !m_data ? 0 : static_cast<int>(m_positions.size());
}

int SliceDocumentModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SliceDocumentModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto position = m_positions[static_cast<std::size_t>(index.row())];
  const auto& doc = m_data->documents[position];
  if (role == DocumentIndexRole) return static_cast<qint64>(doc.index);
  const QString title = doc.title.empty() ? qs(doc.id) : qs(doc.title);
  switch (index.column()) {
    case TitleColumn:
      if (role == Qt::DisplayRole || role == kExportRole) return title;
      if (role == kSortRole) return title.toLower();
      if (role == Qt::ToolTipRole)
        return tr("%1 · %2").arg(title, countOf(doc.tokenCount, tr("kept word"), tr("kept words")));
      break;
    case TimeColumn:
      if (role == Qt::DisplayRole || role == kExportRole) return qs(doc.time);
      if (role == kSortRole) {
        const auto year = core::parseYear(doc.time);
        return year ? *year : 0.0;
      }
      break;
    case ShareColumn: {
      if (!hasShares()) break;
      const double share = m_data->docTopic(static_cast<Eigen::Index>(position), m_topic);
      if (role == Qt::DisplayRole) return QLocale().toString(share * 100.0, 'f', 1) + QStringLiteral(" %");
      if (role == kSortRole || role == kExportRole || role == kBarFractionRole) return share;
      if (role == kBarColourRole && m_colour.isValid()) return m_colour;
      if (role == Qt::ToolTipRole) return tr("Topic %1's proportion of this document").arg(m_topic + 1);
      break;
    }
    default:
      break;
  }
  return {};
}

QVariant SliceDocumentModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case TitleColumn:
      return tr("Title");
    case TimeColumn:
      return tr("Time");
    case ShareColumn:
      return tr("Topic %1").arg(m_topic + 1);
    default:
      return {};
  }
}

}  // namespace latent::ui
