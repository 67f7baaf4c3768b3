// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/runs/run_notes_dialog.hpp"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QPlainTextEdit>

#include "core/store/run_notes.hpp"

namespace latent::ui {

RunNotesDialog::RunNotesDialog(qint64 runId, const QString& name, const QString& notes, QWidget* parent)
    : QDialog(parent), m_runId(runId) {
  setWindowTitle(tr("Run #%1: Name and Notes").arg(runId));
  m_name = new QLineEdit(name, this);
  m_name->setMaxLength(static_cast<int>(core::kRunNameLength));
  m_name->setPlaceholderText(tr("run #%1").arg(runId));
  m_name->setClearButtonEnabled(true);
  m_notes = new QPlainTextEdit(notes, this);
  m_notes->setPlaceholderText(tr("What this run tried, what came of it, what to do next…"));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* form = new QFormLayout(this);
  form->addRow(tr("&Name:"), m_name);
  form->addRow(tr("N&otes:"), m_notes);
  form->addRow(buttons);
  resize(460, 300);
}

QString RunNotesDialog::name() const { return m_name->text(); }
QString RunNotesDialog::notes() const { return m_notes->toPlainText(); }

}  // namespace latent::ui
