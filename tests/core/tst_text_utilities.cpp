// SPDX-License-Identifier: GPL-3.0-or-later
// LineReader, CsvReader, UTF-8 validation and strict number parsing.
#include <QtTest>

#include <fstream>
#include <string>

#include "core/util/csv_reader.hpp"
#include "core/util/errors.hpp"
#include "core/util/line_reader.hpp"
#include "core/util/parse_number.hpp"
#include "core/util/utf8.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

class TextUtilitiesTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void linesWithMixedTerminators() {
    test::Scratch scratch;
    const auto file = scratch.write("a.txt",
                                    "\xEF\xBB\xBF"
                                    "first\r\nsecond\n\nlast");
    core::LineReader reader(file);
    std::string_view line;
    QStringList got;
    while (reader.next(line)) got << QString::fromStdString(std::string(line));
    QCOMPARE(got, QStringList({"first", "second", "", "last"}));
    QCOMPARE(reader.lineNumber(), 4);
    QCOMPARE(reader.bytesConsumed(), reader.fileSize());
  }

  void lineLongerThanLimitNamesTheLine() {
    test::Scratch scratch;
    const auto file = scratch.write("long.txt", "short\n" + std::string(3000, 'x') + "\n");
    core::LineReader reader(file, core::LineReader::Options{1024, true});
    std::string_view line;
    QVERIFY(reader.next(line));
    try {
      reader.next(line);
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      QCOMPARE(e.line(), 2);
      QCOMPARE(e.file(), file.string());
      QVERIFY(e.reason().find("longer than") != std::string::npos);
    }
  }

  void linesLongerThanTheChunkAreWhole() {
    test::Scratch scratch;
    const std::string big(3'500'000, 'y');
    const auto file = scratch.write("big.txt", "a\n" + big + "\nb\n");
    core::LineReader reader(file);
    std::string_view line;
    QVERIFY(reader.next(line));
    QVERIFY(reader.next(line));
    QCOMPARE(line.size(), big.size());
    QVERIFY(reader.next(line));
    QCOMPARE(std::string(line), std::string("b"));
    QVERIFY(!reader.next(line));
  }

  // A small file gets a buffer of its size when opened; what is appended after that (a log still
  // being written, a file whose size the system does not know) is still read whole.
  void fileThatGrowsAfterOpeningIsReadWhole() {
    test::Scratch scratch;
    const auto file = scratch.write("growing.txt", "first\n");
    core::LineReader reader(file);
    const std::string longLine(20'000, 'z');
    {
      std::ofstream out(file, std::ios::binary | std::ios::app);
      for (int i = 0; i < 500; ++i) out << "line " << i << '\n';
      out << longLine << "\nlast";
    }
    std::string_view line;
    QVERIFY(reader.next(line));
    QCOMPARE(std::string(line), std::string("first"));
    for (int i = 0; i < 500; ++i) {
      QVERIFY(reader.next(line));
      QCOMPARE(std::string(line), "line " + std::to_string(i));
    }
    QVERIFY(reader.next(line));
    QCOMPARE(line.size(), longLine.size());
    QVERIFY(reader.next(line));
    QCOMPARE(std::string(line), std::string("last"));
    QVERIFY(!reader.next(line));
    QCOMPARE(reader.lineNumber(), 503);
  }

  void nulByteIsBinary() {
    test::Scratch scratch;
    const auto file = scratch.write("bin.dat", std::string("ok\nbad\0line\n", 12));
    core::LineReader reader(file);
    std::string_view line;
    QVERIFY(reader.next(line));
    try {
      reader.next(line);
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      QCOMPARE(e.line(), 2);
      QVERIFY(e.reason().find("binary") != std::string::npos);
    }
  }

  void missingFile() {
    try {
      core::LineReader reader("/nonexistent/file.txt");
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      QCOMPARE(e.line(), 0);
      QCOMPARE(std::string(e.what()), std::string("/nonexistent/file.txt: does not exist"));
    }
  }

  void csvQuotedFieldsAcrossLines() {
    test::Scratch scratch;
    const auto file = scratch.write("q.csv", "id,text\n1,\"hello, \"\"world\"\"\nsecond line\"\n2,plain\n");
    core::CsvReader csv(file);
    std::vector<std::string> fields;
    QVERIFY(csv.next(fields));
    QCOMPARE(fields.size(), std::size_t{2});
    QVERIFY(csv.next(fields));
    QCOMPARE(csv.recordLine(), 2);
    QCOMPARE(fields[1], std::string("hello, \"world\"\nsecond line"));
    QVERIFY(csv.next(fields));
    QCOMPARE(csv.recordLine(), 4);
    QCOMPARE(fields[1], std::string("plain"));
    QVERIFY(!csv.next(fields));
  }

  void csvSniffsTabsAndSemicolons() {
    test::Scratch scratch;
    core::CsvReader tsv(scratch.write("t.tsv", "a\tb\tc\n1\t2\t3\n"));
    QCOMPARE(tsv.delimiter(), '\t');
    core::CsvReader semi(scratch.write("s.csv", "a;b\n1;2\n"));
    QCOMPARE(semi.delimiter(), ';');
  }

  void csvUnclosedQuote() {
    test::Scratch scratch;
    core::CsvReader csv(scratch.write("u.csv", "a,b\n1,\"never closed\n2,3\n"));
    std::vector<std::string> fields;
    QVERIFY(csv.next(fields));
    try {
      csv.next(fields);
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      QCOMPARE(e.line(), 2);
      QVERIFY(e.reason().find("not closed") != std::string::npos);
    }
  }

  void findColumnIgnoresCase() {
    const std::vector<std::string> header{"ID", "Text", "year"};
    QCOMPARE(core::findColumn(header, "text"), 1);
    QCOMPARE(core::findColumn(header, "year"), 2);
    QCOMPARE(core::findColumn(header, "label"), -1);
  }

  void utf8Validation_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("firstInvalid");
    QTest::newRow("ascii") << QByteArray("plain text, long enough for the fast path") << -1;
    QTest::newRow("two-byte") << QByteArray("caf\xC3\xA9") << -1;
    QTest::newRow("three-byte") << QByteArray("\xE2\x80\x99s") << -1;
    QTest::newRow("four-byte") << QByteArray("\xF0\x9F\x98\x80") << -1;
    QTest::newRow("latin1") << QByteArray("caf\xE9 au lait") << 3;
    QTest::newRow("overlong") << QByteArray("\xC0\xAF") << 0;
    QTest::newRow("surrogate") << QByteArray("ab\xED\xA0\x80") << 2;
    QTest::newRow("truncated") << QByteArray("abcdefghij\xE2\x80") << 10;
    QTest::newRow("above-max") << QByteArray("\xF4\x90\x80\x80") << 0;
  }

  void utf8Validation() {
    QFETCH(QByteArray, bytes);
    QFETCH(int, firstInvalid);
    const auto got =
        core::utf8::firstInvalid(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    QCOMPARE(got == core::utf8::npos ? -1 : static_cast<int>(got), firstInvalid);
  }

  void latin1Conversion() {
    QCOMPARE(core::utf8::fromLatin1("caf\xE9"), std::string("caf\xC3\xA9"));
    QCOMPARE(core::utf8::codePointCount("caf\xC3\xA9"), std::size_t{4});
  }

  void strictNumbers() {
    QCOMPARE(core::parseInteger(" 42 ").value(), std::int64_t{42});
    QCOMPARE(core::parseInteger("-7").value(), std::int64_t{-7});
    QVERIFY(!core::parseInteger("4.5"));
    QVERIFY(!core::parseInteger("12abc"));
    QVERIFY(!core::parseInteger(""));
    QCOMPARE(core::parseReal("3.5").value(), 3.5);
    QCOMPARE(core::parseReal("1e-3").value(), 1e-3);
    QVERIFY(!core::parseReal("nan"));
    QVERIFY(!core::parseReal("inf"));
    QVERIFY(!core::parseReal("three"));
  }
};

LATENT_TEST_CASE(TextUtilitiesTest)
#include "tst_text_utilities.moc"
