// SPDX-License-Identifier: GPL-3.0-or-later
// ImportDialog: layout, preview scheduling, the background import and its outcome.
#include "ui/import/import_dialog.hpp"

#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>

#include "ui/import/dataset_name.hpp"
#include "ui/import/import_options_form.hpp"
#include "ui/import/import_settings.hpp"
#include "ui/import/vocabulary_preview_panel.hpp"
#include "ui/jobs/import_task.hpp"
#include "ui/jobs/project_session.hpp"
#include "ui/util/background.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/table_style.hpp"

namespace latent::ui {

ImportDialog::ImportDialog(std::filesystem::path projectFile, core::DataKind kind, QWidget* parent)
    : QDialog(parent), m_projectFile(std::move(projectFile)), m_kind(kind) {
  setWindowTitle(kind == core::DataKind::Corpus    ? tr("Import Corpus")
                 : kind == core::DataKind::Graph   ? tr("Import Graph")
                 : kind == core::DataKind::Ratings ? tr("Import Ratings")
                                                   : tr("Import Numeric Table"));
  setWindowIcon(kindIcon(kind));
  setModal(false);
  resize(1150, 720);
  // The names taken, for the inline check: read in the background, as the import itself
  // refuses a taken name anyway.
  runInBackground(
      this,
      [file = m_projectFile] {
        QSet<QString> names;
        try {
          core::Project project(offGuiThread(file), core::Project::Access::ReadOnly);
          for (const auto& d : project.datasets()) names.insert(qs(d.name));
        } catch (const std::exception&) {
          // The import itself reports an unreadable project.
        }
        return names;
      },
      [this](const QSet<QString>& names) {
        m_takenNames = names;
        updateState();
      });

  // --- Left: source, name, options.
  auto* sourceBox = new QGroupBox(tr("Source"), this);
  m_source = new QLineEdit(sourceBox);
  m_source->setPlaceholderText(kind == core::DataKind::Corpus ? tr("a file, or a folder of .txt files") : tr("a file"));
  auto* browseFile = new QPushButton(tr("File…"), sourceBox);
  auto* sourceRow = new QHBoxLayout;
  sourceRow->addWidget(m_source, 1);
  sourceRow->addWidget(browseFile);
  if (kind == core::DataKind::Corpus) {
    auto* browseFolder = new QPushButton(tr("Folder…"), sourceBox);
    sourceRow->addWidget(browseFolder);
    connect(browseFolder, &QPushButton::clicked, this, [this] { browse(true); });
  }
  m_name = new QLineEdit(sourceBox);
  m_name->setPlaceholderText(tr("the file or folder name, by default"));
  m_nameProblem = new QLabel(sourceBox);
  m_nameProblem->setStyleSheet(QStringLiteral("color: #d0443a;"));
  m_nameProblem->hide();
  auto* sourceForm = new QFormLayout(sourceBox);
  sourceForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  sourceForm->addRow(tr("File"), sourceRow);
  sourceForm->addRow(tr("Dataset name"), m_name);
  sourceForm->addRow(QString(), m_nameProblem);

  auto* optionsBox = new QGroupBox(tr("Options"), this);
  m_options = new ImportOptionsForm(kind, optionsBox);
  auto* optionsLayout = new QVBoxLayout(optionsBox);
  optionsLayout->addWidget(m_options);

  auto* leftContent = new QWidget;
  auto* leftLayout = new QVBoxLayout(leftContent);
  leftLayout->setContentsMargins(0, 0, 6, 0);
  leftLayout->addWidget(sourceBox);
  leftLayout->addWidget(optionsBox);
  leftLayout->addStretch(1);
  auto* left = new QScrollArea(this);
  left->setWidgetResizable(true);
  left->setFrameShape(QFrame::NoFrame);
  left->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  left->setWidget(leftContent);
  left->setMinimumWidth(440);

  // --- Right: the preview.
  auto* rawBox = new QGroupBox(tr("The file's first lines"), this);
  m_rawBox = rawBox;
  m_raw = new QPlainTextEdit(rawBox);
  m_raw->setReadOnly(true);
  m_raw->setLineWrapMode(QPlainTextEdit::NoWrap);
  m_raw->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  m_raw->setPlaceholderText(tr("Choose a file to see its first lines."));
  auto* rawLayout = new QVBoxLayout(rawBox);
  rawLayout->addWidget(m_raw);

  auto* parsedBox = new QGroupBox(tr("As it will be imported"), this);
  m_table = new QTableWidget(parsedBox);
  m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  makeCompact(m_table);
  m_previewErrorLabel = new QLabel(parsedBox);
  m_previewErrorLabel->setWordWrap(true);
  m_previewErrorLabel->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_previewErrorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_previewErrorLabel->setStyleSheet(QStringLiteral("color: #d0443a; padding: 6px;"));
  m_parsed = new QStackedWidget(parsedBox);
  m_parsed->addWidget(m_table);
  m_parsed->addWidget(m_previewErrorLabel);
  m_previewNote = new QLabel(parsedBox);
  m_previewNote->setWordWrap(true);
  m_previewNote->setForegroundRole(QPalette::PlaceholderText);
  auto* parsedLayout = new QVBoxLayout(parsedBox);
  parsedLayout->addWidget(m_parsed, 1);
  parsedLayout->addWidget(m_previewNote);

  auto* preview = new QSplitter(Qt::Vertical, this);
  preview->addWidget(rawBox);
  preview->addWidget(parsedBox);
  preview->setStretchFactor(0, 2);
  preview->setStretchFactor(1, 3);
  if (kind == core::DataKind::Corpus) {
    m_vocabulary = new VocabularyPreviewPanel(this);
    preview->addWidget(m_vocabulary);
    preview->setStretchFactor(1, 2);
    preview->setStretchFactor(2, 3);
  }
  preview->setChildrenCollapsible(false);

  auto* body = new QSplitter(Qt::Horizontal, this);
  body->addWidget(left);
  body->addWidget(preview);
  body->setStretchFactor(0, 2);
  body->setStretchFactor(1, 3);
  body->setChildrenCollapsible(false);

  // --- Bottom: progress, status, buttons.
  m_progress = new QProgressBar(this);
  m_progress->setTextVisible(false);
  m_progress->setMaximumWidth(260);
  m_progress->hide();
  m_status = new QLabel(this);
  m_status->setWordWrap(true);
  m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_import = new QPushButton(themedIcon("import"), tr("Import"), this);
  m_import->setDefault(true);
  m_cancel = new QPushButton(tr("Close"), this);
  auto* bottom = new QHBoxLayout;
  bottom->addWidget(m_progress);
  bottom->addWidget(m_status, 1);
  bottom->addWidget(m_import);
  bottom->addWidget(m_cancel);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(body, 1);
  layout->addLayout(bottom);

  m_previewDelay.setSingleShot(true);
  m_previewDelay.setInterval(300);
  connect(&m_previewDelay, &QTimer::timeout, this, &ImportDialog::updatePreview);
  connect(browseFile, &QPushButton::clicked, this, [this] { browse(false); });
  connect(m_source, &QLineEdit::textChanged, this, [this](const QString& text) {
    if (!m_nameEdited) {
      const QSignalBlocker block(m_name);
      m_name->setText(datasetNameForSource(text));
    }
    m_previewDelay.start();
    updateVocabularyPreview();
    updateState();
  });
  connect(m_name, &QLineEdit::textEdited, this, [this] { m_nameEdited = true; });
  connect(m_name, &QLineEdit::textChanged, this, &ImportDialog::updateState);
  connect(m_options, &ImportOptionsForm::changed, this, [this] {
    m_previewDelay.start();
    updateVocabularyPreview();
  });
  connect(m_import, &QPushButton::clicked, this, &ImportDialog::startImport);
  connect(m_cancel, &QPushButton::clicked, this, [this] {
    if (isImporting())
      m_task->cancel();
    else
      close();
  });
  updateState();
}

ImportDialog::~ImportDialog() = default;

void ImportDialog::browse(bool folder) {
  const QString start = m_source->text().trimmed();
  const QString chosen = folder ? QFileDialog::getExistingDirectory(this, tr("Folder of text files"), start)
                                : QFileDialog::getOpenFileName(this, tr("Choose the file to import"), start);
  if (!chosen.isEmpty()) setSource(chosen);
}

void ImportDialog::setSource(const QString& path) {
  m_source->setText(path);
  m_previewDelay.stop();
  updatePreview();
}

ImportSettings ImportDialog::settings() const {
  ImportSettings s;
  s.kind = m_kind;
  const auto source = toPath(m_source->text().trimmed());
  const std::string name = utf8(m_name->text().trimmed());
  s.corpus.source = s.graph.source = s.ratings.source = s.table.source = source;
  s.corpus.name = s.graph.name = s.ratings.name = s.table.name = name;
  m_options->apply(s);
  return s;
}

QString ImportDialog::validate() const {
  const QString name = m_name->text().trimmed();
  if (name.isEmpty()) return tr("The dataset needs a name.");
  if (m_takenNames.contains(name)) return tr("The project already has a dataset named “%1”.").arg(name);
  return {};
}

void ImportDialog::updateState() {
  const QString problem = m_source->text().trimmed().isEmpty() ? QString() : validate();
  m_nameProblem->setText(problem);
  m_nameProblem->setVisible(!problem.isEmpty());
  const bool busy = isImporting();
  m_import->setEnabled(!busy && !m_source->text().trimmed().isEmpty() && problem.isEmpty());
  m_cancel->setText(busy ? tr("Cancel") : tr("Close"));
  m_source->setEnabled(!busy);
  m_name->setEnabled(!busy);
  m_options->setEnabled(!busy);
}

void ImportDialog::updateVocabularyPreview() {
  if (m_vocabulary) m_vocabulary->setRequest(settings().corpus);
}

QString ImportDialog::rawPreviewTitle() const { return m_rawBox->title(); }

void ImportDialog::updatePreview() {
  const int generation = ++m_previewGeneration;
  if (m_source->text().trimmed().isEmpty()) {
    m_raw->clear();
    m_table->clear();
    m_table->setRowCount(0);
    m_previewNote->clear();
    m_parsed->setCurrentWidget(m_table);
    return;
  }
  m_previewNote->setText(tr("Reading the first records…"));
  runInBackground(
      this, [s = settings()] { return computeImportPreview(s); },
      [this, generation](ImportPreview preview) {
        if (generation != m_previewGeneration) return;  // the form changed since; a newer preview is coming
        if (m_kind == core::DataKind::Corpus) m_options->setDetectedFormat(preview.corpusFormat);
        m_rawBox->setTitle(preview.corpusFormat == core::CorpusFormat::Folder ? tr("The first documents")
                                                                              : tr("The file's first lines"));
        m_raw->setPlainText(preview.rawLines.join(QLatin1Char('\n')));
        // The line an error names, marked in the raw lines when it is among them.
        QList<QTextEdit::ExtraSelection> marks;
        if (preview.errorLine > 0 && preview.errorLine <= preview.rawLines.size()) {
          QTextEdit::ExtraSelection mark;
          mark.cursor = QTextCursor(m_raw->document()->findBlockByNumber(preview.errorLine - 1));
          QColor red(0xd0, 0x44, 0x3a);
          red.setAlphaF(0.25f);
          mark.format.setBackground(red);
          mark.format.setProperty(QTextFormat::FullWidthSelection, true);
          marks << mark;
        }
        m_raw->setExtraSelections(marks);
        if (!preview.error.isEmpty()) {
          m_previewErrorLabel->setText(
              tr("This file cannot be imported with these settings:\n\n%1").arg(preview.error));
          m_parsed->setCurrentWidget(m_previewErrorLabel);
          m_previewNote->clear();
        } else {
          m_table->clear();
          m_table->setColumnCount(static_cast<int>(preview.headers.size()));
          m_table->setHorizontalHeaderLabels(preview.headers);
          m_table->setRowCount(static_cast<int>(preview.rows.size()));
          for (int r = 0; r < preview.rows.size(); ++r)
            for (int c = 0; c < preview.rows[r].size(); ++c)
              m_table->setItem(r, c, new QTableWidgetItem(preview.rows[r][c]));
          m_table->resizeColumnsToContents();
          for (int c = 0; c < m_table->columnCount(); ++c) {
            m_table->setColumnWidth(c, std::min(m_table->columnWidth(c), 320));
            // Columns the file does not fill (no time, no label) are left out.
            bool empty = !preview.rows.isEmpty();
            for (const auto& row : preview.rows) empty = empty && (c >= row.size() || row[c].isEmpty());
            m_table->setColumnHidden(c, empty);
          }
          m_table->horizontalHeader()->setStretchLastSection(true);
          m_parsed->setCurrentWidget(m_table);
          m_previewNote->setText(preview.note);
        }
        Q_EMIT previewUpdated();
      });
}

QString ImportDialog::previewError() const {
  return m_parsed->currentWidget() == m_previewErrorLabel ? m_previewErrorLabel->text() : QString();
}

QString ImportDialog::importError() const { return m_task ? QString() : m_status->property("error").toString(); }

bool ImportDialog::isImporting() const { return m_task && m_task->isRunning(); }

void ImportDialog::startImport() {
  if (isImporting() || m_source->text().trimmed().isEmpty()) return;
  if (const QString problem = validate(); !problem.isEmpty()) {
    m_status->setText(problem);
    return;
  }
  const ImportSettings s = settings();
  m_task = new ImportTask(
      m_projectFile, tr("Importing %1").arg(m_name->text().trimmed()),
      [s](core::Project& project, const core::ImportControl& control) { return runImport(project, s, control); }, this);
  connect(m_task, &ImportTask::progress, this, [this](qint64 done, qint64 total) {
    if (total > 0) {
      m_progress->setRange(0, 1000);
      m_progress->setValue(static_cast<int>(1000.0 * static_cast<double>(done) / static_cast<double>(total)));
      m_status->setText(
          tr("Importing… %1 of %2 MB")
              .arg(formatReal(static_cast<double>(done) / 1e6, 3), formatReal(static_cast<double>(total) / 1e6, 3)));
    }
  });
  connect(m_task, &ImportTask::ended, this, &ImportDialog::finishImport);
  m_status->setProperty("error", QString());
  m_status->setStyleSheet(QString());
  m_status->setText(tr("Importing…"));
  m_progress->setRange(0, 0);
  m_progress->show();
  m_task->start();
  updateState();
}

void ImportDialog::finishImport() {
  ImportTask* task = m_task;
  m_task = nullptr;
  m_progress->hide();
  if (task->succeeded()) {
    const auto& d = task->dataset();
    Q_EMIT imported(d.id, qs(d.name), task->notes());
    task->deleteLater();
    accept();
    return;
  }
  const QString message = task->wasCancelled() ? tr("Import cancelled; the project is unchanged.")
                                               : tr("Nothing was imported:\n%1").arg(task->errorMessage());
  m_status->setProperty("error", task->wasCancelled() ? QString() : task->errorMessage());
  m_status->setStyleSheet(task->wasCancelled() ? QString() : QStringLiteral("color: #d0443a;"));
  m_status->setText(message);
  task->deleteLater();
  updateState();
  Q_EMIT importFailed(message);
}

void ImportDialog::closeEvent(QCloseEvent* event) {
  if (isImporting()) {
    // Cancel first; the task rolls back and the dialog closes when it has.
    m_task->cancel();
    connect(m_task, &ImportTask::ended, this, &QDialog::close, Qt::QueuedConnection);
    event->ignore();
    return;
  }
  QDialog::closeEvent(event);
}

void ImportDialog::reject() {
  if (isImporting()) {
    m_task->cancel();
    return;
  }
  QDialog::reject();
}

}  // namespace latent::ui
