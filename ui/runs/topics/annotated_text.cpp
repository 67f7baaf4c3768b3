// SPDX-License-Identifier: GPL-3.0-or-later
// renderAnnotations / readAnnotations: formats carry the token, its topic and the marks as
// user properties, so reading back needs nothing but the document.
#include "ui/runs/topics/annotated_text.hpp"

#include <QPlainTextDocumentLayout>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QThread>

#include <algorithm>
#include <numeric>

#include "ui/util/topic_colours.hpp"

namespace latent::ui {
namespace {

// Token fragments carry their token index + 1 (so two adjacent tokens never merge into one
// fragment), their topic, whether they are emphasised, and with classes their class and
// probability of being a content word; superscripts carry kMarkProperty.
constexpr int kAnnotatedTokenProperty = QTextFormat::UserProperty + 11;
constexpr int kTopicProperty = QTextFormat::UserProperty + 12;
constexpr int kEmphasisProperty = QTextFormat::UserProperty + 13;
constexpr int kClassProperty = QTextFormat::UserProperty + 15;
constexpr int kContentProperty = QTextFormat::UserProperty + 16;
constexpr int kMarkProperty = QTextFormat::UserProperty + 14;

}  // namespace

AnnotationInput annotationInput(const core::StoredDocument& document, std::vector<std::int32_t> topics,
                                const std::function<QString(std::int32_t)>& wordText) {
  AnnotationInput in;
  in.topics = std::move(topics);
  in.hasText = document.header.hasText;
  const std::size_t n = document.wordIds.size();
  if (in.hasText) {
    // A carriage return would merge with the following newline into one block separator and
    // shift every later position; a space keeps positions equal to the string's.
    in.text = QString::fromUtf8(document.text.data(), static_cast<qsizetype>(document.text.size()));
    in.text.replace(QLatin1Char('\r'), QLatin1Char(' '));
    in.ranges = utf16Ranges(document.text, document.begins, document.ends);
    return in;
  }
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  auto topicOf = [&in](std::size_t i) { return i < in.topics.size() ? in.topics[i] : -1; };
  std::vector<QString> words(n);
  for (std::size_t i = 0; i < n; ++i) words[i] = wordText(document.wordIds[i]);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (topicOf(a) != topicOf(b)) return topicOf(a) < topicOf(b);
    return words[a] < words[b];
  });
  in.ranges = QVector<TextRange>(static_cast<qsizetype>(n));
  for (std::size_t j = 0; j < n; ++j) {
    const std::size_t i = order[j];
    if (j > 0) in.text += topicOf(i) != topicOf(order[j - 1]) ? QLatin1Char('\n') : QLatin1Char(' ');
    in.ranges[static_cast<qsizetype>(i)] = {static_cast<int>(in.text.size()), static_cast<int>(words[i].size())};
    in.text += words[i];
  }
  return in;
}

std::unique_ptr<QTextDocument> annotatedDocument(const AnnotationInput& input, const AnnotationStyle& style,
                                                 const QFont& font, QThread* owner) {
  auto document = std::make_unique<QTextDocument>();
  // The layout QPlainTextEdit needs: it lays out only the blocks in sight.
  document->setDocumentLayout(new QPlainTextDocumentLayout(document.get()));
  document->setUndoRedoEnabled(false);
  document->setDefaultFont(font);
  renderAnnotations(document.get(), input.text, input.ranges, input.topics, style, input.classes, input.content);
  if (owner && document->thread() != owner) document->moveToThread(owner);
  return document;
}

void renderAnnotations(QTextDocument* document, const QString& text, const QVector<TextRange>& ranges,
                       std::span<const std::int32_t> topics, const AnnotationStyle& style,
                       std::span<const std::int32_t> classes, std::span<const float> content) {
  const QPalette& pal = style.palette;
  const QColor textColour = pal.color(QPalette::Text);
  const QColor base = pal.color(QPalette::Base);
  const QColor grey = mixColours(textColour, base, 0.5);
  const QColor faded = mixColours(textColour, base, 0.42);

  QTextCharFormat gap;
  gap.setForeground(grey);
  QTextCharFormat plainToken;  // a word without a topic (held-out documents)
  plainToken.setForeground(textColour);
  plainToken.setBackground(mixColours(base, pal.color(QPalette::Highlight), 0.13));
  QTextCharFormat mark;
  mark.setVerticalAlignment(QTextCharFormat::AlignSuperScript);
  mark.setFontWeight(QFont::DemiBold);
  mark.setProperty(kMarkProperty, 1);

  // Tokens in text order; a token that overlaps the previous one is skipped, never garbling text.
  std::vector<int> order(static_cast<std::size_t>(ranges.size()));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return ranges[a].start < ranges[b].start; });

  document->clear();
  QTextCursor cursor(document);
  cursor.beginEditBlock();
  int at = 0;
  for (const int i : order) {
    const TextRange& r = ranges[i];
    if (r.start < at || r.length <= 0 || r.start + r.length > text.size()) continue;
    if (r.start > at) cursor.insertText(text.mid(at, r.start - at), gap);
    const int topic = static_cast<std::size_t>(i) < topics.size() ? topics[static_cast<std::size_t>(i)] : -1;
    QTextCharFormat word = plainToken;
    bool emphasised = true;
    if (topic >= 0 && topic < style.colours.size()) {
      emphasised = style.emphasised < 0 || style.emphasised == topic;
      const QColor colour = style.colours[topic];
      word.setForeground(emphasised ? colour : faded);
      if (emphasised)
        word.setBackground(topicTint(colour, pal, style.emphasised == topic ? kMaxTintStrength : 0.12));
      else
        word.clearBackground();
      if (style.emphasised == topic) word.setFontWeight(QFont::DemiBold);
    }
    const auto at_i = static_cast<std::size_t>(i);
    const int wordClass = at_i < classes.size() ? classes[at_i] : -1;
    const double contentProbability = at_i < content.size() ? static_cast<double>(content[at_i]) : -1.0;
    const bool functionWord = topic < 0 && wordClass > 0;
    if (functionWord) {
      // 000 Fig. 27.14: function words in the text's colour, shaded by how likely each is a content
      // word after all.
      word.setForeground(style.emphasised >= 0 ? faded : textColour);
      if (contentProbability > 0.0)
        word.setBackground(mixColours(base, pal.color(QPalette::Highlight), 0.45 * contentProbability));
      else
        word.clearBackground();
    }
    word.setProperty(kAnnotatedTokenProperty, i + 1);
    word.setProperty(kTopicProperty, topic);
    word.setProperty(kEmphasisProperty, emphasised);
    word.setProperty(kClassProperty, wordClass);
    word.setProperty(kContentProperty, contentProbability);
    cursor.insertText(text.mid(r.start, r.length), word);
    if (topic >= 0) {
      QTextCharFormat number = mark;
      number.setForeground(emphasised && topic < style.colours.size() ? style.colours[topic] : faded);
      cursor.insertText(QString::number(topic + 1), number);
    } else if (functionWord) {
      QTextCharFormat number = mark;
      number.setForeground(grey);
      number.setFontWeight(QFont::Normal);
      cursor.insertText(QStringLiteral("c%1").arg(wordClass), number);
    }
    at = r.start + r.length;
  }
  if (at < text.size()) cursor.insertText(text.mid(at), gap);
  cursor.endEditBlock();
}

QVector<Annotation> readAnnotations(const QTextDocument* document) {
  QVector<Annotation> out;
  int shift = 0;  // superscript characters before the current position
  for (QTextBlock block = document->begin(); block.isValid(); block = block.next())
    for (auto it = block.begin(); !it.atEnd(); ++it) {
      const QTextFragment fragment = it.fragment();
      if (!fragment.isValid()) continue;
      const QTextCharFormat format = fragment.charFormat();
      if (format.hasProperty(kMarkProperty)) {
        shift += fragment.length();
      } else if (format.hasProperty(kAnnotatedTokenProperty)) {
        Annotation a;
        a.token = format.intProperty(kAnnotatedTokenProperty) - 1;
        a.range = {fragment.position() - shift, fragment.length()};
        a.text = fragment.text();
        a.topic = format.intProperty(kTopicProperty);
        a.emphasised = format.boolProperty(kEmphasisProperty);
        a.syntacticClass = format.intProperty(kClassProperty);
        a.content = format.doubleProperty(kContentProperty);
        out.push_back(a);
      }
    }
  return out;
}

QString plainTextWithoutMarks(const QTextDocument* document) {
  QString out;
  for (QTextBlock block = document->begin(); block.isValid(); block = block.next()) {
    if (block != document->begin()) out += QLatin1Char('\n');
    for (auto it = block.begin(); !it.atEnd(); ++it) {
      const QTextFragment fragment = it.fragment();
      if (fragment.isValid() && !fragment.charFormat().hasProperty(kMarkProperty)) out += fragment.text();
    }
  }
  return out;
}

}  // namespace latent::ui
