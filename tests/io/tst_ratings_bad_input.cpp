// SPDX-License-Identifier: GPL-3.0-or-later
// Ratings import from bad files of every format: the error names file, line and reason; projects stay untouched.
#include <QtTest>

#include "core/io/ratings_import.hpp"
#include "core/jobs/import_job.hpp"
#include "core/store/project.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using core::RatingsFormat;

namespace {

const QByteArray kGood100k = "5\t7\t3\t100\n6\t7\t4\t200\n";
const QByteArray kGood1m = "5::7::3::100\n6::7::4::200\n";
const QByteArray kGoodLatest = "userId,movieId,rating,timestamp\n5,7,3.5,100\n6,7,4.0,200\n";
const QByteArray kGoodCsv = "user,item,rating\n5,7,3\n6,7,4\n";
// A binary file's start (an ELF header): a NUL byte on the first line.
const QByteArray kBinary = QByteArray(
    "\x7F"
    "ELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00>\x00",
    20);
// One line of 10 MB: refused after reading about a megabyte.
const QByteArray kHuge = QByteArray(10 << 20, 'x');

QByteArray uItemLine(const QByteArray& id, const QByteArray& flag = "0") {
  QByteArray line = id + "|Title " + id + "|01-Jan-1995||http://x";
  for (int g = 0; g < 19; ++g) line += "|" + (g == 3 ? flag : QByteArray("0"));
  return line + "\n";
}

struct Case {
  const char* name;
  const char* ratingsName;
  QByteArray ratings;
  const char* itemsName;  // "" for none
  QByteArray items;
  bool itemsOption;  // pass the items file in the options (else it is found next to the ratings)
  RatingsFormat format;
  const char* userColumn;
  bool inItems;  // the error is about the items file
  int line;
  const char* phrase;
};

const std::vector<Case>& badCases() {
  const auto ml = RatingsFormat::Auto;
  const auto csv = RatingsFormat::Csv;
  static const std::vector<Case> cases = {
      // MovieLens 100K: u.data
      {"100k empty", "u.data", "", "", "", false, ml, "", false, 0, "holds no ratings"},
      {"100k binary", "u.data", kBinary, "", "", false, ml, "", false, 1, "NUL byte"},
      {"100k truncated", "u.data", "1\t2\t3\t100\n1\t3\t4\n", "", "", false, ml, "", false, 2,
       "expected 4 fields (user, item, rating, timestamp) separated by tabs, found 3"},
      {"100k spaces not tabs", "u.data", "1 2 3 100\n", "", "", false, ml, "", false, 1, "separated by tabs, found 1"},
      {"100k too many fields", "u.data", "1\t2\t3\t100\t9\n", "", "", false, ml, "", false, 1, "found 5"},
      {"100k not utf-8", "u.data", "1\t2\t3\t100\n\xE9t\xE9\t3\t4\t100\n", "", "", false, ml, "", false, 2,
       "invalid UTF-8 (byte 0xE9 at column 1)"},
      {"100k huge line", "u.data", "1\t2\t3\t100\n" + kHuge, "", "", false, ml, "", false, 2, "longer than 1 MB"},
      {"100k duplicate", "u.data", "5\t7\t3\t100\n5\t8\t3\t100\n6\t7\t3\t100\n5\t7\t4\t300\n", "", "", false, ml, "",
       false, 4, "user 5 rated item 7 twice (lines 1 and 4)"},
      {"100k text rating", "u.data", "5\t7\tabc\t100\n", "", "", false, ml, "", false, 1,
       "rating 'abc' is not a number"},
      {"100k nan rating", "u.data", "5\t7\t3\t100\n5\t8\tnan\t100\n", "", "", false, ml, "", false, 2,
       "rating 'nan' is not a finite number"},
      {"100k inf rating", "u.data", "5\t7\t-inf\t100\n", "", "", false, ml, "", false, 1, "is not a finite number"},
      {"100k empty rating", "u.data", "5\t7\t\t100\n", "", "", false, ml, "", false, 1, "the rating is empty"},
      {"100k fractional time", "u.data", "5\t7\t3\t12.5\n", "", "", false, ml, "", false, 1,
       "timestamp '12.5' is not a whole number of seconds"},
      {"100k empty user", "u.data", "5\t7\t3\t100\n\t7\t3\t100\n", "", "", false, ml, "", false, 2,
       "the user id (field 1) is empty"},
      {"100k empty item", "u.data", "5\t \t3\t100\n", "", "", false, ml, "", false, 1,
       "the item id (field 2) is empty"},
      // MovieLens 100K: u.item next to a good u.data
      {"u.item empty", "u.data", kGood100k, "u.item", "", false, ml, "", true, 0, "holds no items"},
      {"u.item binary", "u.data", kGood100k, "u.item", kBinary, false, ml, "", true, 1, "NUL byte"},
      {"u.item truncated", "u.data", kGood100k, "u.item", uItemLine("7") + "8|Eight|01-Jan-1995||http://x|0|0\n", false,
       ml, "", true, 2, "expected 24 fields separated by '|'"},
      {"u.item bad flag", "u.data", kGood100k, "u.item", uItemLine("7", "yes"), false, ml, "", true, 1,
       "the genre flag for Animation (field 9) is 'yes', expected 0 or 1"},
      {"u.item duplicate", "u.data", kGood100k, "u.item", uItemLine("7") + uItemLine("9") + uItemLine("7"), false, ml,
       "", true, 3, "item id 7 is listed twice (lines 1 and 3)"},
      {"u.item empty id", "u.data", kGood100k, "u.item", uItemLine(""), false, ml, "", true, 1, "the item id is empty"},
      {"u.item huge line", "u.data", kGood100k, "u.item", uItemLine("7") + kHuge, false, ml, "", true, 2,
       "longer than 1 MB"},
      // MovieLens 1M: ratings.dat
      {"1m empty", "ratings.dat", "", "", "", false, ml, "", false, 0, "holds no ratings"},
      {"1m binary", "ratings.dat", kBinary, "", "", false, ml, "", false, 1, "NUL byte"},
      {"1m truncated", "ratings.dat", "1::2::3::100\n1::3::4\n", "", "", false, ml, "", false, 2,
       "expected 4 fields (user, item, rating, timestamp) separated by '::', found 3"},
      {"1m single colons", "ratings.dat", "1:2:3:100\n", "", "", false, ml, "", false, 1, "found 1"},
      {"1m not utf-8", "ratings.dat", "1::\xFF\xFE::3::100\n", "", "", false, ml, "", false, 1,
       "invalid UTF-8 (byte 0xFF at column 4)"},
      {"1m huge line", "ratings.dat", kHuge, "", "", false, ml, "", false, 1, "longer than 1 MB"},
      {"1m duplicate", "ratings.dat", "1::2::3::100\n1::3::3::100\n\n1::2::5::100\n", "", "", false, ml, "", false, 4,
       "user 1 rated item 2 twice (lines 1 and 4)"},
      {"1m text rating", "ratings.dat", "1::2::five::100\n", "", "", false, ml, "", false, 1,
       "rating 'five' is not a number"},
      {"1m date time", "ratings.dat", "1::2::5::2000-12-31\n", "", "", false, ml, "", false, 1,
       "timestamp '2000-12-31' is not a whole number of seconds (dates such as 2004-05-01 are not read"},
      // MovieLens 1M: movies.dat
      {"movies.dat empty", "ratings.dat", kGood1m, "movies.dat", "", false, ml, "", true, 0, "holds no items"},
      {"movies.dat binary", "ratings.dat", kGood1m, "movies.dat", kBinary, false, ml, "", true, 1, "NUL byte"},
      {"movies.dat truncated", "ratings.dat", kGood1m, "movies.dat", "7::Seven::Drama\n8::Eight\n", false, ml, "", true,
       2, "expected 3 fields (movie id, title, genres) separated by '::', found 2"},
      {"movies.dat duplicate", "ratings.dat", kGood1m, "movies.dat", "7::Seven::Drama\n\n7::Again::War\n", false, ml,
       "", true, 3, "item id 7 is listed twice (lines 1 and 3)"},
      {"movies.dat huge line", "ratings.dat", kGood1m, "movies.dat", kHuge, false, ml, "", true, 1, "longer than 1 MB"},
      // MovieLens latest: ratings.csv
      {"latest header only", "ratings.csv", "userId,movieId,rating,timestamp\n", "", "", false, ml, "", false, 0,
       "holds no ratings (only the header line)"},
      {"latest wrong header", "ratings.csv", "userId,movieId,rating\n1,2,3\n", "", "", false, RatingsFormat::MovieLens,
       "", false, 1, "does not look like MovieLens ratings"},
      {"latest truncated", "ratings.csv", "userId,movieId,rating,timestamp\n1,2,3.5,100\n1,3,4.0\n", "", "", false, ml,
       "", false, 3, "expected 4 fields (user, item, rating, timestamp) separated by commas, found 3"},
      {"latest binary", "ratings.csv", "userId,movieId,rating,timestamp\n1,2,3.5,100\n" + kBinary, "", "", false, ml,
       "", false, 3, "NUL byte"},
      {"latest not utf-8", "ratings.csv", "userId,movieId,rating,timestamp\n1,Caf\xE9,3.5,100\n", "", "", false, ml, "",
       false, 2, "the item id is not valid UTF-8 (byte 0xE9)"},
      {"latest huge line", "ratings.csv", "userId,movieId,rating,timestamp\n" + kHuge, "", "", false, ml, "", false, 2,
       "longer than 1 MB"},
      {"latest duplicate", "ratings.csv", "userId,movieId,rating,timestamp\n1,2,3.5,100\n1,2,4.0,200\n", "", "", false,
       ml, "", false, 3, "user 1 rated item 2 twice (lines 2 and 3)"},
      {"latest text rating", "ratings.csv", "userId,movieId,rating,timestamp\n1,2,3 stars,100\n", "", "", false, ml, "",
       false, 2, "rating '3 stars' is not a number"},
      {"latest fractional time", "ratings.csv", "userId,movieId,rating,timestamp\n1,2,3.5,1e9\n", "", "", false, ml, "",
       false, 2, "timestamp '1e9' is not a whole number"},
      // MovieLens latest: movies.csv
      {"movies.csv empty", "ratings.csv", kGoodLatest, "movies.csv", "", false, ml, "", true, 0, "holds no items"},
      {"movies.csv header only", "ratings.csv", kGoodLatest, "movies.csv", "movieId,title,genres\n", false, ml, "",
       true, 0, "holds no items (only the header line)"},
      {"movies.csv wrong header", "ratings.csv", kGoodLatest, "movies.csv", "id,name\n7,Seven\n", false, ml, "", true,
       1, "expected the MovieLens header movieId,title,genres, found: id, name"},
      {"movies.csv unquoted comma", "ratings.csv", kGoodLatest, "movies.csv",
       "movieId,title,genres\n7,Seven,Drama\n8,Eight, The,Drama\n", false, ml, "", true, 3,
       "expected 3 fields (movieId, title, genres) separated by commas, found 4"},
      {"movies.csv duplicate", "ratings.csv", kGoodLatest, "movies.csv", "movieId,title,genres\n7,A,B\n7,C,D\n", false,
       ml, "", true, 3, "item id 7 is listed twice (lines 2 and 3)"},
      {"movies.csv binary", "ratings.csv", kGoodLatest, "movies.csv", kBinary, false, ml, "", true, 1, "NUL byte"},
      {"movies.csv huge line", "ratings.csv", kGoodLatest, "movies.csv", "movieId,title,genres\n" + kHuge, false, ml,
       "", true, 2, "longer than 1 MB"},
      // Generic CSV
      {"csv empty", "data.csv", "", "", "", false, csv, "", false, 0, "holds no ratings (the file is empty)"},
      {"csv header only", "data.csv", "user,item,rating\n", "", "", false, ml, "", false, 0,
       "holds no ratings (only the header line)"},
      {"csv no header", "data.csv", "1,2,3\n4,5,6\n", "", "", false, ml, "", false, 1,
       "the first line holds numbers, not column names"},
      {"csv two columns", "data.csv", "user,item\n1,2\n", "", "", false, ml, "", false, 1,
       "expected at least 3 columns (user, item, rating) but the header has 2: user, item"},
      {"csv wrong column name", "data.csv", kGoodCsv, "", "", false, ml, "student", false, 1,
       "no column named 'student' (columns: user, item, rating)"},
      {"csv short record", "data.csv", "user,item,rating\n1,2,3\n1,3\n", "", "", false, ml, "", false, 3,
       "expected 3 columns (as in the header) but found 2"},
      {"csv long record", "data.csv", "user;item;rating\n1;2;3;4\n", "", "", false, ml, "", false, 2,
       "expected 3 columns (as in the header) but found 4"},
      {"csv unclosed quote", "data.csv", "user,item,rating\n1,\"2,3\n", "", "", false, ml, "", false, 2,
       "a quoted field is not closed"},
      {"csv binary", "data.csv", kBinary, "", "", false, ml, "", false, 1, "NUL byte"},
      {"csv not utf-8", "data.csv", "user,item,rating\nM\xFCller,2,3\n", "", "", false, ml, "", false, 2,
       "the user id (column 'user') is not valid UTF-8 (byte 0xFC)"},
      {"csv huge line", "data.csv", "user,item,rating\n" + kHuge, "", "", false, ml, "", false, 2, "longer than 1 MB"},
      {"csv duplicate", "data.csv", "user,item,rating\n\"a\",b,1\nc,b,2\na,\"b\",3\n", "", "", false, ml, "", false, 4,
       "user a rated item b twice (lines 2 and 4)"},
      {"csv text rating", "data.csv", "user,item,rating\na,b,good\n", "", "", false, ml, "", false, 2,
       "rating 'good' is not a number"},
      {"csv infinite rating", "data.csv", "user,item,rating\na,b,Infinity\n", "", "", false, ml, "", false, 2,
       "rating 'Infinity' is not a finite number"},
      {"csv iso time", "data.csv", "user,item,rating,date\na,b,1,2004-05-01\n", "", "", false, ml, "", false, 2,
       "timestamp '2004-05-01' is not a whole number of seconds (dates such as 2004-05-01 are not read"},
      {"csv empty item", "data.csv", "user,item,rating\na,,1\n", "", "", false, ml, "", false, 2,
       "the item id (column 'item') is empty"},
      // Generic CSV: items file
      {"items empty", "data.csv", kGoodCsv, "items.csv", "", true, ml, "", true, 0, "holds no items"},
      {"items header only", "data.csv", kGoodCsv, "items.csv", "item,name\n", true, ml, "", true, 0,
       "holds no items (only the header line)"},
      {"items one column", "data.csv", kGoodCsv, "items.csv", "item\n7\n", true, ml, "", true, 1,
       "expected at least 2 columns (item id, name) but the header has 1: item"},
      {"items short record", "data.csv", kGoodCsv, "items.csv", "item,name,kind\n7,Seven,a\n8,Eight\n", true, ml, "",
       true, 3, "expected 3 columns (as in the header) but found 2"},
      {"items duplicate", "data.csv", kGoodCsv, "items.csv", "id,title\n7,Seven\n9,Nine\n 7 ,Again\n", true, ml, "",
       true, 4, "item id 7 is listed twice (lines 2 and 4)"},
      {"items empty id", "data.csv", kGoodCsv, "items.csv", "id,title\n,Nobody\n", true, ml, "", true, 2,
       "the item id is empty"},
      {"items binary", "data.csv", kGoodCsv, "items.csv", kBinary, true, ml, "", true, 1, "NUL byte"},
      {"items huge line", "data.csv", kGoodCsv, "items.csv", "id,title\n" + kHuge, true, ml, "", true, 2,
       "longer than 1 MB"},
  };
  return cases;
}

struct Written {
  std::filesystem::path ratings, items;
  core::RatingsReadOptions options;
};

// Writes a case into its own folder, so that an items file is found only where meant.
Written write(const test::Scratch& scratch, const Case& c) {
  const std::string folder = QByteArray(c.name).toHex().toStdString() + "/";
  Written w;
  w.ratings = scratch.write(folder + c.ratingsName, c.ratings.toStdString());
  if (*c.itemsName) w.items = scratch.write(folder + c.itemsName, c.items.toStdString());
  w.options.format = c.format;
  if (c.itemsOption) w.options.items = w.items;
  w.options.userColumn = c.userColumn;
  return w;
}

void addRows() {
  QTest::addColumn<int>("index");
  const auto cases = badCases();
  for (std::size_t i = 0; i < cases.size(); ++i) QTest::newRow(cases[i].name) << static_cast<int>(i);
}

}  // namespace

class RatingsBadInputTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    // A project holding one good import, closed: the bad imports below must not change a byte.
    m_project = m_scratch.path("project.latent");
    const auto good = m_scratch.write("good/ratings.csv", kGoodCsv.toStdString());
    {
      core::Project project(m_project);
      core::importRatings(project, {"good", good, {}});
    }
    m_digest = test::fileDigest(m_project);
    QVERIFY(!m_digest.isEmpty());
    m_datasets = datasetsJson();
    QCOMPARE(m_datasets.size(), std::size_t{1});
  }

  void badInput_data() { addRows(); }

  void badInput() {
    QFETCH(int, index);
    const Case c = badCases()[static_cast<std::size_t>(index)];
    test::Scratch scratch;
    const Written w = write(scratch, c);
    try {
      core::readRatings(w.ratings, w.options, core::ImportControl{});
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      const std::string what = e.what();
      QCOMPARE(e.file(), (c.inItems ? w.items : w.ratings).string());
      QCOMPARE(e.line(), std::int64_t{c.line});
      QVERIFY2(e.reason().find(c.phrase) != std::string::npos, what.c_str());
      // One readable sentence: no raw bytes of the file, no 10 MB of it either.
      QVERIFY2(what.size() < 400, what.c_str());
    }
  }

  void goodVariantsStillRead_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QByteArray>("contents");
    QTest::newRow("100k") << "u.data" << kGood100k;
    QTest::newRow("1m") << "ratings.dat" << kGood1m;
    QTest::newRow("latest") << "ratings.csv" << kGoodLatest;
    QTest::newRow("csv") << "data.csv" << kGoodCsv;
  }

  void goodVariantsStillRead() {
    // The good files the bad cases are made from do read (so each case fails for its own reason),
    // and negative ratings (centred scales) are numbers like any other.
    QFETCH(QString, name);
    QFETCH(QByteArray, contents);
    test::Scratch scratch;
    const auto r = core::readRatings(scratch.write(name.toStdString(), contents.toStdString()), {}, {});
    QCOMPARE(r.userIds, (std::vector<std::string>{"5", "6"}));
    QCOMPARE(r.ratings.size(), std::size_t{2});
    QByteArray negative = contents;
    negative.replace("\t3\t", "\t-3\t")
        .replace("::3::", "::-3::")
        .replace(",3.5,", ",-3.5,")
        .replace(",7,3\n", ",7,-3\n");
    QVERIFY(negative != contents);
    const auto n = core::readRatings(scratch.write("neg/" + name.toStdString(), negative.toStdString()), {}, {});
    QVERIFY(n.ratings[0].value < 0);
  }

  void latin1ItemsAccepted() {
    // Item files (only those) may be Latin-1: the real u.item is.
    test::Scratch scratch;
    const auto data = scratch.write("u.data", kGood100k.toStdString());
    QByteArray item = uItemLine("7");
    item.replace("Title 7", "Am\xE9lie (2001)");
    scratch.write("u.item", item.toStdString());
    core::RatingsReadReport report;
    const auto r = core::readRatings(data, {}, {}, &report);
    QCOMPARE(r.itemNames, std::vector<std::string>{"Am\xC3\xA9lie (2001)"});
    QCOMPARE(report.notes.front(), std::string("u.item is Latin-1; titles were converted to UTF-8 (1 line)"));
  }

  void projectUnchanged_data() { addRows(); }

  void projectUnchanged() {
    QFETCH(int, index);
    const Case c = badCases()[static_cast<std::size_t>(index)];
    test::Scratch scratch;
    const Written w = write(scratch, c);
    {
      core::Project project(m_project);
      core::RatingsImportRequest request{"bad", w.ratings, w.options};
      try {
        core::importRatings(project, request);
        QFAIL("expected an InputError");
      } catch (const core::InputError& e) {
        QCOMPARE(e.file(), (c.inItems ? w.items : w.ratings).string());
        QCOMPARE(e.line(), std::int64_t{c.line});
      }
    }
    QCOMPARE(test::fileDigest(m_project), m_digest);
    QCOMPARE(datasetsJson(), m_datasets);
  }

 private:
  std::vector<std::string> datasetsJson() {
    core::Project project(m_project, core::Project::Access::ReadOnly);
    std::vector<std::string> out;
    for (const auto& d : project.datasets())
      out.push_back(std::to_string(d.id) + " " + d.name + " " + d.options.dump() + " " + d.summary.dump());
    return out;
  }

  test::Scratch m_scratch;
  std::filesystem::path m_project;
  QByteArray m_digest;
  std::vector<std::string> m_datasets;
};

LATENT_TEST_CASE(RatingsBadInputTest)
#include "tst_ratings_bad_input.moc"
