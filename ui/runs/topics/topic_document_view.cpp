// SPDX-License-Identifier: GPL-3.0-or-later
// TopicDocumentView: document list, loading a document and its assignments off the GUI thread,
// the annotated text, and the proportions table that picks the emphasised topic.
#include "ui/runs/topics/topic_document_view.hpp"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextDocumentLayout>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QTableWidget>
#include <QTextDocument>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

#include "core/results/topic_results.hpp"
#include "core/store/run_store.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/runs/topics/document_links_data.hpp"
#include "ui/runs/topics/run_document_model.hpp"
#include "ui/runs/topics/topic_run_data.hpp"
#include "ui/util/background.hpp"
#include "ui/util/bar_delegate.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/table_style.hpp"
#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

constexpr int kProportionTopicRole = Qt::UserRole + 20;

struct LoadedRunDocument {
  core::DocumentHeader header;
  std::size_t wordCount = 0;
  std::shared_ptr<const AnnotationInput> input;
  std::shared_ptr<QTextDocument> text;
  QString error;
};

}  // namespace

TopicDocumentView::TopicDocumentView(QWidget* parent) : QWidget(parent) {
  // Left: the documents.
  m_filterBox = new QLineEdit(this);
  m_filterBox->setPlaceholderText(tr("Filter documents by title or id"));
  m_filterBox->setClearButtonEnabled(true);
  m_model = new RunDocumentModel(this);
  m_filter = new RunDocumentFilter(this);
  m_filter->setSourceModel(m_model);
  m_documents = new QTableView(this);
  m_documents->setModel(m_filter);
  makeCompact(m_documents);
  m_documents->setSortingEnabled(true);
  m_documents->sortByColumn(RunDocumentModel::IndexColumn, Qt::AscendingOrder);
  m_documents->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_documents->setSelectionMode(QAbstractItemView::SingleSelection);
  m_documents->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_documents->setTextElideMode(Qt::ElideRight);
  auto* dh = m_documents->horizontalHeader();
  dh->setSectionResizeMode(QHeaderView::ResizeToContents);
  dh->setSectionResizeMode(RunDocumentModel::TitleColumn, QHeaderView::Stretch);
  // The titles need the room; the corpus order stays the default sort.
  m_documents->setColumnHidden(RunDocumentModel::IndexColumn, true);
  m_documents->setColumnHidden(RunDocumentModel::WordsColumn, true);  // the header above the text has it
  enableTableExport(m_documents, [] { return QStringLiteral("documents.csv"); });
  auto* left = new QWidget(this);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(m_filterBox);
  leftLayout->addWidget(m_documents, 1);

  // Middle: the annotated text.
  m_headerLabel = new QLabel(this);
  m_headerLabel->setTextFormat(Qt::RichText);
  m_headerLabel->setWordWrap(true);
  // A linked corpus: the document's links both ways and a run's likely new links, each opening its
  // document.
  m_linksLabel = new QLabel(this);
  m_linksLabel->setTextFormat(Qt::RichText);
  m_linksLabel->setWordWrap(true);
  m_linksLabel->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
  m_linksLabel->hide();
  connect(m_linksLabel, &QLabel::linkActivated, this, [this](const QString& link) {
    if (link.startsWith(QLatin1String("doc:"))) showDocument(link.mid(4).toLongLong());
  });
  m_note = new QLabel(this);
  m_note->setWordWrap(true);
  m_note->setForegroundRole(QPalette::PlaceholderText);
  // A plain text edit lays out only the paragraphs in sight, so a 16,000-word address shows at
  // once; its documents still carry every character format (colours, superscripts).
  m_text = new QPlainTextEdit(this);
  m_text->setReadOnly(true);
  m_text->setUndoRedoEnabled(false);
  m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
  QFont f = m_text->font();
  f.setPointSizeF(f.pointSizeF() * 1.08);
  m_text->setFont(f);
  auto* middle = new QWidget(this);
  auto* middleLayout = new QVBoxLayout(middle);
  middleLayout->setContentsMargins(0, 0, 0, 0);
  middleLayout->addWidget(m_headerLabel);
  middleLayout->addWidget(m_linksLabel);
  middleLayout->addWidget(m_note);
  middleLayout->addWidget(m_text, 1);

  // Right: the document's topic proportions.
  auto* proportionsTitle = new QLabel(tr("<b>Topic proportions</b>"), this);
  m_proportions = new QTableWidget(0, 2, this);
  m_proportions->setHorizontalHeaderLabels({tr("Topic"), tr("Proportion")});
  makeCompact(m_proportions);
  m_proportions->setAlternatingRowColors(false);
  m_proportions->setEditTriggers(QAbstractItemView::NoEditTriggers);
  m_proportions->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_proportions->setSelectionMode(QAbstractItemView::SingleSelection);
  m_proportions->setItemDelegateForColumn(1, new BarDelegate(QStringLiteral("100.0 %"), m_proportions));
  m_proportions->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  m_proportions->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Fixed);
  m_proportions->setColumnWidth(1, 112);
  m_proportions->setTextElideMode(Qt::ElideRight);
  enableTableExport(m_proportions, [this] { return tr("document-%1-topics.csv").arg(m_index + 1); });
  m_proportionsNote = new QLabel(tr("Click a topic to pick out its words."), this);
  m_proportionsNote->setWordWrap(true);
  m_proportionsNote->setForegroundRole(QPalette::PlaceholderText);
  m_showAll = new QPushButton(tr("Show All Topics"), this);
  m_showAll->setEnabled(false);
  auto* right = new QWidget(this);
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(0, 0, 0, 0);
  rightLayout->addWidget(proportionsTitle);
  rightLayout->addWidget(m_proportions, 1);
  rightLayout->addWidget(m_proportionsNote);
  rightLayout->addWidget(m_showAll, 0, Qt::AlignLeft);

  // The documents and the shown one's proportions share the left column; the text gets the rest
  // of the width, which reading needs most.
  auto* side = new QSplitter(Qt::Vertical, this);
  side->addWidget(left);
  side->addWidget(right);
  side->setStretchFactor(0, 1);
  side->setStretchFactor(1, 1);
  side->setChildrenCollapsible(false);
  m_splitter = new QSplitter(Qt::Horizontal, this);
  m_splitter->addWidget(side);
  m_splitter->addWidget(middle);
  m_splitter->setStretchFactor(0, 3);
  m_splitter->setStretchFactor(1, 5);
  m_splitter->setChildrenCollapsible(false);
  side->setMinimumWidth(240);
  middle->setMinimumWidth(280);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 6, 0, 0);
  layout->addWidget(m_splitter, 1);

  connect(m_filterBox, &QLineEdit::textChanged, m_filter, &RunDocumentFilter::setText);
  connect(m_documents->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!current.isValid()) return;
            const qint64 index = current.data(RunDocumentModel::DocumentIndexRole).toLongLong();
            if (index != m_requested) showDocument(index);
          });
  connect(m_proportions, &QTableWidget::cellClicked, this, [this](int row, int) {
    const int topic = m_proportions->item(row, 0)->data(kProportionTopicRole).toInt();
    highlightTopic(topic == m_emphasised ? -1 : topic);
  });
  connect(m_showAll, &QPushButton::clicked, this, [this] { highlightTopic(-1); });
}

TopicDocumentView::~TopicDocumentView() {
  // The text view must let go of the shown document before m_shown deletes it.
  delete m_text;
  m_text = nullptr;
}

void TopicDocumentView::setData(std::filesystem::path projectFile, std::shared_ptr<const TopicRunData> data) {
  m_projectFile = std::move(projectFile);
  m_data = std::move(data);
  m_emphasised = -1;
  m_index = -1;
  m_requested = -1;
  m_model->setData(m_data);
  if (!m_data) return;
  m_labels = QStringList(m_data->topicCount(), QString());
  for (const auto& [topic, label] : m_data->labels)
    if (topic >= 0 && topic < m_data->topicCount()) m_labels[static_cast<int>(topic)] = qs(label);
  m_model->setLabels(m_labels);
  m_documents->setColumnHidden(
      RunDocumentModel::SetColumn,
      std::all_of(m_data->assigned.begin(), m_data->assigned.end(), [](std::uint8_t a) { return a != 0; }));
  m_documents->setColumnHidden(RunDocumentModel::TopicColumn, !m_data->hasDocTopic());
  updateColours();
  if (m_filter->rowCount() > 0) selectRow(0);
}

void TopicDocumentView::setLabels(const QStringList& labels) {
  m_labels = labels;
  m_model->setLabels(labels);
  renderProportions();
}

QString TopicDocumentView::topicName(int topic) const {
  const QString label = m_labels.value(topic);
  if (!label.isEmpty()) return QStringLiteral("%1 · %2").arg(topic + 1).arg(label);
  // Unnamed topics are recognised by their first words.
  QStringList words;
  if (m_data && static_cast<std::size_t>(topic) < m_data->topWords.size())
    for (const auto& w : m_data->topWords[static_cast<std::size_t>(topic)]) {
      if (words.size() == 3) break;
      words << m_data->wordText(w.word);
    }
  return QStringLiteral("%1 · %2").arg(topic + 1).arg(words.join(QStringLiteral(", ")));
}

void TopicDocumentView::selectRow(int row) {
  if (row < 0 || row >= m_filter->rowCount()) return;
  m_documents->selectionModel()->setCurrentIndex(m_filter->index(row, RunDocumentModel::TitleColumn),
                                                 QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void TopicDocumentView::showDocument(qint64 index) {
  if (!m_data) return;
  m_requested = index;
  // The list follows when a document is asked for by other means (tests, links).
  for (int row = 0; row < m_filter->rowCount(); ++row)
    if (const QModelIndex i = m_filter->index(row, RunDocumentModel::TitleColumn);
        i.data(RunDocumentModel::DocumentIndexRole).toLongLong() == index) {
      if (m_documents->currentIndex().row() != row)
        m_documents->selectionModel()->setCurrentIndex(i,
                                                       QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
      m_documents->scrollTo(i);
      break;
    }
  const int generation = ++m_loadGeneration;
  ++m_renderGeneration;  // a redraw of the previous document asked for earlier is not wanted
  // Emphasis belongs to a document: the next one shows every topic, its proportions unfaded.
  m_emphasised = -1;
  const int styleSerial = m_styleSerial;
  ++m_pending;
  const AnnotationStyle style{palette(), m_colours, m_emphasised};
  runInBackground(
      this,
      [file = m_projectFile, data = m_data, index, style, font = m_text->font(), owner = thread()] {
        LoadedRunDocument out;
        try {
          core::Project project(offGuiThread(file), core::Project::Access::ReadOnly);
          auto document = core::loadDocument(project, data->run.datasetId, index);
          auto topics = core::loadTokenTopics(project, data->run.id, index);
          // Per-token topics of the wrong length (an older run of a re-imported corpus) are
          // left out rather than shown on the wrong words.
          if (!topics.empty() && topics.size() != document.wordIds.size()) topics.clear();
          out.header = document.header;
          out.wordCount = document.wordIds.size();
          auto input =
              annotationInput(document, std::move(topics), [&data](std::int32_t w) { return data->wordText(w); });
          if (data->syntacticClasses) {
            // lda-hmm: each token's class and probability of being a content word (000 Fig. 27.14).
            const auto classes = core::loadTokenValues(project, data->run.id, core::topic::kTokenClass, index);
            auto content = core::loadTokenValues(project, data->run.id, core::topic::kTokenContentProbability, index);
            if (classes.size() == document.wordIds.size()) {
              for (const float c : classes) input.classes.push_back(static_cast<std::int32_t>(c));
              if (content.size() == classes.size()) input.content = std::move(content);
            }
          }
          out.input = std::make_shared<const AnnotationInput>(std::move(input));
          out.text = annotatedDocument(*out.input, style, font, owner);
        } catch (const std::exception& e) {
          out.error = qs(e.what());
        }
        return out;
      },
      [this, generation, index, styleSerial](LoadedRunDocument loaded) {
        --m_pending;
        if (generation != m_loadGeneration) return;  // another document was asked for meanwhile
        if (!loaded.error.isEmpty()) {
          m_headerLabel->setText(tr("<b>Could not read this document</b>"));
          m_note->setText(loaded.error);
          m_text->clear();
          return;
        }
        m_index = index;
        m_header = loaded.header;
        m_wordCount = loaded.wordCount;
        m_input = std::move(loaded.input);
        m_heldOut = m_data->hasAssignments() && m_input->topics.empty() && m_wordCount > 0;
        updateHeader();
        showText(std::move(loaded.text));
        renderProportions();
        // The emphasis or the palette changed while it was loading: draw it again in the new style.
        if (styleSerial != m_styleSerial) rerender();
        Q_EMIT documentShown(index);
      });
}

void TopicDocumentView::rerender() {
  ++m_styleSerial;
  if (!m_input) return;
  const int generation = ++m_renderGeneration;
  ++m_pending;
  const AnnotationStyle style{palette(), m_colours, m_emphasised};
  runInBackground(
      this,
      [input = m_input, style, font = m_text->font(), owner = thread()] {
        return std::shared_ptr<QTextDocument>(annotatedDocument(*input, style, font, owner));
      },
      [this, generation](std::shared_ptr<QTextDocument> text) {
        --m_pending;
        if (generation != m_renderGeneration) return;
        showText(std::move(text));
      });
}

void TopicDocumentView::showText(std::shared_ptr<QTextDocument> document) {
  // Keep the reader where it was when only the emphasis changed.
  const bool sameDocument = m_shown && document && m_shown->characterCount() == document->characterCount();
  const int scroll = m_text->verticalScrollBar()->value();
  m_text->setDocument(document.get());
  m_shown = std::move(document);
  if (sameDocument)
    m_text->verticalScrollBar()->setValue(scroll);
  else
    m_text->moveCursor(QTextCursor::Start);
  Q_EMIT rendered();
}

QString TopicDocumentView::headerText() const { return m_headerLabel->text(); }

QString TopicDocumentView::linksText() const { return m_linksLabel->isHidden() ? QString() : m_linksLabel->text(); }

void TopicDocumentView::updateLinks() {
  const auto* links = m_data ? m_data->links.get() : nullptr;
  const auto index = m_header.index;
  if (!links || index < 0 || static_cast<std::size_t>(index) >= links->neighbours.size()) {
    m_linksLabel->hide();
    return;
  }
  constexpr int kShownLinks = 5;
  constexpr int kTitleCharacters = 48;
  const auto anchor = [this](std::int64_t other) {
    const auto& d = m_data->documents[static_cast<std::size_t>(other)];
    QString title = d.title.empty() ? tr("Document %1").arg(other + 1) : qs(d.title);
    if (title.size() > kTitleCharacters) title = title.left(kTitleCharacters - 1) + QChar(0x2026);
    return QStringLiteral("<a href=\"doc:%1\">%2</a>").arg(other).arg(title.toHtmlEscaped());
  };
  const auto listed = [&](const QStringList& items, std::size_t total) {
    QString text = items.join(QStringLiteral(", "));
    const auto shown = static_cast<std::size_t>(items.size());
    if (total > shown) text += tr(" and %1 more").arg(total - shown);
    return text;
  };
  QStringList out, in, lines;
  std::size_t outCount = 0, inCount = 0;
  for (const auto& end : links->neighbours[static_cast<std::size_t>(index)]) {
    auto& list = end.outgoing ? out : in;
    (end.outgoing ? outCount : inCount) += 1;
    if (list.size() < kShownLinks) list << anchor(end.other);
  }
  if (outCount > 0) lines << tr("<b>Links to</b> %1").arg(listed(out, outCount));
  if (inCount > 0) lines << tr("<b>Linked from</b> %1").arg(listed(in, inCount));
  if (outCount + inCount == 0) lines << tr("No links to or from this document.");
  if (links->hasPredictions() && static_cast<std::size_t>(index) < links->predictedOf.size()) {
    QStringList likely;
    for (const auto i : links->predictedOf[static_cast<std::size_t>(index)]) {
      if (likely.size() >= kShownLinks) break;
      const auto& p = links->predicted[static_cast<std::size_t>(i)];
      likely << QStringLiteral("%1 %2").arg(anchor(p.a == index ? p.b : p.a), formatPercent(p.probability));
    }
    if (!likely.isEmpty()) lines << tr("<b>Most likely new links</b> %1").arg(likely.join(QStringLiteral(", ")));
  }
  m_linksLabel->setText(lines.join(QStringLiteral("<br>")));
  m_linksLabel->show();
}

void TopicDocumentView::updateHeader() {
  const auto& h = m_header;
  QStringList facts;
  if (!h.id.empty() && h.id != h.title) facts << tr("id %1").arg(qs(h.id).toHtmlEscaped());
  if (!h.time.empty()) facts << qs(h.time).toHtmlEscaped();
  if (!h.label.empty()) facts << qs(h.label).toHtmlEscaped();
  facts << countOf(static_cast<std::int64_t>(m_wordCount), tr("kept word"), tr("kept words"));
  // A model of a response (slda): its prediction from the text alone, beside the true value above.
  if (m_data && h.index >= 0 && h.index < m_data->responsePredicted.rows()) {
    const auto row = m_data->responsePredicted.row(h.index);
    if (m_data->responseClasses.isEmpty()) {
      facts << tr("predicted %1 %2").arg(m_data->responseName.toHtmlEscaped(), QString::number(row[0], 'g', 5));
    } else {
      Eigen::Index best = 0;
      row.maxCoeff(&best);
      facts << tr("predicted %1 %2 (%3)")
                   .arg(m_data->responseName.toHtmlEscaped(),
                        m_data->responseClasses.value(static_cast<int>(best)).toHtmlEscaped(),
                        formatPercent(row[best]));
    }
  }
  // A model of labels (labeled-lda): the labels its words suggest, by the model's rule (a share of at
  // least half the top label's), beside the true labels above.
  if (m_data && h.index >= 0 && h.index < m_data->labelScores.rows()) {
    const auto row = m_data->labelScores.row(h.index);
    const double top = row.maxCoeff();
    std::vector<Eigen::Index> order;
    for (Eigen::Index l = 0; l < row.size(); ++l)
      if (top > 0.0 && row[l] >= 0.5 * top) order.push_back(l);
    std::sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) { return row[a] > row[b]; });
    QStringList predicted;
    for (const auto l : order) {
      const auto name = m_data->labels.find(static_cast<std::int64_t>(l));
      predicted << tr("%1 (%2)").arg(
          (name != m_data->labels.end() ? qs(name->second) : tr("label %1").arg(l + 1)).toHtmlEscaped(),
          formatPercent(row[l]));
    }
    if (!predicted.isEmpty()) facts << tr("predicted labels %1").arg(predicted.join(QStringLiteral(", ")));
  }
  facts << (m_heldOut ? tr("held out") : tr("training document"));
  const QString title = h.title.empty() ? tr("Document %1").arg(h.index + 1) : qs(h.title).toHtmlEscaped();
  m_headerLabel->setText(QStringLiteral("<b>%1</b><br><span style=\"color:gray\">%2</span>")
                             .arg(title, facts.join(QStringLiteral(" · "))));
  updateLinks();

  QStringList note;
  if (m_wordCount == 0) {
    note << tr("This document has no kept words: everything in it was a stop word or pruned from the vocabulary.");
  } else if (m_heldOut) {
    note << tr(
        "This document was held out of training to measure the held-out perplexity, so its words have no "
        "topics of their own. Its proportions were inferred afterwards by folding it in, with the topics fixed.");
  } else if (m_input->topics.empty()) {
    note << tr("This model gives each document its topic proportions but no topic to single words.");
  } else if (!m_input->classes.empty()) {
    note << tr(
        "Content words (the semantic class) are coloured by the topic the sampler last gave them; function words "
        "are in the text's colour with their syntactic class (c1, c2, ...), shaded by their probability of being a "
        "content word after all.");
  } else {
    note << assignmentMeaning(*m_data);
  }
  if (!m_input->hasText)
    note << tr(
        "This corpus was imported from a bag-of-words format (UCI or LDA-C): it keeps how often each word occurs "
        "but not the text, so the words are listed grouped by topic instead of read in order.");
  else if (m_wordCount > 0)
    note << tr("Grey text was not modelled: stop words, punctuation, and words too rare or too common to keep.");
  m_note->setText(note.join(QLatin1Char(' ')));
}

void TopicDocumentView::renderProportions() {
  m_proportions->setRowCount(0);
  m_showAll->setEnabled(m_emphasised >= 0);
  if (!m_data || m_index < 0) return;
  const auto row = static_cast<Eigen::Index>(std::distance(
      m_data->documents.begin(), std::find_if(m_data->documents.begin(), m_data->documents.end(),
                                              [this](const core::DocumentHeader& d) { return d.index == m_index; })));
  std::vector<std::pair<int, double>> proportions;
  if (m_data->hasDocTopic() && row < m_data->docTopic.rows()) {
    for (int k = 0; k < m_data->topicCount(); ++k) proportions.emplace_back(k, m_data->docTopic(row, k));
    m_proportionsNote->setText(m_heldOut
                                   ? tr("Folded in (the document was held out). Click a topic to pick out its words.")
                                   : tr("Click a topic to pick out its words."));
  } else if (m_input && !m_input->topics.empty()) {
    // No stored proportions: the share of the document's words assigned to each topic.
    const auto& topics = m_input->topics;
    std::vector<double> counts(static_cast<std::size_t>(m_data->topicCount()), 0.0);
    for (const auto t : topics)
      if (t >= 0 && static_cast<std::size_t>(t) < counts.size()) counts[static_cast<std::size_t>(t)] += 1.0;
    for (int k = 0; k < m_data->topicCount(); ++k)
      proportions.emplace_back(k, counts[static_cast<std::size_t>(k)] / static_cast<double>(topics.size()));
    m_proportionsNote->setText(
        tr("The share of the document's words assigned to each topic. Click a topic to pick out its words."));
  }
  std::stable_sort(proportions.begin(), proportions.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  const double largest = proportions.empty() ? 0.0 : proportions.front().second;
  m_proportions->setRowCount(static_cast<int>(proportions.size()));
  for (int r = 0; r < static_cast<int>(proportions.size()); ++r) {
    const auto [k, p] = proportions[static_cast<std::size_t>(r)];
    auto* name = new QTableWidgetItem(topicName(k));
    name->setData(kProportionTopicRole, k);
    name->setData(kExportRole, k + 1);
    if (k < m_colours.size()) name->setData(Qt::DecorationRole, m_colours[k]);
    name->setToolTip(topicName(k));
    auto* bar = new QTableWidgetItem(formatPercent(p));
    bar->setData(kBarFractionRole, largest > 0 ? p / largest : 0.0);
    if (k < m_colours.size()) bar->setData(kBarColourRole, m_colours[k]);
    bar->setData(kExportRole, p);
    if (m_emphasised >= 0 && k != m_emphasised) {
      name->setForeground(palette().color(QPalette::PlaceholderText));
      bar->setData(kBarColourRole, mixColours(palette().color(QPalette::Text), palette().color(QPalette::Base), 0.7));
    }
    if (k == m_emphasised) {
      QFont bold = name->font();
      bold.setBold(true);
      name->setFont(bold);
    }
    m_proportions->setItem(r, 0, name);
    m_proportions->setItem(r, 1, bar);
  }
}

void TopicDocumentView::highlightTopic(int topic) {
  if (!m_data || topic >= m_data->topicCount()) topic = -1;
  m_emphasised = topic;
  m_proportions->clearSelection();
  rerender();
  renderProportions();
}

QVector<Annotation> TopicDocumentView::annotations() const { return readAnnotations(m_text->document()); }

QString TopicDocumentView::shownText() const { return plainTextWithoutMarks(m_text->document()); }

QString TopicDocumentView::noteText() const { return m_note->text(); }

QVector<QPair<int, double>> TopicDocumentView::shownProportions() const {
  QVector<QPair<int, double>> out;
  for (int r = 0; r < m_proportions->rowCount(); ++r)
    out.push_back({m_proportions->item(r, 0)->data(kProportionTopicRole).toInt(),
                   m_proportions->item(r, 1)->data(kExportRole).toDouble()});
  return out;
}

void TopicDocumentView::updateColours() {
  m_colours.clear();
  if (!m_data) return;
  for (int k = 0; k < m_data->topicCount(); ++k) m_colours << topicColour(k, palette());
  m_model->setColours(m_colours);
}

void TopicDocumentView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) {
    updateColours();
    rerender();
    renderProportions();
  }
}

}  // namespace latent::ui
