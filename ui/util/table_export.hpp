// SPDX-License-Identifier: GPL-3.0-or-later
// Tables to CSV (RFC 4180, UTF-8): any item model, or a table view as the user sees it (its sort
// order, without hidden rows and columns), and the context menu that offers it.
#pragma once

#include <QString>

#include <functional>

class QAbstractItemModel;
class QTableView;

namespace latent::ui {

// A model may give a cell's value for export under this role: a full-precision number where the
// table shows a rounded one, or plain text where it shows decoration. Without it the cell's
// display text is written. Headers likewise (a short column title can have a longer name in
// the file).
inline constexpr int kExportRole = Qt::UserRole + 0x200;

// How text cells are written. Exact: as they are (what programs reading the file want; the CLI's
// exports are always exact). SpreadsheetSafe: a text cell that a spreadsheet would run as a
// formula (it starts with =, +, -, @, a tab or a carriage return and is not a number) gets a
// leading apostrophe, so that opening an export of untrusted text (a document's title, a word)
// cannot run anything.
enum class CsvCells { Exact, SpreadsheetSafe };

// The header row and every row of `model`, in the model's order.
QString tableCsv(const QAbstractItemModel& model, CsvCells cells = CsvCells::Exact);
// The rows and columns `view` shows, in the order it shows them (QTableWidget included).
QString tableCsv(const QTableView& view, CsvCells cells = CsvCells::Exact);

// Writes `csv` to `file` atomically (QSaveFile); false with a message for people in `error`.
bool writeCsvFile(const QString& csv, const QString& file, QString* error = nullptr);
inline bool exportTableCsv(const QTableView& view, const QString& file, QString* error = nullptr) {
  return writeCsvFile(tableCsv(view), file, error);
}

// Gives `view` a context menu with "Copy" (selected rows, tab-separated), "Export Table as CSV…"
// (exact) and "Export Table for Spreadsheets…" (SpreadsheetSafe), which ask for a file
// (suggesting `suggestedName()`, e.g. "run-3-topics.csv").
void enableTableExport(QTableView* view, std::function<QString()> suggestedName);

}  // namespace latent::ui
