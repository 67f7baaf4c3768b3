// SPDX-License-Identifier: GPL-3.0-or-later
// TopicTimeView: the topic chooser, the words-by-slice table, the words drawn, the chosen slice's
// documents; the charts are drawn in topic_time_view_charts.cpp.
#include "ui/runs/topics/topic_time_view.hpp"

#include <QAreaSeries>
#include <QComboBox>
#include <QCompleter>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPixmap>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStringListModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/runs/topics/topic_table_models.hpp"
#include "ui/runs/topics/topic_time_data.hpp"
#include "ui/runs/topics/topic_time_models.hpp"
#include "ui/util/bar_delegate.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/table_style.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

constexpr int kDefaultChartedWords = 5;  // lines drawn at first
constexpr int kMostChartedWords = 12;    // lines at most (beyond that they cannot be told apart)
constexpr int kDefaultSliceRanks = 10;   // words per slice in the table, as in Fig. 27.12

const TopicTimeData& overTimeOf(const TopicRunData& data) { return *data.overTime; }

QIcon topicSwatch(const QColor& colour) {
  QPixmap pixmap(12, 12);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  painter.setPen(colour.darker(130));
  painter.setBrush(colour);
  painter.drawRect(0, 0, 11, 11);
  return QIcon(pixmap);
}

}  // namespace

TopicTimeView::TopicTimeView(QWidget* parent) : QWidget(parent) {
  auto* intro = new QLabel(
      tr("How a topic's words and every topic's share change from one time slice to the next (the chosen topic is "
         "the bottom band of the shares). Click a slice (its column, or a point on either chart) to list its "
         "documents; double-click a word to draw it over time."),
      this);
  intro->setWordWrap(true);

  m_topicBox = new QComboBox(this);
  m_topicBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  m_topicBox->setMinimumContentsLength(30);
  m_topicBox->setAccessibleName(tr("Topic"));
  m_rankBox = new QSpinBox(this);
  m_rankBox->setRange(1, kRankedWordsPerSlice);
  m_rankBox->setValue(kDefaultSliceRanks);
  m_rankBox->setToolTip(tr("How many of the topic's most probable words to list in each slice"));
  auto* topRow = new QHBoxLayout;
  topRow->addWidget(new QLabel(tr("Topic:"), this));
  topRow->addWidget(m_topicBox, 1);
  topRow->addSpacing(12);
  topRow->addWidget(new QLabel(tr("Words per slice:"), this));
  topRow->addWidget(m_rankBox);

  // The topic's words slice by slice.
  m_wordModel = new SliceWordsModel(this);
  m_wordTable = new QTableView(this);
  m_wordTable->setModel(m_wordModel);
  makeCompact(m_wordTable);
  m_wordTable->setAlternatingRowColors(false);
  m_wordTable->verticalHeader()->setVisible(true);  // the ranks
  // The chosen slice is tinted by the model rather than selected, so that the words keep their colours.
  m_wordTable->setSelectionMode(QAbstractItemView::NoSelection);
  m_wordTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_wordTable->setTextElideMode(Qt::ElideRight);
  m_wordTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  m_wordTable->horizontalHeader()->setDefaultSectionSize(
      std::max(90, m_wordTable->fontMetrics().horizontalAdvance(QStringLiteral("1790-1799")) + 24));
  m_wordTable->horizontalHeader()->setSectionsClickable(true);
  enableTableExport(m_wordTable, [this] {
    return m_data ? tr("run-%1-topic-%2-words-by-slice.csv").arg(m_data->run.id).arg(m_topic + 1) : QString();
  });

  // The chosen words' probability within the topic over time.
  m_wordChart = new SliceChartView(this);
  enableFigureExport(m_wordChart, [this] {
    return m_data ? tr("run-%1-topic-%2-words-over-time").arg(m_data->run.id).arg(m_topic + 1) : QString();
  });
  m_wordBox = new QLineEdit(this);
  m_wordBox->setPlaceholderText(tr("Add a word…"));
  m_wordBox->setClearButtonEnabled(true);
  m_wordBox->setToolTip(tr("Type a word of the vocabulary and press Enter to draw its probability in this topic"));
  m_resetWords = new QPushButton(tr("Words That Move Most"), this);
  m_resetWords->setToolTip(tr("Draw again the topic's words whose probability changes most across the slices"));
  m_wordNote = new QLabel(this);
  m_wordNote->setWordWrap(true);
  m_wordNote->setForegroundRole(QPalette::PlaceholderText);
  auto* wordRow = new QHBoxLayout;
  wordRow->addWidget(m_wordBox, 1);
  wordRow->addWidget(m_resetWords);
  auto* wordPane = new QWidget(this);
  auto* wordLayout = new QVBoxLayout(wordPane);
  wordLayout->setContentsMargins(0, 0, 0, 0);
  wordLayout->addWidget(m_wordChart, 1);
  wordLayout->addLayout(wordRow);
  wordLayout->addWidget(m_wordNote);

  // Every topic's share of each slice.
  m_shareChart = new SliceChartView(this);
  enableFigureExport(m_shareChart,
                     [this] { return m_data ? tr("run-%1-topic-shares-over-time").arg(m_data->run.id) : QString(); });
  // The chart has no room for K legend entries on screen (the chooser and the tooltips name the
  // topics); a saved image lists them under the chart in the areas' colours.
  setFigureLegend(m_shareChart, [this] {
    QStringList entries;
    for (int k = 0; k < static_cast<int>(m_areas.size()); ++k)
      entries << QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2")
                     .arg(m_areas[static_cast<std::size_t>(k)]->color().name(), topicName(k).toHtmlEscaped());
    return entries.join(QStringLiteral(" &nbsp; "));
  });

  // The chosen slice's documents.
  m_sliceNote = new QLabel(this);
  m_sliceNote->setWordWrap(true);
  m_sliceNote->setTextFormat(Qt::RichText);
  m_documentModel = new SliceDocumentModel(this);
  m_documentOrder = new QSortFilterProxyModel(this);
  m_documentOrder->setSourceModel(m_documentModel);
  m_documentOrder->setSortRole(kSortRole);
  m_documentTable = new QTableView(this);
  m_documentTable->setModel(m_documentOrder);
  makeCompact(m_documentTable);
  m_documentTable->setSortingEnabled(true);
  m_documentTable->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_documentTable->setSelectionMode(QAbstractItemView::SingleSelection);
  m_documentTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_documentTable->setTextElideMode(Qt::ElideRight);
  m_documentTable->setItemDelegateForColumn(SliceDocumentModel::ShareColumn,
                                            new BarDelegate(QStringLiteral("100.0 %"), m_documentTable));
  auto* dh = m_documentTable->horizontalHeader();
  dh->setSectionResizeMode(QHeaderView::ResizeToContents);
  dh->setSectionResizeMode(SliceDocumentModel::TitleColumn, QHeaderView::Stretch);
  dh->setSectionResizeMode(SliceDocumentModel::ShareColumn, QHeaderView::Fixed);
  m_documentTable->setColumnWidth(SliceDocumentModel::ShareColumn, 96);
  enableTableExport(m_documentTable, [this] {
    return m_data && m_slice >= 0 ? tr("run-%1-slice-%2-documents.csv")
                                        .arg(m_data->run.id)
                                        .arg(overTimeOf(*m_data).sliceLabels.value(m_slice))
                                  : QString();
  });
  m_open = new QPushButton(tr("Open in Documents"), this);
  m_open->setEnabled(false);
  m_open->setToolTip(tr("Read the selected document with its words coloured by topic (or double-click it)"));
  auto* documentPane = new QWidget(this);
  auto* documentLayout = new QVBoxLayout(documentPane);
  documentLayout->setContentsMargins(0, 0, 0, 0);
  documentLayout->addWidget(m_sliceNote);
  documentLayout->addWidget(m_documentTable, 1);
  documentLayout->addWidget(m_open, 0, Qt::AlignLeft);

  // The words by slice with the chosen slice's documents beside them; the two charts below.
  auto* top = new QSplitter(Qt::Horizontal, this);
  top->addWidget(m_wordTable);
  top->addWidget(documentPane);
  top->setStretchFactor(0, 2);
  top->setStretchFactor(1, 1);
  top->setChildrenCollapsible(false);
  documentPane->setMinimumWidth(260);
  auto* bottom = new QSplitter(Qt::Horizontal, this);
  bottom->addWidget(wordPane);
  bottom->addWidget(m_shareChart);
  bottom->setStretchFactor(0, 1);
  bottom->setStretchFactor(1, 1);
  bottom->setChildrenCollapsible(false);
  m_splitter = new QSplitter(Qt::Vertical, this);
  m_splitter->addWidget(top);
  m_splitter->addWidget(bottom);
  m_splitter->setStretchFactor(0, 0);
  m_splitter->setStretchFactor(1, 1);
  m_splitter->setChildrenCollapsible(false);

  // In a small window the page scrolls rather than squeezing the charts under their controls.
  top->setMinimumHeight(150);
  bottom->setMinimumHeight(300);
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addWidget(intro);
  layout->addLayout(topRow);
  layout->addWidget(m_splitter, 1);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(scroll);

  connect(m_topicBox, &QComboBox::activated, this, [this](int index) { selectTopic(index); });
  connect(m_rankBox, &QSpinBox::valueChanged, this, [this](int count) { setRankCount(count); });
  connect(m_wordTable->horizontalHeader(), &QHeaderView::sectionClicked, this,
          [this](int slice) { selectSlice(slice); });
  connect(m_wordTable->selectionModel(), &QItemSelectionModel::currentChanged, this,
          [this](const QModelIndex& current) {
            if (current.isValid() && !m_syncing) selectSlice(current.column());
          });
  connect(m_wordTable, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    const auto word = m_wordModel->wordAt(index.row(), index.column());
    if (word >= 0 && m_data) addWord(m_data->wordText(word));
  });
  connect(m_wordBox, &QLineEdit::returnPressed, this, [this] {
    if (addWord(m_wordBox->text())) m_wordBox->clear();
  });
  connect(m_resetWords, &QPushButton::clicked, this, [this] { resetWords(); });
  connect(m_wordChart, &SliceChartView::clickedAt, this, [this](const QPointF& value) {
    if (m_data) selectSlice(overTimeOf(*m_data).sliceNear(value.x()));
  });
  connect(m_shareChart, &SliceChartView::clickedAt, this, [this](const QPointF& value) {
    if (!m_data) return;
    // The band clicked is the topic to look at, the point in time the slice.
    const int topic = topicAtShare(value);
    const int slice = overTimeOf(*m_data).sliceNear(value.x());
    if (topic >= 0) selectTopic(topic);
    selectSlice(slice);
  });
  connect(m_documentTable, &QTableView::doubleClicked, this, [this] { openCurrentDocument(); });
  connect(m_documentTable->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) { m_open->setEnabled(m_openable && current.isValid()); });
  connect(m_open, &QPushButton::clicked, this, [this] { openCurrentDocument(); });
}

void TopicTimeView::setData(std::shared_ptr<const TopicRunData> data) {
  m_data = data && data->overTime ? std::move(data) : nullptr;
  m_labels = QStringList(m_data ? m_data->topicCount() : 0, QString());
  if (m_data)
    for (const auto& [topic, label] : m_data->labels)
      if (topic >= 0 && topic < m_data->topicCount()) m_labels[static_cast<int>(topic)] = qs(label);
  m_topic = 0;
  m_slice = -1;
  m_fitted = false;
  m_wordModel->setData(m_data);
  m_documentModel->setDocuments(nullptr, {}, 0);
  if (!m_data) return;
  const auto& time = overTimeOf(*m_data);
  {
    const QSignalBlocker block(m_rankBox);
    m_rankBox->setRange(1, std::max(1, static_cast<int>(time.ranked.empty() ? 1 : time.ranked.front().size())));
  }
  m_wordModel->setRankCount(m_rankBox->value());
  auto* completer = new QCompleter(new QStringListModel(time.vocabulary, this), m_wordBox);
  completer->setCaseSensitivity(Qt::CaseInsensitive);
  completer->setFilterMode(Qt::MatchStartsWith);
  completer->setMaxVisibleItems(12);
  delete m_wordBox->completer();
  m_wordBox->setCompleter(completer);
  connect(completer, qOverload<const QString&>(&QCompleter::activated), this, [this](const QString& word) {
    // After the completer has put the word in the box.
    QMetaObject::invokeMethod(
        this,
        [this, word] {
          // Enter in the popup may have drawn it already through the box's returnPressed.
          if (!chartedWords().contains(word, Qt::CaseInsensitive)) addWord(word);
          m_wordBox->clear();
        },
        Qt::QueuedConnection);
  });
  updateTopicBox();
  rebuildShareChart();
  resetWords();  // draws the word chart
  const auto slices = drawnSlices();
  selectSlice(slices.empty() ? 0 : slices.front());
  fitTable();
}

void TopicTimeView::setLabels(const QStringList& labels) {
  m_labels = labels;
  updateTopicBox();
  updateDocuments();  // the share column's header names the topic
}

void TopicTimeView::setDocumentsOpenable(bool openable) {
  m_openable = openable;
  m_open->setVisible(openable);
  m_open->setEnabled(openable && m_documentTable->currentIndex().isValid());
}

QString TopicTimeView::topicName(int topic) const {
  if (!m_data || topic < 0 || topic >= m_data->topicCount()) return {};
  if (!m_labels.value(topic).isEmpty()) return QStringLiteral("%1 · %2").arg(topic + 1).arg(m_labels[topic]);
  QStringList words;
  if (static_cast<std::size_t>(topic) < m_data->topWords.size())
    for (const auto& w : m_data->topWords[static_cast<std::size_t>(topic)]) {
      if (words.size() == 3) break;
      words << m_data->wordText(w.word);
    }
  return QStringLiteral("%1 · %2").arg(topic + 1).arg(words.join(QStringLiteral(", ")));
}

void TopicTimeView::updateTopicBox() {
  if (!m_data) return;
  const QSignalBlocker block(m_topicBox);
  const int K = m_data->topicCount();
  if (m_topicBox->count() != K) {
    m_topicBox->clear();
    for (int k = 0; k < K; ++k) m_topicBox->addItem(QString());
  }
  for (int k = 0; k < K; ++k) {
    m_topicBox->setItemText(k, topicName(k));
    m_topicBox->setItemIcon(k, topicSwatch(topicColour(k, palette())));
  }
  m_topicBox->setCurrentIndex(m_topic);
}

void TopicTimeView::selectTopic(int topic) {
  if (!m_data || topic < 0 || topic >= m_data->topicCount()) return;
  const bool changed = topic != m_topic;
  m_topic = topic;
  {
    const QSignalBlocker block(m_topicBox);
    m_topicBox->setCurrentIndex(topic);
  }
  if (!changed) return;
  m_wordModel->setTopic(topic);
  updateShareChart();
  resetWords();
  updateDocuments();
  showSliceColumn();
}

void TopicTimeView::showSliceColumn() {
  if (m_slice < 0) return;
  m_wordModel->setCurrentSlice(m_slice,
                               mixColours(palette().color(QPalette::Base), palette().color(QPalette::Highlight), 0.22));
  if (m_wordModel->rowCount() == 0) return;
  m_syncing = true;
  const QModelIndex current = m_wordTable->currentIndex();
  m_wordTable->setCurrentIndex(m_wordModel->index(current.isValid() ? current.row() : 0, m_slice));
  m_wordTable->scrollTo(m_wordModel->index(0, m_slice));
  m_syncing = false;
}

void TopicTimeView::fitTable() {
  // The table as tall as its words (up to ten of them), the charts the rest: once per run shown,
  // when the page first has its height; the user's dragging is kept after that.
  if (m_fitted || !m_data || m_splitter->height() <= 0 || !isVisible()) return;
  m_fitted = true;
  const int rows = std::min(m_wordModel->rowCount(), kDefaultSliceRanks);
  const int wanted = m_wordTable->horizontalHeader()->height() +
                     rows * m_wordTable->verticalHeader()->defaultSectionSize() +
                     m_wordTable->horizontalScrollBar()->sizeHint().height() + 2 * m_wordTable->frameWidth() + 2;
  const int total = m_splitter->height() - m_splitter->handleWidth();
  const int top = std::min(wanted, std::max(total / 2, total - 260));
  m_splitter->setSizes({top, total - top});
}

void TopicTimeView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitTable();
}

void TopicTimeView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  fitTable();
}

void TopicTimeView::selectSlice(int slice) {
  if (!m_data || slice < 0 || slice >= overTimeOf(*m_data).sliceCount()) return;
  m_slice = slice;
  showSliceColumn();
  updateMarkers();
  updateDocuments();
}

void TopicTimeView::setRankCount(int count) {
  {
    const QSignalBlocker block(m_rankBox);
    m_rankBox->setValue(count);
  }
  m_wordModel->setRankCount(m_rankBox->value());
  showSliceColumn();
}

int TopicTimeView::rankCount() const { return m_wordModel->rankCount(); }

std::vector<int> TopicTimeView::drawnSlices() const {
  std::vector<int> out;
  if (!m_data) return out;
  const auto& time = overTimeOf(*m_data);
  for (int t = 0; t < time.sliceCount(); ++t)
    if (time.hasDocuments(t)) out.push_back(t);
  if (out.empty())
    for (int t = 0; t < time.sliceCount(); ++t) out.push_back(t);
  return out;
}

std::int32_t TopicTimeView::wordId(const QString& word) const {
  if (!m_data) return -1;
  const QString wanted = word.trimmed();
  const auto& vocabulary = overTimeOf(*m_data).vocabulary;
  // The word as written first, else in any case (the vocabulary may keep capitals).
  if (const auto exact = vocabulary.indexOf(wanted); exact >= 0) return static_cast<std::int32_t>(exact);
  for (qsizetype w = 0; w < vocabulary.size(); ++w)
    if (vocabulary[w].compare(wanted, Qt::CaseInsensitive) == 0) return static_cast<std::int32_t>(w);
  return -1;
}

bool TopicTimeView::addWord(const QString& text) {
  if (!m_data || text.trimmed().isEmpty()) return false;
  const auto word = wordId(text);
  if (word < 0) {
    showWordMessage(tr("“%1” is not in the vocabulary.").arg(text.trimmed()));
    return false;
  }
  if (std::any_of(m_words.begin(), m_words.end(), [word](const auto& w) { return w.word == word; })) {
    showWordMessage(tr("“%1” is drawn already.").arg(m_data->wordText(word)));
    return false;
  }
  if (static_cast<int>(m_words.size()) >= kMostChartedWords) {
    showWordMessage(
        tr("At most %1 words are drawn at once: take one off first (click it in the legend).").arg(kMostChartedWords));
    return false;
  }
  int colour = 0;
  while (std::any_of(m_words.begin(), m_words.end(), [colour](const auto& w) { return w.colour == colour; })) ++colour;
  m_words.push_back({word, colour});
  showWordMessage({});
  rebuildWordChart();
  return true;
}

void TopicTimeView::removeWord(const QString& text) {
  const auto word = wordId(text);
  const auto found = std::find_if(m_words.begin(), m_words.end(), [word](const auto& w) { return w.word == word; });
  if (found == m_words.end()) return;
  m_words.erase(found);
  showWordMessage({});
  rebuildWordChart();
}

void TopicTimeView::resetWords() {
  m_words.clear();
  if (m_data) {
    const auto& changing = overTimeOf(*m_data).changing[static_cast<std::size_t>(m_topic)];
    for (std::size_t i = 0; i < changing.size() && i < static_cast<std::size_t>(kDefaultChartedWords); ++i)
      m_words.push_back({changing[i], static_cast<int>(i)});
  }
  showWordMessage({});
  rebuildWordChart();
}

QStringList TopicTimeView::chartedWords() const {
  QStringList out;
  if (m_data)
    for (const auto& w : m_words) out << m_data->wordText(w.word);
  return out;
}

void TopicTimeView::showWordMessage(const QString& message) {
  m_wordNote->setText(message.isEmpty()
                          ? tr("At first the topic's words whose probability changes most. Click a word in the "
                               "legend to take it off.")
                          : message);
}

QString TopicTimeView::wordMessage() const { return m_wordNote->text(); }

void TopicTimeView::updateWordColours() {
  QHash<std::int32_t, QColor> colours;
  for (const auto& w : m_words) colours.insert(w.word, topicColour(w.colour, palette()));
  m_wordModel->setWordColours(std::move(colours), palette().color(QPalette::PlaceholderText));
}

void TopicTimeView::updateDocuments() {
  if (!m_data || m_slice < 0) {
    m_documentModel->setDocuments(nullptr, {}, 0);
    m_sliceNote->clear();
    return;
  }
  const auto& time = overTimeOf(*m_data);
  const auto& positions = time.sliceDocuments[static_cast<std::size_t>(m_slice)];
  const QString label = time.sliceLabels.value(m_slice).toHtmlEscaped();
  m_documentModel->setDocuments(m_data, positions, m_topic);
  m_documentModel->setColour(topicColour(m_topic, palette()));
  m_documentTable->setColumnHidden(SliceDocumentModel::ShareColumn, !m_documentModel->hasShares());
  if (m_documentModel->hasShares())
    m_documentTable->sortByColumn(SliceDocumentModel::ShareColumn, Qt::DescendingOrder);
  else
    m_documentTable->sortByColumn(SliceDocumentModel::TimeColumn, Qt::AscendingOrder);
  QString note;
  if (positions.empty()) {
    note = time.hasDocuments(m_slice)
               ? tr("<b>%1</b>: the run counted documents here, but none of the corpus' documents has a time in "
                    "this slice now.")
                     .arg(label)
               : tr("<b>%1</b>: no documents. The model's topics here only bridge the slices around it.").arg(label);
  } else {
    note = tr("<b>%1</b>: %2")
               .arg(label, countOf(static_cast<std::int64_t>(positions.size()), tr("document"), tr("documents")));
    if (m_documentModel->hasShares()) note += tr(", most of topic %1 first").arg(m_topic + 1);
    note += QLatin1Char('.');
  }
  if (time.undated > 0)
    note += tr(" %1 fall in no slice (no readable time).").arg(countOf(time.undated, tr("document"), tr("documents")));
  m_sliceNote->setText(note);
  // The document with most of the topic picked, for Open in Documents.
  m_open->setEnabled(false);
  if (m_documentOrder->rowCount() > 0) m_documentTable->setCurrentIndex(m_documentOrder->index(0, 0));
}

std::vector<std::int64_t> TopicTimeView::listedDocuments() const {
  std::vector<std::int64_t> out;
  for (int row = 0; row < m_documentOrder->rowCount(); ++row)
    out.push_back(m_documentOrder->index(row, 0).data(SliceDocumentModel::DocumentIndexRole).toLongLong());
  return out;
}

QString TopicTimeView::sliceNote() const { return m_sliceNote->text(); }

void TopicTimeView::openCurrentDocument() {
  const QModelIndex current = m_documentTable->currentIndex();
  if (!m_openable || !current.isValid()) return;
  Q_EMIT documentActivated(current.data(SliceDocumentModel::DocumentIndexRole).toLongLong());
}

void TopicTimeView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::PaletteChange && m_data) {
    updateTopicBox();
    rebuildShareChart();
    rebuildWordChart();
    updateDocuments();
    showSliceColumn();
  }
  QWidget::changeEvent(event);
}

}  // namespace latent::ui
