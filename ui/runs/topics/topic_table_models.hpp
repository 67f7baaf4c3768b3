// SPDX-License-Identifier: GPL-3.0-or-later
// The item models behind the topic-word table: the list of topics (number, editable label, share
// of the corpus, top words, and where a searched word ranks), the words of one topic (rank,
// probability, lift, relevance), and the filter that keeps the topics holding a searched word.
#pragma once

#include <QAbstractTableModel>
#include <QColor>
#include <QSet>
#include <QSortFilterProxyModel>
#include <QStringList>
#include <QVector>

#include <memory>
#include <optional>
#include <vector>

#include "ui/runs/topics/topic_relevance.hpp"

namespace latent::ui {

struct TopicRunData;

// Numbers to sort by (the display text of a number does not sort as a number).
inline constexpr int kSortRole = Qt::UserRole + 1;
inline constexpr int kTopicRole = Qt::UserRole + 2;  // the 0-based topic of a row

class TopicListModel final : public QAbstractTableModel {
  Q_OBJECT

 public:
  // The searched word's rank and probability come before the top words, which take what is left.
  enum Column { TopicColumn, LabelColumn, ShareColumn, RankColumn, ProbabilityColumn, WordsColumn, ColumnCount };

  explicit TopicListModel(QObject* parent = nullptr);

  void setTopics(int count, std::vector<double> shares, QString sharesSource);
  void setColours(QVector<QColor> colours);
  void setLabel(int topic, const QString& label);
  void setTopWords(const std::vector<std::vector<RankedWord>>& ranked, const TopicRunData& data, int shown);
  // While a run goes: per topic, the words that entered its top words since the snapshot before
  // (marked with a leading "+" in the words column); empty: nothing marked.
  void setNewWords(std::vector<QSet<std::int32_t>> newWords, QString since);
  // The searched word and, per topic, its rank and probability; an empty word clears them.
  void setSearch(const QString& word, std::vector<int> ranks, std::vector<double> probabilities);

  QString label(int topic) const { return m_labels.value(topic); }
  int topicCount() const noexcept { return m_count; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  // An edit of the label column is a request (labelEditRequested): the view applies it through
  // its undo stack, which calls setLabel.
  bool setData(const QModelIndex& index, const QVariant& value, int role) override;

 Q_SIGNALS:
  void labelEditRequested(int topic, const QString& label);

 private:
  int m_count = 0;
  std::vector<double> m_shares;
  double m_maxShare = 0;
  QString m_sharesSource;
  QVector<QColor> m_colours;
  QStringList m_labels;
  QStringList m_topWords;
  std::vector<QSet<std::int32_t>> m_newWords;
  QString m_newSince;  // "since iteration 50", for the tooltip
  QString m_searchWord;
  std::vector<int> m_ranks;
  std::vector<double> m_probabilities;
};

class TopicWordsModel final : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { RankColumn, WordColumn, ProbabilityColumn, LiftColumn, RelevanceColumn, ColumnCount };

  explicit TopicWordsModel(QObject* parent = nullptr);

  void setWords(std::shared_ptr<const TopicRunData> data, std::vector<RankedWord> words, QColor colour, double lambda);
  void setHighlightedWord(std::int32_t word);  // -1: none
  const std::vector<RankedWord>& words() const noexcept { return m_words; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::shared_ptr<const TopicRunData> m_data;
  std::vector<RankedWord> m_words;
  QColor m_colour;
  double m_lambda = 1.0;
  double m_maxProbability = 0;
  std::int32_t m_highlighted = -1;
};

// Sorts by kSortRole and, while a word is searched, keeps only the topics that hold it.
class TopicFilter final : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit TopicFilter(QObject* parent = nullptr);
  void setAllowed(std::optional<QSet<int>> topics);  // nullopt: every topic

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  std::optional<QSet<int>> m_allowed;
};

}  // namespace latent::ui
