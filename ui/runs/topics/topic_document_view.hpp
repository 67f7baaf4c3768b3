// SPDX-License-Identifier: GPL-3.0-or-later
// The document reader of a topic-model run (000 Fig. 27.5): pick a document and read its original
// text with every kept word coloured by its topic and numbered, the rest grey; its topic
// proportions beside it as bars; clicking a topic emphasises its words and fades the others.
// Held-out documents (no assignments) and bag-of-words corpora (no text) say what they can show.
#pragma once

#include <QWidget>

#include <filesystem>
#include <memory>
#include <vector>

#include "core/store/corpus_store.hpp"
#include "ui/runs/topics/annotated_text.hpp"

class QLabel;
class QLineEdit;
class QPushButton;
class QSplitter;
class QTableView;
class QTableWidget;
class QPlainTextEdit;
class QTextDocument;

namespace latent::ui {

struct TopicRunData;
class RunDocumentFilter;
class RunDocumentModel;

class TopicDocumentView final : public QWidget {
  Q_OBJECT

 public:
  explicit TopicDocumentView(QWidget* parent = nullptr);
  ~TopicDocumentView() override;

  void setData(std::filesystem::path projectFile, std::shared_ptr<const TopicRunData> data);
  void setLabels(const QStringList& labels);

  // Loads a document (by corpus index) off the GUI thread; documentShown(index) when shown. A new
  // document starts with every topic shown alike.
  void showDocument(qint64 index);
  // Selects the document at this row of the (filtered, sorted) list, which shows it.
  void selectRow(int row);
  // Emphasises one topic's words (fading the others); -1 shows every topic alike. The text is
  // redrawn off the GUI thread: rendered() when it shows.
  void highlightTopic(int topic);
  int highlightedTopic() const noexcept { return m_emphasised; }

  qint64 currentDocument() const noexcept { return m_index; }
  QVector<Annotation> annotations() const;  // the kept words as shown, in text order
  QString shownText() const;                // the text without the topic numbers
  bool isHeldOut() const noexcept { return m_heldOut; }
  bool showsOriginalText() const noexcept { return !m_input || m_input->hasText; }
  // Nothing on its way: the document asked for and its emphasis are what is shown.
  bool isIdle() const noexcept { return m_pending == 0; }
  QString noteText() const;
  QString headerText() const;  // title and facts (time, label, a model's predicted response, ...)
  // A linked corpus's line under the header: the document's links both ways and the run's most
  // likely new links, each opening its document; empty for a corpus without links.
  QString linksText() const;
  // The proportions as listed: (topic, proportion), largest first.
  QVector<QPair<int, double>> shownProportions() const;

  QTableView* documentTable() const noexcept { return m_documents; }
  QTableWidget* proportionsTable() const noexcept { return m_proportions; }
  QPlainTextEdit* textView() const noexcept { return m_text; }

 Q_SIGNALS:
  void documentShown(qint64 index);
  // After the annotated text was (re)drawn: a new document, an emphasis, a palette change.
  void rendered();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  // Rebuilds the annotated text off the GUI thread from the shown document.
  void rerender();
  void showText(std::shared_ptr<QTextDocument> document);
  void updateHeader();
  void updateLinks();
  void renderProportions();
  void updateColours();
  QString topicName(int topic) const;

  std::filesystem::path m_projectFile;
  std::shared_ptr<const TopicRunData> m_data;
  QStringList m_labels;
  QVector<QColor> m_colours;
  int m_loadGeneration = 0;    // of the latest document asked for
  int m_renderGeneration = 0;  // of the latest redraw asked for (a new document counts)
  int m_styleSerial = 0;       // bumped by every change of emphasis or palette
  int m_pending = 0;           // loads and redraws under way
  int m_emphasised = -1;

  // The shown document: its header, what is annotated, and the text document showing it.
  qint64 m_index = -1;      // shown
  qint64 m_requested = -1;  // asked for last
  core::DocumentHeader m_header;
  std::size_t m_wordCount = 0;
  bool m_heldOut = false;
  std::shared_ptr<const AnnotationInput> m_input;
  std::shared_ptr<QTextDocument> m_shown;

  QLineEdit* m_filterBox = nullptr;
  QTableView* m_documents = nullptr;
  RunDocumentModel* m_model = nullptr;
  RunDocumentFilter* m_filter = nullptr;
  QLabel* m_headerLabel = nullptr;
  QLabel* m_linksLabel = nullptr;
  QLabel* m_note = nullptr;
  QPlainTextEdit* m_text = nullptr;
  QTableWidget* m_proportions = nullptr;
  QLabel* m_proportionsNote = nullptr;
  QPushButton* m_showAll = nullptr;
  QSplitter* m_splitter = nullptr;
};

}  // namespace latent::ui
