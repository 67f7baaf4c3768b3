// SPDX-License-Identifier: GPL-3.0-or-later
// CSV text of tables through core's RFC 4180 writer, so the GUI and the CLI quote alike.
#include "ui/util/table_export.hpp"

#include <QAbstractItemModel>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QHeaderView>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QTableView>

#include <set>
#include <sstream>

#include "core/io/csv_writer.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/qt_convert.hpp"

namespace latent::ui {
namespace {

// Text as the cells mode says: with SpreadsheetSafe, an apostrophe before text a spreadsheet would
// take for a formula (numbers such as -3.5 stay numbers).
std::string cellText(const QString& text, CsvCells cells) {
  static const QString triggers = QStringLiteral("=+-@\t\r");
  if (cells == CsvCells::SpreadsheetSafe && !text.isEmpty() && triggers.contains(text.front())) {
    bool number = false;
    text.toDouble(&number);
    if (!number) QLocale().toDouble(text, &number);  // "-1,234.5" as the table shows it
    if (!number) return utf8(QLatin1Char('\'') + text);
  }
  return utf8(text);
}

void writeCell(core::CsvWriter& csv, const QModelIndex& index, CsvCells cells) {
  const QVariant exported = index.data(kExportRole);
  if (exported.isValid()) {
    switch (exported.typeId()) {
      case QMetaType::Double:
      case QMetaType::Float:
        csv.field(exported.toDouble());
        return;
      case QMetaType::Int:
      case QMetaType::LongLong:
      case QMetaType::UInt:
      case QMetaType::ULongLong:
        csv.field(static_cast<std::int64_t>(exported.toLongLong()));
        return;
      default:
        csv.field(cellText(exported.toString(), cells));
        return;
    }
  }
  csv.field(cellText(index.data(Qt::DisplayRole).toString(), cells));
}

QString csvOf(const QAbstractItemModel& model, const QList<int>& rows, const QList<int>& columns, CsvCells cells) {
  std::ostringstream out;
  core::CsvWriter csv(out);
  for (const int c : columns) {
    const QVariant exported = model.headerData(c, Qt::Horizontal, kExportRole);
    csv.field(cellText(
        (exported.isValid() ? exported : model.headerData(c, Qt::Horizontal, Qt::DisplayRole)).toString(), cells));
  }
  csv.endRow();
  for (const int r : rows) {
    for (const int c : columns) writeCell(csv, model.index(r, c), cells);
    csv.endRow();
  }
  return qs(out.str());
}

QList<int> range(int n) {
  QList<int> out;
  for (int i = 0; i < n; ++i) out << i;
  return out;
}

}  // namespace

QString tableCsv(const QAbstractItemModel& model, CsvCells cells) {
  return csvOf(model, range(model.rowCount()), range(model.columnCount()), cells);
}

QString tableCsv(const QTableView& view, CsvCells cells) {
  const QAbstractItemModel* model = view.model();
  if (!model) return {};
  // Visual order: the user may have moved columns; rows follow the view's sort (a proxy model's
  // row order is already the sorted one).
  QList<int> columns, rows;
  const QHeaderView* header = view.horizontalHeader();
  for (int visual = 0; visual < header->count(); ++visual) {
    const int logical = header->logicalIndex(visual);
    if (!view.isColumnHidden(logical)) columns << logical;
  }
  const QHeaderView* vertical = view.verticalHeader();
  for (int visual = 0; visual < model->rowCount(); ++visual) {
    const int logical = vertical->logicalIndex(visual);
    if (!view.isRowHidden(logical)) rows << logical;
  }
  return csvOf(*model, rows, columns, cells);
}

bool writeCsvFile(const QString& csv, const QString& file, QString* error) {
  QSaveFile out(file);
  if (!out.open(QIODevice::WriteOnly)) {
    if (error) *error = QObject::tr("cannot write %1: %2").arg(QDir::toNativeSeparators(file), out.errorString());
    return false;
  }
  out.write(csv.toUtf8());
  if (!out.commit()) {
    if (error) *error = QObject::tr("cannot write %1: %2").arg(QDir::toNativeSeparators(file), out.errorString());
    return false;
  }
  return true;
}

void enableTableExport(QTableView* view, std::function<QString()> suggestedName) {
  setExportName(view, suggestedName);  // File ▸ Export Table offers the same name
  view->setContextMenuPolicy(Qt::CustomContextMenu);
  QObject::connect(view, &QWidget::customContextMenuRequested, view, [view, suggestedName](const QPoint& at) {
    QMenu menu(view);
    QAction* copy = menu.addAction(QIcon::fromTheme(QStringLiteral("edit-copy")), QObject::tr("&Copy Rows"));
    copy->setEnabled(view->selectionModel() && view->selectionModel()->hasSelection());
    QAction* exportCsv =
        menu.addAction(QIcon::fromTheme(QStringLiteral("document-export")), QObject::tr("&Export Table as CSV…"));
    QAction* exportSafe = menu.addAction(QObject::tr("Export Table for &Spreadsheets…"));
    exportSafe->setToolTip(
        QObject::tr("CSV in which text that a spreadsheet would run as a formula starts with an "
                    "apostrophe"));
    QAction* chosen = menu.exec(view->viewport()->mapToGlobal(at));
    if (chosen == copy) {
      // The selected rows as tab-separated text, in view order, for pasting into a spreadsheet.
      std::set<int> selected;
      for (const QModelIndex& i : view->selectionModel()->selectedIndexes()) selected.insert(i.row());
      QStringList lines;
      for (const int r : selected) {
        QStringList cells;
        for (int c = 0; c < view->model()->columnCount(); ++c)
          if (!view->isColumnHidden(c)) cells << view->model()->index(r, c).data(Qt::DisplayRole).toString();
        lines << cells.join(QLatin1Char('\t'));
      }
      QApplication::clipboard()->setText(lines.join(QLatin1Char('\n')));
    } else if (chosen == exportCsv || chosen == exportSafe) {
      const QString title =
          chosen == exportCsv ? QObject::tr("Export Table as CSV") : QObject::tr("Export Table for Spreadsheets");
      const QString file = QFileDialog::getSaveFileName(view, title, suggestedName ? suggestedName() : QString(),
                                                        QObject::tr("CSV files (*.csv);;All files (*)"));
      if (file.isEmpty()) return;
      const auto cells = chosen == exportCsv ? CsvCells::Exact : CsvCells::SpreadsheetSafe;
      QString error;
      if (!writeCsvFile(tableCsv(*view, cells), file, &error)) QMessageBox::warning(view, title, error);
    }
  });
}

}  // namespace latent::ui
