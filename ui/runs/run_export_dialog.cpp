// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/runs/run_export_dialog.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include <fstream>

#include "core/io/run_export.hpp"
#include "core/store/project.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/util/background.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {
namespace {

// Ticked when the dialog opens: the matrices most people came for.
const QStringList kUsualExports = {QStringLiteral("topic-word"), QStringLiteral("doc-topic"), QStringLiteral("blocks"),
                                   QStringLiteral("factors")};

struct ExportListing {
  QStringList names;
  QString error;
};

struct ExportOutcome {
  QStringList files;
  QString error;
};

}  // namespace

QString RunExportDialog::fileName(qint64 runId, const QString& what) {
  const QString extension = what == QLatin1String("mallet-state")       ? QStringLiteral("gz")
                            : what.startsWith(QLatin1String("mallet-")) ? QStringLiteral("txt")
                            : what == QLatin1String("gexf")             ? QStringLiteral("gexf")
                            : what == QLatin1String("graphml")          ? QStringLiteral("graphml")
                            : what == QLatin1String("ldavis")           ? QStringLiteral("json")
                                                                        : QStringLiteral("csv");
  return QStringLiteral("run-%1-%2.%3").arg(runId).arg(what, extension);
}

RunExportDialog::RunExportDialog(std::filesystem::path projectFile, qint64 runId, QWidget* parent)
    : QDialog(parent), m_projectFile(std::move(projectFile)), m_runId(runId) {
  setWindowTitle(tr("Export Results of Run #%1").arg(runId));
  auto* intro = new QLabel(tr("Each ticked table is written to its own file in the folder, as "
                              "<tt>latent-cli export --what NAME</tt> writes it."),
                           this);
  intro->setWordWrap(true);
  m_list = new QListWidget(this);
  m_list->setMinimumHeight(260);
  m_folder = new QLineEdit(fromPath(m_projectFile.parent_path()), this);
  auto* browse = new QPushButton(tr("Choose…"), this);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Export to Folder"), m_folder->text());
    if (!dir.isEmpty()) m_folder->setText(dir);
  });
  auto* folderRow = new QHBoxLayout;
  folderRow->addWidget(new QLabel(tr("Folder"), this));
  folderRow->addWidget(m_folder, 1);
  folderRow->addWidget(browse);
  m_status = new QLabel(tr("Reading what the run holds…"), this);
  m_status->setWordWrap(true);
  m_buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  auto* exportButton = m_buttons->addButton(tr("Export"), QDialogButtonBox::AcceptRole);
  exportButton->setEnabled(false);
  connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(exportButton, &QPushButton::clicked, this, &RunExportDialog::exportChosen);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addWidget(m_list, 1);
  layout->addLayout(folderRow);
  layout->addWidget(m_status);
  layout->addWidget(m_buttons);
  resize(560, 480);

  runInBackground(
      this,
      [file = m_projectFile, runId] {
        ExportListing out;
        try {
          core::Project project(offGuiThread(file), core::Project::Access::ReadOnly);
          for (const auto& name : core::availableExports(project, runId)) out.names << qs(name);
        } catch (const std::exception& e) {
          out.error = qs(e.what());
        }
        return out;
      },
      [this, exportButton](ExportListing listing) {
        if (!listing.error.isEmpty()) {
          m_status->setText(tr("Cannot read the run: %1").arg(listing.error));
          return;
        }
        for (const QString& name : listing.names) {
          QString description;
          for (const auto& kind : core::exportKinds())
            if (qs(kind.name) == name) description = qs(kind.description);
          auto* item = new QListWidgetItem(QStringLiteral("%1 — %2").arg(name, description), m_list);
          item->setData(Qt::UserRole, name);
          item->setToolTip(fileName(m_runId, name));
          item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
          item->setCheckState(kUsualExports.contains(name) ? Qt::Checked : Qt::Unchecked);
        }
        m_status->setText(
            tr("%1 to export.").arg(countOf(static_cast<int>(listing.names.size()), tr("table"), tr("tables"))));
        exportButton->setEnabled(!listing.names.isEmpty());
        Q_EMIT listed();
      });
}

QStringList RunExportDialog::available() const {
  QStringList out;
  for (int i = 0; i < m_list->count(); ++i) out << m_list->item(i)->data(Qt::UserRole).toString();
  return out;
}

QStringList RunExportDialog::chosen() const {
  QStringList out;
  for (int i = 0; i < m_list->count(); ++i)
    if (m_list->item(i)->checkState() == Qt::Checked) out << m_list->item(i)->data(Qt::UserRole).toString();
  return out;
}

void RunExportDialog::setChosen(const QStringList& names) {
  for (int i = 0; i < m_list->count(); ++i)
    m_list->item(i)->setCheckState(names.contains(m_list->item(i)->data(Qt::UserRole).toString()) ? Qt::Checked
                                                                                                  : Qt::Unchecked);
}

QString RunExportDialog::folder() const { return m_folder->text(); }
void RunExportDialog::setFolder(const QString& folder) { m_folder->setText(folder); }
QString RunExportDialog::statusText() const { return m_status->text(); }

void RunExportDialog::exportChosen() {
  const QStringList names = chosen();
  const QString folder = m_folder->text();
  if (names.isEmpty() || !QFileInfo(folder).isDir()) {
    m_status->setText(names.isEmpty() ? tr("Tick a table to export.") : tr("%1 is not a folder.").arg(folder));
    return;
  }
  m_status->setText(tr("Writing %1…").arg(countOf(static_cast<int>(names.size()), tr("file"), tr("files"))));
  m_buttons->setEnabled(false);
  runInBackground(
      this,
      [file = m_projectFile, runId = m_runId, names, folder] {
        ExportOutcome out;
        try {
          core::Project project(offGuiThread(file), core::Project::Access::ReadOnly);
          for (const QString& what : names) {
            const QString target = QDir(folder).filePath(fileName(runId, what));
            // Written beside the target and renamed into place: a failed export leaves no half file.
            const auto partial = toPath(target + QStringLiteral(".partial"));
            try {
              {
                std::ofstream stream(partial, std::ios::binary | std::ios::trunc);
                if (!stream) throw std::runtime_error("cannot write " + partial.string());
                core::exportRun(project, runId, utf8(what), stream);
                stream.flush();
                if (!stream) throw std::runtime_error("cannot write " + partial.string());
              }
              std::filesystem::rename(partial, toPath(target));
              out.files << target;
            } catch (const std::exception& e) {
              std::error_code ignored;
              std::filesystem::remove(partial, ignored);
              if (out.error.isEmpty()) out.error = QStringLiteral("%1: %2").arg(what, qs(e.what()));
            }
          }
        } catch (const std::exception& e) {
          out.error = qs(e.what());
        }
        return out;
      },
      [this, folder](ExportOutcome outcome) {
        m_buttons->setEnabled(true);
        QString text = tr("Wrote %1 to %2.")
                           .arg(countOf(static_cast<int>(outcome.files.size()), tr("file"), tr("files")),
                                QDir::toNativeSeparators(folder));
        if (!outcome.error.isEmpty()) text += QLatin1Char(' ') + tr("Not written: %1").arg(outcome.error);
        m_status->setText(text);
        Q_EMIT exported(outcome.files, outcome.error);
      });
}

}  // namespace latent::ui
