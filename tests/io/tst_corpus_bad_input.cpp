// SPDX-License-Identifier: GPL-3.0-or-later
// Corpus importers on bad input: each case must name the file, the line and the reason, and an
// import of it into a project must leave the project file byte for byte as it was.
#include <QtTest>

#include <filesystem>
#include <functional>
#include <random>

#include "core/io/corpus_import.hpp"
#include "core/jobs/import_job.hpp"
#include "core/store/project.hpp"
#include "core/util/errors.hpp"
#include "corpus_test_helpers.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using core::CorpusFormat;

namespace {

namespace fs = std::filesystem;

struct BadCase {
  std::string tag;
  CorpusFormat format;
  std::vector<std::pair<std::string, std::string>> files;  // written into a fresh scratch folder
  std::string source;                                      // given to the reader, relative to it
  std::string errorFile;                                   // expected InputError::file(), relative
  std::int64_t line;                                       // expected InputError::line()
  std::string phrase;                                      // expected in InputError::reason()
  std::string vocabulary;                                  // --vocab, relative; empty: none
  std::function<void(core::CorpusReadOptions&)> options;   // column choices
  std::function<void(const fs::path&)> prepare;            // what files cannot say (folders, sizes)
};

// Starts like an ELF executable (a NUL on line 1), then random bytes with newlines among them.
std::string binaryGarbage() {
  std::string bytes(
      "\x7f"
      "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0",
      16);
  std::mt19937 random(1234);
  for (int i = 0; i < 4096; ++i) bytes.push_back(static_cast<char>(random() & 0xFF));
  return bytes;
}

std::string tenMegabytesOfPairs() {
  std::string line = "2500000";
  for (int id = 0; line.size() < (std::size_t{10} << 20); ++id) line += " " + std::to_string(id) + ":1";
  return line + "\n";
}

const std::vector<BadCase>& cases() {
  static const std::vector<BadCase> all = [] {
    const std::string garbage = binaryGarbage();
    const std::string uciHeader = "2\n3\n";  // D = 2, W = 3, then NNZ
    const std::string vocab3 = "river\nbank\nmoney\n";
    const std::string vocab6 = "river\nbank\nmoney\nloan\nstream\nwater\n";
    const auto uci = [&](std::string tag, std::string body, std::int64_t line, std::string phrase) {
      return BadCase{std::move(tag),
                     CorpusFormat::Uci,
                     {{"docword.bad.txt", std::move(body)}, {"vocab.bad.txt", vocab3}},
                     "docword.bad.txt",
                     "docword.bad.txt",
                     line,
                     std::move(phrase),
                     {},
                     {},
                     {}};
    };
    const auto ldac = [&](std::string tag, std::string body, std::int64_t line, std::string phrase) {
      return BadCase{std::move(tag),
                     CorpusFormat::Ldac,
                     {{"bad.ldac", std::move(body)}, {"bad.vocab", vocab6}},
                     "bad.ldac",
                     "bad.ldac",
                     line,
                     std::move(phrase),
                     {},
                     {},
                     {}};
    };
    const auto file = [](std::string tag, CorpusFormat format, std::string name, std::string body, std::int64_t line,
                         std::string phrase, std::function<void(core::CorpusReadOptions&)> options = {}) {
      return BadCase{std::move(tag),    format, {{name, std::move(body)}}, name, name, line,
                     std::move(phrase), {},     std::move(options),        {}};
    };
    const auto titleColumn = [](std::string column) {
      return [column](core::CorpusReadOptions& o) { o.titleColumn = column; };
    };
    std::vector<BadCase> v;

    // One document per line.
    v.push_back(file("lines: empty file", CorpusFormat::Lines, "bad.txt", "", 0, "holds no documents"));
    v.push_back(file("lines: blank lines only", CorpusFormat::Lines, "bad.txt", "\n  \n\t\n", 0, "holds no documents"));
    v.push_back(file("lines: binary", CorpusFormat::Lines, "bad.txt", garbage, 1, "NUL byte"));
    v.push_back(file("lines: latin-1", CorpusFormat::Lines, "bad.txt", "first line\nCaf\xe9 society\n", 2,
                     "invalid UTF-8 (byte 0xE9 at column 4)"));
    v.push_back(
        file("lines: 0xff", CorpusFormat::Lines, "bad.txt", "ok\nok\n\xff\xfe\n", 3, "invalid UTF-8 (byte 0xFF"));

    // A folder of .txt files.
    v.push_back({"dir: empty folder",
                 CorpusFormat::Folder,
                 {},
                 "docs",
                 "docs",
                 0,
                 "no .txt files",
                 {},
                 {},
                 [](const fs::path& root) { fs::create_directories(root / "docs"); }});
    v.push_back({"dir: no .txt files",
                 CorpusFormat::Folder,
                 {{"docs/notes.md", "words"}, {"docs/sub/a.txt", "words"}},
                 "docs",
                 "docs",
                 0,
                 "no .txt files",
                 {},
                 {},
                 {}});
    v.push_back({"dir: binary file",
                 CorpusFormat::Folder,
                 {{"docs/a.txt", "fine words"}, {"docs/b.txt", garbage}},
                 "docs",
                 "docs/b.txt",
                 1,
                 "NUL byte",
                 {},
                 {},
                 {}});
    v.push_back({"dir: latin-1",
                 CorpusFormat::Folder,
                 {{"docs/a.txt", "Hello\nthere caf\xe9\n"}},
                 "docs",
                 "docs/a.txt",
                 2,
                 "invalid UTF-8 (byte 0xE9 at column 10)",
                 {},
                 {},
                 {}});
    v.push_back({"dir: file over 256 MB",
                 CorpusFormat::Folder,
                 {{"docs/a.txt", "fine words"}},
                 "docs",
                 "docs/huge.txt",
                 0,
                 "larger than 256 MB",
                 {},
                 {},
                 [](const fs::path& root) {
                   std::ofstream(root / "docs/huge.txt").put('x');
                   fs::resize_file(root / "docs/huge.txt", (std::uintmax_t{256} << 20) + 1);  // sparse
                 }});
    v.push_back({"dir: given a file",
                 CorpusFormat::Folder,
                 {{"a.txt", "words"}},
                 "a.txt",
                 "a.txt",
                 0,
                 "reads a folder",
                 {},
                 {},
                 {}});

    // CSV and TSV.
    v.push_back(file("csv: empty file", CorpusFormat::Csv, "bad.csv", "", 0, "is empty"));
    v.push_back(file("csv: header only", CorpusFormat::Csv, "bad.csv", "id,text\n\n", 0, "no documents"));
    v.push_back(file("csv: binary", CorpusFormat::Csv, "bad.csv", garbage, 1, "NUL byte"));
    v.push_back(file("csv: no text column", CorpusFormat::Csv, "bad.csv", "id,body\n1,hello\n", 1,
                     "no column named 'text' (columns: id, body)"));
    v.push_back(file("csv: no title column", CorpusFormat::Csv, "bad.csv", "id,text\n1,hello\n", 1,
                     "no column named 'headline' (columns: id, text)", titleColumn("headline")));
    v.push_back(file("csv: extra field", CorpusFormat::Csv, "bad.csv", "id,text\n1,hello\n2,a,b\n", 3,
                     "expected 2 fields as in the header, found 3"));
    v.push_back(file("csv: missing field after multi-line", CorpusFormat::Csv, "bad.csv",
                     "id,text\n1,\"two\nlines\"\n2\n", 4, "expected 2 fields as in the header, found 1"));
    v.push_back(file("csv: unclosed quote", CorpusFormat::Csv, "bad.csv", "id,text\n1,ok\n2,\"never closed\nat all\n",
                     3, "not closed"));
    v.push_back(file("csv: latin-1 in a quoted field", CorpusFormat::Csv, "bad.csv",
                     "id,text\n1,ok\n2,\"line one\nCaf\xe9\"\n", 4, "invalid UTF-8 in the 'text' field (byte 0xE9)"));
    v.push_back(file("csv: duplicate id", CorpusFormat::Csv, "bad.csv", "id,text\n7,a\n8,b\n7,c\n", 4,
                     "document id '7' is already used on line 2"));
    v.push_back(file("csv: empty id", CorpusFormat::Csv, "bad.csv", "id,text\n1,a\n,b\n", 3, "'id' field is empty"));
    v.push_back(file("tsv: extra field", CorpusFormat::Csv, "bad.tsv", "id\ttext\n1\thello, world\textra\n", 2,
                     "expected 2 fields as in the header, found 3"));

    // JSON Lines.
    v.push_back(file("jsonl: empty file", CorpusFormat::JsonLines, "bad.jsonl", "", 0, "holds no documents"));
    v.push_back(file("jsonl: binary", CorpusFormat::JsonLines, "bad.jsonl", garbage, 1, "NUL byte"));
    v.push_back(file("jsonl: not JSON", CorpusFormat::JsonLines, "bad.jsonl", "{\"text\": \"ok\"}\n{text: oops}\n", 2,
                     "is not valid JSON (column 3: syntax error"));
    v.push_back(file("jsonl: cut off", CorpusFormat::JsonLines, "bad.jsonl", "{\"text\": \"ok\"}\n\n{\"text\": \"cut",
                     3, "is not valid JSON"));
    v.push_back(file("jsonl: not an object", CorpusFormat::JsonLines, "bad.jsonl", "[1, 2]\n", 1,
                     "expected a JSON object such as {\"text\": \"...\"}, found an array"));
    v.push_back(file("jsonl: no text field", CorpusFormat::JsonLines, "bad.jsonl",
                     "{\"text\": \"a\"}\n{\"body\": \"b\", \"id\": 2}\n", 2, "has no field 'text' (fields: body, id)"));
    v.push_back(file("jsonl: no title field", CorpusFormat::JsonLines, "bad.jsonl", "{\"text\": \"a\"}\n", 1,
                     "has no field 'headline'", titleColumn("headline")));
    v.push_back(file("jsonl: text is an array", CorpusFormat::JsonLines, "bad.jsonl", "{\"text\": [\"a\"]}\n", 1,
                     "the field 'text' holds an array"));
    v.push_back(file("jsonl: latin-1", CorpusFormat::JsonLines, "bad.jsonl",
                     "{\"text\": \"ok\"}\n{\"text\": \"Caf\xe9\"}\n", 2, "invalid UTF-8 (byte 0xE9 at column 14)"));
    v.push_back(
        file("jsonl: duplicate id", CorpusFormat::JsonLines, "bad.jsonl",
             "{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": \"b\", \"text\": \"y\"}\n{\"id\": \"a\", \"text\": \"z\"}\n",
             3, "document id 'a' is already used on line 1"));

    // UCI bag of words (vocabulary river, bank, money).
    v.push_back(uci("uci: empty file", "", 0, "holds no documents"));
    v.push_back(uci("uci: binary", garbage, 1, "NUL byte"));
    v.push_back(uci("uci: header not a number", "two\n3\n1\n1 1 1\n", 1, "D (the number of documents)"));
    v.push_back(uci("uci: header zero", "2\n0\n1\n1 1 1\n", 2, "W (the number of words) as one positive whole number"));
    v.push_back(uci("uci: header two numbers", "2 3\n3\n1\n", 1, "found '2 3'"));
    // 25 bytes declaring fifty million documents wrote a 4.67 GB project.
    v.push_back(uci("uci: header beyond its content", "50000000\n3\n1\n1 1 1\n", 1,
                    "D = 50,000,000 documents, but only 1 of the first 1,012 have entries"));
    v.push_back(uci("uci: header cut short", "2\n3\n", 0, "ends inside its header"));
    v.push_back(uci("uci: truncated line", uciHeader + "3\n1 1 1\n12 7\n", 5,
                    "expected 3 numbers (document id, word id, count), found 2"));
    v.push_back(uci("uci: document outside", uciHeader + "1\n3 1 1\n", 4, "document id 3 is outside 1-2"));
    v.push_back(
        uci("uci: word outside", uciHeader + "2\n1 1 1\n1 4 1\n", 5, "word id 4 is outside the vocabulary (1-3)"));
    v.push_back(uci("uci: word zero", uciHeader + "1\n1 0 1\n", 4, "word id 0 is outside the vocabulary (1-3)"));
    v.push_back(uci("uci: negative count", uciHeader + "1\n1 1 -2\n", 4, "count -2 is not positive"));
    v.push_back(uci("uci: zero count", uciHeader + "1\n1 1 0\n", 4, "count 0 is not positive"));
    v.push_back(uci("uci: count not a number", uciHeader + "1\n1 1 many\n", 4, "count 'many' is not a whole number"));
    v.push_back(uci("uci: fractional count", uciHeader + "1\n1 1 1.5\n", 4, "count '1.5' is not a whole number"));
    v.push_back(uci("uci: implausible count", uciHeader + "1\n1 1 2000000\n", 4, "implausibly large"));
    v.push_back(uci("uci: repeated pair", uciHeader + "3\n1 1 1\n1 2 1\n1 1 3\n", 6,
                    "word 1 is listed again for document 1 (first on line 4)"));
    v.push_back(uci("uci: not sorted by document", uciHeader + "3\n1 1 1\n2 1 1\n1 2 1\n", 6,
                    "document 1 comes after document 2 (line 5)"));
    v.push_back(uci("uci: fewer entries than NNZ", uciHeader + "3\n1 1 1\n2 1 1\n", 3,
                    "NNZ says 3 entries, but the file ends after 2"));
    v.push_back(uci("uci: more entries than NNZ", uciHeader + "1\n1 1 1\n2 1 1\n", 5, "more entries than the 1"));
    v.push_back(uci("uci: latin-1", uciHeader + "2\n1 1 1\n1 2\xe9 1\n", 5, "invalid UTF-8"));
    v.push_back(
        uci("uci: 10 MB line", uciHeader + "1\n" + test::tenMegabytesOf("1 ") + "\n", 4, "line is longer than 1 MB"));
    v.push_back({"uci: no vocabulary",
                 CorpusFormat::Uci,
                 {{"docword.bad.txt", uciHeader + "1\n1 1 1\n"}},
                 "docword.bad.txt",
                 "docword.bad.txt",
                 0,
                 "no vocab.bad.txt or vocab.txt next to it",
                 {},
                 {},
                 {}});
    v.push_back({"uci: given vocabulary missing",
                 CorpusFormat::Uci,
                 {{"docword.bad.txt", uciHeader + "1\n1 1 1\n"}},
                 "docword.bad.txt",
                 "nowhere.txt",
                 0,
                 "does not exist",
                 "nowhere.txt",
                 {},
                 {}});
    v.push_back({"uci: duplicate vocabulary word",
                 CorpusFormat::Uci,
                 {{"docword.bad.txt", uciHeader + "1\n1 1 1\n"}, {"vocab.bad.txt", "river\nbank\nriver\n"}},
                 "docword.bad.txt",
                 "vocab.bad.txt",
                 3,
                 "the word 'river' is already on line 1",
                 {},
                 {},
                 {}});
    v.push_back({"uci: vocabulary too short",
                 CorpusFormat::Uci,
                 {{"docword.bad.txt", uciHeader + "1\n1 1 1\n"}, {"vocab.bad.txt", "river\nbank\n"}},
                 "docword.bad.txt",
                 "vocab.bad.txt",
                 0,
                 "has 2 words, but docword.bad.txt declares W = 3 (line 2)",
                 {},
                 {},
                 {}});
    v.push_back({"uci: blank vocabulary line",
                 CorpusFormat::Uci,
                 {{"docword.bad.txt", uciHeader + "1\n1 1 1\n"}, {"vocab.bad.txt", "river\n\nbank\nmoney\n"}},
                 "docword.bad.txt",
                 "vocab.bad.txt",
                 2,
                 "line is empty, but more words follow (line 3)",
                 {},
                 {},
                 {}});
    v.push_back({"uci: latin-1 vocabulary",
                 CorpusFormat::Uci,
                 {{"docword.bad.txt", uciHeader + "1\n1 1 1\n"}, {"vocab.bad.txt", "river\ncaf\xe9\nmoney\n"}},
                 "docword.bad.txt",
                 "vocab.bad.txt",
                 2,
                 "invalid UTF-8 (byte 0xE9 at column 4)",
                 {},
                 {},
                 {}});

    // LDA-C (vocabulary of six words, ids 0-5).
    v.push_back(ldac("ldac: empty file", "", 0, "holds no documents"));
    v.push_back(ldac("ldac: blank lines only", "\n\n", 0, "holds no documents"));
    v.push_back(ldac("ldac: binary", garbage, 1, "NUL byte"));
    v.push_back(
        ldac("ldac: truncated pair", "2 0:1 1:2\n3 4:1 5:\n", 2, "pair 2 '5:' is not of the form word_id:count"));
    v.push_back(ldac("ldac: pair without colon", "2 0:1 7\n", 1, "pair 2 '7' is not of the form word_id:count"));
    v.push_back(ldac("ldac: count differs from N", "2 0:1 1:2\n3 0:1 1:1\n", 2,
                     "starts with 3 (the number of distinct words) but holds 2 word_id:count pairs"));
    v.push_back(
        ldac("ldac: first field not a number", "two 0:1 1:1\n", 1, "must start with the number of distinct words"));
    v.push_back(ldac("ldac: word outside", "1 6:1\n", 1, "word id 6 in pair 1 is outside the vocabulary (0-5)"));
    v.push_back(ldac("ldac: negative word id", "1 -1:1\n", 1, "word id -1 in pair 1 is outside the vocabulary"));
    v.push_back(ldac("ldac: negative count", "2 0:1 3:-1\n", 1, "count -1 in pair 2 is not positive"));
    v.push_back(ldac("ldac: count not a number", "1 0:x\n", 1, "count 'x' in pair 1 is not a whole number"));
    v.push_back(ldac("ldac: implausible count", "1 0:5000000\n", 1, "implausibly large"));
    v.push_back(ldac("ldac: repeated word id", "1 0:1\n3 1:1 2:2 1:2\n", 2,
                     "word id 1 is listed twice in this document (again in pair 3)"));
    v.push_back(ldac("ldac: latin-1", "1 0:1\n1 \xe9:1\n", 2, "invalid UTF-8 (byte 0xE9 at column 3)"));
    v.push_back(
        ldac("ldac: 10 MB line", tenMegabytesOfPairs(), 1, "word id 6 in pair 7 is outside the vocabulary (0-5)"));
    v.push_back({"ldac: no vocabulary",
                 CorpusFormat::Ldac,
                 {{"bad.ldac", "1 0:1\n"}},
                 "bad.ldac",
                 "bad.ldac",
                 0,
                 "no bad.vocab or vocab.txt next to it",
                 {},
                 {},
                 {}});
    v.push_back({"ldac: duplicate vocabulary word",
                 CorpusFormat::Ldac,
                 {{"bad.ldac", "1 0:1\n"}, {"vocab.txt", "river\nbank\nmoney\nbank\n"}},
                 "bad.ldac",
                 "vocab.txt",
                 4,
                 "the word 'bank' is already on line 2",
                 {},
                 {},
                 {}});
    return v;
  }();
  return all;
}

void addCaseRows() {
  QTest::addColumn<int>("index");
  for (std::size_t i = 0; i < cases().size(); ++i) QTest::newRow(cases()[i].tag.c_str()) << static_cast<int>(i);
}

// Writes the case's files under `root` and returns its read options.
core::CorpusReadOptions prepare(const BadCase& c, const fs::path& root) {
  for (const auto& [name, contents] : c.files) {
    fs::create_directories((root / name).parent_path());
    std::ofstream(root / name, std::ios::binary) << contents;
  }
  if (c.prepare) c.prepare(root);
  core::CorpusReadOptions options;
  options.format = c.format;
  if (!c.vocabulary.empty()) options.vocabulary = root / c.vocabulary;
  if (c.options) c.options(options);
  return options;
}

// The error must name the file, the line and the reason.
void checkError(const BadCase& c, const fs::path& root, const core::InputError& e) {
  QCOMPARE(e.file(), (root / c.errorFile).string());
  QCOMPARE(e.line(), c.line);
  QVERIFY2(e.reason().find(c.phrase) != std::string::npos, ("reason was: " + e.reason()).c_str());
  // Messages are for people: never longer than a few lines, even for a 10 MB line.
  QVERIFY2(e.reason().size() < 400, e.reason().c_str());
  const std::string what = e.what();
  QVERIFY(what.starts_with(e.file()));
}

std::vector<std::string> datasetNames(const fs::path& projectFile) {
  core::Project project(projectFile, core::Project::Access::ReadOnly);
  std::vector<std::string> names;
  for (const auto& d : project.datasets()) names.push_back(d.name);
  return names;
}

}  // namespace

class CorpusBadInputTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void readerRefuses_data() { addCaseRows(); }
  void readerRefuses() {
    QFETCH(int, index);
    const BadCase& c = cases()[static_cast<std::size_t>(index)];
    test::Scratch scratch;
    const fs::path root = scratch.path("case");
    const auto options = prepare(c, root);
    core::MemoryCorpusSink sink;
    core::CorpusBuilder builder({}, sink);
    try {
      core::readCorpus(root / c.source, options, builder, {});
      QFAIL("the bad input was accepted");
    } catch (const core::InputError& e) {
      checkError(c, root, e);
    }
  }

  void projectIsUntouched_data() { addCaseRows(); }
  void projectIsUntouched() {
    QFETCH(int, index);
    const BadCase& c = cases()[static_cast<std::size_t>(index)];
    test::Scratch scratch;
    const fs::path root = scratch.path("case");
    const auto options = prepare(c, root);
    const fs::path projectFile = scratch.path("study.latent");
    {
      core::Project project(projectFile);
      core::CorpusImportRequest good;
      good.name = "toy";
      good.source = test::sample("gibbs-toy/gibbs_toy.txt");
      good.read.format = CorpusFormat::Lines;
      core::importCorpus(project, good);
    }
    const QByteArray before = test::fileDigest(projectFile);
    QVERIFY(!before.isEmpty());
    QCOMPARE(datasetNames(projectFile), std::vector<std::string>{"toy"});
    QCOMPARE(test::fileDigest(projectFile), before);  // opening it read-only changes nothing

    {
      core::Project project(projectFile);
      core::CorpusImportRequest bad;
      bad.name = "bad";
      bad.source = root / c.source;
      bad.read = options;
      try {
        core::importCorpus(project, bad);
        QFAIL("the bad input was imported");
      } catch (const core::InputError& e) {
        checkError(c, root, e);
      }
    }
    QCOMPARE(test::fileDigest(projectFile), before);
    QCOMPARE(datasetNames(projectFile), std::vector<std::string>{"toy"});
  }

  void autoDetectionStillNamesTheLine() {
    // Through format detection as the command line uses it by default.
    test::Scratch scratch;
    const auto path = scratch.write("docword.x.txt", "2\n3\n1\n1 4 1\n");
    scratch.write("vocab.x.txt", "river\nbank\nmoney\n");
    core::MemoryCorpusSink sink;
    core::CorpusBuilder builder({}, sink);
    try {
      core::readCorpus(path, {}, builder, {});
      QFAIL("accepted");
    } catch (const core::InputError& e) {
      QCOMPARE(e.file(), path.string());
      QCOMPARE(e.line(), std::int64_t{4});
      QCOMPARE(std::string(e.what()), path.string() + ":4: word id 4 is outside the vocabulary (1-3)");
    }
    const auto missing = scratch.path("missing.jsonl");
    try {
      core::readCorpus(missing, {}, builder, {});
      QFAIL("accepted");
    } catch (const core::InputError& e) {
      QCOMPARE(e.file(), missing.string());
      QCOMPARE(e.line(), std::int64_t{0});
      QCOMPARE(e.reason(), std::string("does not exist"));
    }
  }
};

LATENT_TEST_CASE(CorpusBadInputTest)
#include "tst_corpus_bad_input.moc"
