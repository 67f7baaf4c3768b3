// SPDX-License-Identifier: GPL-3.0-or-later
// The corpus browser tab: searchable document list on the left, the selected document's text
// with its kept tokens highlighted on the right.
#pragma once

#include <QTimer>

#include <filesystem>
#include <memory>

#include "core/data/corpus.hpp"
#include "core/store/document_link_store.hpp"
#include "core/store/project.hpp"
#include "ui/widgets/tab_page.hpp"

class QLabel;
class QLineEdit;
class QTableView;

namespace latent::ui {

class DocumentFilter;
class DocumentTableModel;
class DocumentViewer;

class CorpusBrowser final : public TabPage {
  Q_OBJECT

 public:
  CorpusBrowser(std::filesystem::path projectFile, qint64 datasetId, QWidget* parent = nullptr);

  // Starts the search at once (the search box waits for typing to pause).
  void search(const QString& text);
  // Shows the document at this row of the (filtered) list.
  void selectRow(int row);

  QTableView* documentTable() const noexcept { return m_table; }
  DocumentViewer* viewer() const noexcept { return m_viewer; }
  QLineEdit* searchBox() const noexcept { return m_search; }
  int visibleDocumentCount() const;
  // The vocabulary as loaded (index = word id).
  const std::vector<std::string>& words() const noexcept { return m_words; }

 Q_SIGNALS:
  // After a word search has been applied to the list (tests wait for it).
  void searchFinished();
  // After the selected document is shown.
  void documentShown(qint64 index);

 private:
  void load();
  void applySearch();
  void showDocument(qint64 index);
  QString linksHtml(const std::vector<core::DocumentLinkRef>& links) const;
  void updateStatus();

  std::filesystem::path m_projectFile;
  qint64 m_datasetId;
  core::DatasetInfo m_dataset;
  std::vector<std::string> m_words;
  // The corpus' tokens, loaded on the first word search and kept for the next ones.
  std::shared_ptr<const core::Corpus> m_tokens;
  int m_searchGeneration = 0;
  int m_documentGeneration = 0;
  QString m_wordStatus;

  QLabel* m_summary = nullptr;
  QLineEdit* m_search = nullptr;
  QLabel* m_status = nullptr;
  QTableView* m_table = nullptr;
  DocumentTableModel* m_model = nullptr;
  DocumentFilter* m_filter = nullptr;
  DocumentViewer* m_viewer = nullptr;
  QTimer m_searchDelay;
};

}  // namespace latent::ui
