// SPDX-License-Identifier: GPL-3.0-or-later
// CorpusBrowser: loading (off the GUI thread), title/id filter, word search, document display.
#include "ui/browsers/corpus_browser.hpp"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSet>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

#include "core/data/tokenizer.hpp"
#include "core/store/corpus_store.hpp"
#include "ui/browsers/document_table_model.hpp"
#include "ui/browsers/document_viewer.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/util/background.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_export.hpp"
#include "ui/util/table_style.hpp"

namespace latent::ui {
namespace {

struct LoadedCorpus {
  core::DatasetInfo dataset;
  std::vector<core::DocumentHeader> documents;
  std::vector<core::Corpus::MetadataColumn> metadata;
  std::vector<std::string> words;
  QString error;
};

struct WordSearch {
  std::shared_ptr<const core::Corpus> tokens;
  QString word;  // normalised as the tokenizer does
  bool known = false;
  QSet<qint64> documents;
  QString error;
};

struct LoadedCorpusDocument {
  core::StoredDocument document;
  std::vector<core::DocumentLinkRef> links;
  QString error;
};

}  // namespace

CorpusBrowser::CorpusBrowser(std::filesystem::path projectFile, qint64 datasetId, QWidget* parent)
    : TabPage(QStringLiteral("dataset:%1").arg(datasetId), parent),
      m_projectFile(std::move(projectFile)),
      m_datasetId(datasetId) {
  auto* page = new QWidget(this);
  m_summary = new QLabel(page);
  m_summary->setWordWrap(true);
  m_summary->setTextFormat(Qt::RichText);

  m_search = new QLineEdit(page);
  m_search->setPlaceholderText(tr("Search titles and ids, or type one word to find the documents that use it"));
  m_search->setClearButtonEnabled(true);
  m_status = new QLabel(page);
  m_status->setEnabled(false);

  m_model = new DocumentTableModel(this);
  m_filter = new DocumentFilter(this);
  m_filter->setSourceModel(m_model);
  m_table = new QTableView(page);
  enableTableExport(m_table, [] { return QStringLiteral("documents.csv"); });
  m_table->setModel(m_filter);
  m_table->setSortingEnabled(true);
  m_table->sortByColumn(DocumentTableModel::IndexColumn, Qt::AscendingOrder);
  m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
  m_table->setSelectionMode(QAbstractItemView::SingleSelection);
  makeCompact(m_table);
  m_table->horizontalHeader()->setSectionResizeMode(DocumentTableModel::TitleColumn, QHeaderView::Stretch);

  auto* left = new QWidget(page);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(m_search);
  leftLayout->addWidget(m_table, 1);
  leftLayout->addWidget(m_status);

  m_viewer = new DocumentViewer(page);
  // A linked document opens in the list when the filter shows it, else in the reader alone.
  connect(m_viewer, &DocumentViewer::linkedDocumentActivated, this, [this](qint64 index) {
    if (index < 0 || index >= m_model->rowCount()) return;
    const QModelIndex row = m_filter->mapFromSource(m_model->index(static_cast<int>(index), 0));
    if (row.isValid())
      selectRow(row.row());
    else
      showDocument(index);
  });
  auto* splitter = new QSplitter(Qt::Horizontal, page);
  splitter->addWidget(left);
  splitter->addWidget(m_viewer);
  splitter->setStretchFactor(0, 5);
  splitter->setStretchFactor(1, 6);
  splitter->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(10, 8, 10, 8);
  layout->addWidget(m_summary);
  layout->addWidget(splitter, 1);
  setContent(page);

  m_searchDelay.setSingleShot(true);
  m_searchDelay.setInterval(250);
  connect(&m_searchDelay, &QTimer::timeout, this, &CorpusBrowser::applySearch);
  connect(m_search, &QLineEdit::textChanged, this, [this] { m_searchDelay.start(); });
  connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
    if (current.isValid()) showDocument(current.data(DocumentTableModel::DocumentIndexRole).toLongLong());
  });
  load();
}

void CorpusBrowser::load() {
  showLoading();
  runInBackground(
      this,
      [file = m_projectFile, id = m_datasetId] {
        LoadedCorpus out;
        try {
          core::Project project(offGuiThread(file), core::Project::Access::ReadOnly);
          out.dataset = project.dataset(id);
          out.documents = core::listDocuments(project, id);
          out.metadata = metadataColumnsOf(out.documents);
          for (auto& v : core::loadVocabulary(project, id)) out.words.push_back(std::move(v.word));
        } catch (const std::exception& e) {
          out.error = qs(e.what());
        }
        return out;
      },
      [this](LoadedCorpus loaded) {
        if (!loaded.error.isEmpty()) {
          showError(tr("Could not read this corpus: %1").arg(loaded.error));
          return;
        }
        m_dataset = loaded.dataset;
        m_words = std::move(loaded.words);
        // Columns the file did not fill are hidden: no empty Time or Label column, and no Id
        // column that only repeats the row number.
        const auto& docs = loaded.documents;
        auto all = [&docs](auto predicate) { return std::all_of(docs.begin(), docs.end(), predicate); };
        m_table->setColumnHidden(DocumentTableModel::TimeColumn, all([](const auto& d) { return d.time.empty(); }));
        m_table->setColumnHidden(DocumentTableModel::LabelColumn, all([](const auto& d) { return d.label.empty(); }));
        m_table->setColumnHidden(DocumentTableModel::IdColumn, all([](const auto& d) {
                                   return d.id.empty() || d.id == std::to_string(d.index + 1);
                                 }));
        m_model->setDocuments(std::move(loaded.documents), std::move(loaded.metadata));
        m_table->resizeColumnsToContents();
        // Long ids (file names) must not push the titles out of sight.
        m_table->setColumnWidth(DocumentTableModel::IdColumn,
                                std::min(m_table->columnWidth(DocumentTableModel::IdColumn), 130));
        m_table->horizontalHeader()->setSectionResizeMode(DocumentTableModel::TitleColumn, QHeaderView::Stretch);
        m_summary->setText(QStringLiteral("<b>%1</b> &nbsp;<span style=\"color:gray\">%2 · %3</span>")
                               .arg(qs(m_dataset.name).toHtmlEscaped(), datasetSummaryText(m_dataset),
                                    tr("format: %1").arg(qs(m_dataset.format))));
        updateStatus();
        showContent();
        if (m_filter->rowCount() > 0) selectRow(0);
      });
}

void CorpusBrowser::search(const QString& text) {
  m_searchDelay.stop();
  if (m_search->text() != text) {
    const QSignalBlocker block(m_search);
    m_search->setText(text);
  }
  applySearch();
}

void CorpusBrowser::applySearch() {
  const QString text = m_search->text().trimmed();
  m_filter->setText(text);
  m_wordStatus.clear();
  const int generation = ++m_searchGeneration;
  const bool oneWord = !text.isEmpty() && !text.contains(QRegularExpression(QStringLiteral("\\s")));
  if (!oneWord) {
    updateStatus();
    Q_EMIT searchFinished();
    return;
  }
  m_wordStatus = tr("searching for the word…");
  updateStatus();
  runInBackground(
      this,
      [file = m_projectFile, id = m_datasetId, cached = m_tokens, word = utf8(text)] {
        WordSearch out;
        try {
          out.tokens = cached;
          if (!out.tokens) {
            core::Project project(offGuiThread(file), core::Project::Access::ReadOnly);
            out.tokens = std::make_shared<const core::Corpus>(core::loadCorpus(project, id));
          }
          const std::string normalised = core::Tokenizer::normalize(word);
          out.word = qs(normalised);
          const auto& words = out.tokens->words;
          const auto it = std::find(words.begin(), words.end(), normalised);
          if (it != words.end()) {
            out.known = true;
            const auto w = static_cast<std::int32_t>(it - words.begin());
            for (std::size_t d = 0; d < out.tokens->documentCount(); ++d) {
              const auto doc = out.tokens->document(d);
              if (std::find(doc.begin(), doc.end(), w) != doc.end()) out.documents.insert(static_cast<qint64>(d));
            }
          }
        } catch (const std::exception& e) {
          out.error = qs(e.what());
        }
        return out;
      },
      [this, generation](WordSearch result) {
        if (result.tokens) m_tokens = result.tokens;
        if (generation != m_searchGeneration) return;  // the user typed on; a newer search is coming
        if (!result.error.isEmpty()) {
          m_wordStatus = tr("word search failed: %1").arg(result.error);
        } else if (!result.known) {
          m_wordStatus = tr("“%1” is not in the vocabulary").arg(result.word);
        } else {
          m_wordStatus = tr("“%1” occurs in %2")
                             .arg(result.word, countOf(result.documents.size(), tr("document"), tr("documents")));
          m_filter->setWordMatches(result.documents);
        }
        updateStatus();
        Q_EMIT searchFinished();
      });
}

void CorpusBrowser::updateStatus() {
  QString text =
      tr("Showing %1 of %2 documents").arg(formatCount(m_filter->rowCount()), formatCount(m_model->rowCount()));
  if (!m_wordStatus.isEmpty()) text += QStringLiteral(" · ") + m_wordStatus;
  m_status->setText(text);
}

int CorpusBrowser::visibleDocumentCount() const { return m_filter->rowCount(); }

void CorpusBrowser::selectRow(int row) {
  if (row < 0 || row >= m_filter->rowCount()) return;
  m_table->selectionModel()->setCurrentIndex(m_filter->index(row, 0),
                                             QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

QString CorpusBrowser::linksHtml(const std::vector<core::DocumentLinkRef>& links) const {
  if (links.empty()) return {};
  constexpr int kShown = 8;
  constexpr int kTitleCharacters = 48;
  QStringList out, in;
  std::size_t outCount = 0, inCount = 0;
  for (const auto& l : links) {
    auto& list = l.outgoing ? out : in;
    (l.outgoing ? outCount : inCount) += 1;
    if (list.size() >= kShown) continue;
    QString title = tr("Document %1").arg(l.other + 1);
    if (l.other >= 0 && l.other < m_model->rowCount() &&
        m_model->document(static_cast<int>(l.other)).index == l.other &&
        !m_model->document(static_cast<int>(l.other)).title.empty())
      title = qs(m_model->document(static_cast<int>(l.other)).title);
    if (title.size() > kTitleCharacters) title = title.left(kTitleCharacters - 1) + QChar(0x2026);
    list << QStringLiteral("<a href=\"doc:%1\">%2</a>").arg(l.other).arg(title.toHtmlEscaped());
  }
  const auto more = [this](std::size_t total, qsizetype shown) {
    return total > static_cast<std::size_t>(shown) ? tr(" and %1 more").arg(total - static_cast<std::size_t>(shown))
                                                   : QString();
  };
  QStringList lines;
  if (outCount > 0) lines << tr("<b>Links to</b> %1%2").arg(out.join(QStringLiteral(", ")), more(outCount, out.size()));
  if (inCount > 0) lines << tr("<b>Linked from</b> %1%2").arg(in.join(QStringLiteral(", ")), more(inCount, in.size()));
  return lines.join(QStringLiteral("<br>"));
}

void CorpusBrowser::showDocument(qint64 index) {
  const int generation = ++m_documentGeneration;
  runInBackground(
      this,
      [file = m_projectFile, id = m_datasetId, index] {
        LoadedCorpusDocument out;
        try {
          core::Project project(offGuiThread(file), core::Project::Access::ReadOnly);
          out.document = core::loadDocument(project, id, index);
          out.links = core::documentLinksOf(project, id, index);
        } catch (const std::exception& e) {
          out.error = qs(e.what());
        }
        return out;
      },
      [this, generation, index](LoadedCorpusDocument loaded) {
        if (generation != m_documentGeneration) return;
        if (!loaded.error.isEmpty()) {
          m_viewer->clear(tr("Could not read this document: %1").arg(loaded.error));
          return;
        }
        m_viewer->setDocument(loaded.document, m_words);
        m_viewer->setLinks(linksHtml(loaded.links));
        Q_EMIT documentShown(index);
      });
}

}  // namespace latent::ui
