// SPDX-License-Identifier: GPL-3.0-or-later
// The tables of the "Topics over time" page: one topic's top words slice by slice (ranks down,
// slices across, as the columns of words per decade of 000 Fig. 27.12) and the documents of one
// slice with their time and the topic's proportion in each.
#pragma once

#include <QAbstractTableModel>
#include <QColor>
#include <QHash>

#include <cstdint>
#include <memory>
#include <vector>

namespace latent::ui {

struct TopicRunData;
struct TopicTimeData;

class SliceWordsModel final : public QAbstractTableModel {
  Q_OBJECT

 public:
  static constexpr int WordIdRole = Qt::UserRole + 30;  // the cell's word id (int), -1 when none

  explicit SliceWordsModel(QObject* parent = nullptr);

  void setData(std::shared_ptr<const TopicRunData> data);
  void setTopic(int topic);
  void setRankCount(int count);
  int rankCount() const noexcept { return m_ranks; }
  // Words drawn as lines on the chart, in their lines' colours; the other words in the palette's
  // text colour, greyed (`muted`) in slices without documents.
  void setWordColours(QHash<std::int32_t, QColor> colours, QColor muted);
  std::int32_t wordAt(int rank, int slice) const;
  // The chosen slice: its column on a `tint` background, its header in bold.
  void setCurrentSlice(int slice, QColor tint);
  int currentSlice() const noexcept { return m_slice; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  const TopicTimeData* time() const noexcept;

  std::shared_ptr<const TopicRunData> m_data;
  int m_topic = 0;
  int m_ranks = 10;
  QHash<std::int32_t, QColor> m_colours;
  QColor m_muted;
  int m_slice = -1;
  QColor m_tint;
};

class SliceDocumentModel final : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { TitleColumn, TimeColumn, ShareColumn, ColumnCount };
  static constexpr int DocumentIndexRole = Qt::UserRole + 31;  // the corpus index (qint64); sorting by kSortRole

  explicit SliceDocumentModel(QObject* parent = nullptr);

  // The documents at `positions` of data->documents, with `topic`'s proportion in each when the run
  // stored document proportions.
  void setDocuments(std::shared_ptr<const TopicRunData> data, std::vector<std::size_t> positions, int topic);
  // The bars of the proportions, in the topic's colour.
  void setColour(QColor colour);
  bool hasShares() const;
  std::int64_t documentIndex(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::shared_ptr<const TopicRunData> m_data;
  std::vector<std::size_t> m_positions;
  int m_topic = 0;
  QColor m_colour;
};

}  // namespace latent::ui
