// SPDX-License-Identifier: GPL-3.0-or-later
// Figures to PNG and SVG (valid files that hold the drawing), the names offered, and which figure
// or table File ▸ Export picks in a tab.
#include <QApplication>
#include <QClipboard>
#include <QImage>
#include <QMenu>
#include <QSet>
#include <QStandardItemModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QXmlStreamReader>
#include <QtTest>

#include <map>
#include <set>

#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/metrics_chart.hpp"
#include "ui/util/figure_export.hpp"
#include "ui/util/table_export.hpp"

using namespace latent;

namespace {

std::vector<core::MetricRow> rows() {
  std::vector<core::MetricRow> out;
  for (int i = 1; i <= 20; ++i) {
    core::MetricRow r;
    r.iteration = i;
    r.seconds = 0.1 * i;
    r.trainObjective = -8.0 + 2.0 / i;
    if (i % 5 == 0) r.heldout = 3000.0 - 40.0 * i;
    out.push_back(r);
  }
  return out;
}

}  // namespace

class TestFigureExport : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void pngAndSvgHoldTheDrawing() {
    test::Scratch scratch;
    ui::MetricsChart chart;
    chart.setNames(QStringLiteral("log-likelihood per token"), QStringLiteral("held-out perplexity"));
    chart.setRows(rows());
    chart.resize(400, 300);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    ui::enableFigureExport(&chart, [] { return QStringLiteral("run-7-training"); });
    QVERIFY(ui::isExportableFigure(&chart));
    QCOMPARE(ui::exportName(&chart), QStringLiteral("run-7-training"));
    QCOMPARE(chart.contextMenuPolicy(), Qt::CustomContextMenu);

    const QString png = QString::fromStdString(scratch.path("chart.png").string());
    QString error;
    QVERIFY2(ui::saveFigure(&chart, png, &error), qPrintable(error));
    QImage image(png);
    QVERIFY(!image.isNull());
    // Twice the on-screen pixels, and a drawing in it (many colours, not one filled rectangle).
    QCOMPARE(image.size(), QSize(800, 600));
    std::set<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
      for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() > 10, qPrintable(QString::number(colours.size())));

    const QString svg = QString::fromStdString(scratch.path("chart.svg").string());
    QVERIFY2(ui::saveFigure(&chart, svg, &error), qPrintable(error));
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&file);
    std::map<QString, int> elements;
    QString root, viewBox, title;
    while (!xml.atEnd()) {
      if (xml.readNext() != QXmlStreamReader::StartElement) continue;
      const QString name = xml.name().toString();
      if (root.isEmpty()) {
        root = name;
        viewBox = xml.attributes().value(QStringLiteral("viewBox")).toString();
      }
      ++elements[name];
      if (name == QLatin1String("title")) title = xml.readElementText();
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QCOMPARE(root, QStringLiteral("svg"));
    QCOMPARE(viewBox, QStringLiteral("0 0 400 300"));
    QCOMPARE(title, QStringLiteral("run-7-training"));
    // The curves and the axis text are vectors and text, not an embedded picture.
    QVERIFY(elements[QStringLiteral("polyline")] + elements[QStringLiteral("path")] > 2);
    QVERIFY(elements[QStringLiteral("text")] > 5);
    QCOMPARE(elements[QStringLiteral("image")], 0);
  }

  // Issue 20, missing item 8: Copy Image in a chart's context menu puts the chart, at its size on
  // screen, on the clipboard.
  void copyImagePutsTheChartOnTheClipboard() {
    ui::MetricsChart chart;
    chart.setNames(QStringLiteral("log-likelihood per token"), QStringLiteral("held-out perplexity"));
    chart.setRows(rows());
    chart.resize(420, 310);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    ui::enableFigureExport(&chart, [] { return QStringLiteral("run-7-training"); });
    QGuiApplication::clipboard()->clear();
    QVERIFY(QGuiApplication::clipboard()->image().isNull());

    // The context menu as the user gets it: Copy Image is chosen from it once it is shown.
    QStringList entries;
    QTimer::singleShot(0, &chart, [&entries] {
      auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
      if (!menu) return;
      for (QAction* a : menu->actions())
        if (!a->isSeparator()) entries << a->text();
      for (QAction* a : menu->actions())
        if (a->text() == QStringLiteral("&Copy Image")) {
          menu->setActiveAction(a);
          QTest::keyClick(menu, Qt::Key_Return);
          return;
        }
      menu->close();
    });
    Q_EMIT chart.customContextMenuRequested(QPoint(20, 20));
    QVERIFY2(entries.contains(QStringLiteral("&Copy Image")), qPrintable(entries.join(QStringLiteral(" | "))));
    const QImage copied = QGuiApplication::clipboard()->image();
    QVERIFY(!copied.isNull());
    const qreal ratio = chart.devicePixelRatioF();
    QCOMPARE(copied.size(), (QSizeF(chart.size()) * ratio).toSize());
    // It holds the drawing, not a blank: more than one colour.
    QSet<QRgb> colours;
    for (int y = 0; y < copied.height(); y += 7)
      for (int x = 0; x < copied.width(); x += 7) colours.insert(copied.pixel(x, y));
    QVERIFY2(colours.size() > 3, qPrintable(QString::number(colours.size())));
  }

  void failuresSayWhy() {
    ui::MetricsChart chart;
    chart.resize(200, 100);
    QString error;
    QVERIFY(!ui::saveFigure(&chart, QStringLiteral("/nonexistent-folder/x.png"), &error));
    QVERIFY2(error.contains(QLatin1String("cannot write")) && error.contains(QLatin1String("x.png")),
             qPrintable(error));
  }

  // Exact CSV by default; for spreadsheets, text a spreadsheet would run as a formula gets a
  // leading apostrophe, while numbers (shown or typed) and other text stay as they are.
  void spreadsheetSafeExportNeutralisesFormulas() {
    QStandardItemModel model(1, 9);
    const QStringList cells = {
        QStringLiteral("=1+2"),  QStringLiteral("-3.5"),  QStringLiteral("@SUM(A1)"), QStringLiteral("+x"),
        QStringLiteral("plain"), QStringLiteral("\tTab"), QStringLiteral("-"),        QString()};
    for (int c = 0; c < cells.size(); ++c) model.setItem(0, c, new QStandardItem(cells[c]));
    auto* typed = new QStandardItem(QStringLiteral("shown"));
    typed->setData(-2.0, ui::kExportRole);
    model.setItem(0, 8, typed);
    model.setHorizontalHeaderLabels({QStringLiteral("=h"), QStringLiteral("b"), QStringLiteral("c"),
                                     QStringLiteral("d"), QStringLiteral("e"), QStringLiteral("f"), QStringLiteral("g"),
                                     QStringLiteral("h"), QStringLiteral("i")});
    QCOMPARE(ui::tableCsv(model), QStringLiteral("=h,b,c,d,e,f,g,h,i\n=1+2,-3.5,@SUM(A1),+x,plain,\tTab,-,,-2\n"));
    QCOMPARE(ui::tableCsv(model, ui::CsvCells::SpreadsheetSafe),
             QStringLiteral("'=h,b,c,d,e,f,g,h,i\n'=1+2,-3.5,'@SUM(A1),'+x,plain,'\tTab,'-,,-2\n"));
  }

  void exportPicksTheFocusedElseTheLargest() {
    QWidget tab;
    auto* layout = new QVBoxLayout(&tab);
    auto* small = new QWidget(&tab);
    auto* large = new QWidget(&tab);
    auto* plain = new QWidget(&tab);  // not a figure
    small->setMinimumSize(100, 60);
    large->setMinimumSize(300, 200);
    plain->setMinimumSize(500, 400);
    layout->addWidget(small);
    layout->addWidget(large);
    layout->addWidget(plain);
    ui::enableFigureExport(small, [] { return QStringLiteral("small"); });
    ui::enableFigureExport(large, [] { return QStringLiteral("large"); });

    QStandardItemModel empty, full(3, 2);
    auto* emptyTable = new QTableView(&tab);
    emptyTable->setModel(&empty);
    auto* table = new QTableView(&tab);
    table->setModel(&full);
    layout->addWidget(emptyTable);
    layout->addWidget(table);
    ui::enableTableExport(table, [] { return QStringLiteral("rows.csv"); });

    tab.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tab));
    QCOMPARE(ui::currentFigure(&tab), large);
    small->setFocusPolicy(Qt::StrongFocus);  // not earlier: showing the tab would focus it
    small->setFocus();
    QTRY_COMPARE(ui::currentFigure(&tab), small);
    large->hide();
    plain->setFocus();
    QTRY_COMPARE(ui::currentFigure(&tab), small);
    small->hide();
    QCOMPARE(ui::currentFigure(&tab), static_cast<QWidget*>(nullptr));

    // A table with no rows is nothing to export; the name comes from enableTableExport.
    QCOMPARE(ui::currentTable(&tab), table);
    QCOMPARE(ui::exportName(table), QStringLiteral("rows.csv"));
    QCOMPARE(ui::exportName(emptyTable), QStringLiteral("export"));
    table->hide();
    QCOMPARE(ui::currentTable(&tab), static_cast<QTableView*>(nullptr));
  }
};

LATENT_TEST_CASE(TestFigureExport)
#include "tst_figure_export.moc"
