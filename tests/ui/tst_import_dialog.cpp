// SPDX-License-Identifier: GPL-3.0-or-later
// The import dialog: previews through the real readers, errors shown with file, line and
// reason, nothing imported on error, and a good file imported in the background.
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTextBlock>
#include <QtTest>

#include "core/store/corpus_store.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/import/import_dialog.hpp"
#include "ui/import/import_options_form.hpp"
#include "ui/util/format.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestImportDialog : public QObject {
  Q_OBJECT

  // Shows the preview of `file` and waits for it.
  static bool preview(ui::ImportDialog& dialog, const std::filesystem::path& file) {
    QSignalSpy updated(&dialog, &ui::ImportDialog::previewUpdated);
    dialog.setSource(ui::fromPath(file));
    return updated.wait(15000);
  }

 private Q_SLOTS:
  void initTestCase() { test::isolateSettings(); }

  void badFileShowsFileLineAndReasonAndImportsNothing() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    { core::Project create(project); }
    const auto bad = scratch.write("bad.csv", "user,item,rating\nu1,i1,4\nu2,i1,abc\nu3,i2,5\n");
    ui::ImportDialog dialog(project, core::DataKind::Ratings);
    QVERIFY(dialog.options()->setFormat(QStringLiteral("csv")));
    QVERIFY(preview(dialog, bad));
    // The raw first lines are shown as they are.
    QVERIFY(dialog.rawPreview()->toPlainText().contains(QStringLiteral("u2,i1,abc")));
    const QString error = dialog.previewError();
    QVERIFY2(error.contains(ui::fromPath(bad) + QStringLiteral(":3:")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("abc")), qPrintable(error));
    QCOMPARE(dialog.nameEdit()->text(), QStringLiteral("bad"));
    // The line the error names is marked in the raw lines.
    const auto marks = dialog.rawPreview()->extraSelections();
    QCOMPARE(marks.size(), 1);
    QCOMPARE(marks.first().cursor.block().blockNumber(), 2);
    QCOMPARE(marks.first().cursor.block().text(), QStringLiteral("u2,i1,abc"));

    QSignalSpy failed(&dialog, &ui::ImportDialog::importFailed);
    QSignalSpy imported(&dialog, &ui::ImportDialog::imported);
    dialog.startImport();
    QVERIFY(failed.wait(15000));
    QCOMPARE(imported.count(), 0);
    const QString importError = dialog.importError();
    QVERIFY2(importError.contains(ui::fromPath(bad) + QStringLiteral(":3:")), qPrintable(importError));
    core::Project check(project, core::Project::Access::ReadOnly);
    QVERIFY(check.datasets().empty());  // nothing half-imported
  }

  void goodFileImportsAndTheDatasetAppears() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    { core::Project create(project); }
    const auto good = scratch.write("docs.txt", "the river bank\nmoney in the bank\nriver and stream\n");
    ui::ImportDialog dialog(project, core::DataKind::Corpus);
    QVERIFY(dialog.options()->setFormat(QStringLiteral("lines")));
    // Three documents: the text defaults (min-df 3, max-df 0.9) would leave no word.
    dialog.options()->findChild<QSpinBox*>(QStringLiteral("minDf"))->setValue(1);
    dialog.options()->findChild<QDoubleSpinBox*>(QStringLiteral("maxDf"))->setValue(1.0);
    QVERIFY(preview(dialog, good));
    QVERIFY2(dialog.previewError().isEmpty(), qPrintable(dialog.previewError()));
    // Parsed preview: three documents; the last column lists the kept words (English stop
    // words dropped: "the", "in", "and").
    auto* table = dialog.previewTable();
    QCOMPARE(table->rowCount(), 3);
    QCOMPARE(table->item(0, table->columnCount() - 1)->text(), QStringLiteral("river bank"));
    QCOMPARE(table->item(1, table->columnCount() - 1)->text(), QStringLiteral("money bank"));
    QCOMPARE(table->item(2, table->columnCount() - 1)->text(), QStringLiteral("river stream"));

    dialog.nameEdit()->setText(QStringLiteral("three lines"));
    QSignalSpy imported(&dialog, &ui::ImportDialog::imported);
    dialog.startImport();
    QVERIFY(imported.wait(15000));
    QCOMPARE(imported.first().at(1).toString(), QStringLiteral("three lines"));
    core::Project check(project, core::Project::Access::ReadOnly);
    const auto datasets = check.datasets();
    QCOMPARE(datasets.size(), std::size_t{1});
    QCOMPARE(datasets[0].name, std::string("three lines"));
    QCOMPARE(datasets[0].id, imported.first().at(0).toLongLong());
    QCOMPARE(datasets[0].summary["documents"].get<int>(), 3);
    QCOMPARE(datasets[0].summary["tokens"].get<int>(), 6);
  }

  // A folder of texts with a metadata CSV beside it (issue 17): the time and label come from the
  // file's columns, its other columns become metadata, and the fields for them are shown for a
  // folder only once a metadata file is named.
  void folderWithAMetadataFileImportsItsColumns() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    { core::Project create(project); }
    ui::ImportDialog dialog(project, core::DataKind::Corpus);
    QVERIFY(dialog.options()->setFormat(QStringLiteral("dir")));
    const auto field = [&](const char* name) {
      auto* edit = dialog.options()->findChild<QLineEdit*>(QString::fromLatin1(name));
      if (!edit) qFatal("no field %s", name);
      return edit;
    };
    const auto shown = [&](const char* name) { return field(name)->isVisibleTo(dialog.options()); };
    QVERIFY(!shown("timeColumn"));
    QVERIFY(!shown("metadataKey"));
    field("metadataFile")->setText(ui::fromPath(test::fixture("corpus/sotu_dir/metadata.csv")));
    QVERIFY(shown("timeColumn"));
    QVERIFY(shown("labelColumn"));
    QVERIFY(shown("metadataKey"));
    field("timeColumn")->setText(QStringLiteral("year"));
    field("labelColumn")->setText(QStringLiteral("party"));
    field("metadataColumns")->setText(QStringLiteral("president, sotu_type"));
    QVERIFY(preview(dialog, test::fixture("corpus/sotu_dir")));
    QVERIFY2(dialog.previewError().isEmpty(), qPrintable(dialog.previewError()));
    QSignalSpy imported(&dialog, &ui::ImportDialog::imported);
    dialog.startImport();
    QVERIFY(imported.wait(15000));
    core::Project check(project, core::Project::Access::ReadOnly);
    const auto dataset = check.datasets().at(0);
    QCOMPARE(dataset.summary["metadata_columns"], nlohmann::json({"president", "sotu_type"}));
    const auto corpus = core::loadCorpus(check, dataset.id);
    QCOMPARE(corpus.times.front(), std::string("1790"));
    QCOMPARE(corpus.labels.back(), std::string("Republican"));
  }

  // A numeric table: the preview shows row names, the label and the features; the import
  // publishes it and its summary reads as the project tree shows it.
  void numericTablePreviewsAndImports() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    { core::Project create(project); }
    const auto good = scratch.write("cases.csv", "id,x,y,class\nr1,0.5,1,a\nr2,-2,0,b\nr3,3e-2,1,a\n");
    ui::ImportDialog dialog(project, core::DataKind::Table);
    auto* id = dialog.options()->findChildren<QLineEdit*>().at(0);
    auto* label = dialog.options()->findChildren<QLineEdit*>().at(1);
    id->setText(QStringLiteral("id"));
    label->setText(QStringLiteral("class"));
    QVERIFY(preview(dialog, good));
    QVERIFY2(dialog.previewError().isEmpty(), qPrintable(dialog.previewError()));
    auto* table = dialog.previewTable();
    QCOMPARE(table->rowCount(), 3);
    QCOMPARE(table->columnCount(), 4);  // row, label, x, y
    QCOMPARE(table->item(1, 0)->text(), QStringLiteral("r2"));
    QCOMPARE(table->item(1, 1)->text(), QStringLiteral("b"));
    QCOMPARE(table->item(2, 2)->text(), QStringLiteral("0.03"));

    QSignalSpy imported(&dialog, &ui::ImportDialog::imported);
    dialog.startImport();
    QVERIFY(imported.wait(15000));
    core::Project check(project, core::Project::Access::ReadOnly);
    const auto datasets = check.datasets();
    QCOMPARE(datasets.size(), std::size_t{1});
    QVERIFY(datasets[0].kind == core::DataKind::Table);
    QCOMPARE(ui::datasetSummaryText(datasets[0]), QStringLiteral("3 rows · 2 features · labels: class"));
  }

  // A graph's relation column and row filter reach the import request (the reader's side is
  // tested in tests/io: tst_graph_import's sampsonRelations).
  void graphRelationOptionsReachTheRequest() {
    ui::ImportOptionsForm form(core::DataKind::Graph);
    auto* relation = form.findChild<QLineEdit*>(QStringLiteral("relationColumn"));
    auto* where = form.findChild<QLineEdit*>(QStringLiteral("where"));
    QVERIFY(relation && where);
    ui::ImportSettings settings;
    settings.kind = core::DataKind::Graph;
    form.apply(settings);
    QVERIFY(settings.graph.read.relationColumn.empty() && settings.graph.read.where.empty());
    relation->setText(QStringLiteral(" relation "));
    where->setText(QStringLiteral("wave=T4"));
    form.apply(settings);
    QCOMPARE(settings.graph.read.relationColumn, std::string("relation"));
    QCOMPARE(settings.graph.read.where, std::string("wave=T4"));
  }

  void takenNameIsRefusedBeforeImporting() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    {
      core::Project create(project);
      test::addTextCorpus(create, "docs", {{"1", "", "words here"}});
    }
    const auto good = scratch.write("docs.txt", "some words\n");
    ui::ImportDialog dialog(project, core::DataKind::Corpus);
    dialog.setSource(ui::fromPath(good));
    QCOMPARE(dialog.nameEdit()->text(), QStringLiteral("docs"));
    // The taken names are read in the background: the button goes off once they arrive.
    QTRY_VERIFY(!dialog.importButton()->isEnabled());
    dialog.nameEdit()->setText(QStringLiteral("docs 2"));
    QVERIFY(dialog.importButton()->isEnabled());
  }
};

LATENT_TEST_CASE(TestImportDialog)
#include "tst_import_dialog.moc"
