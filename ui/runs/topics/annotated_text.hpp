// SPDX-License-Identifier: GPL-3.0-or-later
// A document's text with word-level topic annotations (000 Fig. 27.5) as a QTextDocument: each
// kept word in its topic's colour with the topic number as a superscript, the text between kept
// words (stop words, pruned words, punctuation) grey; one topic can be emphasised and the rest
// faded. The annotations can be read back from the document, in the original text's positions,
// so tests check what is shown rather than what was meant to be. A long document takes a tenth of
// a second to build: annotatedDocument builds it on any thread, to hand to the GUI thread.
#pragma once

#include <QColor>
#include <QFont>
#include <QPalette>
#include <QString>
#include <QVector>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "core/store/corpus_store.hpp"
#include "ui/util/text_spans.hpp"

class QTextDocument;
class QThread;

namespace latent::ui {

struct AnnotationStyle {
  QPalette palette;
  QVector<QColor> colours;  // per topic (topicColour)
  int emphasised = -1;      // the topic whose words stand out, the others faded; -1: none
};

struct Annotation {
  int token = -1;           // index into the token arrays given to renderAnnotations
  TextRange range;          // in the text given to renderAnnotations (superscripts not counted)
  QString text;             // the word as shown
  int topic = -1;           // -1: the word has no topic (a held-out document, or a function word)
  bool emphasised = true;   // false when another topic is emphasised
  int syntacticClass = -1;  // lda-hmm: the word's class (0 the content class), -1 without classes
  double content = -1.0;    // lda-hmm: its probability of being a content word, -1 without
};

// What to annotate: the text, each token's place in it, and each token's topic (empty: none).
struct AnnotationInput {
  QString text;
  QVector<TextRange> ranges;
  std::vector<std::int32_t> topics;
  bool hasText = true;
  // A model of syntax (lda-hmm, 000 Fig. 27.14): each token's class and its probability of being a
  // content word; empty for other models.
  std::vector<std::int32_t> classes;
  std::vector<float> content;
};

// A stored document's text (carriage returns as spaces, so that positions stay those of the
// string) and its tokens' UTF-16 ranges. A bag-of-words document has no text: its words are
// laid out grouped by topic, then alphabetically, a line per topic.
AnnotationInput annotationInput(const core::StoredDocument& document, std::vector<std::int32_t> topics,
                                const std::function<QString(std::int32_t)>& wordText);

// A new document holding the annotated text in `font`, with the layout a QPlainTextEdit shows,
// moved to `owner` (the thread that will show it). Safe to call off the GUI thread: it neither
// lays out nor paints.
std::unique_ptr<QTextDocument> annotatedDocument(const AnnotationInput& input, const AnnotationStyle& style,
                                                 const QFont& font, QThread* owner);

// Replaces `document`'s contents. `ranges[i]` is token i's place in `text`; `topics` is empty or
// holds token i's topic at i. Tokens that overlap an earlier one or are empty are skipped. With
// `classes`, a word of a function class (above 0) is marked with its class ("c3") instead of a
// topic and shaded by its probability of being a content word (`content`, when given).
void renderAnnotations(QTextDocument* document, const QString& text, const QVector<TextRange>& ranges,
                       std::span<const std::int32_t> topics, const AnnotationStyle& style,
                       std::span<const std::int32_t> classes = {}, std::span<const float> content = {});

// The kept words as the document shows them, in text order.
QVector<Annotation> readAnnotations(const QTextDocument* document);
// The shown text without the superscript topic numbers (equals `text` given to renderAnnotations,
// line breaks as '\n').
QString plainTextWithoutMarks(const QTextDocument* document);

}  // namespace latent::ui
