// SPDX-License-Identifier: GPL-3.0-or-later
// VocabularyPreviewPanel: the counts and the rules run in the background; the panel shows the
// result as lines of rich text.
#include "ui/import/vocabulary_preview_panel.hpp"

#include <QLabel>
#include <QScrollArea>
#include <QTextDocumentFragment>
#include <QVBoxLayout>

#include <optional>

#include "core/io/metadata_file.hpp"
#include "core/io/vocabulary_preview.hpp"
#include "core/util/errors.hpp"
#include "ui/util/background.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {
namespace {

// The words listed for each rule.
constexpr std::size_t kVocabularyPanelExamples = 12;

struct VocabularyPanelResult {
  QString countsKey;
  std::shared_ptr<const core::CorpusWordCounts> counts;
  std::optional<core::VocabularyPreview> preview;
  QString stopWordsName;
  std::optional<core::MetadataMatch> match;
  QString metadataKey;
  QStringList metadataColumns;  // the file's columns other than the key
  QString error, metadataError;
};

// Everything the counts depend on: the source, how it is read and how it is tokenised.
QString vocabularyCountsKey(const core::CorpusImportRequest& r, const core::CorpusReadOptions& read) {
  QStringList parts{fromPath(r.source),
                    QString::number(static_cast<int>(read.format)),
                    qs(read.textColumn),
                    qs(read.titleColumn),
                    qs(read.timeColumn),
                    qs(read.labelColumn),
                    qs(read.idColumn),
                    fromPath(read.vocabulary),
                    QString::number(r.tokenizer.minLength),
                    QString::number(r.tokenizer.keepNumbers ? 1 : 0)};
  for (const auto& c : read.metadataColumns) parts << qs(c);
  return parts.join(QChar(0x1F));
}

QString wordList(const std::vector<std::string>& words, std::int64_t total) {
  QStringList shown;
  for (const auto& w : words) shown << qs(w).toHtmlEscaped();
  QString text = shown.join(QStringLiteral(", "));
  if (total > static_cast<std::int64_t>(words.size())) text += QStringLiteral(", …");
  return text;
}

QString removedLine(const QString& rule, const core::RemovedWords& removed) {
  if (removed.words == 0) return QObject::tr("%1: no word.").arg(rule);
  return QObject::tr("%1: %2, %3 tokens: <i>%4</i>")
      .arg(rule, countOf(removed.words, QObject::tr("word"), QObject::tr("words")), formatCount(removed.tokens),
           wordList(removed.examples, removed.words));
}

VocabularyPanelResult computeVocabularyPanel(core::CorpusImportRequest r, QString previousKey,
                                             std::shared_ptr<const core::CorpusWordCounts> previous,
                                             std::stop_token stop) {
  VocabularyPanelResult out;
  try {
    core::CorpusReadOptions read = r.read;
    if (read.format == core::CorpusFormat::Auto) read.format = core::detectCorpusFormat(r.source);
    // The metadata file takes the columns it gives away from the corpus file, as the import does.
    std::optional<core::MetadataFile> metadataFile;
    if (!r.metadataFile.empty()) {
      try {
        metadataFile.emplace(r.metadataFile, r.metadataKey);
        core::planMetadataJoin(*metadataFile, read);
        out.metadataKey = qs(metadataFile->keyColumn());
        for (const auto& c : metadataFile->valueColumns()) out.metadataColumns << qs(c);
      } catch (const std::exception& e) {
        out.metadataError = qs(e.what());
        metadataFile.reset();
      }
    }
    out.countsKey = vocabularyCountsKey(r, read);
    out.counts = previous;
    if (!previous || previousKey != out.countsKey) {
      core::ImportControl control;
      control.stop = stop;
      control.maxRecords = VocabularyPreviewPanel::kMaxDocuments;
      out.counts =
          std::make_shared<const core::CorpusWordCounts>(core::countCorpusWords(r.source, read, r.tokenizer, control));
    }
    const std::string stopSpec = r.stopWords.value_or(core::isBagOfWords(out.counts->format) ? "none" : "en");
    out.stopWordsName = stopSpec == "en"     ? QObject::tr("English")
                        : stopSpec == "none" ? QObject::tr("none")
                                             : QObject::tr("from %1").arg(fromPath(toPath(qs(stopSpec)).filename()));
    out.preview =
        core::previewVocabulary(*out.counts, core::StopWords::fromSpec(stopSpec), r.prune, kVocabularyPanelExamples);
    if (metadataFile) out.match = core::matchMetadata(out.counts->documentIds, *metadataFile);
  } catch (const core::Cancelled&) {
    out.counts.reset();
  } catch (const std::exception& e) {
    out.error = qs(e.what());
  }
  return out;
}

}  // namespace

VocabularyPreviewPanel::VocabularyPreviewPanel(QWidget* parent) : QGroupBox(tr("Vocabulary"), parent) {
  m_summary = new QLabel;
  m_summary->setWordWrap(true);
  m_summary->setTextFormat(Qt::RichText);
  m_summary->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_summary->setText(tr("Choose a source to see which words its import keeps."));
  m_metadata = new QLabel;
  m_metadata->setWordWrap(true);
  m_metadata->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_metadata->hide();
  // The lists of removed words can be long: they scroll rather than squeeze the previews above.
  auto* content = new QWidget;
  auto* contentLayout = new QVBoxLayout(content);
  contentLayout->setContentsMargins(0, 0, 0, 0);
  contentLayout->addWidget(m_metadata);
  contentLayout->addWidget(m_summary);
  contentLayout->addStretch(1);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setWidget(content);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(scroll);
  m_delay.setSingleShot(true);
  m_delay.setInterval(300);
  connect(&m_delay, &QTimer::timeout, this, &VocabularyPreviewPanel::compute);
}

VocabularyPreviewPanel::~VocabularyPreviewPanel() { m_stop.request_stop(); }

void VocabularyPreviewPanel::setRequest(const core::CorpusImportRequest& request) {
  m_request = request;
  m_delay.start();
}

QString VocabularyPreviewPanel::summaryText() const {
  return QTextDocumentFragment::fromHtml(m_summary->text()).toPlainText();
}

QString VocabularyPreviewPanel::metadataText() const { return m_metadata->isHidden() ? QString() : m_metadata->text(); }

void VocabularyPreviewPanel::compute() {
  const int generation = ++m_generation;
  // A count still going for older settings is of no use now.
  m_stop.request_stop();
  m_stop = std::stop_source();
  if (m_request.source.empty()) {
    m_keptWords = -1;
    m_summary->setText(tr("Choose a source to see which words its import keeps."));
    m_metadata->hide();
    m_shown = generation;
    Q_EMIT updated();
    return;
  }
  const bool recount = !m_counts;
  m_summary->setText(recount ? tr("Counting the words…") : m_summary->text());
  runInBackground(
      this,
      [r = m_request, key = m_countsKey, counts = m_counts, stop = m_stop.get_token()] {
        return computeVocabularyPanel(r, key, counts, stop);
      },
      [this, generation](const VocabularyPanelResult& result) {
        if (generation != m_generation) return;  // the settings changed since; a newer preview is coming
        m_shown = generation;
        if (!result.error.isEmpty() || !result.preview) {
          m_keptWords = -1;
          m_counts.reset();
          m_countsKey.clear();
          m_summary->setText(QStringLiteral("<span style=\"color:#d0443a\">%1</span>")
                                 .arg(tr("No vocabulary to show: %1")
                                          .arg(result.error.isEmpty() ? tr("stopped") : result.error)
                                          .toHtmlEscaped()));
          m_metadata->hide();
          Q_EMIT updated();
          return;
        }
        m_counts = result.counts;
        m_countsKey = result.countsKey;
        const auto& p = *result.preview;
        m_keptWords = p.keptWords;
        QStringList lines;
        lines << tr("<b>Kept: %1, %2 tokens</b> (of %3 and %4 tokens read).")
                     .arg(countOf(p.keptWords, tr("word"), tr("words")), formatCount(p.keptTokens),
                          countOf(static_cast<std::int64_t>(result.counts->words.size()), tr("distinct word"),
                                  tr("distinct words")),
                          formatCount(p.tokensSeen));
        lines
            << (p.wholeSource
                    ? tr("Counted in the whole source: %1.").arg(countOf(p.documents, tr("document"), tr("documents")))
                    : tr("Counted in a sample: the first %1 of the source (document frequencies "
                         "are those of the sample).")
                          .arg(countOf(p.documents, tr("document"), tr("documents"))));
        QStringList frequent;
        for (const auto& w : p.mostFrequent)
          frequent << QStringLiteral("%1 (%2)").arg(qs(w.word).toHtmlEscaped(), formatCount(w.count));
        lines << tr("Most frequent kept: <i>%1</i>")
                     .arg(frequent.isEmpty() ? tr("none") : frequent.join(QStringLiteral(", ")));
        lines << removedLine(tr("Removed as stop words (%1)").arg(result.stopWordsName.toHtmlEscaped()), p.stopWords);
        lines << removedLine(tr("Removed by min-df (in fewer than %1)")
                                 .arg(countOf(m_request.prune.minDocumentFrequency, tr("document"), tr("documents"))),
                             p.minDocumentFrequency);
        if (m_request.prune.maxDocumentFraction < 1.0)
          lines << removedLine(tr("Removed by max-df (in more than %1% of the documents)")
                                   .arg(formatReal(100.0 * m_request.prune.maxDocumentFraction, 3)),
                               p.maxDocumentFraction);
        if (m_request.prune.maxVocabulary > 0)
          lines << removedLine(
              tr("Removed by the cap of %1").arg(countOf(m_request.prune.maxVocabulary, tr("word"), tr("words"))),
              p.vocabularyCap);
        m_summary->setText(lines.join(QStringLiteral("<br>")));
        if (!result.metadataError.isEmpty()) {
          m_metadata->setStyleSheet(QStringLiteral("color: #d0443a;"));
          m_metadata->setText(tr("Metadata file: %1").arg(result.metadataError));
          m_metadata->show();
        } else if (result.match) {
          const auto& m = *result.match;
          QString text = tr("Metadata file: %1 of %2 matched by its column “%3”.")
                             .arg(formatCount(m.matchedDocuments),
                                  countOf(m.matchedDocuments + m.unmatchedDocuments, tr("document"), tr("documents")),
                                  result.metadataKey);
          if (m.unmatchedDocuments > 0) {
            QStringList examples;
            for (const auto& id : m.unmatchedExamples) examples << qs(id);
            text += QLatin1Char(' ') + tr("No row for %1 (%2).")
                                           .arg(countOf(m.unmatchedDocuments, tr("document"), tr("documents")),
                                                examples.join(QStringLiteral(", ")));
          }
          if (m.rows > m.matchedDocuments)
            text += QLatin1Char(' ') +
                    tr("%1 match no document.").arg(countOf(m.rows - m.matchedDocuments, tr("row"), tr("rows")));
          // Its columns, so that the Time and Label fields can name them.
          text += QLatin1Char(' ') + tr("Its columns: %1.").arg(result.metadataColumns.join(QStringLiteral(", ")));
          m_metadata->setStyleSheet(m.matchedDocuments == 0 ? QStringLiteral("color: #d0443a;") : QString());
          m_metadata->setText(text);
          m_metadata->show();
        } else {
          m_metadata->hide();
        }
        Q_EMIT updated();
      });
}

}  // namespace latent::ui
