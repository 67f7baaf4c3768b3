// SPDX-License-Identifier: GPL-3.0-or-later
// The corpus browser: title/id and word search, and the document viewer's highlighting, which
// must cover exactly the stored token spans (UTF-8 bytes) in the QString (UTF-16) text.
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QtTest>

#include "core/jobs/link_import.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"
#include "ui/browsers/corpus_browser.hpp"
#include "ui/browsers/document_table_model.hpp"
#include "ui/browsers/document_viewer.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui/util/text_spans.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestCorpusBrowser : public QObject {
  Q_OBJECT

  std::unique_ptr<test::Scratch> m_scratch;
  std::filesystem::path m_file;
  qint64 m_text = 0, m_bag = 0;

  // Waits for the browser to show document `index` after selecting `row`.
  bool show(ui::CorpusBrowser& browser, int row) {
    QSignalSpy shown(&browser, &ui::CorpusBrowser::documentShown);
    browser.selectRow(row);
    return shown.count() > 0 || shown.wait(10000);
  }

 private Q_SLOTS:
  void initTestCase() {
    test::isolateSettings();
    m_scratch = std::make_unique<test::Scratch>();
    m_file = m_scratch->path("corpus.latent");
    core::Project project(m_file);
    // Multi-byte characters before and inside words (é: 2 bytes, 1 UTF-16 unit; 😀: 4 bytes,
    // 2 units), a carriage return, and English stop words to be left grey.
    m_text = test::addTextCorpus(
        project, "mixed",
        {{"cafe", "Café morning", "The café was très bon 😀 and the croissant was naïve\r\nbut the bank was closed"},
         {"river", "Flood report", "The river bank flooded the stream near the old mill"},
         {"money", "Finance", "Money in the bank and a loan from the bank"}},
        true);
    m_bag = test::addBagCorpus(project, "bag", {"alpha", "beta", "gamma"}, {{{0, 3}, {2, 1}}, {{1, 2}}});
  }

  void utf16RangesCountCodeUnits() {
    // "é" is 2 bytes and 1 unit; "😀" 4 bytes and 2 units.
    const std::string text = "é x 😀 yz";  // bytes: é(0-2) ' '(2) x(3) ' '(4) 😀(5-9) ' '(9) y(10) z(11)
    const std::vector<std::uint32_t> begins{0, 3, 5, 10}, ends{2, 4, 9, 12};
    const auto r = ui::utf16Ranges(text, begins, ends);
    QCOMPARE(r.size(), 4);
    QCOMPARE(r[0], (ui::TextRange{0, 1}));
    QCOMPARE(r[1], (ui::TextRange{2, 1}));
    QCOMPARE(r[2], (ui::TextRange{4, 2}));
    QCOMPARE(r[3], (ui::TextRange{7, 2}));
    const QString q = QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
    QCOMPARE(q.mid(r[3].start, r[3].length), QStringLiteral("yz"));
  }

  void searchFiltersDocuments() {
    ui::CorpusBrowser browser(m_file, m_text);
    QVERIFY(test::waitLoaded(&browser));
    QVERIFY(browser.errorText().isEmpty());
    QCOMPARE(browser.visibleDocumentCount(), 3);

    // Title text (case-insensitive).
    browser.search(QStringLiteral("FLOOD"));
    QCOMPARE(browser.visibleDocumentCount(), 1);
    QCOMPARE(browser.documentTable()->model()->index(0, 2).data().toString(), QStringLiteral("Flood report"));

    // One word: the documents that contain it (found off the GUI thread).
    QSignalSpy finished(&browser, &ui::CorpusBrowser::searchFinished);
    browser.search(QStringLiteral("Bank"));
    QVERIFY(finished.wait(10000));
    QCOMPARE(browser.visibleDocumentCount(), 3);  // "bank" is in every document
    browser.search(QStringLiteral("loan"));
    QVERIFY(finished.wait(10000));
    QCOMPARE(browser.visibleDocumentCount(), 1);
    QCOMPARE(browser.documentTable()->model()->index(0, 2).data().toString(), QStringLiteral("Finance"));
    // A stop word is not in the vocabulary: nothing matches by word, nor by title.
    browser.search(QStringLiteral("the"));
    QVERIFY(finished.wait(10000));
    QCOMPARE(browser.visibleDocumentCount(), 0);
    browser.search(QString());
    QCOMPARE(browser.visibleDocumentCount(), 3);
  }

  void highlightedSpansAreTheStoredTokens() {
    ui::CorpusBrowser browser(m_file, m_text);
    QVERIFY(test::waitLoaded(&browser));
    core::Project project(m_file, core::Project::Access::ReadOnly);
    const auto vocabulary = core::loadVocabulary(project, m_text);
    for (int row = 0; row < 3; ++row) {
      QVERIFY(show(browser, row));
      const qint64 index = browser.documentTable()->model()->index(row, 0).data(Qt::UserRole + 1).toLongLong();
      const auto doc = core::loadDocument(project, m_text, index);
      QVERIFY(!doc.begins.empty());
      const auto highlighted = browser.viewer()->highlightedRanges();
      const QString shown = browser.viewer()->shownText();
      QCOMPARE(highlighted.size(), static_cast<qsizetype>(doc.begins.size()));
      for (qsizetype t = 0; t < highlighted.size(); ++t) {
        // Independently: the token's bytes decoded on their own.
        const auto b = doc.begins[static_cast<std::size_t>(t)], e = doc.ends[static_cast<std::size_t>(t)];
        const QString bytes = QString::fromUtf8(doc.text.data() + b, static_cast<qsizetype>(e - b));
        const QString marked = shown.mid(highlighted[t].start, highlighted[t].length);
        QCOMPARE(marked, bytes);
        const auto& word = vocabulary[static_cast<std::size_t>(doc.wordIds[static_cast<std::size_t>(t)])].word;
        QCOMPARE(marked.toLower(), ui::qs(word));
      }
      // Everything else is shown too, unchanged but for the carriage return (a space).
      QString original = ui::qs(doc.text);
      original.replace(QLatin1Char('\r'), QLatin1Char(' '));
      QCOMPARE(shown, original);
    }
    // The first document: "café", "très", "bon", "croissant", "naïve", "bank", "closed" are
    // kept; "the", "was", "and", "but" are English stop words and the emoji is no word: grey.
    QVERIFY(show(browser, 0));
    QStringList marked;
    for (const auto& r : browser.viewer()->highlightedRanges())
      marked << browser.viewer()->shownText().mid(r.start, r.length);
    QCOMPARE(marked, QStringList({QStringLiteral("café"), QStringLiteral("très"), QStringLiteral("bon"),
                                  QStringLiteral("croissant"), QStringLiteral("naïve"), QStringLiteral("bank"),
                                  QStringLiteral("closed")}));
  }

  void bagOfWordsShowsWordsWithCounts() {
    ui::CorpusBrowser browser(m_file, m_bag);
    QVERIFY(test::waitLoaded(&browser));
    QVERIFY(show(browser, 0));
    QVERIFY(!browser.viewer()->showsText());
    auto* table = browser.viewer()->findChild<QTableWidget*>();
    QVERIFY(table);
    QCOMPARE(table->rowCount(), 2);
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("alpha"));
    QCOMPARE(table->item(0, 1)->text(), QStringLiteral("3"));
    QCOMPARE(table->item(1, 0)->text(), QStringLiteral("gamma"));
    QCOMPARE(table->item(1, 1)->text(), QStringLiteral("1"));
  }

  // Metadata (issue 17): a column per name after the fixed ones, numbers sorting as numbers, a
  // document without a value left blank, and the reader listing the shown document's metadata.
  void metadataColumnsAndTheReaderShowThem() {
    qint64 id = 0;
    {
      core::Project project(m_file);
      test::StoredFields fields;
      fields.labels = {"drama; acting", "action", ""};
      fields.labelSeparator = ";";
      fields.metadata = {R"({"stars":"10","reviewer":"ann"})", R"({"stars":"9"})", R"({"reviewer":"bob"})"};
      id = test::addCorpusWithFields(project, "reviews", {"a good plot", "loud cars", "slow and long"}, {}, fields);
    }
    ui::CorpusBrowser browser(m_file, id);
    QVERIFY(test::waitLoaded(&browser));
    auto* model = browser.documentTable()->model();
    const int fixed = ui::DocumentTableModel::ColumnCount;
    QCOMPARE(model->columnCount(), fixed + 2);
    QCOMPARE(model->headerData(fixed, Qt::Horizontal).toString(), QStringLiteral("stars"));
    QCOMPARE(model->headerData(fixed + 1, Qt::Horizontal).toString(), QStringLiteral("reviewer"));
    QCOMPARE(model->index(2, fixed).data().toString(), QString());
    QCOMPARE(model->index(1, fixed + 1).data().toString(), QString());
    // "9" before "10": sorted as numbers, the missing value last.
    browser.documentTable()->sortByColumn(fixed, Qt::AscendingOrder);
    QCOMPARE(model->index(0, fixed).data().toString(), QStringLiteral("9"));
    QCOMPARE(model->index(1, fixed).data().toString(), QStringLiteral("10"));
    QCOMPARE(model->index(2, fixed).data().toString(), QString());
    browser.documentTable()->sortByColumn(ui::DocumentTableModel::IndexColumn, Qt::AscendingOrder);
    QVERIFY(show(browser, 0));
    const auto* header = browser.viewer()->findChild<QLabel*>(QStringLiteral("documentHeader"));
    QVERIFY(header);
    QVERIFY2(header->text().contains(QStringLiteral("stars: 10")), qPrintable(header->text()));
    QVERIFY2(header->text().contains(QStringLiteral("reviewer: ann")), qPrintable(header->text()));
    QVERIFY2(header->text().contains(QStringLiteral("drama; acting")), qPrintable(header->text()));
  }

  // A linked corpus (issue 18): the reader lists the document's links both ways, and a click on one
  // opens that document.
  void linksAreListedAndOpenTheirDocuments() {
    {
      core::Project project(m_file);
      core::LinksImportRequest links;
      links.corpus = "mixed";
      links.source = m_scratch->write("links.csv", "source,target\ncafe,river\nmoney,cafe\n");
      core::importDocumentLinks(project, links);
    }
    ui::CorpusBrowser browser(m_file, m_text);
    QVERIFY(test::waitLoaded(&browser));
    QVERIFY(show(browser, 0));
    const QString links = browser.viewer()->linksText();
    QVERIFY2(links.contains(QStringLiteral("Links to</b> <a href=\"doc:1\">Flood report</a>")), qPrintable(links));
    QVERIFY2(links.contains(QStringLiteral("Linked from</b> <a href=\"doc:2\">Finance</a>")), qPrintable(links));
    QSignalSpy shown(&browser, &ui::CorpusBrowser::documentShown);
    Q_EMIT browser.viewer()->linkedDocumentActivated(2);
    QVERIFY(shown.count() > 0 || shown.wait(10000));
    QCOMPARE(shown.last().at(0).toLongLong(), qint64(2));
    QVERIFY(browser.viewer()->linksText().contains(QStringLiteral("Links to</b> <a href=\"doc:0\">")));
  }
};

LATENT_TEST_CASE(TestCorpusBrowser)
#include "tst_corpus_browser.moc"
