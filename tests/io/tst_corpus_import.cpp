// SPDX-License-Identifier: GPL-3.0-or-later
// Corpus importers on good input: every format, the real samples, detection, previews, cancelling.
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "core/io/corpus_import.hpp"
#include "core/util/errors.hpp"
#include "corpus_test_helpers.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using core::CorpusFormat;

namespace {

const std::vector<std::string> kSotuFiles{"001_1790_george-washington.txt", "012_1800_john-adams.txt",
                                          "169_1956_dwight-d-eisenhower.txt", "237_2017_donald-trump.txt"};

std::vector<std::string> splitSpaces(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The sample files and fixtures each format is tested on, with their read options.
struct Source {
  std::filesystem::path path;
  core::CorpusReadOptions options;
};

Source sourceFor(CorpusFormat format) {
  Source s;
  s.options.format = format;
  switch (format) {
    case CorpusFormat::Folder:
      s.path = test::fixture("corpus/sotu_dir");
      break;
    case CorpusFormat::Lines:
      s.path = test::sample("gibbs-toy/gibbs_toy.txt");
      break;
    case CorpusFormat::Csv:
      s.path = test::fixture("corpus/sotu_rows.csv");
      break;
    case CorpusFormat::JsonLines:
      s.path = test::sample("sotu/sotu.jsonl");
      s.options.idColumn = "id";
      break;
    case CorpusFormat::Uci:
      s.path = test::sample("cora/docword.cora.txt");
      break;
    case CorpusFormat::Ldac:
      s.path = test::fixture("corpus/cora200.ldac");
      break;
    case CorpusFormat::Responses:
      s.path = test::sample("anes96/anes96.csv");
      break;
    case CorpusFormat::Auto:
      break;
  }
  return s;
}

void addFormatRows() {
  QTest::addColumn<int>("format");
  QTest::newRow("dir") << int(CorpusFormat::Folder);
  QTest::newRow("lines") << int(CorpusFormat::Lines);
  QTest::newRow("csv") << int(CorpusFormat::Csv);
  QTest::newRow("jsonl") << int(CorpusFormat::JsonLines);
  QTest::newRow("uci") << int(CorpusFormat::Uci);
  QTest::newRow("ldac") << int(CorpusFormat::Ldac);
}

}  // namespace

class CorpusImportTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void formatNames() {
    for (const auto f : {CorpusFormat::Auto, CorpusFormat::Folder, CorpusFormat::Lines, CorpusFormat::Csv,
                         CorpusFormat::JsonLines, CorpusFormat::Uci, CorpusFormat::Ldac})
      QVERIFY(core::corpusFormatFromString(core::toString(f)) == f);
    QCOMPARE(core::toString(CorpusFormat::Folder), std::string_view("dir"));
    QCOMPARE(core::toString(CorpusFormat::JsonLines), std::string_view("jsonl"));
    QVERIFY(core::corpusFormatFromString("tsv") == CorpusFormat::Csv);
    QVERIFY(!core::corpusFormatFromString("json"));
    QVERIFY(!core::corpusFormatFromString("CSV"));
    QVERIFY(core::isBagOfWords(CorpusFormat::Uci));
    QVERIFY(core::isBagOfWords(CorpusFormat::Ldac));
    QVERIFY(!core::isBagOfWords(CorpusFormat::Csv));
    QVERIFY(!core::isBagOfWords(CorpusFormat::Folder));
  }

  // --- folder of .txt files ---------------------------------------------------------------

  void folderOfSotuAddresses() {
    const auto folder = test::fixture("corpus/sotu_dir");
    const auto c = test::readIntoMemory(folder, {});
    QCOMPARE(int(c->format), int(CorpusFormat::Folder));
    QCOMPARE(c->documentCount(), kSotuFiles.size());  // metadata.csv next to them is not a document
    for (std::size_t d = 0; d < kSotuFiles.size(); ++d) {
      QCOMPARE(c->doc(d).id, kSotuFiles[d]);
      QCOMPARE(c->doc(d).title, kSotuFiles[d].substr(0, kSotuFiles[d].size() - 4));
      QCOMPARE(c->doc(d).text, test::readFileBytes(folder / kSotuFiles[d]));
      QVERIFY(c->doc(d).hasText);
      QVERIFY(c->doc(d).time.empty());
      std::string problem;
      QVERIFY2(test::spansSliceText(*c, d, &problem), problem.c_str());
    }
    // Word counts found independently (case-insensitive whole words; "America's" is its own word).
    QCOMPARE(c->count(0, "citizens"), std::int64_t{3});
    QCOMPARE(c->count(0, "states"), std::int64_t{4});
    QCOMPARE(c->count(0, "congress"), std::int64_t{0});
    QCOMPARE(c->count(1, "congress"), std::int64_t{6});
    QCOMPARE(c->count(2, "congress"), std::int64_t{6});
    QCOMPARE(c->count(3, "united"), std::int64_t{14});
    QCOMPARE(c->count(3, "america"), std::int64_t{27});
    // "Fellow-Citizens of the Senate" opens Washington's address.
    QCOMPARE(c->words(0)[0], std::string("fellow"));
    QCOMPARE(c->words(0)[1], std::string("citizens"));
  }

  void folderSelectsSortsAndStripsBom() {
    test::Scratch scratch;
    scratch.write("docs/b.txt", "second document");
    scratch.write("docs/a.txt",
                  "\xEF\xBB\xBF"
                  "first document");
    scratch.write("docs/C.TXT", "upper case extension");
    scratch.write("docs/.hidden.txt", std::string("\0\x01garbage", 9));
    scratch.write("docs/notes.md", "not a document");
    scratch.write("docs/nested/d.txt", "not read: the folder is not searched recursively");
    scratch.write("docs/empty.txt", "");
    const auto c = test::readIntoMemory(scratch.path("docs"), {});
    std::vector<std::string> ids;
    for (const auto& d : c->sink.documents) ids.push_back(d.id);
    // Byte order: upper-case letters sort before lower-case ones.
    QCOMPARE(ids, (std::vector<std::string>{"C.TXT", "a.txt", "b.txt", "empty.txt"}));
    QCOMPARE(c->doc(0).title, std::string("C"));
    QCOMPARE(c->doc(1).text, std::string("first document"));  // the byte order mark is not text
    QCOMPARE(c->words(1), (std::vector<std::string>{"first", "document"}));
    QCOMPARE(c->doc(1).begins, (std::vector<std::uint32_t>{0, 6}));
    QVERIFY(c->doc(3).wordIds.empty());  // an empty file is an empty document, not an error
  }

  // --- one document per line -----------------------------------------------------------------

  void linesGibbsToy() {
    const auto path = test::sample("gibbs-toy/gibbs_toy.txt");
    const auto c = test::readIntoMemory(path, {});
    QCOMPARE(int(c->format), int(CorpusFormat::Lines));
    QCOMPARE(c->documentCount(), std::size_t{16});
    std::set<std::string> vocabulary;
    for (const auto& v : c->sink.vocabulary) vocabulary.insert(v.word);
    QCOMPARE(vocabulary, (std::set<std::string>{"money", "loan", "bank", "river", "stream"}));
    std::istringstream file(test::readFileBytes(path));
    std::string line;
    for (std::size_t d = 0; d < 16; ++d) {
      QVERIFY(std::getline(file, line));
      QCOMPARE(c->doc(d).id, std::to_string(d + 1));
      QCOMPARE(c->doc(d).title, "line " + std::to_string(d + 1));
      QCOMPARE(c->doc(d).text, line);
      QCOMPARE(c->words(d), splitSpaces(line));
      QCOMPARE(c->words(d).size(), std::size_t{16});
      std::string problem;
      QVERIFY2(test::spansSliceText(*c, d, &problem), problem.c_str());
    }
    QCOMPARE(c->summary.tokens, std::int64_t{256});
    // Document 1 is pure finance, document 16 pure rivers (the README's generator).
    QCOMPARE(c->count(0, "river") + c->count(0, "stream"), std::int64_t{0});
    QCOMPARE(c->count(15, "money") + c->count(15, "loan"), std::int64_t{0});
  }

  void linesSkipBlankLinesButKeepNumbers() {
    test::Scratch scratch;
    const auto path = scratch.write("docs.txt", "first doc here\n\n   \t\nsecond doc\r\nthird doc");
    const auto c = test::readIntoMemory(path, {});
    QCOMPARE(c->documentCount(), std::size_t{3});
    QCOMPARE(c->doc(1).id, std::string("4"));
    QCOMPARE(c->doc(1).title, std::string("line 4"));
    QCOMPARE(c->doc(1).text, std::string("second doc"));  // CR of a CRLF ending removed
    QCOMPARE(c->doc(2).id, std::string("5"));
    QCOMPARE(c->doc(2).text, std::string("third doc"));
  }

  void tenMegabyteLineIsADocument_data() {
    QTest::addColumn<int>("format");
    QTest::newRow("lines") << int(CorpusFormat::Lines);
    QTest::newRow("csv") << int(CorpusFormat::Csv);
    QTest::newRow("jsonl") << int(CorpusFormat::JsonLines);
  }
  void tenMegabyteLineIsADocument() {
    QFETCH(int, format);
    test::Scratch scratch;
    const std::string text = test::tenMegabytesOf("alpha beta gamma delta ");
    const std::int64_t repeats = static_cast<std::int64_t>(text.size() / 23);
    std::filesystem::path path;
    switch (CorpusFormat(format)) {
      case CorpusFormat::Lines:
        path = scratch.write("long.txt", "short one\n" + text + "\n");
        break;
      case CorpusFormat::Csv:
        path = scratch.write("long.csv", "text\nshort one\n\"" + text + "\"\n");
        break;
      default:
        path = scratch.write("long.jsonl", "{\"text\": \"short one\"}\n{\"text\": \"" + text + "\"}\n");
        break;
    }
    core::CorpusReadOptions options;
    options.format = CorpusFormat(format);
    const auto c = test::readIntoMemory(path, options);
    QCOMPARE(c->documentCount(), std::size_t{2});
    QCOMPARE(c->doc(1).text, text);
    QCOMPARE(static_cast<std::int64_t>(c->doc(1).wordIds.size()), 4 * repeats);
    QCOMPARE(c->count(1, "gamma"), repeats);
  }

  // --- CSV and TSV ---------------------------------------------------------------------------

  void csvAndTsvSotuRows_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("csv") << "corpus/sotu_rows.csv";
    QTest::newRow("tsv") << "corpus/sotu_rows.tsv";
  }
  void csvAndTsvSotuRows() {
    QFETCH(QString, file);
    core::CorpusReadOptions options;
    options.titleColumn = "title";
    options.timeColumn = "year";
    options.labelColumn = "Party";  // matched ignoring case, as the header says "party"
    const auto c = test::readIntoMemory(test::fixture(file.toStdString()), options);
    QCOMPARE(int(c->format), int(CorpusFormat::Csv));
    QCOMPARE(c->documentCount(), std::size_t{3});
    QCOMPARE(c->doc(0).id, std::string("001_1790_george-washington"));  // the "id" column, found by name
    QCOMPARE(c->doc(0).title, std::string("George Washington, 1790"));
    QCOMPARE(c->doc(0).time, std::string("1790"));
    QCOMPARE(c->doc(0).label, std::string("Nonpartisan"));
    QCOMPARE(c->doc(1).id, std::string("169_1956_dwight-d-eisenhower"));
    QCOMPARE(c->doc(1).label, std::string("Republican"));
    QCOMPARE(c->doc(2).title, std::string("Donald Trump, 2017"));
    QCOMPARE(c->doc(2).time, std::string("2017"));
    // The text fields are paragraphs of the addresses, quoted over several lines; the first is
    // where the address starts, the third holds escaped quotes and an em dash.
    const auto washington = test::readFileBytes(test::fixture("corpus/sotu_dir/001_1790_george-washington.txt"));
    QVERIFY(washington.starts_with(c->doc(0).text));
    QCOMPARE(std::count(c->doc(0).text.begin(), c->doc(0).text.end(), '\n'), std::ptrdiff_t{4});
    const auto trump = test::readFileBytes(test::fixture("corpus/sotu_dir/237_2017_donald-trump.txt"));
    for (const auto& paragraph : {std::string("\"No, thank you."), std::string("\u2014")})
      QVERIFY(c->doc(2).text.find(paragraph) != std::string::npos);
    const auto cut = c->doc(2).text.find("\n\n");
    QVERIFY(trump.find(c->doc(2).text.substr(0, cut)) != std::string::npos);
    QVERIFY(trump.find(c->doc(2).text.substr(cut + 2)) != std::string::npos);
    for (std::size_t d = 0; d < 3; ++d) {
      std::string problem;
      QVERIFY2(test::spansSliceText(*c, d, &problem), problem.c_str());
    }
    QCOMPARE(c->words(0)[0], std::string("fellow"));
  }

  void csvDefaultsAndDelimiters() {
    test::Scratch scratch;
    // Semicolons are sniffed; no id column: ids are record numbers and titles the ids; an empty
    // text is an empty document.
    const auto path = scratch.write("notes.csv", "heading;text\nFirst;river bank\n\n;\"\"\nThird;\"money; loan\"\n");
    const auto c = test::readIntoMemory(path, {});
    QCOMPARE(c->documentCount(), std::size_t{3});
    QCOMPARE(c->doc(0).id, std::string("1"));
    QCOMPARE(c->doc(0).title, std::string("1"));
    QCOMPARE(c->doc(1).id, std::string("2"));
    QVERIFY(c->doc(1).text.empty());
    QCOMPARE(c->doc(2).id, std::string("3"));
    QCOMPARE(c->words(2), (std::vector<std::string>{"money", "loan"}));

    core::CorpusReadOptions options;
    options.idColumn = "heading";
    options.textColumn = "TEXT";
    const auto named = scratch.write("named.csv", "heading,TEXT,extra\nA1,\"one, two\",x\nB2,three,y\n");
    const auto n = test::readIntoMemory(named, options);
    QCOMPARE(n->doc(0).id, std::string("A1"));
    QCOMPARE(n->doc(0).title, std::string("A1"));
    QCOMPARE(n->doc(1).text, std::string("three"));
  }

  // --- JSON Lines -----------------------------------------------------------------------------

  void jsonlSotu() {
    core::CorpusReadOptions options;
    options.format = CorpusFormat::JsonLines;
    options.idColumn = "id";
    options.titleColumn = "title";
    options.timeColumn = "year";
    options.labelColumn = "party";
    const auto c = test::readIntoMemory(test::sample("sotu/sotu.jsonl"), options);
    QCOMPARE(c->documentCount(), std::size_t{240});
    QCOMPARE(c->doc(0).id, std::string("001_1790_george-washington"));
    QCOMPARE(c->doc(0).title, std::string("George Washington, 1790"));
    QCOMPARE(c->doc(0).time, std::string("1790"));
    QCOMPARE(c->doc(0).label, std::string("Nonpartisan"));
    QCOMPARE(c->doc(239).id, std::string("240_2020_donald-trump"));
    QCOMPARE(c->doc(239).title, std::string("Donald Trump, 2020"));
    QCOMPARE(c->doc(239).label, std::string("Republican"));
    // The texts are the address files unchanged (sotu README).
    for (const auto& [d, file] : {std::pair<std::size_t, std::string>{0, kSotuFiles[0]},
                                  {11, kSotuFiles[1]},
                                  {168, kSotuFiles[2]},
                                  {236, kSotuFiles[3]}})
      QCOMPARE(c->doc(d).text, test::readFileBytes(test::fixture("corpus/sotu_dir/" + file)));
    // Party counts from the sotu README.
    std::map<std::string, int> parties;
    for (const auto& doc : c->sink.documents) ++parties[doc.label];
    QCOMPARE(parties["Nonpartisan"], 8);
    QCOMPARE(parties["Republican"], 99);
    QCOMPARE(parties["Democratic"], 93);
    QCOMPARE(parties["Whig"], 8);
    for (const std::size_t d : {std::size_t{0}, std::size_t{120}, std::size_t{236}}) {
      std::string problem;
      QVERIFY2(test::spansSliceText(*c, d, &problem), problem.c_str());
    }
    QCOMPARE(c->count(236, "america"), std::int64_t{27});
  }

  void jsonlValuesAndDefaults() {
    test::Scratch scratch;
    const auto path = scratch.write("d.jsonl",
                                    "{\"Text\": \"river bank\", \"year\": 1790, \"id\": 7, \"title\": null}\n"
                                    "\n"
                                    "{\"text\": \"money loan\", \"year\": 17.5, \"title\": \"Named\"}\n"
                                    "  {\"text\": \"\", \"year\": \"MDCC\"}  \n");
    core::CorpusReadOptions options;
    options.timeColumn = "year";
    options.titleColumn = "title";
    // A named field must exist on every line; make the third line carry one.
    QVERIFY_THROWS_EXCEPTION(core::InputError, test::readIntoMemory(path, options));
    options.titleColumn.clear();
    const auto c = test::readIntoMemory(path, options);
    QCOMPARE(c->documentCount(), std::size_t{3});
    QCOMPARE(c->doc(0).id, std::string("7"));  // numbers are written as JSON writes them
    QCOMPARE(c->doc(0).time, std::string("1790"));
    QCOMPARE(c->doc(0).title, std::string("7"));
    QCOMPARE(c->doc(0).text, std::string("river bank"));  // "Text" matched ignoring case
    QCOMPARE(c->doc(1).id, std::string("3"));             // no id field: the line number
    QCOMPARE(c->doc(1).time, std::string("17.5"));
    QCOMPARE(c->doc(2).id, std::string("4"));
    QCOMPARE(c->doc(2).time, std::string("MDCC"));
    QVERIFY(c->doc(2).wordIds.empty());
  }

  // --- UCI bag of words -----------------------------------------------------------------------

  void uciCora() {
    core::CorpusReadOptions options;
    options.format = CorpusFormat::Uci;
    const auto c = test::readIntoMemory(test::sample("cora/docword.cora.txt"), options);  // vocab.cora.txt found
    QCOMPARE(c->documentCount(), std::size_t{2410});
    QCOMPARE(c->sink.vocabulary.size(), std::size_t{2961});
    QCOMPARE(c->summary.tokens, std::int64_t{136394});
    QCOMPARE(c->sink.vocabulary[0].word, std::string("computer"));
    QCOMPARE(c->sink.vocabulary[2960].word, std::string("floating"));
    QCOMPARE(c->doc(0).id, std::string("1"));
    QCOMPARE(c->doc(0).title, std::string("doc 1"));
    QCOMPARE(c->doc(2409).id, std::string("2410"));
    QVERIFY(!c->doc(0).hasText);
    QVERIFY(c->doc(0).text.empty());
    QVERIFY(c->doc(0).begins.empty());
    // Document 1 starts "1 1 1", "1 2 4", "1 3 2": computer, algorithms x4, discovering x2.
    const auto first = c->words(0);
    QCOMPARE(first.size(), std::size_t{92});
    QCOMPARE(std::vector<std::string>(first.begin(), first.begin() + 7),
             (std::vector<std::string>{"computer", "algorithms", "algorithms", "algorithms", "algorithms",
                                       "discovering", "discovering"}));
    QCOMPARE(c->doc(2409).wordIds.size(), std::size_t{44});
    QCOMPARE(c->count(2409, "detection"), std::int64_t{3});
    // "learning" (word 70): 2,468 tokens in 969 documents, summed from the file by hand.
    const auto& learning = c->sink.vocabulary[69];
    QCOMPARE(learning.word, std::string("learning"));
    QCOMPARE(learning.count, std::int64_t{2468});
    QCOMPARE(learning.documentFrequency, std::int64_t{969});
  }

  void uciEmptyDocumentsAndVocabularyNextToIt() {
    test::Scratch scratch;
    // Documents 1 and 3 have no entries and are still documents; blank lines are ignored.
    const auto path = scratch.write("docword.small.txt", "4\n3\n3\n\n2 1 2\n2 3 1\n4 2 5\n\n");
    scratch.write("vocab.small.txt", "river\nbank\nmoney\n\n");  // trailing blank lines are not words
    core::CorpusReadOptions options;
    const auto c = test::readIntoMemory(path, options);
    QCOMPARE(int(c->format), int(CorpusFormat::Uci));
    QCOMPARE(c->documentCount(), std::size_t{4});
    QVERIFY(c->doc(0).wordIds.empty());
    QCOMPARE(c->words(1), (std::vector<std::string>{"river", "river", "money"}));
    QVERIFY(c->doc(2).wordIds.empty());
    QCOMPARE(c->words(3), (std::vector<std::string>(5, "bank")));
    QCOMPARE(c->doc(3).title, std::string("doc 4"));

    // vocab.txt is the fallback, and --vocab wins over both.
    const auto other = scratch.write("other/counts.txt", "1\n2\n1\n1 2 1\n");
    scratch.write("other/vocab.txt", "alpha\nbeta\n");
    options.format = CorpusFormat::Uci;
    QCOMPARE(test::readIntoMemory(other, options)->words(0), std::vector<std::string>{"beta"});
    options.vocabulary = scratch.write("given.txt", "gamma\ndelta\n");
    QCOMPARE(test::readIntoMemory(other, options)->words(0), std::vector<std::string>{"delta"});
  }

  // --- LDA-C ----------------------------------------------------------------------------------

  void ldacCoraMatchesUci() {
    // cora200.ldac is the first 200 documents of docword.cora.txt converted to LDA-C once.
    const auto ldac = test::readIntoMemory(test::fixture("corpus/cora200.ldac"), {});  // cora200.vocab found
    QCOMPARE(int(ldac->format), int(CorpusFormat::Ldac));
    QCOMPARE(ldac->documentCount(), std::size_t{200});
    QCOMPARE(ldac->summary.tokens, std::int64_t{11846});
    QCOMPARE(ldac->sink.vocabulary.size(), std::size_t{2203});  // words unused in these 200 are dropped
    QCOMPARE(ldac->doc(0).id, std::string("1"));
    QCOMPARE(ldac->doc(199).title, std::string("doc 200"));
    QCOMPARE(ldac->doc(0).wordIds.size(), std::size_t{92});
    QCOMPARE(ldac->doc(199).wordIds.size(), std::size_t{76});
    core::CorpusReadOptions options;
    core::ImportControl control;
    control.maxRecords = 200;
    const auto uci = test::readIntoMemory(test::sample("cora/docword.cora.txt"), options, control);
    QCOMPARE(uci->documentCount(), std::size_t{200});
    for (std::size_t d = 0; d < 200; ++d) QCOMPARE(ldac->words(d), uci->words(d));
  }

  void ldacEmptyDocument() {
    test::Scratch scratch;
    const auto path = scratch.write("tiny.dat", "0\n2 0:1 2:3\n\n1 1:2\n");
    scratch.write("vocab.txt", "river\nbank\nmoney\n");
    core::CorpusReadOptions options;
    options.format = CorpusFormat::Ldac;
    const auto c = test::readIntoMemory(path, options);
    QCOMPARE(c->documentCount(), std::size_t{3});
    QVERIFY(c->doc(0).wordIds.empty());
    QCOMPARE(c->words(1), (std::vector<std::string>{"river", "money", "money", "money"}));
    QCOMPARE(c->doc(2).id, std::string("4"));
    QCOMPARE(c->words(2), (std::vector<std::string>{"bank", "bank"}));
  }

  // --- detection, previews, cancelling --------------------------------------------------------

  void detect_data() {
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("format");
    const auto add = [](const char* tag, const std::filesystem::path& p, CorpusFormat f) {
      QTest::newRow(tag) << QString::fromStdString(p.string()) << int(f);
    };
    add("folder", test::fixture("corpus/sotu_dir"), CorpusFormat::Folder);
    add("lines", test::sample("gibbs-toy/gibbs_toy.txt"), CorpusFormat::Lines);
    add("csv", test::fixture("corpus/sotu_rows.csv"), CorpusFormat::Csv);
    add("tsv", test::fixture("corpus/sotu_rows.tsv"), CorpusFormat::Csv);
    add("jsonl", test::sample("sotu/sotu.jsonl"), CorpusFormat::JsonLines);
    add("uci", test::sample("cora/docword.cora.txt"), CorpusFormat::Uci);
    add("ldac", test::fixture("corpus/cora200.ldac"), CorpusFormat::Ldac);
    add("vocabulary", test::sample("cora/vocab.cora.txt"), CorpusFormat::Lines);
    add("readme", test::sample("cora/README.md"), CorpusFormat::Lines);
  }
  void detect() {
    QFETCH(QString, path);
    QFETCH(int, format);
    QCOMPARE(int(core::detectCorpusFormat(path.toStdString())), format);
  }

  void detectByContent() {
    test::Scratch scratch;
    QCOMPARE(int(core::detectCorpusFormat(scratch.write("counts.bow", "\n3\n 5 \n7\n1 1 1\n"))),
             int(CorpusFormat::Uci));
    QCOMPARE(int(core::detectCorpusFormat(scratch.write("docword.x", "whatever"))), int(CorpusFormat::Uci));
    QCOMPARE(int(core::detectCorpusFormat(scratch.write("ap.dat", "2 0:1 4:2\n0\n1 3:1\n"))), int(CorpusFormat::Ldac));
    // Numbers that do not add up as LDA-C, and prose, are lines.
    QCOMPARE(int(core::detectCorpusFormat(scratch.write("bad.dat", "3 0:1 4:2\n"))), int(CorpusFormat::Lines));
    QCOMPARE(int(core::detectCorpusFormat(scratch.write("years.txt", "1990\n1991\nthe end\n"))),
             int(CorpusFormat::Lines));
    QCOMPARE(int(core::detectCorpusFormat(scratch.write("NOTES.JSONL", "{}"))), int(CorpusFormat::JsonLines));
    QCOMPARE(int(core::detectCorpusFormat(scratch.write("x.ndjson", "{}"))), int(CorpusFormat::JsonLines));
    QCOMPARE(int(core::detectCorpusFormat(scratch.write("empty.txt", ""))), int(CorpusFormat::Lines));

    const auto missing = scratch.path("nowhere.txt");
    try {
      core::detectCorpusFormat(missing);
      QFAIL("a missing file was accepted");
    } catch (const core::InputError& e) {
      QCOMPARE(e.file(), missing.string());
      QCOMPARE(e.line(), std::int64_t{0});
      QVERIFY(e.reason().find("does not exist") != std::string::npos);
    }
    const auto binary = scratch.write("image.txt", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
    try {
      core::detectCorpusFormat(binary);
      QFAIL("a binary file was accepted");
    } catch (const core::InputError& e) {
      QCOMPARE(e.file(), binary.string());
      QCOMPARE(e.line(), std::int64_t{0});
      QVERIFY(e.reason().find("not a text file") != std::string::npos);
    }
  }

  void autoFormatIsResolved_data() { addFormatRows(); }
  void autoFormatIsResolved() {
    QFETCH(int, format);
    auto source = sourceFor(CorpusFormat(format));
    source.options.format = CorpusFormat::Auto;
    core::ImportControl control;
    control.maxRecords = 3;
    QCOMPARE(int(test::readIntoMemory(source.path, source.options, control)->format), format);
  }

  void maxRecordsStopsEarly_data() { addFormatRows(); }
  void maxRecordsStopsEarly() {
    QFETCH(int, format);
    const auto source = sourceFor(CorpusFormat(format));
    const auto full = test::readIntoMemory(source.path, source.options);
    core::ImportControl control;
    control.maxRecords = 2;
    const auto preview = test::readIntoMemory(source.path, source.options, control);
    QCOMPARE(preview->documentCount(), std::size_t{2});
    for (std::size_t d = 0; d < 2; ++d) {
      QCOMPARE(preview->doc(d).id, full->doc(d).id);
      QCOMPARE(preview->words(d), full->words(d));
    }
    control.maxRecords = 0;  // nothing read, and no "no documents" error for a preview of nothing
    QCOMPARE(test::readIntoMemory(source.path, source.options, control)->documentCount(), std::size_t{0});
  }

  void stopRequestCancels_data() { addFormatRows(); }
  void stopRequestCancels() {
    QFETCH(int, format);
    const auto source = sourceFor(CorpusFormat(format));
    std::stop_source stop;
    stop.request_stop();
    core::ImportControl control;
    control.stop = stop.get_token();
    core::MemoryCorpusSink sink;
    core::CorpusBuilder builder({}, sink);
    QVERIFY_THROWS_EXCEPTION(core::Cancelled, core::readCorpus(source.path, source.options, builder, control));
  }

  void stopDuringReadCancels() {
    // A stop requested from the progress callback (as the Cancel button does, from another thread)
    // ends the read at the next check, long before the end of a 12 MB file.
    std::stop_source stop;
    core::ImportControl control;
    control.stop = stop.get_token();
    std::uint64_t reports = 0;
    control.progress = [&](std::uint64_t, std::uint64_t) {
      ++reports;
      stop.request_stop();
    };
    auto source = sourceFor(CorpusFormat::JsonLines);
    core::MemoryCorpusSink sink;
    core::CorpusBuilder builder({}, sink);
    QVERIFY_THROWS_EXCEPTION(core::Cancelled, core::readCorpus(source.path, source.options, builder, control));
    QCOMPARE(reports, std::uint64_t{1});
    QVERIFY(builder.documentCount() < 240);
  }

  void progressReachesTotal() {
    std::uint64_t lastDone = 0, lastTotal = 0, calls = 0;
    core::ImportControl control;
    control.progress = [&](std::uint64_t done, std::uint64_t total) {
      QVERIFY(done >= lastDone);
      lastDone = done;
      lastTotal = total;
      ++calls;
    };
    const auto path = test::sample("sotu/sotu.jsonl");
    core::CorpusReadOptions options;
    test::readIntoMemory(path, options, control);
    QCOMPARE(lastTotal, static_cast<std::uint64_t>(std::filesystem::file_size(path)));
    QCOMPARE(lastDone, lastTotal);
    QVERIFY(calls >= 11);  // 12 MB at one report per megabyte or so
  }
};

LATENT_TEST_CASE(CorpusImportTest)
#include "tst_corpus_import.moc"
