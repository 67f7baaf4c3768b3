// SPDX-License-Identifier: GPL-3.0-or-later
// TopicListModel, TopicWordsModel and TopicFilter.
#include "ui/runs/topics/topic_table_models.hpp"

#include <QFont>
#include <QLocale>

#include <algorithm>

#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/util/bar_delegate.hpp"
#include "ui/util/format.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

constexpr int kTopicPreviewWords = 8;  // words in the topic list's "Top words" column

}  // namespace

// --- TopicListModel ---------------------------------------------------------------------------

TopicListModel::TopicListModel(QObject* parent) : QAbstractTableModel(parent) {}

void TopicListModel::setTopics(int count, std::vector<double> shares, QString sharesSource) {
  beginResetModel();
  m_count = count;
  m_shares = std::move(shares);
  m_maxShare = m_shares.empty() ? 0.0 : *std::max_element(m_shares.begin(), m_shares.end());
  m_sharesSource = std::move(sharesSource);
  m_labels = QStringList(count, QString());
  m_topWords = QStringList(count, QString());
  m_searchWord.clear();
  m_ranks.clear();
  m_probabilities.clear();
  endResetModel();
}

void TopicListModel::setColours(QVector<QColor> colours) {
  m_colours = std::move(colours);
  if (m_count > 0) Q_EMIT dataChanged(index(0, 0), index(m_count - 1, ColumnCount - 1));
}

void TopicListModel::setLabel(int topic, const QString& label) {
  if (topic < 0 || topic >= m_count) return;
  m_labels[topic] = label;
  Q_EMIT dataChanged(index(topic, LabelColumn), index(topic, LabelColumn));
}

void TopicListModel::setTopWords(const std::vector<std::vector<RankedWord>>& ranked, const TopicRunData& data,
                                 int shown) {
  for (int k = 0; k < m_count && k < static_cast<int>(ranked.size()); ++k) {
    QStringList words;
    const auto& list = ranked[static_cast<std::size_t>(k)];
    const QSet<std::int32_t>* fresh =
        static_cast<std::size_t>(k) < m_newWords.size() ? &m_newWords[static_cast<std::size_t>(k)] : nullptr;
    for (int i = 0; i < std::min<int>(shown, static_cast<int>(list.size())); ++i) {
      const auto word = list[static_cast<std::size_t>(i)].word;
      words << (fresh && fresh->contains(word) ? QStringLiteral("+") : QString()) + data.wordText(word);
    }
    m_topWords[k] = words.join(QStringLiteral(", "));
  }
  if (m_count > 0) Q_EMIT dataChanged(index(0, WordsColumn), index(m_count - 1, WordsColumn));
}

void TopicListModel::setNewWords(std::vector<QSet<std::int32_t>> newWords, QString since) {
  m_newWords = std::move(newWords);
  m_newSince = std::move(since);
}

void TopicListModel::setSearch(const QString& word, std::vector<int> ranks, std::vector<double> probabilities) {
  m_searchWord = word;
  m_ranks = std::move(ranks);
  m_probabilities = std::move(probabilities);
  Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
  if (m_count > 0) Q_EMIT dataChanged(index(0, RankColumn), index(m_count - 1, ProbabilityColumn));
}

int TopicListModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : m_count; }
int TopicListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TopicListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= m_count) return {};
  const int k = index.row();
  const auto u = static_cast<std::size_t>(k);
  const bool hasShare = u < m_shares.size();
  const bool hasRank = u < m_ranks.size();
  if (role == kTopicRole) return k;
  switch (index.column()) {
    case TopicColumn:
      if (role == Qt::DisplayRole) return QString::number(k + 1);
      if (role == Qt::DecorationRole && k < m_colours.size()) return m_colours[k];
      if (role == kSortRole || role == kExportRole) return k + 1;
      if (role == Qt::ToolTipRole) return tr("Topic %1").arg(k + 1);
      break;
    case LabelColumn:
      if (role == Qt::DisplayRole || role == Qt::EditRole || role == kExportRole) return m_labels.value(k);
      if (role == kSortRole) return m_labels.value(k).toLower();
      if (role == Qt::ToolTipRole) return tr("Double-click (or press F2) to name this topic; Ctrl+Z undoes it.");
      break;
    case ShareColumn:
      if (role == Qt::DisplayRole) return hasShare ? formatPercent(m_shares[u]) : QStringLiteral("–");
      if (role == kSortRole) return hasShare ? m_shares[u] : -1.0;
      if (role == kExportRole) return hasShare ? QVariant(m_shares[u]) : QVariant(QString());
      if (role == kBarFractionRole) return hasShare && m_maxShare > 0 ? m_shares[u] / m_maxShare : 0.0;
      if (role == kBarColourRole && k < m_colours.size()) return m_colours[k];
      if (role == Qt::ToolTipRole) return m_sharesSource;
      break;
    case WordsColumn:
      if (role == Qt::DisplayRole || role == kSortRole || role == kExportRole) return m_topWords.value(k);
      if (role == Qt::ToolTipRole)
        return m_newSince.isEmpty() || !m_topWords.value(k).contains(QLatin1Char('+'))
                   ? m_topWords.value(k)
                   : tr("%1\n+ marks a word that is new among the topic's top words %2.")
                         .arg(m_topWords.value(k), m_newSince);
      break;
    case RankColumn:
      if (role == Qt::DisplayRole) return hasRank ? formatCount(m_ranks[u]) : QString();
      if (role == kSortRole || role == kExportRole) return hasRank ? m_ranks[u] : 0;
      if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
      break;
    case ProbabilityColumn:
      if (role == Qt::DisplayRole) return u < m_probabilities.size() ? formatReal(m_probabilities[u], 4) : QString();
      if (role == kSortRole || role == kExportRole) return u < m_probabilities.size() ? m_probabilities[u] : 0.0;
      if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
      break;
    default:
      break;
  }
  return {};
}

QVariant TopicListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    switch (section) {
      case TopicColumn:
        return tr("Topic");
      case LabelColumn:
        return tr("Label");
      case ShareColumn:
        return tr("Share");
      case WordsColumn:
        return tr("Top words");
      case RankColumn:
        return tr("Rank");
      case ProbabilityColumn:
        return tr("P(%1 | topic)").arg(m_searchWord);
      default:
        return {};
    }
  }
  // Exported files name the word in both columns.
  if (role == kExportRole && section == RankColumn) return tr("Rank of “%1”").arg(m_searchWord);
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case LabelColumn:
        return tr("Your name for the topic, kept in the project. Double-click to edit.");
      case ShareColumn:
        return tr("The topic's share of all the corpus' words. %1").arg(m_sharesSource);
      case WordsColumn:
        return tr("The topic's most relevant words at the chosen λ.");
      case RankColumn:
        return tr("Where “%1” ranks in the topic at the chosen λ (1 = first).").arg(m_searchWord);
      case ProbabilityColumn:
        return tr("The word's probability in the topic.");
      default:
        return {};
    }
  }
  return {};
}

Qt::ItemFlags TopicListModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags f = QAbstractTableModel::flags(index);
  if (index.isValid() && index.column() == LabelColumn) f |= Qt::ItemIsEditable;
  return f;
}

bool TopicListModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!index.isValid() || index.column() != LabelColumn || role != Qt::EditRole) return false;
  const QString label = value.toString().simplified();
  if (label == m_labels.value(index.row())) return false;
  Q_EMIT labelEditRequested(index.row(), label);
  return true;
}

// --- TopicWordsModel --------------------------------------------------------------------------

TopicWordsModel::TopicWordsModel(QObject* parent) : QAbstractTableModel(parent) {}

void TopicWordsModel::setWords(std::shared_ptr<const TopicRunData> data, std::vector<RankedWord> words, QColor colour,
                               double lambda) {
  beginResetModel();
  m_data = std::move(data);
  m_words = std::move(words);
  m_colour = colour;
  m_lambda = lambda;
  m_maxProbability = 0;
  for (const auto& w : m_words) m_maxProbability = std::max(m_maxProbability, w.probability);
  endResetModel();
}

void TopicWordsModel::setHighlightedWord(std::int32_t word) {
  if (word == m_highlighted) return;
  m_highlighted = word;
  if (!m_words.empty()) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int TopicWordsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_words.size());
}
int TopicWordsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TopicWordsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || !m_data) return {};
  const auto& w = m_words[static_cast<std::size_t>(index.row())];
  if (role == Qt::FontRole && w.word == m_highlighted) {
    QFont bold;
    bold.setBold(true);
    return bold;
  }
  if (role == Qt::TextAlignmentRole && index.column() != WordColumn) return int(Qt::AlignRight | Qt::AlignVCenter);
  switch (index.column()) {
    case RankColumn:
      if (role == Qt::DisplayRole || role == kSortRole || role == kExportRole) return index.row() + 1;
      break;
    case WordColumn:
      if (role == Qt::DisplayRole || role == kSortRole || role == kExportRole) return m_data->wordText(w.word);
      if (role == Qt::ToolTipRole) {
        const auto count = static_cast<std::size_t>(w.word) < m_data->wordCounts.size()
                               ? m_data->wordCounts[static_cast<std::size_t>(w.word)]
                               : 0;
        return tr("“%1” occurs %2 in the corpus")
            .arg(m_data->wordText(w.word), countOf(count, tr("time"), tr("times")));
      }
      break;
    case ProbabilityColumn:
      if (role == Qt::DisplayRole) return formatReal(w.probability, 4);
      if (role == kSortRole || role == kExportRole) return w.probability;
      if (role == kBarFractionRole) return m_maxProbability > 0 ? w.probability / m_maxProbability : 0.0;
      if (role == kBarColourRole) return m_colour;
      break;
    case LiftColumn:
      if (role == Qt::DisplayRole) return formatReal(w.lift, 3);
      if (role == kSortRole || role == kExportRole) return w.lift;
      break;
    case RelevanceColumn:
      if (role == Qt::DisplayRole) return formatReal(w.relevance, 3);
      if (role == kSortRole || role == kExportRole) return w.relevance;
      break;
    default:
      break;
  }
  return {};
}

QVariant TopicWordsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    switch (section) {
      case RankColumn:
        return tr("#");
      case WordColumn:
        return tr("Word");
      case ProbabilityColumn:
        return m_data && m_data->topicCount() == 1 ? tr("Probability") : tr("P(word | topic)");
      case LiftColumn:
        return tr("Lift");
      case RelevanceColumn:
        return tr("Relevance");
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case RankColumn:
        return tr("Rank by relevance at the chosen λ");
      case ProbabilityColumn:
        return tr("How probable the word is in this topic");
      case LiftColumn:
        return tr(
            "P(word | topic) ÷ P(word): how much more often the word appears in this topic than in the corpus as a "
            "whole");
      case RelevanceColumn:
        return tr("λ·log P(word | topic) + (1 − λ)·log lift, with λ = %1 (Sievert and Shirley 2014)")
            .arg(QLocale().toString(m_lambda, 'f', 2));
      default:
        return {};
    }
  }
  return {};
}

// --- TopicFilter ------------------------------------------------------------------------------

TopicFilter::TopicFilter(QObject* parent) : QSortFilterProxyModel(parent) { setSortRole(kSortRole); }

void TopicFilter::setAllowed(std::optional<QSet<int>> topics) {
  m_allowed = std::move(topics);
  invalidateFilter();
}

bool TopicFilter::filterAcceptsRow(int sourceRow, const QModelIndex&) const {
  return !m_allowed || m_allowed->contains(sourceRow);
}

}  // namespace latent::ui
