// SPDX-License-Identifier: GPL-3.0-or-later
// The import dialog for one kind of data: source, dataset name, format and options, a live
// preview of the first records (read off the GUI thread), and the import itself in the
// background with progress, Cancel and errors shown in place. Not modal: work goes on behind it.
#pragma once

#include <QDialog>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <filesystem>

#include "core/data/data_kind.hpp"
#include "core/store/project.hpp"

class QDialogButtonBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTableWidget;

namespace latent::ui {

class ImportOptionsForm;
class VocabularyPreviewPanel;
class ImportTask;
struct ImportSettings;

class ImportDialog final : public QDialog {
  Q_OBJECT

 public:
  ImportDialog(std::filesystem::path projectFile, core::DataKind kind, QWidget* parent = nullptr);
  ~ImportDialog() override;

  void setSource(const QString& path);
  // Starts the import when the form is complete; errors are shown in the dialog.
  void startImport();
  bool isImporting() const;

  core::DataKind kind() const noexcept { return m_kind; }
  QLineEdit* sourceEdit() const noexcept { return m_source; }
  QLineEdit* nameEdit() const noexcept { return m_name; }
  ImportOptionsForm* options() const noexcept { return m_options; }
  QTableWidget* previewTable() const noexcept { return m_table; }
  QPlainTextEdit* rawPreview() const noexcept { return m_raw; }
  QPushButton* importButton() const noexcept { return m_import; }
  // Corpora: the vocabulary preview (null for other kinds).
  VocabularyPreviewPanel* vocabularyPreview() const noexcept { return m_vocabulary; }
  // The title over the raw preview ("The first documents" for a folder of texts).
  QString rawPreviewTitle() const;
  // The parse error shown in the preview area ("" when the preview parsed).
  QString previewError() const;
  // The error shown after a failed import ("" when none).
  QString importError() const;

 Q_SIGNALS:
  void previewUpdated();
  void imported(qint64 datasetId, const QString& name, const QStringList& notes);
  // After a failed or cancelled import (the message says which).
  void importFailed(const QString& message);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void reject() override;

 private:
  void browse(bool folder);
  void updatePreview();
  void updateVocabularyPreview();
  void updateState();
  void finishImport();
  ImportSettings settings() const;
  QString validate() const;

  std::filesystem::path m_projectFile;
  core::DataKind m_kind;
  QSet<QString> m_takenNames;
  bool m_nameEdited = false;
  int m_previewGeneration = 0;
  QTimer m_previewDelay;
  QPointer<ImportTask> m_task;

  QLineEdit* m_source = nullptr;
  QLineEdit* m_name = nullptr;
  QLabel* m_nameProblem = nullptr;
  ImportOptionsForm* m_options = nullptr;
  QGroupBox* m_rawBox = nullptr;
  QPlainTextEdit* m_raw = nullptr;
  VocabularyPreviewPanel* m_vocabulary = nullptr;
  QStackedWidget* m_parsed = nullptr;
  QTableWidget* m_table = nullptr;
  QLabel* m_previewNote = nullptr;
  QLabel* m_previewErrorLabel = nullptr;
  QLabel* m_status = nullptr;
  QProgressBar* m_progress = nullptr;
  QPushButton* m_import = nullptr;
  QPushButton* m_cancel = nullptr;
};

}  // namespace latent::ui
