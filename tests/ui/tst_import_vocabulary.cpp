// SPDX-License-Identifier: GPL-3.0-or-later
// The corpus import dialog as a new user meets it with a folder of texts (issue 20, missing 7): the
// first documents' text in the preview, only the fields that apply to the format, the dataset named
// after the folder, a metadata file with the number of documents it matches, and a vocabulary
// preview whose kept words are the imported dataset's vocabulary and whose defaults give the SOTU
// sample's vocabulary.
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest>

#include <fstream>

#include "core/store/project.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/import/dataset_name.hpp"
#include "ui/import/import_dialog.hpp"
#include "ui/import/import_options_form.hpp"
#include "ui/import/vocabulary_preview_panel.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestImportVocabulary : public QObject {
  Q_OBJECT

  // Sets the source and waits for both previews: the records' and the vocabulary's.
  static bool showSource(ui::ImportDialog& dialog, const std::filesystem::path& source) {
    QSignalSpy records(&dialog, &ui::ImportDialog::previewUpdated);
    dialog.setSource(ui::fromPath(source));
    return records.wait(15000) && settle(dialog);
  }

  // Waits until no vocabulary preview is pending: the detected format may change the defaults once.
  static bool settle(ui::ImportDialog& dialog) {
    QElapsedTimer waited;
    waited.start();
    while (dialog.vocabularyPreview()->isPending() && waited.elapsed() < 15000) QTest::qWait(10);
    return !dialog.vocabularyPreview()->isPending() && dialog.vocabularyPreview()->keptWords() >= 0;
  }

  template <typename T>
  static T* field(ui::ImportDialog& dialog, const char* name) {
    auto* w = dialog.options()->findChild<T*>(QString::fromLatin1(name));
    if (!w) qFatal("no field %s", name);
    return w;
  }

  static bool shown(ui::ImportDialog& dialog, QWidget* w) { return w->isVisibleTo(dialog.options()); }

 private Q_SLOTS:
  void initTestCase() { test::isolateSettings(); }

  void datasetNamedAfterTheFolder() {
    QCOMPARE(ui::datasetNameForSource(QStringLiteral("/data/sotu/texts")), QStringLiteral("sotu"));
    QCOMPARE(ui::datasetNameForSource(QStringLiteral("/data/sotu/texts/")), QStringLiteral("sotu"));
    QCOMPARE(ui::datasetNameForSource(QStringLiteral("/data/sotu/Corpus")), QStringLiteral("sotu"));
    QCOMPARE(ui::datasetNameForSource(QStringLiteral("/data/sotu/data")), QStringLiteral("sotu"));
    QCOMPARE(ui::datasetNameForSource(QStringLiteral("/data/sotu/docs.txt")), QStringLiteral("docs"));
    QCOMPARE(ui::datasetNameForSource(QStringLiteral("/data/reviews.csv")), QStringLiteral("reviews"));
    QCOMPARE(ui::datasetNameForSource(QStringLiteral("/home/me/speeches")), QStringLiteral("speeches"));
    QCOMPARE(ui::datasetNameForSource(QStringLiteral("texts")), QStringLiteral("texts"));
  }

  // The folder shows its documents' first lines, the CSV-only fields are hidden (and come back
  // for a CSV), and the name is the folder's parent when the folder is called texts.
  void folderShowsItsTextsAndOnlyItsFields() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    { core::Project create(project); }
    std::ifstream first(test::fixture("corpus/sotu_dir/001_1790_george-washington.txt"));
    std::string firstLine;
    std::getline(first, firstLine);
    std::filesystem::create_directories(scratch.path("sotu/texts"));
    for (const auto& entry : std::filesystem::directory_iterator(test::fixture("corpus/sotu_dir")))
      std::filesystem::copy(entry.path(), scratch.path("sotu/texts") / entry.path().filename(),
                            std::filesystem::copy_options::recursive);
    ui::ImportDialog dialog(project, core::DataKind::Corpus);
    QVERIFY(showSource(dialog, scratch.path("sotu/texts")));
    QCOMPARE(dialog.nameEdit()->text(), QStringLiteral("sotu"));
    const QString raw = dialog.rawPreview()->toPlainText();
    QVERIFY2(raw.contains(QString::fromStdString(firstLine).trimmed()), qPrintable(raw));
    QVERIFY2(raw.contains(QStringLiteral("001_1790_george-washington.txt")), qPrintable(raw));
    QVERIFY2(!raw.contains(QStringLiteral("metadata.csv")), qPrintable(raw));
    QCOMPARE(dialog.rawPreviewTitle(), QStringLiteral("The first documents"));
    for (const char* csvOnly : {"textColumn", "idColumn", "titleColumn", "timeColumn", "labelColumn", "metadataKey"})
      QVERIFY2(!shown(dialog, field<QLineEdit>(dialog, csvOnly)), csvOnly);
    QVERIFY(!shown(dialog, field<QLineEdit>(dialog, "vocabularyFile")));
    QVERIFY(shown(dialog, field<QLineEdit>(dialog, "metadataFile")));
    QVERIFY(shown(dialog, field<QSpinBox>(dialog, "minDf")));

    const auto csv = scratch.write("speeches.csv", "id,text\n1,the union is strong\n2,the union\n");
    QVERIFY(showSource(dialog, csv));
    QCOMPARE(dialog.nameEdit()->text(), QStringLiteral("speeches"));
    QCOMPARE(dialog.rawPreviewTitle(), QStringLiteral("The file's first lines"));
    for (const char* csvField : {"textColumn", "idColumn", "timeColumn", "labelColumn"})
      QVERIFY2(shown(dialog, field<QLineEdit>(dialog, csvField)), csvField);
  }

  // A bag-of-words file keeps the vocabulary its makers chose: pruning starts at min-df 1 and max-df
  // 1.0 with no stop words, its vocabulary file is asked for, and there is no word length to set.
  void bagOfWordsStartsWithNoPruning() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    { core::Project create(project); }
    ui::ImportDialog dialog(project, core::DataKind::Corpus);
    QVERIFY(showSource(dialog, test::fixture("corpus/cora200.ldac")));
    QCOMPARE(field<QSpinBox>(dialog, "minDf")->value(), 1);
    QCOMPARE(field<QDoubleSpinBox>(dialog, "maxDf")->value(), 1.0);
    QVERIFY(shown(dialog, field<QLineEdit>(dialog, "vocabularyFile")));
    QVERIFY(!shown(dialog, field<QSpinBox>(dialog, "minLength")));
    QVERIFY(!shown(dialog, field<QLineEdit>(dialog, "textColumn")));
    const QString text = dialog.vocabularyPreview()->summaryText();
    QVERIFY2(text.contains(QStringLiteral("Removed as stop words (none): no word.")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("Removed by min-df (in fewer than 1 document): no word.")), qPrintable(text));
  }

  // The vocabulary preview says what the import keeps: the same number of words, and it follows
  // min-df and max-df as they change, naming the words each removes.
  void keptWordsAreTheImportedVocabulary() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    { core::Project create(project); }
    ui::ImportDialog dialog(project, core::DataKind::Corpus);
    QVERIFY(showSource(dialog, test::fixture("corpus/sotu_dir")));
    auto* panel = dialog.vocabularyPreview();
    // Defaults for text: min-df 3, max-df 0.9 (four documents: words in three of them).
    QCOMPARE(field<QSpinBox>(dialog, "minDf")->value(), 3);
    QCOMPARE(field<QDoubleSpinBox>(dialog, "maxDf")->value(), 0.9);
    const qint64 keptByDefault = panel->keptWords();
    QVERIFY(keptByDefault > 0);
    QVERIFY2(panel->summaryText().contains(QStringLiteral("whole source: 4 documents")),
             qPrintable(panel->summaryText()));
    QVERIFY2(panel->summaryText().contains(QStringLiteral("Removed by max-df")), qPrintable(panel->summaryText()));

    field<QSpinBox>(dialog, "minDf")->setValue(1);
    field<QDoubleSpinBox>(dialog, "maxDf")->setValue(1.0);
    QVERIFY(settle(dialog));
    const qint64 keptAll = panel->keptWords();
    QVERIFY2(keptAll > keptByDefault * 2, qPrintable(QString::number(keptAll)));
    QVERIFY(!panel->summaryText().contains(QStringLiteral("Removed by max-df")));
    field<QSpinBox>(dialog, "minLength")->setValue(4);
    QVERIFY(settle(dialog));
    const qint64 keptLong = panel->keptWords();
    QVERIFY(keptLong < keptAll);

    QSignalSpy imported(&dialog, &ui::ImportDialog::imported);
    dialog.startImport();
    QVERIFY(imported.wait(15000));
    core::Project check(project, core::Project::Access::ReadOnly);
    QCOMPARE(check.datasets().at(0).summary["vocabulary"].get<qint64>(), keptLong);
  }

  // The built-in sample's vocabulary (13,739 words from min-df 3, max-df 0.9 and English stop
  // words) is what the dialog's defaults give for the same texts.
  void defaultsGiveTheSamplesVocabulary() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    { core::Project create(project); }
    ui::ImportDialog dialog(project, core::DataKind::Corpus);
    QVERIFY(showSource(dialog, test::sample("sotu/sotu.jsonl")));
    const QString text = dialog.vocabularyPreview()->summaryText();
    QCOMPARE(dialog.vocabularyPreview()->keptWords(), qint64{13739});
    QVERIFY2(text.contains(QStringLiteral("Removed as stop words (English)")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("whole source: 240 documents")), qPrintable(text));
  }

  // A metadata file for a folder: the preview says how many documents it matches, and the Time,
  // Label and Metadata columns of the records show its values.
  void metadataFileSaysHowManyDocumentsMatch() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    { core::Project create(project); }
    ui::ImportDialog dialog(project, core::DataKind::Corpus);
    QVERIFY(showSource(dialog, test::fixture("corpus/sotu_dir")));
    QVERIFY(dialog.vocabularyPreview()->metadataText().isEmpty());
    QSignalSpy records(&dialog, &ui::ImportDialog::previewUpdated);
    field<QLineEdit>(dialog, "metadataFile")->setText(ui::fromPath(test::fixture("corpus/sotu_dir/metadata.csv")));
    QVERIFY(shown(dialog, field<QLineEdit>(dialog, "timeColumn")));
    QVERIFY(shown(dialog, field<QLineEdit>(dialog, "metadataKey")));
    field<QLineEdit>(dialog, "timeColumn")->setText(QStringLiteral("year"));
    field<QLineEdit>(dialog, "labelColumn")->setText(QStringLiteral("party"));
    QVERIFY(settle(dialog));
    QTRY_VERIFY(records.count() > 0);
    const QString match = dialog.vocabularyPreview()->metadataText();
    QVERIFY2(match.contains(QStringLiteral("4 of 4 documents matched by its column “file”")), qPrintable(match));
    QVERIFY2(match.contains(QStringLiteral("Its columns: doc_id, president, year")), qPrintable(match));
    auto* table = dialog.previewTable();
    QTRY_COMPARE(table->item(0, 3)->text(), QStringLiteral("1790"));
    QCOMPARE(table->item(0, 4)->text(), QStringLiteral("Nonpartisan"));
    QVERIFY2(table->item(0, 5)->text().contains(QStringLiteral("president: George Washington")),
             qPrintable(table->item(0, 5)->text()));

    field<QLineEdit>(dialog, "metadataKey")->setText(QStringLiteral("doc_id"));
    QVERIFY(settle(dialog));
    QVERIFY2(dialog.vocabularyPreview()->metadataText().contains(QStringLiteral("0 of 4 documents")),
             qPrintable(dialog.vocabularyPreview()->metadataText()));
  }

  // Not a check but a picture: the dialog on the SOTU fixture folder with its metadata file.
  void screenshot() {
    const QString dir = qEnvironmentVariable("LATENT_UI_SHOTS");
    if (dir.isEmpty()) QSKIP("set LATENT_UI_SHOTS=DIR to write a screenshot of the import dialog");
    const QString source = qEnvironmentVariable("LATENT_SHOT_CORPUS_FOLDER");
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    { core::Project create(project); }
    ui::ImportDialog dialog(project, core::DataKind::Corpus);
    dialog.resize(1280, 860);
    dialog.show();
    const auto folder = source.isEmpty() ? test::fixture("corpus/sotu_dir") : ui::toPath(source);
    const QString metadata = qEnvironmentVariable("LATENT_SHOT_METADATA");
    field<QLineEdit>(dialog, "metadataFile")
        ->setText(metadata.isEmpty() ? ui::fromPath(test::fixture("corpus/sotu_dir/metadata.csv")) : metadata);
    QVERIFY(showSource(dialog, folder));
    QTest::qWait(200);
    QVERIFY(dialog.grab().save(dir + QStringLiteral("/import-folder-vocabulary.png")));
  }
};

LATENT_TEST_CASE(TestImportVocabulary)
#include "tst_import_vocabulary.moc"
