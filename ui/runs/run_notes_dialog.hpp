// SPDX-License-Identifier: GPL-3.0-or-later
// Name and Notes…: a run's own name (one line) and free notes, edited together.
#pragma once

#include <QDialog>

class QLineEdit;
class QPlainTextEdit;

namespace latent::ui {

class RunNotesDialog final : public QDialog {
  Q_OBJECT

 public:
  RunNotesDialog(qint64 runId, const QString& name, const QString& notes, QWidget* parent = nullptr);

  qint64 runId() const noexcept { return m_runId; }
  QString name() const;
  QString notes() const;
  QLineEdit* nameEdit() const noexcept { return m_name; }
  QPlainTextEdit* notesEdit() const noexcept { return m_notes; }

 private:
  qint64 m_runId;
  QLineEdit* m_name = nullptr;
  QPlainTextEdit* m_notes = nullptr;
};

}  // namespace latent::ui
