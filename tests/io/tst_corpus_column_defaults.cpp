// SPDX-License-Identifier: GPL-3.0-or-later
// Column defaults of the CSV and JSON Lines corpus readers: text, id and title by name.
#include <QtTest>

#include "core/data/corpus_builder.hpp"
#include "core/io/corpus_import.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

core::MemoryCorpusSink readCorpus(const std::filesystem::path& file, core::CorpusReadOptions options = {}) {
  core::MemoryCorpusSink sink;
  core::CorpusBuilder builder({}, sink);
  core::readCorpus(file, options, builder, {});
  builder.finish();
  return sink;
}

}  // namespace

class CorpusColumnDefaultsTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void csvTakesIdAndTitleByName() {
    test::Scratch scratch;
    const auto file = scratch.write("d.csv", "Title,ID,text\nRivers,r1,river stream\nMoney,m1,money loan\n");
    const auto sink = readCorpus(file);
    QCOMPARE(sink.documents.size(), std::size_t{2});
    QCOMPARE(sink.documents[0].id, std::string("r1"));
    QCOMPARE(sink.documents[0].title, std::string("Rivers"));
    QCOMPARE(sink.documents[1].title, std::string("Money"));
  }

  void csvWithoutTitleUsesTheId() {
    test::Scratch scratch;
    const auto sink = readCorpus(scratch.write("d.csv", "text\nriver stream\n"));
    QCOMPARE(sink.documents[0].id, std::string("1"));
    QCOMPARE(sink.documents[0].title, std::string("1"));
  }

  void jsonLinesTakesTitleByName() {
    test::Scratch scratch;
    const auto file =
        scratch.write("d.jsonl", "{\"title\": \"Rivers\", \"text\": \"river stream\"}\n{\"text\": \"money\"}\n");
    const auto sink = readCorpus(file);
    QCOMPARE(sink.documents[0].title, std::string("Rivers"));
    QCOMPARE(sink.documents[1].title, std::string("2"));  // no title: the id, here the line number
  }

  void explicitColumnsWin() {
    test::Scratch scratch;
    const auto file = scratch.write("d.csv", "title,headline,body\nA,B,river stream\n");
    core::CorpusReadOptions options;
    options.titleColumn = "headline";
    options.textColumn = "body";
    const auto sink = readCorpus(file, options);
    QCOMPARE(sink.documents[0].title, std::string("B"));
    QCOMPARE(sink.vocabulary.size(), std::size_t{2});
  }
};

LATENT_TEST_CASE(CorpusColumnDefaultsTest)
#include "tst_corpus_column_defaults.moc"
