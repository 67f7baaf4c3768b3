// SPDX-License-Identifier: GPL-3.0-or-later
// TopicTableView: layout, ranking off the GUI thread, search, labels through an undo stack.
#include "ui/runs/topics/topic_table_view.hpp"

#include <QAction>
#include <QCompleter>
#include <QEvent>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QShortcut>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QStringListModel>
#include <QTableView>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/data/tokenizer.hpp"
#include "core/store/topic_label_store.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/runs/topics/topic_table_models.hpp"
#include "ui/util/background.hpp"
#include "ui/util/bar_delegate.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/table_style.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {

// One label edit: redo applies the new label, undo the old one; both write to the project.
class TopicLabelCommand final : public QUndoCommand {
 public:
  TopicLabelCommand(TopicTableView* view, int topic, QString before, QString after)
      : m_view(view), m_topic(topic), m_before(std::move(before)), m_after(std::move(after)) {
    setText(m_after.isEmpty() ? QObject::tr("Remove Name of Topic %1").arg(topic + 1)
                              : QObject::tr("Name Topic %1 “%2”").arg(topic + 1).arg(m_after));
  }
  void redo() override { m_view->applyLabel(m_topic, m_after); }
  void undo() override { m_view->applyLabel(m_topic, m_before); }

 private:
  TopicTableView* m_view;
  int m_topic;
  QString m_before, m_after;
};

namespace {

struct Ranking {
  std::vector<std::vector<RankedWord>> ranked;
  std::vector<int> searchRanks;  // per topic, when a word is searched
};

QLabel* smallGreyLabel(const QString& text, QWidget* parent) {
  auto* label = new QLabel(text, parent);
  label->setForegroundRole(QPalette::PlaceholderText);
  return label;
}

const std::vector<RankedWord> kNoWords;

}  // namespace

TopicTableView::TopicTableView(QWidget* parent, QUndoStack* undoStack) : QWidget(parent) {
  m_writer.setMaxThreadCount(1);
  m_undo = undoStack ? undoStack : new QUndoStack(this);

  // Top row: search, relevance slider, undo and redo.
  m_search = new QLineEdit(this);
  m_search->setPlaceholderText(tr("Find a word in the topics…"));
  m_search->setClearButtonEnabled(true);
  m_search->setMinimumWidth(200);
  m_search->setMaximumWidth(320);
  m_search->setToolTip(
      tr("Type a word to list every topic that has it among its top words, with its rank and probability there."));

  m_lambdaBox = new QWidget(this);
  m_slider = new QSlider(Qt::Horizontal, m_lambdaBox);
  m_slider->setRange(0, 100);
  m_slider->setValue(100);
  m_slider->setPageStep(10);
  m_slider->setMinimumWidth(140);
  m_slider->setMaximumWidth(260);
  const QString lambdaHelp =
      tr("Relevance λ (Sievert and Shirley 2014, as in LDAvis). At λ = 1 a topic's words are ranked by their "
         "probability in the topic, so words that are frequent everywhere come first; at λ = 0 by their lift, "
         "how much more often they appear in the topic than in the whole corpus, which favours rare words "
         "exclusive to the topic. Around 0.6 usually reads best.");
  m_slider->setToolTip(lambdaHelp);
  m_lambdaLabel = new QLabel(m_lambdaBox);
  m_lambdaLabel->setToolTip(lambdaHelp);
  m_lambdaLabel->setMinimumWidth(m_lambdaLabel->fontMetrics().horizontalAdvance(QStringLiteral("λ = 0.00  ")));
  auto* lambdaLayout = new QHBoxLayout(m_lambdaBox);
  lambdaLayout->setContentsMargins(0, 0, 0, 0);
  auto* rankBy = new QLabel(tr("Rank words:"), m_lambdaBox);
  rankBy->setToolTip(lambdaHelp);
  lambdaLayout->addWidget(rankBy);
  lambdaLayout->addWidget(smallGreyLabel(tr("exclusive"), m_lambdaBox));
  lambdaLayout->addWidget(m_slider, 1);
  lambdaLayout->addWidget(smallGreyLabel(tr("frequent"), m_lambdaBox));
  lambdaLayout->addWidget(m_lambdaLabel);

  // Undo and Redo keep short names (the command goes in the tooltip) so the row never jumps.
  auto* undo = new QAction(QIcon::fromTheme(QStringLiteral("edit-undo")), tr("Undo"), this);
  auto* redo = new QAction(QIcon::fromTheme(QStringLiteral("edit-redo")), tr("Redo"), this);
  undo->setEnabled(false);
  redo->setEnabled(false);
  connect(undo, &QAction::triggered, m_undo, &QUndoStack::undo);
  connect(redo, &QAction::triggered, m_undo, &QUndoStack::redo);
  connect(m_undo, &QUndoStack::canUndoChanged, undo, &QAction::setEnabled);
  connect(m_undo, &QUndoStack::canRedoChanged, redo, &QAction::setEnabled);
  connect(m_undo, &QUndoStack::undoTextChanged, undo,
          [undo](const QString& text) { undo->setToolTip(text.isEmpty() ? tr("Undo") : tr("Undo: %1").arg(text)); });
  connect(m_undo, &QUndoStack::redoTextChanged, redo,
          [redo](const QString& text) { redo->setToolTip(text.isEmpty() ? tr("Redo") : tr("Redo: %1").arg(text)); });
  m_undoButton = new QToolButton(this);
  m_undoButton->setDefaultAction(undo);
  m_redoButton = new QToolButton(this);
  m_redoButton->setDefaultAction(redo);
  for (QToolButton* b : {m_undoButton, m_redoButton}) {
    b->setAutoRaise(true);
    b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  }

  auto* top = new QHBoxLayout;
  top->addWidget(m_search, 2);
  top->addSpacing(16);
  top->addWidget(m_lambdaBox, 3);
  top->addStretch(1);
  top->addWidget(m_undoButton);
  top->addWidget(m_redoButton);

  m_status = new QLabel(this);
  m_status->setWordWrap(true);
  m_status->setForegroundRole(QPalette::PlaceholderText);

  // Left: the topics.
  m_topicModel = new TopicListModel(this);
  m_topicFilter = new TopicFilter(this);
  m_topicFilter->setSourceModel(m_topicModel);
  m_topics = new QTableView(this);
  m_topics->setModel(m_topicFilter);
  makeCompact(m_topics);
  m_topics->setSortingEnabled(true);
  m_topics->sortByColumn(TopicListModel::TopicColumn, Qt::AscendingOrder);
  m_topics->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_topics->setSelectionMode(QAbstractItemView::SingleSelection);
  m_topics->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  m_topics->setItemDelegateForColumn(TopicListModel::ShareColumn, new BarDelegate(QStringLiteral("100.0 %"), m_topics));
  m_topics->setTextElideMode(Qt::ElideRight);
  auto* th = m_topics->horizontalHeader();
  th->setSectionResizeMode(QHeaderView::Interactive);
  th->setSectionResizeMode(TopicListModel::TopicColumn, QHeaderView::ResizeToContents);
  th->setSectionResizeMode(TopicListModel::WordsColumn, QHeaderView::Stretch);
  th->setSectionResizeMode(TopicListModel::RankColumn, QHeaderView::ResizeToContents);
  th->setSectionResizeMode(TopicListModel::ProbabilityColumn, QHeaderView::ResizeToContents);
  m_topics->setColumnWidth(TopicListModel::LabelColumn, 95);
  m_topics->setColumnWidth(TopicListModel::ShareColumn, 92);
  m_topics->setColumnHidden(TopicListModel::RankColumn, true);
  m_topics->setColumnHidden(TopicListModel::ProbabilityColumn, true);
  enableTableExport(m_topics, [this] { return m_data ? tr("run-%1-topics.csv").arg(m_data->run.id) : QString(); });
  auto* labelHint = smallGreyLabel(tr("Double-click a label to name a topic. Right-click to export the table."), this);
  labelHint->setWordWrap(true);
  m_topicPane = new QWidget(this);
  auto* topicLayout = new QVBoxLayout(m_topicPane);
  topicLayout->setContentsMargins(0, 0, 0, 0);
  topicLayout->addWidget(m_topics, 1);
  topicLayout->addWidget(labelHint);

  // Right: the words of the selected topic.
  m_wordsTitle = new QLabel(this);
  m_wordsTitle->setTextFormat(Qt::RichText);
  m_wordsTitle->setWordWrap(true);
  m_wordCountBox = new QSpinBox(this);
  m_wordCountBox->setRange(5, 500);
  m_wordCountBox->setValue(m_wordCount);
  m_wordCountBox->setSuffix(tr(" words"));
  m_wordCountBox->setToolTip(tr("How many words to list for each topic"));
  m_wordsModel = new TopicWordsModel(this);
  auto* wordsSort = new QSortFilterProxyModel(this);
  wordsSort->setSourceModel(m_wordsModel);
  wordsSort->setSortRole(kSortRole);
  m_words = new QTableView(this);
  m_words->setModel(wordsSort);
  makeCompact(m_words);
  m_words->setSortingEnabled(true);
  m_words->sortByColumn(TopicWordsModel::RankColumn, Qt::AscendingOrder);
  m_words->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_words->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_words->setItemDelegateForColumn(TopicWordsModel::ProbabilityColumn,
                                    new BarDelegate(QStringLiteral("0.00000"), m_words));
  auto* wh = m_words->horizontalHeader();
  wh->setSectionResizeMode(QHeaderView::ResizeToContents);
  wh->setSectionResizeMode(TopicWordsModel::WordColumn, QHeaderView::Stretch);
  wh->setSectionResizeMode(TopicWordsModel::ProbabilityColumn, QHeaderView::Fixed);
  m_words->setColumnWidth(TopicWordsModel::ProbabilityColumn, 138);
  // At lambda = 1 relevance is just the log probability: the column appears when it adds something.
  m_words->setColumnHidden(TopicWordsModel::RelevanceColumn, true);
  enableTableExport(m_words, [this] {
    return m_data ? tr("run-%1-topic-%2-words.csv").arg(m_data->run.id).arg(m_topic + 1) : QString();
  });
  auto* wordsHead = new QHBoxLayout;
  wordsHead->addWidget(m_wordsTitle, 1);
  wordsHead->addWidget(m_wordCountBox, 0, Qt::AlignTop | Qt::AlignRight);
  auto* wordsPane = new QWidget(this);
  wordsPane->setMinimumWidth(310);
  auto* wordsLayout = new QVBoxLayout(wordsPane);
  wordsLayout->setContentsMargins(0, 0, 0, 0);
  wordsLayout->addLayout(wordsHead);
  wordsLayout->addWidget(m_words, 1);

  m_splitter = new QSplitter(Qt::Horizontal, this);
  m_splitter->addWidget(m_topicPane);
  m_splitter->addWidget(wordsPane);
  // The topics' top words need the room; the words table fits in less.
  m_splitter->setStretchFactor(0, 4);
  m_splitter->setStretchFactor(1, 3);
  m_splitter->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addLayout(top);
  layout->addWidget(m_status);
  layout->addWidget(m_splitter, 1);

  m_rankDelay.setSingleShot(true);
  m_rankDelay.setInterval(60);
  connect(&m_rankDelay, &QTimer::timeout, this, &TopicTableView::startRanking);
  m_searchDelay.setSingleShot(true);
  m_searchDelay.setInterval(250);
  connect(&m_searchDelay, &QTimer::timeout, this, &TopicTableView::applySearch);
  connect(m_search, &QLineEdit::textChanged, this, [this] { m_searchDelay.start(); });
  connect(m_slider, &QSlider::valueChanged, this, [this](int value) {
    m_lambda = value / 100.0;
    updateLambdaLabel();
    m_rankDelay.start();
  });
  connect(m_wordCountBox, &QSpinBox::valueChanged, this, [this](int value) {
    m_wordCount = value;
    m_rankDelay.start();
  });
  connect(m_topics->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (current.isValid()) showTopic(current.data(kTopicRole).toInt());
          });
  connect(m_topicModel, &TopicListModel::labelEditRequested, this, &TopicTableView::renameTopic);
  auto* find = new QShortcut(QKeySequence::Find, this);
  find->setContext(Qt::WidgetWithChildrenShortcut);
  connect(find, &QShortcut::activated, this, [this] {
    m_search->setFocus();
    m_search->selectAll();
  });
  updateLambdaLabel();
}

TopicTableView::~TopicTableView() {
  m_writer.waitForDone();
  // The label commands point at this view: a stack shared with the run view must not keep them.
  if (m_undo && m_undo->parent() != this) m_undo->clear();
}

void TopicTableView::showLiveSnapshot(std::filesystem::path projectFile, std::shared_ptr<const TopicRunData> data) {
  if (!data) return;
  std::vector<QSet<std::int32_t>> fresh;
  std::int64_t since = -1;
  // Compared on the words the table lists, when the topics are the same in number.
  if (m_data && m_live && m_data->topicCount() == data->topicCount()) {
    since = m_data->topicWordIteration;
    const auto listed = static_cast<std::size_t>(kListedTopWords);
    for (int k = 0; k < data->topicCount(); ++k) {
      QSet<std::int32_t> before, now;
      const auto& old = m_data->topWords[static_cast<std::size_t>(k)];
      for (std::size_t i = 0; i < std::min(listed, old.size()); ++i) before.insert(old[i].word);
      const auto& top = data->topWords[static_cast<std::size_t>(k)];
      for (std::size_t i = 0; i < std::min(listed, top.size()); ++i)
        if (!before.contains(top[i].word)) now.insert(top[i].word);
      fresh.push_back(std::move(now));
    }
  }
  const int keep = m_topic;
  setData(std::move(projectFile), std::move(data));  // ends the live view before: this one goes on
  m_live = true;
  m_liveSince = since;
  m_topicModel->setNewWords(std::move(fresh), since >= 0 ? tr("since iteration %1").arg(since) : QString());
  m_topicModel->setTopWords(m_ranked, *m_data, kListedTopWords);
  if (keep >= 0 && keep < m_data->topicCount()) selectTopic(keep);
  updateStatus();
}

void TopicTableView::setData(std::filesystem::path projectFile, std::shared_ptr<const TopicRunData> data) {
  if (m_live) {
    m_live = false;
    m_liveSince = -1;
    m_topicModel->setNewWords({}, {});
  }
  m_projectFile = std::move(projectFile);
  m_data = std::move(data);
  m_undo->clear();
  m_ranked.clear();
  m_wordIds.clear();
  m_topic = -1;
  if (!m_data) return;
  const int K = m_data->topicCount();
  QStringList words;
  words.reserve(static_cast<qsizetype>(m_data->words.size()));
  for (std::size_t w = 0; w < m_data->words.size(); ++w) {
    words << qs(m_data->words[w]);
    m_wordIds.insert(words.back(), static_cast<int>(w));
  }
  auto* completer = new QCompleter(words, m_search);
  completer->setCaseSensitivity(Qt::CaseInsensitive);
  completer->setModelSorting(QCompleter::UnsortedModel);
  completer->setMaxVisibleItems(12);
  delete m_search->completer();
  m_search->setCompleter(completer);
  connect(completer, qOverload<const QString&>(&QCompleter::activated), this,
          [this](const QString& word) { search(word); });

  m_labels = QStringList(K, QString());
  for (const auto& [topic, label] : m_data->labels)
    if (topic >= 0 && topic < K) m_labels[static_cast<int>(topic)] = qs(label);
  m_topicModel->setTopics(K, m_data->shares, m_data->sharesSource);
  {
    // No more words to list than the vocabulary has.
    const QSignalBlocker block(m_wordCountBox);
    const int V = m_data->vocabularySize();
    m_wordCountBox->setRange(std::min(5, V), std::max(1, std::min(500, V)));
    m_wordCount = m_wordCountBox->value();
  }
  for (int k = 0; k < K; ++k) m_topicModel->setLabel(k, m_labels[k]);
  // A one-topic model (the unigram) has nothing to compare, label or search across.
  const bool several = K > 1;
  m_topicPane->setVisible(several);
  m_lambdaBox->setVisible(several);
  m_search->setVisible(several);
  m_undoButton->setVisible(several);
  m_redoButton->setVisible(several);
  m_wordsTitle->setVisible(several);
  m_words->setColumnHidden(TopicWordsModel::LiftColumn, !several);  // one distribution: every lift is about 1
  // Alone, the table has the width for long bars; beside the topics, the words need it more.
  m_words->horizontalHeader()->setSectionResizeMode(TopicWordsModel::WordColumn,
                                                    several ? QHeaderView::Stretch : QHeaderView::ResizeToContents);
  m_words->horizontalHeader()->setSectionResizeMode(TopicWordsModel::ProbabilityColumn,
                                                    several ? QHeaderView::Fixed : QHeaderView::Stretch);
  updateColours();
  m_ranked = m_data->topWords;  // shown until the first ranking arrives
  m_topicModel->setTopWords(m_ranked, *m_data, kListedTopWords);
  selectTopic(0);
  applySearch();  // ranks (with the search, if one was typed before the data came)
  updateStatus();
  Q_EMIT labelsChanged(m_labels);
}

void TopicTableView::setLambda(double lambda) {
  const int value = std::clamp(static_cast<int>(std::lround(lambda * 100.0)), 0, 100);
  {
    const QSignalBlocker block(m_slider);
    m_slider->setValue(value);
  }
  m_lambda = value / 100.0;
  updateLambdaLabel();
  m_rankDelay.stop();
  startRanking();
}

void TopicTableView::setWordCount(int count) {
  const QSignalBlocker block(m_wordCountBox);
  m_wordCountBox->setValue(count);
  m_wordCount = m_wordCountBox->value();
  m_rankDelay.stop();
  startRanking();
}

void TopicTableView::updateLambdaLabel() {
  m_lambdaLabel->setText(QStringLiteral("λ = %1").arg(QLocale().toString(m_lambda, 'f', 2)));
}

void TopicTableView::startRanking() {
  if (!m_data) return;
  const int generation = ++m_rankGeneration;
  m_rankingPending = true;
  runInBackground(
      this,
      [data = m_data, lambda = m_lambda, count = std::max(m_wordCount, 8), word = m_searchWordId] {
        Ranking out;
        out.ranked = rankTopics(data->topicWord, data->corpusFrequency, lambda, count);
        if (word >= 0) out.searchRanks = ranksOf(data->topicWord, data->corpusFrequency, lambda, word);
        return out;
      },
      [this, generation](Ranking ranking) {
        if (generation != m_rankGeneration) return;  // the slider moved on; a newer ranking is coming
        m_rankingPending = false;
        m_ranked = std::move(ranking.ranked);
        m_searchRanks = std::move(ranking.searchRanks);
        m_topicModel->setTopWords(m_ranked, *m_data, kListedTopWords);

        // The search: every topic that has the word among its top `wordCount` words.
        m_searchStatus.clear();
        const bool searching = !m_searchText.isEmpty();
        const bool newSearch = std::exchange(m_searchChanged, false);
        m_topics->setColumnHidden(TopicListModel::RankColumn, m_searchWordId < 0);
        m_topics->setColumnHidden(TopicListModel::ProbabilityColumn, m_searchWordId < 0);
        if (m_searchWordId >= 0) {
          std::vector<double> probabilities;
          QSet<int> holding;
          int best = -1;
          for (int k = 0; k < m_data->topicCount(); ++k) {
            probabilities.push_back(m_data->topicWord(k, m_searchWordId));
            const int rank = m_searchRanks[static_cast<std::size_t>(k)];
            if (rank <= m_wordCount) holding.insert(k);
            if (best < 0 || rank < m_searchRanks[static_cast<std::size_t>(best)]) best = k;
          }
          m_topicModel->setSearch(m_searchWord, m_searchRanks, std::move(probabilities));
          m_topicFilter->setAllowed(holding);
          if (!holding.isEmpty()) {
            m_searchStatus = tr("“%1” is among the top %2 words of %3 of the %4 topics.")
                                 .arg(m_searchWord)
                                 .arg(m_wordCount)
                                 .arg(holding.size())
                                 .arg(m_data->topicCount());
            if (newSearch) m_topics->sortByColumn(TopicListModel::RankColumn, Qt::AscendingOrder);
            if (!holding.contains(m_topic)) selectTopic(best);
          } else {
            m_searchStatus =
                tr("“%1” is not among the top %2 words of any topic; it ranks highest in topic %3 (rank %4).")
                    .arg(m_searchWord)
                    .arg(m_wordCount)
                    .arg(best + 1)
                    .arg(formatCount(m_searchRanks[static_cast<std::size_t>(best)]));
          }
        } else {
          m_topicModel->setSearch(QString(), {}, {});
          m_topicFilter->setAllowed(std::nullopt);
          if (searching)
            m_searchStatus = tr("“%1” is not in this corpus' vocabulary: it does not occur, or the import dropped it "
                                "as a stop word or as too rare or too common.")
                                 .arg(m_searchText);
          if (m_topics->horizontalHeader()->sortIndicatorSection() == TopicListModel::RankColumn)
            m_topics->sortByColumn(TopicListModel::TopicColumn, Qt::AscendingOrder);
        }
        m_wordsModel->setHighlightedWord(m_searchWordId);
        m_words->setColumnHidden(TopicWordsModel::RelevanceColumn, m_lambda >= 1.0);
        showTopic(m_topic);
        updateStatus();
        Q_EMIT rankingUpdated();
      });
}

void TopicTableView::search(const QString& text) {
  m_searchDelay.stop();
  if (m_search->text() != text) {
    const QSignalBlocker block(m_search);
    m_search->setText(text);
  }
  applySearch();
}

void TopicTableView::applySearch() {
  m_searchText = m_search->text().trimmed();
  m_searchWord.clear();
  m_searchWordId = -1;
  if (!m_searchText.isEmpty()) {
    // The word as typed, else as the tokenizer would have written it (lower case, normalised).
    auto it = m_wordIds.constFind(m_searchText);
    if (it == m_wordIds.constEnd()) it = m_wordIds.constFind(qs(core::Tokenizer::normalize(utf8(m_searchText))));
    if (it != m_wordIds.constEnd()) {
      m_searchWordId = it.value();
      m_searchWord = it.key();
    }
  }
  m_searchChanged = true;
  m_rankDelay.stop();
  startRanking();
}

void TopicTableView::selectTopic(int topic) {
  if (!m_data || topic < 0 || topic >= m_data->topicCount()) return;
  for (int row = 0; row < m_topicFilter->rowCount(); ++row) {
    const QModelIndex index = m_topicFilter->index(row, TopicListModel::TopicColumn);
    if (index.data(kTopicRole).toInt() == topic) {
      m_topics->selectionModel()->setCurrentIndex(index,
                                                  QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
      break;
    }
  }
  showTopic(topic);
}

void TopicTableView::showTopic(int topic) {
  if (!m_data || topic < 0 || topic >= m_data->topicCount()) return;
  m_topic = topic;
  const auto& words = rankedWords(topic);
  std::vector<RankedWord> shown(
      words.begin(), words.begin() + std::min<std::ptrdiff_t>(m_wordCount, static_cast<std::ptrdiff_t>(words.size())));
  const QColor colour = m_colours.value(topic);
  m_wordsModel->setWords(m_data, std::move(shown), colour, m_lambda);
  m_wordsModel->setHighlightedWord(m_searchWordId);
  if (m_data->topicCount() == 1) return;  // the status line says what the table is
  QString title =
      QStringLiteral("<span style=\"color:%1\">■</span> <b>%2</b>").arg(colour.name(), tr("Topic %1").arg(topic + 1));
  if (!m_labels.value(topic).isEmpty()) title += QStringLiteral(" · <b>%1</b>").arg(m_labels[topic].toHtmlEscaped());
  if (static_cast<std::size_t>(topic) < m_data->shares.size())
    title += QStringLiteral("<br><span style=\"color:gray\">%1</span>")
                 .arg(tr("%1 % of the corpus' words")
                          .arg(QLocale().toString(m_data->shares[static_cast<std::size_t>(topic)] * 100.0, 'f', 1)));
  m_wordsTitle->setText(title);
}

const std::vector<RankedWord>& TopicTableView::rankedWords(int topic) const {
  return topic >= 0 && static_cast<std::size_t>(topic) < m_ranked.size() ? m_ranked[static_cast<std::size_t>(topic)]
                                                                         : kNoWords;
}

QList<int> TopicTableView::shownTopics() const {
  QList<int> out;
  for (int row = 0; row < m_topicFilter->rowCount(); ++row)
    out << m_topicFilter->index(row, 0).data(kTopicRole).toInt();
  return out;
}

void TopicTableView::renameTopic(int topic, const QString& label) {
  if (!m_data || topic < 0 || topic >= m_labels.size()) return;
  QString clean = label.simplified();
  if (clean.size() > static_cast<qsizetype>(core::kMaxTopicLabelLength))
    clean.truncate(static_cast<qsizetype>(core::kMaxTopicLabelLength));
  if (clean == m_labels[topic]) return;
  m_undo->push(new TopicLabelCommand(this, topic, m_labels[topic], clean));
}

void TopicTableView::applyLabel(int topic, const QString& label) {
  if (!m_data || topic < 0 || topic >= m_labels.size()) return;
  m_labels[topic] = label;
  m_topicModel->setLabel(topic, label);
  if (topic == m_topic) showTopic(topic);
  Q_EMIT labelsChanged(m_labels);
  // The write goes through the project's session when the window has one (the view alone, as
  // in tests, has its own one-thread pool): never on the GUI thread, as a running fit may hold the
  // project's write lock for a moment, and in the order the edits were made.
  auto saved = [this, topic](const QString& error) {
    if (!error.isEmpty()) m_status->setText(tr("Could not save the label of topic %1: %2").arg(topic + 1).arg(error));
    Q_EMIT labelSaved(topic, error);
  };
  if (auto* session = ProjectSession::find(m_projectFile)) {
    session->write(
        this,
        [run = m_data->run.id, topic, text = utf8(label)](core::Project& project) {
          core::setTopicLabel(project, run, topic, text);
        },
        [saved](SessionResult<std::monostate> result) { saved(result.error); });
    return;
  }
  auto* watcher = new QFutureWatcher<QString>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [watcher, saved] {
    const QString error = watcher->result();
    watcher->deleteLater();
    saved(error);
  });
  watcher->setFuture(
      QtConcurrent::run(&m_writer, [file = m_projectFile, run = m_data->run.id, topic, text = utf8(label)] {
        try {
          core::Project project(offGuiThread(file));
          core::setTopicLabel(project, run, topic, text);
          return QString();
        } catch (const std::exception& e) {
          return qs(e.what());
        }
      }));
}

void TopicTableView::updateColours() {
  m_colours.clear();
  if (!m_data) return;
  for (int k = 0; k < m_data->topicCount(); ++k) m_colours << topicColour(k, palette());
  m_topicModel->setColours(m_colours);
  showTopic(m_topic);
}

void TopicTableView::updateStatus() {
  if (!m_data) return;
  const int K = m_data->topicCount();
  QString text;
  const QString vocabulary = formatCount(m_data->vocabularySize());
  const int shown = std::min(m_wordCount, m_data->vocabularySize());
  if (K == 1) {
    text = tr("The model's single word distribution: its %1 most probable words out of %2.").arg(shown).arg(vocabulary);
  } else if (m_lambda >= 1.0) {
    text = tr("%1 topics; the %2 most probable words of each, out of %3.").arg(K).arg(shown).arg(vocabulary);
  } else {
    text = tr("%1 topics; the %2 most relevant words of each at λ = %3, out of %4.")
               .arg(K)
               .arg(shown)
               .arg(QLocale().toString(m_lambda, 'f', 2), vocabulary);
  }
  if (m_live)
    text += QLatin1Char(' ') + (m_liveSince >= 0
                                    ? tr("Live: the snapshot at iteration %1 (+ marks words new since iteration %2).")
                                          .arg(m_data->topicWordIteration)
                                          .arg(m_liveSince)
                                    : tr("Live: the snapshot at iteration %1.").arg(m_data->topicWordIteration));
  else if (m_data->topicWordIteration >= 0)
    text += QLatin1Char(' ') +
            tr("(From the snapshot at iteration %1: the run has no final result.)").arg(m_data->topicWordIteration);
  if (!m_searchStatus.isEmpty()) text += QStringLiteral("  ·  ") + m_searchStatus;
  m_status->setText(text);
}

QString TopicTableView::statusText() const { return m_status->text(); }

void TopicTableView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) updateColours();
}

}  // namespace latent::ui
