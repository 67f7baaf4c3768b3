// SPDX-License-Identifier: GPL-3.0-or-later
// Export Results: every table the command line's `export --what` writes for a run (DESIGN §6),
// from the GUI: the full topic-word and document-topic matrices, the word assignments, blocks,
// factors, MALLET's topic keys, document topics and gzipped state, ... one file each in a folder.
// The list comes from the run (what it holds); the files are written off the GUI thread.
#pragma once

#include <QDialog>
#include <QStringList>

#include <filesystem>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;

namespace latent::ui {

class RunExportDialog final : public QDialog {
  Q_OBJECT

 public:
  RunExportDialog(std::filesystem::path projectFile, qint64 runId, QWidget* parent = nullptr);

  // The exports this run offers (known once `listed()` has been emitted) and those ticked.
  QStringList available() const;
  QStringList chosen() const;
  void setChosen(const QStringList& names);
  QString folder() const;
  void setFolder(const QString& folder);
  // Writes the chosen exports into the folder, off the GUI thread; `exported()` follows.
  void exportChosen();
  QString statusText() const;

  // The file an export is written to: run-12-topic-word.csv, run-12-mallet-state.gz, ...
  static QString fileName(qint64 runId, const QString& what);

 Q_SIGNALS:
  void listed();
  // The files written, and the first error when one failed (the others are still written).
  void exported(const QStringList& files, const QString& error);

 private:
  std::filesystem::path m_projectFile;
  qint64 m_runId;
  QListWidget* m_list = nullptr;
  QLineEdit* m_folder = nullptr;
  QLabel* m_status = nullptr;
  QDialogButtonBox* m_buttons = nullptr;
};

}  // namespace latent::ui
