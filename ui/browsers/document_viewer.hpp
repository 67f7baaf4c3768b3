// SPDX-License-Identifier: GPL-3.0-or-later
// One document's original text, read-only, with the kept tokens subtly highlighted and
// everything else (stop words, punctuation, pruned words) grey; bag-of-words documents show
// their words with counts instead.
#pragma once

#include <QVector>
#include <QWidget>

#include <string>
#include <vector>

#include "core/store/corpus_store.hpp"
#include "ui/util/text_spans.hpp"

class QLabel;
class QStackedWidget;
class QTableWidget;
class QTextBrowser;

namespace latent::ui {

class DocumentViewer final : public QWidget {
  Q_OBJECT

 public:
  explicit DocumentViewer(QWidget* parent = nullptr);

  void clear(const QString& message = {});
  // `words` is the corpus vocabulary (index = word id).
  void setDocument(const core::StoredDocument& document, const std::vector<std::string>& words);
  // A linked corpus: the shown document's links as rich text whose anchors are "doc:INDEX"
  // (linkedDocumentActivated when one is clicked); empty hides the line.
  void setLinks(const QString& html);
  QString linksText() const;

 Q_SIGNALS:
  void linkedDocumentActivated(qint64 index);

 public:
  // The ranges of the shown text drawn as tokens, read back from the text document (for tests).
  QVector<TextRange> highlightedRanges() const;
  QString shownText() const;
  bool showsText() const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void render();

  QLabel* m_header = nullptr;
  QLabel* m_links = nullptr;
  QStackedWidget* m_stack = nullptr;
  QTextBrowser* m_text = nullptr;
  QLabel* m_bagNote = nullptr;
  QTableWidget* m_bag = nullptr;
  QLabel* m_empty = nullptr;
  core::StoredDocument m_document;
  std::vector<std::string> m_words;
  bool m_hasDocument = false;
};

}  // namespace latent::ui
