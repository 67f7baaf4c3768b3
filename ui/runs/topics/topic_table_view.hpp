// SPDX-License-Identifier: GPL-3.0-or-later
// The topic-word table of a topic-model run (000 Fig. 27.4): every topic with its share of the
// corpus, its top words and a label the user gives it (kept in the project, undoable), the words
// of the selected topic with probabilities drawn as bars, a relevance slider (lambda, as in
// LDAvis) that re-ranks the words between frequent and exclusive, and a search that shows every
// topic holding a word. Ranking runs off the GUI thread; tables export to CSV from their menus.
#pragma once

#include <QHash>
#include <QPointer>
#include <QStringList>
#include <QThreadPool>
#include <QTimer>
#include <QUndoStack>
#include <QWidget>

#include <filesystem>
#include <memory>
#include <vector>

#include "ui/runs/topics/topic_relevance.hpp"

class QLabel;
class QLineEdit;
class QSlider;
class QSpinBox;
class QSplitter;
class QTableView;
class QToolButton;

namespace latent::ui {

struct TopicRunData;
class TopicFilter;
class TopicListModel;
class TopicWordsModel;

// How many of each topic's words the topic list shows.
inline constexpr int kListedTopWords = 8;

class TopicTableView final : public QWidget {
  Q_OBJECT

 public:
  // Label edits go on `undoStack` (the run view's, which the Edit menu follows), else on a stack of
  // the view's own.
  explicit TopicTableView(QWidget* parent = nullptr, QUndoStack* undoStack = nullptr);
  ~TopicTableView() override;

  // Shows a run's topics; label edits are written to `projectFile`. Clears the undo history.
  void setData(std::filesystem::path projectFile, std::shared_ptr<const TopicRunData> data);
  const TopicRunData* data() const noexcept { return m_data.get(); }
  // While a run goes: shows a newer snapshot of its topics, keeping the topic selected, with the
  // words that entered each topic's top words since the snapshot shown before marked.
  void showLiveSnapshot(std::filesystem::path projectFile, std::shared_ptr<const TopicRunData> data);
  bool isLive() const noexcept { return m_live; }

  // Re-ranks every topic's words (rankingUpdated() when the new order is shown).
  void setLambda(double lambda);
  double lambda() const noexcept { return m_lambda; }
  void setWordCount(int count);
  int wordCount() const noexcept { return m_wordCount; }
  void selectTopic(int topic);
  int currentTopic() const noexcept { return m_topic; }
  // Searches at once (the search box waits for typing to pause); rankingUpdated() follows.
  void search(const QString& text);
  // Names a topic through the undo stack, as an edit in the table does.
  void renameTopic(int topic, const QString& label);

  QStringList labels() const { return m_labels; }
  // The topic's words as ranked at the current lambda, most relevant first.
  const std::vector<RankedWord>& rankedWords(int topic) const;
  // The topics the current search keeps, in the table's order (every topic without a search).
  QList<int> shownTopics() const;
  QString statusText() const;
  bool isRanking() const noexcept { return m_rankingPending; }

  QUndoStack* undoStack() const noexcept { return m_undo; }
  QTableView* topicTable() const noexcept { return m_topics; }
  QTableView* wordTable() const noexcept { return m_words; }
  TopicListModel* topicModel() const noexcept { return m_topicModel; }
  QLineEdit* searchBox() const noexcept { return m_search; }
  QSlider* lambdaSlider() const noexcept { return m_slider; }

 Q_SIGNALS:
  void rankingUpdated();
  void labelsChanged(const QStringList& labels);
  // After a label write reached the project (error empty) or failed.
  void labelSaved(int topic, const QString& error);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  friend class TopicLabelCommand;
  void applyLabel(int topic, const QString& label);
  void startRanking();
  void applySearch();
  void showTopic(int topic);
  void updateColours();
  void updateStatus();
  void updateLambdaLabel();

  std::filesystem::path m_projectFile;
  std::shared_ptr<const TopicRunData> m_data;
  QHash<QString, int> m_wordIds;
  QStringList m_labels;
  double m_lambda = 1.0;
  int m_wordCount = 30;
  int m_topic = -1;
  bool m_live = false;            // showing a running job's snapshots
  std::int64_t m_liveSince = -1;  // the iteration of the snapshot the new words are compared with
  std::vector<std::vector<RankedWord>> m_ranked;
  int m_rankGeneration = 0;
  bool m_rankingPending = false;
  QString m_searchText;     // as typed
  QString m_searchWord;     // as found in the vocabulary
  int m_searchWordId = -1;  // -1: no search, or the word is not in the vocabulary
  std::vector<int> m_searchRanks;
  bool m_searchChanged = false;  // the next ranking shows a new search: sort by its rank
  QString m_searchStatus;
  QVector<QColor> m_colours;
  QTimer m_rankDelay;
  QTimer m_searchDelay;
  QThreadPool m_writer;  // one thread: label writes reach the project in the order they were made

  QPointer<QUndoStack> m_undo;  // may be the run view's, which can go first
  QLineEdit* m_search = nullptr;
  QWidget* m_lambdaBox = nullptr;
  QSlider* m_slider = nullptr;
  QLabel* m_lambdaLabel = nullptr;
  QToolButton* m_undoButton = nullptr;
  QToolButton* m_redoButton = nullptr;
  QLabel* m_status = nullptr;
  QSplitter* m_splitter = nullptr;
  QWidget* m_topicPane = nullptr;
  QTableView* m_topics = nullptr;
  TopicListModel* m_topicModel = nullptr;
  TopicFilter* m_topicFilter = nullptr;
  QLabel* m_wordsTitle = nullptr;
  QSpinBox* m_wordCountBox = nullptr;
  QTableView* m_words = nullptr;
  TopicWordsModel* m_wordsModel = nullptr;
};

}  // namespace latent::ui
