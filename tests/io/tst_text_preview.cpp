// SPDX-License-Identifier: GPL-3.0-or-later
// previewLines: text, Latin-1, binary, long lines, big files and folders, never failing on content.
#include <QtTest>

#include "core/io/text_preview.hpp"
#include "core/util/errors.hpp"
#include "core/util/utf8.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

const std::string kEllipsis = "\xE2\x80\xA6";
const std::string kReplacement = "\xEF\xBF\xBD";

using Lines = std::vector<std::string>;

}  // namespace

class TextPreviewTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void textFile() {
    test::Scratch scratch;
    const auto file = scratch.write("a.txt", "\xEF\xBB\xBFhead,er\r\nsecond line\n\nfourth");
    QCOMPARE(core::previewLines(file), (Lines{"head,er", "second line", "", "fourth"}));
    QCOMPARE(core::previewLines(file, 2), (Lines{"head,er", "second line"}));
    QCOMPARE(core::previewLines(file, 0), Lines{});
    QCOMPARE(core::previewLines(scratch.write("empty.txt", "")), Lines{});
  }

  void cutsLongLinesOnCharacterBoundaries() {
    test::Scratch scratch;
    // "abc" then é (2 bytes): 4 bytes would split é, so the cut falls after "abc".
    const auto file = scratch.write("long.txt",
                                    "abc\xC3\xA9"
                                    "def\nabcdef\nabcd\n");
    QCOMPARE(core::previewLines(file, 20, 4), (Lines{"abc" + kEllipsis, "abcd" + kEllipsis, "abcd"}));
    QCOMPARE(core::previewLines(file, 20, 5), (Lines{"abc\xC3\xA9" + kEllipsis, "abcde" + kEllipsis, "abcd"}));
  }

  void latin1File() {
    // The fixtures' u.item is Latin-1, as GroupLens ship it: the preview shows "Café".
    const auto lines = core::previewLines(test::fixture("ratings/ml-100k/u.item"), 200, 40);
    QCOMPARE(lines.size(), std::size_t{162});
    const auto cafe =
        std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("1002|", 0) == 0; });
    QVERIFY(cafe != lines.end());
    QCOMPARE(*cafe, "1002|Caf\xC3\xA9 Lecture (1995)|01-Jan-2004||h" + kEllipsis);
    // Valid UTF-8 is kept and stray bytes beside it are read as Latin-1.
    test::Scratch scratch;
    QCOMPARE(core::previewLines(scratch.write("mixed.txt", "Caf\xC3\xA9 \xE9t\xE9")),
             Lines{"Caf\xC3\xA9 \xC3\xA9t\xC3\xA9"});
  }

  void binaryFile() {
    test::Scratch scratch;
    QCOMPARE(core::previewLines(scratch.write("elf", std::string("\x7F"
                                                                 "ELF\x02\x00\x01\n\x00\xFF",
                                                                 10))),
             (Lines{"\x7F"
                    "ELF\x02" +
                        kReplacement + "\x01",
                    kReplacement + "\xC3\xBF"}));
    // Every byte value, many times over: never an exception, always valid UTF-8, bounded.
    std::string noise;
    for (int k = 0; k < 3000; ++k) noise.push_back(static_cast<char>((k * 7919) % 256));
    const auto lines = core::previewLines(scratch.write("noise.bin", noise), 50, 30);
    QVERIFY(!lines.empty());
    for (const auto& line : lines) {
      QVERIFY(core::utf8::isValid(line));
      QVERIFY(line.size() <= 30 + kEllipsis.size());
    }
  }

  void bigFiles() {
    test::Scratch scratch;
    // A 3 MB line: one preview line, cut and marked.
    const auto huge = scratch.write("huge.txt", std::string(3 << 20, 'x'));
    QCOMPARE(core::previewLines(huge, 20, 10), Lines{"xxxxxxxxxx" + kEllipsis});
    // Wider than what is read: the part read (1 MB) is shown, marked as cut.
    const auto wide = core::previewLines(huge, 20, 4 << 20);
    QCOMPARE(wide.size(), std::size_t{1});
    QCOMPARE(wide[0].size(), (std::size_t{1} << 20) + kEllipsis.size());
    // Many short lines: only the first are read.
    std::string many;
    for (int i = 0; i < 300000; ++i) many += "line " + std::to_string(i) + "\n";
    const auto lines = core::previewLines(scratch.write("many.txt", many), 3);
    QCOMPARE(lines, (Lines{"line 0", "line 1", "line 2"}));
  }

  void folder() {
    test::Scratch scratch;
    scratch.write("dir/b.txt", "b");
    scratch.write("dir/a.csv", "a");
    scratch.write("dir/sub/c.txt", "c");
    QCOMPARE(core::previewLines(scratch.path("dir")), (Lines{"a.csv", "b.txt", "sub/"}));
    QCOMPARE(core::previewLines(scratch.path("dir"), 2), (Lines{"a.csv", "b.txt"}));
    QCOMPARE(core::previewLines(test::fixture("ratings/ml-1m")), (Lines{"movies.dat", "ratings.dat"}));
  }

  // A folder corpus shows its first documents' text, in the order the import reads them, not the
  // names of its files; a folder with no .txt file still shows what it holds.
  void folderOfTexts() {
    test::Scratch scratch;
    scratch.write("texts/b.txt", "\xEF\xBB\xBFSecond address.\n\n  \nFellow citizens\nthird line\nfourth line\n");
    scratch.write("texts/a.txt", "First address, one line");
    scratch.write("texts/.hidden.txt", "not a document");
    scratch.write("texts/notes.csv", "not a document either");
    const std::string rule = "\xE2\x94\x80\xE2\x94\x80";
    QCOMPARE(core::previewFolderTexts(scratch.path("texts"), 5, 3),
             (Lines{rule + " a.txt " + rule, "First address, one line", rule + " b.txt " + rule, "Second address.",
                    "Fellow citizens", "third line"}));
    QCOMPARE(core::previewFolderTexts(scratch.path("texts"), 1, 1),
             (Lines{rule + " a.txt " + rule, "First address, one line", kEllipsis + " and 1 more document"}));
    QCOMPARE(core::previewFolderTexts(test::fixture("ratings/ml-1m")), (Lines{"movies.dat", "ratings.dat"}));
    const auto sotu = core::previewFolderTexts(test::fixture("corpus/sotu_dir"), 2, 2);
    QVERIFY(sotu.size() >= 4);
    QVERIFY(sotu[0].find(".txt") != std::string::npos);
    QVERIFY(sotu[1].find(".txt") == std::string::npos);
  }

  void missingPath() {
    test::Scratch scratch;
    const auto missing = scratch.path("none.txt");
    try {
      core::previewLines(missing);
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      QCOMPARE(e.file(), missing.string());
      QCOMPARE(e.line(), std::int64_t{0});
      QCOMPARE(e.reason(), std::string("does not exist"));
    }
  }
};

LATENT_TEST_CASE(TextPreviewTest)
#include "tst_text_preview.moc"
