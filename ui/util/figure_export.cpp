// SPDX-License-Identifier: GPL-3.0-or-later
// Figures to PNG and SVG, and finding what File ▸ Export acts on.
#include "ui/util/figure_export.hpp"

#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTableView>
#include <QTextDocument>
#include <QWindow>

#include <cmath>
#include <memory>
#include <utility>

namespace latent::ui {
namespace {

constexpr const char* kFigureProperty = "latentFigure";

// Holds a widget's suggested export name; a child object, so it dies with the widget.
class ExportName final : public QObject {
 public:
  ExportName(QObject* parent, std::function<QString()> name) : QObject(parent), m_name(std::move(name)) {
    setObjectName(QStringLiteral("latent-export-name"));
  }
  QString name() const { return m_name ? m_name() : QString(); }

 private:
  std::function<QString()> m_name;
};

// Holds a figure's legend drawn outside it; a child object, so it dies with the figure.
class FigureLegend final : public QObject {
 public:
  FigureLegend(QObject* parent, std::function<QString()> html) : QObject(parent), m_html(std::move(html)) {
    setObjectName(QStringLiteral("latent-figure-legend"));
  }
  QString html() const { return m_html ? m_html() : QString(); }

 private:
  std::function<QString()> m_html;
};

// The legend laid out at the figure's width in the figure's font and text colour; empty when none.
std::unique_ptr<QTextDocument> legendDocument(const QWidget* figure) {
  const QString html = figureLegend(figure);
  if (html.isEmpty()) return nullptr;
  auto document = std::make_unique<QTextDocument>();
  document->setDefaultFont(figure->font());
  document->setDefaultStyleSheet(
      QStringLiteral("body { color: %1; }").arg(figure->palette().color(QPalette::Text).name()));
  document->setHtml(QStringLiteral("<body>%1</body>").arg(html));
  document->setTextWidth(figure->width());
  return document;
}

// The figure's size with its legend under it.
QSize figureSize(const QWidget* figure, const QTextDocument* legend) {
  return figure->size() + QSize(0, legend ? static_cast<int>(std::ceil(legend->size().height())) : 0);
}

// The figure as on screen, then its legend under it.
void drawFigure(QWidget* figure, QPainter& painter, QTextDocument* legend) {
  figure->render(&painter, QPoint(), QRegion(), QWidget::DrawWindowBackground | QWidget::DrawChildren);
  if (!legend) return;
  painter.save();
  painter.translate(0, figure->height());
  legend->drawContents(&painter);
  painter.restore();
}

const ExportName* nameTag(const QObject* object) {
  return object->findChild<const ExportName*>(QStringLiteral("latent-export-name"), Qt::FindDirectChildrenOnly);
}

bool visibleIn(const QWidget* widget, const QWidget* root) {
  return widget->isVisibleTo(root) && widget->width() > 0 && widget->height() > 0;
}

// The marked widget that holds the focus, else the largest visible marked widget under `root`.
template <typename Widget, typename Marked>
Widget* pick(QWidget* root, Marked marked) {
  if (!root) return nullptr;
  for (QWidget* w = QApplication::focusWidget(); w; w = w->parentWidget()) {
    if (w == root) break;
    if (auto* candidate = qobject_cast<Widget*>(w); candidate && marked(candidate) && root->isAncestorOf(w))
      return candidate;
  }
  Widget* best = nullptr;
  qint64 bestArea = 0;
  for (Widget* w : root->findChildren<Widget*>()) {
    if (!marked(w) || !visibleIn(w, root)) continue;
    const qint64 area = qint64(w->width()) * w->height();
    if (area > bestArea) {
      best = w;
      bestArea = area;
    }
  }
  return best;
}

}  // namespace

void setExportName(QWidget* widget, std::function<QString()> suggestedName) {
  delete nameTag(widget);
  new ExportName(widget, std::move(suggestedName));
}

QString exportName(const QWidget* widget) {
  for (const QWidget* w = widget; w; w = w->parentWidget())
    if (const auto* tag = nameTag(w)) {
      const QString name = tag->name();
      if (!name.isEmpty()) return name;
    }
  return QStringLiteral("export");
}

void enableFigureExport(QWidget* figure, std::function<QString()> suggestedName,
                        std::function<void(QMenu& menu)> moreActions) {
  figure->setProperty(kFigureProperty, true);
  setExportName(figure, std::move(suggestedName));
  figure->setContextMenuPolicy(Qt::CustomContextMenu);
  QObject::connect(figure, &QWidget::customContextMenuRequested, figure, [figure, moreActions](const QPoint& at) {
    QMenu menu(figure);
    QAction* copy = menu.addAction(QIcon::fromTheme(QStringLiteral("edit-copy")), QObject::tr("&Copy Image"));
    QAction* png =
        menu.addAction(QIcon::fromTheme(QStringLiteral("document-export")), QObject::tr("Save Image as &PNG…"));
    QAction* svg = menu.addAction(QObject::tr("Save Image as &SVG…"));
    if (moreActions) {
      menu.addSeparator();
      moreActions(menu);
    }
    QAction* chosen = menu.exec(figure->mapToGlobal(at));
    if (chosen == copy) copyFigure(figure);
    if (chosen == png) saveFigureInteractively(figure, QStringLiteral("png"));
    if (chosen == svg) saveFigureInteractively(figure, QStringLiteral("svg"));
  });
}

bool isExportableFigure(const QWidget* widget) { return widget && widget->property(kFigureProperty).toBool(); }

void setFigureLegend(QWidget* figure, std::function<QString()> legendHtml) {
  delete figure->findChild<FigureLegend*>(QStringLiteral("latent-figure-legend"), Qt::FindDirectChildrenOnly);
  new FigureLegend(figure, std::move(legendHtml));
}

QString figureLegend(const QWidget* figure) {
  const auto* legend =
      figure->findChild<const FigureLegend*>(QStringLiteral("latent-figure-legend"), Qt::FindDirectChildrenOnly);
  return legend ? legend->html() : QString();
}

bool saveFigure(QWidget* figure, const QString& file, QString* error) {
  if (figure->size().isEmpty()) {
    if (error) *error = QObject::tr("the figure has no size: show it before saving it");
    return false;
  }
  QSaveFile out(file);
  if (!out.open(QIODevice::WriteOnly)) {
    if (error) *error = QObject::tr("cannot write %1: %2").arg(QDir::toNativeSeparators(file), out.errorString());
    return false;
  }
  if (QFileInfo(file).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0) {
    // Widgets draw through QPainter, so rendering into an SVG generator keeps text and lines as
    // vectors (charts, matrices and scatter plots scale without blur).
    const auto legend = legendDocument(figure);
    const QSize size = figureSize(figure, legend.get());
    QSvgGenerator svg;
    svg.setOutputDevice(&out);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setTitle(exportName(figure));
    svg.setDescription(QObject::tr("Exported from Latent Studio"));
    QPainter painter;
    if (!painter.begin(&svg)) {
      if (error) *error = QObject::tr("cannot draw the figure as SVG");
      out.cancelWriting();
      return false;
    }
    painter.fillRect(QRect(QPoint(0, 0), size), figure->palette().color(figure->backgroundRole()));
    drawFigure(figure, painter, legend.get());
    painter.end();
  } else {
    // Twice the pixels of the screen's image, so that the picture stays sharp in a document.
    const QImage image = renderFigure(figure, std::max<qreal>(2.0, figure->devicePixelRatioF()));
    if (!image.save(&out, "PNG")) {
      if (error) *error = QObject::tr("cannot encode %1 as PNG").arg(QDir::toNativeSeparators(file));
      out.cancelWriting();
      return false;
    }
  }
  if (!out.commit()) {
    if (error) *error = QObject::tr("cannot write %1: %2").arg(QDir::toNativeSeparators(file), out.errorString());
    return false;
  }
  return true;
}

QImage renderFigure(QWidget* figure, qreal ratio) {
  const auto legend = legendDocument(figure);
  QImage image(figureSize(figure, legend.get()) * ratio, QImage::Format_ARGB32_Premultiplied);
  image.setDevicePixelRatio(ratio);
  image.fill(figure->palette().color(figure->backgroundRole()));
  QPainter painter(&image);
  drawFigure(figure, painter, legend.get());
  painter.end();
  return image;
}

bool copyFigure(QWidget* figure) {
  if (figure->size().isEmpty()) return false;
  // At the screen's density: pasted into a document it has the size it had on screen.
  QGuiApplication::clipboard()->setImage(renderFigure(figure, figure->devicePixelRatioF()));
  return true;
}

void saveFigureInteractively(QWidget* figure, const QString& suffix) {
  const QString png = QObject::tr("PNG images (*.png)"), svg = QObject::tr("SVG drawings (*.svg)");
  const bool wantsSvg = suffix == QLatin1String("svg");
  QString filter = wantsSvg ? svg : png;
  QString file = QFileDialog::getSaveFileName(
      figure, QObject::tr("Save Image"), exportName(figure) + QLatin1Char('.') + suffix,
      wantsSvg ? svg + QStringLiteral(";;") + png : png + QStringLiteral(";;") + svg, &filter);
  if (file.isEmpty()) return;
  if (QFileInfo(file).suffix().isEmpty()) file += filter == svg ? QStringLiteral(".svg") : QStringLiteral(".png");
  QString error;
  if (!saveFigure(figure, file, &error)) QMessageBox::warning(figure, QObject::tr("Save Image"), error);
}

QWidget* currentFigure(QWidget* root) {
  return pick<QWidget>(root, [](const QWidget* w) { return isExportableFigure(w); });
}

QTableView* currentTable(QWidget* root) {
  return pick<QTableView>(root, [](const QTableView* t) { return t->model() && t->model()->rowCount() > 0; });
}

}  // namespace latent::ui
