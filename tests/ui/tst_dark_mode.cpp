// SPDX-License-Identifier: GPL-3.0-or-later
// Dark mode and many topics (issue 20, defects 7 and 8): the topic palette stays colourful and
// distinct on a dark Base; at K = 50 no two topics share both a colour and a marker; the
// memberships triangle is outlined in the text colour, whatever the style's Mid; views follow a
// palette change at run time; the Run panel's fields fit the dock's narrowest width in the dark
// theme. With LATENT_UI_SHOTS=DIR it also saves the window and the triangle in the dark theme.
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QtTest>

#include <cmath>
#include <string>

#include "core/store/project.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/browsers/graph_browser.hpp"
#include "ui/main_window.hpp"
#include "ui/runs/blocks/block_run_data.hpp"
#include "ui/runs/blocks/membership_simplex_view.hpp"
#include "ui/runs/run_panel.hpp"
#include "ui/util/preferences.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/settings.hpp"
#include "ui/util/topic_colours.hpp"
#include "ui/util/topic_marker.hpp"
#include "ui/widgets/network_canvas.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

// A dark palette as Qt derives one from a dark button colour (QPalette(QColor)): Base black, and
// the bevel roles (Mid, Dark) darker than the button, so Mid lies next to Base. Platform dark
// themes look like this; a view that outlines with Mid vanishes in it.
QPalette derivedDarkPalette() {
  QPalette p(QColor(0x35, 0x35, 0x35), QColor(0x35, 0x35, 0x35));
  p.setColor(QPalette::Base, QColor(0x19, 0x19, 0x19));
  return p;
}

QPalette whitePalette() {
  QPalette p;
  p.setColor(QPalette::Base, Qt::white);
  p.setColor(QPalette::Text, Qt::black);
  return p;
}

// Three blocks, twelve nodes spread over the triangle.
std::shared_ptr<ui::BlockRunData> triangleData() {
  auto data = std::make_shared<ui::BlockRunData>();
  const int n = 12;
  data->memberships.resize(n, 3);
  for (int i = 0; i < n; ++i) {
    const double a = 0.2 + 0.6 * (i % 4) / 3.0, b = (1 - a) * (0.25 + 0.5 * (i % 3) / 2.0);
    data->memberships.row(i) << a, b, 1 - a - b;
    int top = 0;
    for (int k = 1; k < 3; ++k)
      if (data->memberships(i, k) > data->memberships(i, top)) top = k;
    data->largest.push_back(top);
    data->dominant.push_back(top);
  }
  data->mixed = true;
  return data;
}

// The largest difference between Base and the pixels within `reach` of `at` in `image`.
double strongestContrastNear(const QImage& image, QPoint at, int reach, const QColor& base) {
  double best = 1;
  for (int dy = -reach; dy <= reach; ++dy)
    for (int dx = -reach; dx <= reach; ++dx) {
      const QPoint p = at + QPoint(dx, dy);
      if (image.rect().contains(p)) best = std::max(best, ui::contrastRatio(image.pixelColor(p), base));
    }
  return best;
}

}  // namespace

class TestDarkMode : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    ui::appSettings().clear();
    m_scratch = std::make_unique<test::Scratch>();
  }

  void cleanup() { QApplication::setPalette(QPalette()); }

  // Defect 7: on a dark Base the first twelve topics are twelve colours a reader tells apart
  // (CIELAB difference of at least 15) and none washes out to a pastel (chroma of at least 35);
  // each reads as text and as a mark (contrast of at least 4.5, more than the 3 marks need).
  void topicColoursStayDistinctOnADarkBase_data() {
    QTest::addColumn<QPalette>("palette");
    QTest::newRow("dark theme") << ui::darkThemePalette();
    QTest::newRow("derived dark") << derivedDarkPalette();
    QTest::newRow("light theme") << ui::lightThemePalette();
    QTest::newRow("white") << whitePalette();
  }
  void topicColoursStayDistinctOnADarkBase() {
    QFETCH(QPalette, palette);
    const QColor base = palette.color(QPalette::Base);
    const bool dark = ui::isDarkBase(palette);
    for (int a = 0; a < ui::kTopicHues; ++a) {
      const QColor ca = ui::topicColour(a, palette);
      QVERIFY2(ui::contrastRatio(ca, base) >= 3.0, qPrintable(QStringLiteral("topic %1: %2").arg(a).arg(ca.name())));
      QVERIFY2(ui::contrastRatio(ca, base) >= ui::kMinTopicContrast, qPrintable(ca.name()));
      if (dark)
        QVERIFY2(
            ui::colourChroma(ca) >= 35,
            qPrintable(
                QStringLiteral("topic %1 washes out: %2 (chroma %3)").arg(a).arg(ca.name()).arg(ui::colourChroma(ca))));
      for (int b = a + 1; b < ui::kTopicHues; ++b) {
        const QColor cb = ui::topicColour(b, palette);
        QVERIFY2(ui::colourDifference(ca, cb) >= 15, qPrintable(QStringLiteral("topics %1 %2 and %3 %4: difference %5")
                                                                    .arg(a)
                                                                    .arg(ca.name())
                                                                    .arg(b)
                                                                    .arg(cb.name())
                                                                    .arg(ui::colourDifference(ca, cb))));
      }
    }
    // Emphasised words stay readable on their topic's strongest tint.
    for (int k = 0; k < 50; ++k) {
      const QColor c = ui::topicColour(k, palette);
      QVERIFY2(ui::contrastRatio(c, ui::topicTint(c, palette, ui::kMaxTintStrength)) >= ui::kMinTopicContrast,
               qPrintable(QStringLiteral("topic %1 on its tint").arg(k)));
    }
  }

  // Defect 8: at K = 50 two topics whose colours a reader could take for one (difference under
  // 12) always differ in marker shape; the first twelve are all discs.
  void fiftyTopicsNeverShareColourAndMarker_data() { topicColoursStayDistinctOnADarkBase_data(); }
  void fiftyTopicsNeverShareColourAndMarker() {
    QFETCH(QPalette, palette);
    const int k = 50;
    for (int a = 0; a < k; ++a)
      for (int b = a + 1; b < k; ++b) {
        const bool sameColour = ui::colourDifference(ui::topicColour(a, palette), ui::topicColour(b, palette)) < 12;
        QVERIFY2(!sameColour || ui::topicMarker(a) != ui::topicMarker(b),
                 qPrintable(QStringLiteral("topics %1 and %2 look alike").arg(a).arg(b)));
      }
    for (int a = 0; a < ui::kTopicHues; ++a) QVERIFY(ui::topicMarker(a) == ui::TopicMarker::Disc);
    QVERIFY(ui::topicMarker(ui::kTopicHues) != ui::TopicMarker::Disc);
  }

  // Defect 7: the triangle is drawn in the text colour, so it shows where Mid lies next to Base;
  // the drawing itself has the outline's contrast at the middle of each edge.
  void simplexOutlineShowsOnADarkPalette() {
    ui::MembershipSimplexView view;
    view.setPalette(derivedDarkPalette());
    view.resize(520, 440);
    view.setData(triangleData());
    QCOMPARE(view.shape(), ui::MembershipSimplexView::Shape::Triangle);
    const QColor base = view.palette().color(QPalette::Base);
    QVERIFY(view.outlineColour() != base);
    QVERIFY2(ui::contrastRatio(view.outlineColour(), base) >= 3.0, qPrintable(view.outlineColour().name()));
    const QImage image = view.grab().toImage();
    const qreal ratio = image.devicePixelRatio();
    for (int b = 0; b < 3; ++b) {
      const QPointF middle = (view.vertexPosition(b) + view.vertexPosition((b + 1) % 3)) / 2;
      const double contrast = strongestContrastNear(image, (middle * ratio).toPoint(), 2, base);
      QVERIFY2(contrast >= 3.0, qPrintable(QStringLiteral("edge %1: contrast %2").arg(b).arg(contrast)));
    }
  }

  // Views follow a change of the application palette (a theme chosen at run time).
  void simplexFollowsAnApplicationPaletteChange() {
    ui::MembershipSimplexView view;
    view.resize(520, 440);
    view.setData(triangleData());
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QApplication::setPalette(ui::lightThemePalette());
    QTest::qWait(10);
    const QColor lightDot = view.nodeColour(0);
    QApplication::setPalette(ui::darkThemePalette());
    QTRY_COMPARE(view.palette().color(QPalette::Base), ui::darkThemePalette().color(QPalette::Base));
    QCOMPARE(view.nodeColour(0), ui::topicColour(view.data()->largest[0], ui::darkThemePalette()));
    QVERIFY(view.nodeColour(0) != lightDot);
    QVERIFY(ui::contrastRatio(view.outlineColour(), ui::darkThemePalette().color(QPalette::Base)) >= 3.0);
  }

  // Defect 8 on a drawing: a graph whose nodes take 30 values of an attribute draws them in 30
  // colour-and-marker pairs that never look alike, and recolours for a new palette.
  void graphDrawingTellsThirtyValuesApart() {
    core::Graph g;
    const int n = 30;
    for (int i = 0; i < n; ++i) {
      g.nodeIds.push_back("n" + std::to_string(i));
      g.nodeNames.push_back("node " + std::to_string(i));
      if (i > 0) g.edges.push_back({i - 1, i, 1.0});
    }
    g.attributeNames = {"group"};
    g.attributes.resize(1);
    for (int i = 0; i < n; ++i) g.attributes[0].push_back("value " + std::to_string(i));
    const auto file = m_scratch->path("thirty.latent");
    qint64 id = 0;
    {
      core::Project project(file);
      id = test::addGraph(project, "thirty", g);
    }
    ui::GraphBrowser browser(file, id);
    browser.setPalette(ui::darkThemePalette());
    QVERIFY(test::waitLoaded(&browser));
    QVERIFY(browser.setOrderBy(QStringLiteral("group")));
    const auto& drawing = browser.drawing()->drawing();
    QCOMPARE(drawing.nodeColours.size(), std::size_t(n));
    QCOMPARE(drawing.nodeMarkers.size(), std::size_t(n));
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b) {
        const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
        const bool alike = ui::colourDifference(drawing.nodeColours[ua], drawing.nodeColours[ub]) < 12;
        QVERIFY2(!alike || drawing.nodeMarkers[ua] != drawing.nodeMarkers[ub],
                 qPrintable(QStringLiteral("nodes %1 and %2").arg(a).arg(b)));
      }
    QVERIFY(drawing.nodeMarkers[0] == ui::TopicMarker::Disc && drawing.nodeMarkers[24] != ui::TopicMarker::Disc);
    QCOMPARE(drawing.nodeColours[0], ui::topicColour(0, ui::darkThemePalette()));
    if (const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS"); !dir.isEmpty()) {
      browser.resize(900, 600);
      browser.views()->setCurrentIndex(1);
      browser.show();
      QVERIFY(QTest::qWaitForWindowExposed(&browser));
      QVERIFY(browser.grab().save(QDir(dir).filePath(QStringLiteral("dark-theme-thirty-values.png"))));
    }
    browser.setPalette(ui::lightThemePalette());
    QCOMPARE(browser.drawing()->drawing().nodeColours[0], ui::topicColour(0, ui::lightThemePalette()));
  }

  // Defect 7: in the dark theme, with the Run dock squeezed to its narrowest, every field of the
  // Run panel is whole: inside the panel's viewport, its value or text not cut.
  void runPanelFieldsFitTheNarrowestDockInTheDarkTheme() {
    const auto file = m_scratch->path("dark.latent");
    {
      core::Project project(file);
      test::addTextCorpus(project, "words", {{"d1", "First", "apple banana apple"}, {"d2", "Second", "banana cherry"}});
    }
    ui::applyTheme(ui::Theme::Dark);
    ui::MainWindow window;
    window.resize(1024, 680);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(test::openProject(window, ui::fromPath(file)));
    window.resizeDocks({window.runDock()}, {80}, Qt::Horizontal);
    QTest::qWait(50);
    ui::RunPanel* panel = window.runPanel();
    QCOMPARE(panel->palette().color(QPalette::Base), ui::darkThemePalette().color(QPalette::Base));
    auto* area = panel->findChild<QScrollArea*>();
    QVERIFY(area);
    const QRect viewport = area->viewport()->rect();
    int checked = 0;
    for (QWidget* field : area->widget()->findChildren<QWidget*>()) {
      const bool input = qobject_cast<QAbstractSpinBox*>(field) || qobject_cast<QComboBox*>(field) ||
                         qobject_cast<QPushButton*>(field) ||
                         (qobject_cast<QLineEdit*>(field) && !qobject_cast<QAbstractSpinBox*>(field->parentWidget()) &&
                          !qobject_cast<QComboBox*>(field->parentWidget()));
      if (!input || !field->isVisibleTo(area->widget())) continue;
      const QRect r(field->mapTo(area->viewport(), QPoint(0, 0)), field->size());
      QVERIFY2(r.left() >= viewport.left() && r.right() <= viewport.right(),
               qPrintable(QStringLiteral("%1 '%2' spans %3..%4 of 0..%5")
                              .arg(QString::fromLatin1(field->metaObject()->className()), field->objectName())
                              .arg(r.left())
                              .arg(r.right())
                              .arg(viewport.right())));
      // The value shown is whole (spin boxes size for their whole range, so not their size hint),
      // and a button's text is.
      if (auto* spin = qobject_cast<QAbstractSpinBox*>(field)) {
        auto* edit = spin->findChild<QLineEdit*>();
        QVERIFY(edit);
        const int needed = edit->fontMetrics().horizontalAdvance(spin->text()) + 4;
        QVERIFY2(edit->width() >= needed, qPrintable(QStringLiteral("'%1' shows %2 in %3 px, needs %4")
                                                         .arg(field->objectName(), spin->text())
                                                         .arg(edit->width())
                                                         .arg(needed)));
      }
      if (auto* button = qobject_cast<QPushButton*>(field))
        QVERIFY2(button->width() >= button->sizeHint().width(), qPrintable(QStringLiteral("'%1' is %2 wide, needs %3")
                                                                               .arg(button->text())
                                                                               .arg(button->width())
                                                                               .arg(button->sizeHint().width())));
      ++checked;
    }
    QVERIFY(checked >= 6);

    const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS");
    if (!dir.isEmpty()) {
      QVERIFY(window.grab().save(QDir(dir).filePath(QStringLiteral("dark-theme-window.png"))));
      ui::MembershipSimplexView view;
      view.resize(520, 440);
      view.setData(triangleData());
      QVERIFY(view.grab().save(QDir(dir).filePath(QStringLiteral("dark-theme-triangle.png"))));
      view.setPalette(derivedDarkPalette());
      QVERIFY(view.grab().save(QDir(dir).filePath(QStringLiteral("derived-dark-triangle.png"))));
    }
    window.closeProject();
    ui::applyTheme(ui::Theme::System);
  }

  // With LATENT_UI_SHOTS=DIR: swatches of 50 topics (colour, marker, number) on the dark and light
  // themes, to look at.
  void paletteSwatches() {
    const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS");
    if (dir.isEmpty()) QSKIP("set LATENT_UI_SHOTS=DIR to save the palette's swatches");
    for (const auto& [name, palette] : {std::pair{QStringLiteral("dark"), ui::darkThemePalette()},
                                        std::pair{QStringLiteral("light"), ui::lightThemePalette()}}) {
      QImage image(10 * 64, 5 * 40, QImage::Format_ARGB32);
      image.fill(palette.color(QPalette::Base));
      QPainter painter(&image);
      painter.setRenderHint(QPainter::Antialiasing);
      for (int k = 0; k < 50; ++k) {
        const QPointF at(12 + (k % 10) * 64, 20 + (k / 10) * 40);
        painter.setPen(Qt::NoPen);
        painter.setBrush(ui::topicColour(k, palette));
        painter.drawPath(ui::topicMarkerPath(ui::topicMarker(k), at, 7));
        painter.setPen(ui::topicColour(k, palette));
        painter.drawText(QRectF(at.x() + 12, at.y() - 10, 40, 20), Qt::AlignVCenter, QString::number(k + 1));
      }
      painter.end();
      QVERIFY(image.save(QDir(dir).filePath(QStringLiteral("topic-palette-%1.png").arg(name))));
    }
  }
};

LATENT_TEST_CASE(TestDarkMode)
#include "tst_dark_mode.moc"
