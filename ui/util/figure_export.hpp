// SPDX-License-Identifier: GPL-3.0-or-later
// Figures (charts, matrices, scatter plots) to PNG and SVG: a widget marked as a figure gets a
// context menu that saves it, and the File menu finds the figure or table the user is looking at.
#pragma once

#include <QString>

#include <functional>

class QImage;
class QMenu;
class QTableView;
class QWidget;

namespace latent::ui {

// Marks `figure` as exportable and gives it a context menu with "Copy Image", "Save Image as PNG…"
// and "Save Image as SVG…" (suggesting `suggestedName()` without extension, e.g. "run-3-training").
// `moreActions`, when given, adds the figure's own entries below them (a drawing's network files).
void enableFigureExport(QWidget* figure, std::function<QString()> suggestedName,
                        std::function<void(QMenu& menu)> moreActions = {});
bool isExportableFigure(const QWidget* widget);

// A figure whose legend is drawn outside it on screen (a caption under a chart whose series' names
// are too long for the chart's own legend): `legendHtml()` is written under the figure in every
// saved image, so that a saved chart still says what its lines are.
void setFigureLegend(QWidget* figure, std::function<QString()> legendHtml);
QString figureLegend(const QWidget* figure);

// Renders `figure` as it is on screen to `file`, with its legend under it when it has one
// (setFigureLegend): SVG (vector, through QSvgGenerator) when the name ends in .svg, else PNG at
// twice the screen's pixel density. False with a message in `error`.
bool saveFigure(QWidget* figure, const QString& file, QString* error = nullptr);

// Renders `figure` as it is on screen into an image of `ratio` pixels per screen pixel.
QImage renderFigure(QWidget* figure, qreal ratio);
// Puts an image of `figure` on the clipboard (Copy Image), at the screen's pixel density; false
// when the figure has no size.
bool copyFigure(QWidget* figure);

// Asks for a file name (PNG or SVG by the filter chosen) and saves; reports failure in a message box.
void saveFigureInteractively(QWidget* figure, const QString& suffix = QStringLiteral("png"));

// The file name (without extension) offered when `widget` is exported: set by enableFigureExport and
// enableTableExport, found on the widget or its nearest ancestor that has one; "export" otherwise.
void setExportName(QWidget* widget, std::function<QString()> suggestedName);
QString exportName(const QWidget* widget);

// What File ▸ Export acts on inside `root` (a tab): the figure or table that has the keyboard focus
// or contains it, else the largest visible one. Null when the tab shows none.
QWidget* currentFigure(QWidget* root);
QTableView* currentTable(QWidget* root);

}  // namespace latent::ui
