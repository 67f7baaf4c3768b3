// SPDX-License-Identifier: GPL-3.0-or-later
// Dropping files on the window: the kind guessed for real files, a dropped project opening, data
// going to the import dialog of its kind with the file filled in, and a menu when it is unclear.
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QUrl>
#include <QtTest>

#include <fstream>

#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/import/dropped_file.hpp"
#include "ui/import/import_dialog.hpp"
#include "ui/main_window.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui_test_data.hpp"

using namespace latent;

namespace {

QString fixture(const char* relative) { return QStringLiteral(LATENT_TEST_FIXTURES "/") + QLatin1String(relative); }

QString write(const test::Scratch& scratch, const std::string& name, const std::string& text) {
  const auto path = scratch.path(name);
  std::ofstream(path) << text;
  return ui::fromPath(path);
}

ui::ImportDialog* openDialog(ui::MainWindow& window) {
  const auto dialogs = window.findChildren<ui::ImportDialog*>();
  for (auto* d : dialogs)
    if (d->isVisible()) return d;
  return nullptr;
}

// A drop as the window system delivers it.
void drop(ui::MainWindow& window, const QString& path) {
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(path)});
  const QPointF at = window.rect().center();
  QDragEnterEvent enter(at.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&window, &enter);
  QVERIFY(enter.isAccepted());
  QDropEvent dropped(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&window, &dropped);
  QVERIFY(dropped.isAccepted());
}

}  // namespace

class TestFileDrop : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { test::isolateSettings(); }

  void guessesTheKind() {
    using core::DataKind;
    test::Scratch scratch;
    QVERIFY(ui::guessDataKind(fixture("corpus/sotu_dir")) == DataKind::Corpus);
    QVERIFY(ui::guessDataKind(fixture("corpus/cora200.ldac")) == DataKind::Corpus);
    QVERIFY(ui::guessDataKind(fixture("corpus/sotu_rows.csv")) == DataKind::Corpus);  // it has a text column
    QVERIFY(ui::guessDataKind(fixture("graph/karate.gml")) == DataKind::Graph);
    QVERIFY(ui::guessDataKind(fixture("graph/karate.graphml")) == DataKind::Graph);
    QVERIFY(ui::guessDataKind(fixture("graph/karate.net")) == DataKind::Graph);
    QVERIFY(ui::guessDataKind(fixture("ratings/csv/ratings.csv")) == DataKind::Ratings);
    QVERIFY(ui::guessDataKind(fixture("ratings/ml-100k/u.data")) == DataKind::Ratings);
    QVERIFY(ui::guessDataKind(write(scratch, "scores.csv", "user_id;movie;stars\n1;2;3\n")) == DataKind::Ratings);
    QVERIFY(ui::guessDataKind(write(scratch, "links.csv", "\"source\",\"target\",weight\na,b,1\n")) == DataKind::Graph);
    // Nothing in the name or the header says: no guess.
    QVERIFY(!ui::guessDataKind(fixture("graph/davis.tsv")));
    QVERIFY(!ui::guessDataKind(fixture("graph/karate_matrix.csv")));
    QVERIFY(!ui::guessDataKind(write(scratch, "data.csv", "a,b,c\n1,2,3\n")));
    QVERIFY(ui::isProjectFile(QStringLiteral("/x/My Study.LATENT")));
    QVERIFY(!ui::isProjectFile(QStringLiteral("/x/latent.csv")));
  }

  void dropsOpenAndImport() {
    test::Scratch scratch;
    ui::MainWindow window;
    window.resize(1200, 800);
    window.show();
    QVERIFY(window.acceptDrops());

    // Data before any project: nothing opens, the status bar says why.
    QVERIFY(!window.openDroppedFiles({fixture("graph/karate.gml")}));
    QVERIFY(!openDialog(window));

    // A project file opens.
    const QString project = ui::fromPath(scratch.path("dropped.latent"));
    { core::Project p(ui::toPath(project)); }
    drop(window, project);
    QTRY_VERIFY(window.hasProject());
    QCOMPARE(window.projectPath(), ui::toPath(project));

    // A graph goes to the graph import dialog, the file filled in.
    drop(window, fixture("graph/karate.gml"));
    QTRY_VERIFY(openDialog(window));
    auto* dialog = openDialog(window);
    QVERIFY(dialog->kind() == core::DataKind::Graph);
    QCOMPARE(dialog->sourceEdit()->text(), fixture("graph/karate.gml"));
    dialog->close();
    QTRY_VERIFY(!openDialog(window));

    // An anonymous CSV: a menu asks which kind; choosing one opens that dialog.
    const QString anonymous = write(scratch, "data.csv", "a,b,c\n1,2,3\n");
    QMenu* menu = window.openDroppedFiles({anonymous});
    QVERIFY(menu);
    QStringList choices;
    QAction* ratings = nullptr;
    for (QAction* a : menu->actions())
      if (!a->isSeparator()) {
        choices << a->text();
        if (a->text().contains(QLatin1String("ratings"))) ratings = a;
      }
    QCOMPARE(choices.size(), 4);  // corpus, graph, ratings table, numeric table
    QVERIFY(choices.last().contains(QLatin1String("numeric table")));
    QVERIFY(ratings);
    ratings->trigger();
    QTRY_VERIFY(openDialog(window));
    QVERIFY(openDialog(window)->kind() == core::DataKind::Ratings);
    QCOMPARE(openDialog(window)->sourceEdit()->text(), anonymous);
    menu->close();
  }
};

LATENT_TEST_CASE(TestFileDrop)
#include "tst_file_drop.moc"
