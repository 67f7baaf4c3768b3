// SPDX-License-Identifier: GPL-3.0-or-later
// DocumentViewer: builds the text document piece by piece (grey gap, highlighted token, ...).
#include "ui/browsers/document_viewer.hpp"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <numeric>

#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_style.hpp"

namespace latent::ui {
namespace {

// Marks token fragments; the value alternates so that two adjacent tokens stay two fragments.
constexpr int kViewerTokenProperty = QTextFormat::UserProperty + 1;

QColor blend(const QColor& a, const QColor& b, double t) {
  return QColor::fromRgbF(static_cast<float>(a.redF() * (1 - t) + b.redF() * t),
                          static_cast<float>(a.greenF() * (1 - t) + b.greenF() * t),
                          static_cast<float>(a.blueF() * (1 - t) + b.blueF() * t));
}

}  // namespace

DocumentViewer::DocumentViewer(QWidget* parent) : QWidget(parent) {
  m_header = new QLabel(this);
  m_header->setObjectName(QStringLiteral("documentHeader"));
  m_header->setWordWrap(true);
  m_header->setTextFormat(Qt::RichText);
  m_header->setContentsMargins(2, 2, 2, 4);

  m_text = new QTextBrowser(this);
  m_text->setOpenLinks(false);
  m_text->setUndoRedoEnabled(false);
  QFont f = m_text->font();
  f.setPointSizeF(f.pointSizeF() * 1.08);
  m_text->setFont(f);

  auto* bagPage = new QWidget(this);
  m_bagNote = new QLabel(tr("This corpus was imported from a bag-of-words format (UCI or LDA-C): it keeps only "
                            "how often each word occurs, not the original text. Its words, most frequent first:"),
                         bagPage);
  m_bagNote->setWordWrap(true);
  m_bag = new QTableWidget(0, 2, bagPage);
  m_bag->setHorizontalHeaderLabels({tr("Word"), tr("Count")});
  m_bag->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  makeCompact(m_bag);
  m_bag->setEditTriggers(QAbstractItemView::NoEditTriggers);
  auto* bagLayout = new QVBoxLayout(bagPage);
  bagLayout->setContentsMargins(0, 0, 0, 0);
  bagLayout->addWidget(m_bagNote);
  bagLayout->addWidget(m_bag);

  m_empty = new QLabel(this);
  m_empty->setAlignment(Qt::AlignCenter);
  m_empty->setEnabled(false);
  m_empty->setWordWrap(true);

  m_stack = new QStackedWidget(this);
  m_stack->addWidget(m_empty);
  m_stack->addWidget(m_text);
  m_stack->addWidget(bagPage);

  m_links = new QLabel(this);
  m_links->setWordWrap(true);
  m_links->setTextFormat(Qt::RichText);
  m_links->setContentsMargins(2, 0, 2, 4);
  m_links->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
  m_links->hide();
  connect(m_links, &QLabel::linkActivated, this, [this](const QString& link) {
    if (link.startsWith(QLatin1String("doc:"))) Q_EMIT linkedDocumentActivated(link.mid(4).toLongLong());
  });

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(m_header);
  layout->addWidget(m_links);
  layout->addWidget(m_stack, 1);
  clear();
}

void DocumentViewer::clear(const QString& message) {
  m_hasDocument = false;
  m_header->clear();
  m_header->hide();
  setLinks({});
  m_empty->setText(message.isEmpty() ? tr("Select a document to read it.") : message);
  m_stack->setCurrentWidget(m_empty);
}

void DocumentViewer::setDocument(const core::StoredDocument& document, const std::vector<std::string>& words) {
  m_document = document;
  m_words = words;
  m_hasDocument = true;
  render();
}

void DocumentViewer::setLinks(const QString& html) {
  m_links->setText(html);
  m_links->setVisible(!html.isEmpty());
}

QString DocumentViewer::linksText() const { return m_links->text(); }

void DocumentViewer::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  // Colours come from the palette: redraw when it changes (dark mode switched on).
  if (event->type() == QEvent::PaletteChange && m_hasDocument) render();
}

void DocumentViewer::render() {
  const auto& h = m_document.header;
  QStringList facts;
  if (!h.id.empty()) facts << tr("id %1").arg(qs(h.id).toHtmlEscaped());
  if (!h.time.empty()) facts << qs(h.time).toHtmlEscaped();
  if (!h.label.empty()) facts << qs(h.label).toHtmlEscaped();
  if (!h.metadata.empty()) {
    const auto object = nlohmann::ordered_json::parse(h.metadata, nullptr, false);
    if (object.is_object())
      for (const auto& [name, value] : object.items())
        if (value.is_string())
          facts << QStringLiteral("%1: %2").arg(qs(name), qs(value.get<std::string>())).toHtmlEscaped();
  }
  facts << tr("%1 kept tokens").arg(formatCount(h.tokenCount));
  const QString title = h.title.empty() ? tr("Document %1").arg(h.index + 1) : qs(h.title).toHtmlEscaped();
  m_header->setText(QStringLiteral("<b>%1</b><br><span style=\"color:gray\">%2</span>")
                        .arg(title, facts.join(QStringLiteral(" · "))));
  m_header->show();

  if (!h.hasText) {
    std::map<std::int32_t, int> counts;
    for (const auto w : m_document.wordIds) ++counts[w];
    std::vector<std::pair<std::int32_t, int>> sorted(counts.begin(), counts.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    m_bag->setRowCount(static_cast<int>(sorted.size()));
    for (int row = 0; row < static_cast<int>(sorted.size()); ++row) {
      const auto [word, count] = sorted[static_cast<std::size_t>(row)];
      const bool known = word >= 0 && static_cast<std::size_t>(word) < m_words.size();
      m_bag->setItem(row, 0,
                     new QTableWidgetItem(known ? qs(m_words[static_cast<std::size_t>(word)]) : QStringLiteral("?")));
      auto* countItem = new QTableWidgetItem(formatCount(count));
      countItem->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      m_bag->setItem(row, 1, countItem);
    }
    m_stack->setCurrentIndex(2);
    return;
  }

  // Carriage returns would merge with the following newline into one block separator and shift
  // every later position by one; a space keeps the positions equal to the string's.
  QString text = qs(m_document.text);
  text.replace(QLatin1Char('\r'), QLatin1Char(' '));
  QVector<TextRange> ranges = utf16Ranges(m_document.text, m_document.begins, m_document.ends);
  std::sort(ranges.begin(), ranges.end(), [](const TextRange& a, const TextRange& b) { return a.start < b.start; });

  const QPalette pal = palette();
  QTextCharFormat grey;
  grey.setForeground(blend(pal.color(QPalette::Text), pal.color(QPalette::Base), 0.55));
  QTextCharFormat token[2];
  for (int parity = 0; parity < 2; ++parity) {
    token[parity].setForeground(pal.color(QPalette::Text));
    QColor background = pal.color(QPalette::Highlight);
    background.setAlphaF(0.13f);
    token[parity].setBackground(background);
    token[parity].setProperty(kViewerTokenProperty, parity + 1);
  }

  auto* doc = m_text->document();
  doc->clear();
  QTextCursor cursor(doc);
  cursor.beginEditBlock();
  int at = 0, parity = 0;
  for (const auto& r : ranges) {
    if (r.start < at || r.length <= 0) continue;  // overlapping or empty spans: skip, never garble the text
    if (r.start > at) cursor.insertText(text.mid(at, r.start - at), grey);
    cursor.insertText(text.mid(r.start, r.length), token[parity]);
    parity ^= 1;
    at = r.start + r.length;
  }
  if (at < text.size()) cursor.insertText(text.mid(at), grey);
  cursor.endEditBlock();
  m_text->moveCursor(QTextCursor::Start);
  m_stack->setCurrentWidget(m_text);
}

QVector<TextRange> DocumentViewer::highlightedRanges() const {
  QVector<TextRange> out;
  for (QTextBlock block = m_text->document()->begin(); block.isValid(); block = block.next())
    for (auto it = block.begin(); !it.atEnd(); ++it) {
      const QTextFragment fragment = it.fragment();
      if (fragment.isValid() && fragment.charFormat().hasProperty(kViewerTokenProperty))
        out.push_back({fragment.position(), fragment.length()});
    }
  return out;
}

QString DocumentViewer::shownText() const { return m_text->document()->toPlainText(); }

bool DocumentViewer::showsText() const { return m_stack->currentWidget() == m_text; }

}  // namespace latent::ui
