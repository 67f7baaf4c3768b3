// SPDX-License-Identifier: GPL-3.0-or-later
// Ratings import from good files: the three MovieLens layouts, generic CSV, InstEval, detection, stop, round trip.
#include <QtTest>

#include <algorithm>
#include <map>
#include <optional>
#include <stop_token>

#include "core/io/ratings_import.hpp"
#include "core/io/ratings_reading.hpp"
#include "core/jobs/import_job.hpp"
#include "core/store/project.hpp"
#include "core/store/ratings_store.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using core::RatingsFormat;

namespace {

// "Café Lecture (1995)" in UTF-8: the fixtures' u.item and movies.dat hold it in Latin-1 (0xE9).
const std::string kCafe = "Caf\xC3\xA9 Lecture (1995)";

std::size_t itemIndex(const core::Ratings& r, const std::string& id) {
  const auto it = std::find(r.itemIds.begin(), r.itemIds.end(), id);
  return static_cast<std::size_t>(it - r.itemIds.begin());
}

std::size_t attributeIndex(const core::Ratings& r, const std::string& name) {
  const auto it = std::find(r.itemAttributeNames.begin(), r.itemAttributeNames.end(), name);
  return static_cast<std::size_t>(it - r.itemAttributeNames.begin());
}

bool hasNote(const core::RatingsReadReport& report, const std::string& phrase) {
  return std::any_of(report.notes.begin(), report.notes.end(),
                     [&](const std::string& n) { return n.find(phrase) != std::string::npos; });
}

std::string notesText(const core::RatingsReadReport& report) {
  std::string all;
  for (const auto& n : report.notes) all += n + " | ";
  return all;
}

std::map<double, int> histogram(const core::Ratings& r) {
  std::map<double, int> h;
  for (const auto& x : r.ratings) ++h[x.value];
  return h;
}

core::Ratings readRatings(const std::filesystem::path& source, core::RatingsReadOptions options = {},
                          core::RatingsReadReport* report = nullptr) {
  return core::readRatings(source, options, core::ImportControl{}, report);
}

}  // namespace

class RatingsImportTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void formatNames() {
    for (const auto f : {RatingsFormat::Auto, RatingsFormat::MovieLens, RatingsFormat::Csv})
      QVERIFY(core::ratingsFormatFromString(core::toString(f)) == std::optional<RatingsFormat>(f));
    QCOMPARE(core::toString(RatingsFormat::MovieLens), std::string_view("movielens"));
    QVERIFY(!core::ratingsFormatFromString("tsv").has_value());
  }

  void movieLens_data() {
    QTest::addColumn<QString>("source");  // relative to the fixtures
    QTest::addColumn<QString>("variant");
    QTest::addColumn<QString>("itemsFile");
    QTest::addColumn<bool>("latin1");
    QTest::addColumn<bool>("halfStars");
    QTest::newRow("100k") << "ratings/ml-100k/u.data"
                          << "movielens-100k"
                          << "u.item" << true << false;
    QTest::newRow("100k folder") << "ratings/ml-100k"
                                 << "movielens-100k"
                                 << "u.item" << true << false;
    QTest::newRow("1m") << "ratings/ml-1m/ratings.dat"
                        << "movielens-1m"
                        << "movies.dat" << true << false;
    QTest::newRow("1m folder") << "ratings/ml-1m"
                               << "movielens-1m"
                               << "movies.dat" << true << false;
    QTest::newRow("latest") << "ratings/ml-latest/ratings.csv"
                            << "movielens-latest"
                            << "movies.csv" << false << true;
    QTest::newRow("latest folder") << "ratings/ml-latest"
                                   << "movielens-latest"
                                   << "movies.csv" << false << true;
  }

  void movieLens() {
    QFETCH(QString, source);
    QFETCH(QString, variant);
    QFETCH(QString, itemsFile);
    QFETCH(bool, latin1);
    QFETCH(bool, halfStars);
    core::RatingsReadReport report;
    const auto r = readRatings(test::fixture(source.toStdString()), {}, &report);
    QCOMPARE(core::toString(report.format), std::string_view("movielens"));
    QCOMPARE(QString::fromStdString(report.variant), variant);

    // Counted from the first 200 InstEval rows (tests/fixtures/ratings/README.md).
    QCOMPARE(r.ratings.size(), std::size_t{200});
    QCOMPARE(r.userCount(), std::size_t{26});
    QCOMPARE(r.itemCount(), std::size_t{162});  // 9999 is listed but unrated: not an item
    QVERIFY(r.hasTime);
    QCOMPARE(r.userIds[0], std::string("1"));
    QCOMPARE(r.userIds[4], std::string("5"));
    QCOMPARE(r.itemIds[0], std::string("1002"));
    QCOMPARE(r.itemIds[2], std::string("1582"));
    QCOMPARE(std::count(r.itemIds.begin(), r.itemIds.end(), "9999"), std::ptrdiff_t{0});

    // Line 1: 1 1002 5 1104537600; line 2: 1 1050 2 (1.5 in half stars); line 200: 26 641 4.
    QCOMPARE(r.ratings[0], (core::Rating{0, 0, 5.0, 1104537600}));
    QCOMPARE(r.ratings[1], (core::Rating{0, 1, halfStars ? 1.5 : 2.0, 1104537600 + 3607}));
    const auto& last = r.ratings[199];
    QCOMPARE(r.userIds[static_cast<std::size_t>(last.user)], std::string("26"));
    QCOMPARE(r.itemIds[static_cast<std::size_t>(last.item)], std::string("641"));
    QCOMPARE(last.value, 4.0);
    QCOMPARE(last.time, std::int64_t{1104537600 + 199 * 3607});

    double sum = 0;
    for (const auto& x : r.ratings) sum += x.value;
    QCOMPARE(sum, halfStars ? 731.0 : 756.0);
    const auto h = histogram(r);
    if (halfStars) {
      QCOMPARE(h.at(0.5), 1);
      QCOMPARE(h.at(3.5), 14);
      QCOMPARE(h.at(5.0), 48);
    } else {
      QCOMPARE(h, (std::map<double, int>{{1, 6}, {2, 25}, {3, 45}, {4, 55}, {5, 69}}));
    }

    // Names: the Latin-1 title decoded, the quoted comma kept, the unlisted item keeps its id.
    QCOMPARE(r.itemNames[0], kCafe);
    QCOMPARE(r.itemNames[1], std::string("Lecture, The (2004)"));
    QCOMPARE(r.itemNames[itemIndex(r, "2050")], std::string("Lecture 2050 (2004)"));
    QCOMPARE(r.itemNames[itemIndex(r, "641")], std::string("641"));
    const auto g = attributeIndex(r, "genres");
    QVERIFY(g < r.itemAttributeNames.size());
    QCOMPARE(r.itemAttributes[g][0], std::string("Comedy|Drama"));
    QCOMPARE(r.itemAttributes[g][1], std::string("unknown|Documentary|Romance"));             // 1050 = 7 * 150
    QCOMPARE(r.itemAttributes[g][itemIndex(r, "2050")], std::string("Action|Drama|Sci-Fi"));  // 2051, 2058, 2065
    QCOMPARE(r.itemAttributes[g][itemIndex(r, "641")], std::string());
    if (variant == "movielens-100k") {
      QCOMPARE(r.itemAttributeNames, (std::vector<std::string>{"release_date", "genres"}));
      QCOMPARE(r.itemAttributes[0][0], std::string("01-Jan-2004"));
    } else {
      QCOMPARE(r.itemAttributeNames, std::vector<std::string>{"genres"});
    }

    const std::string items = itemsFile.toStdString();
    QVERIFY2(hasNote(report, "1 rated item is not listed in " + items), notesText(report).c_str());
    QVERIFY2(hasNote(report, "1 item listed in " + items + " has no ratings"), notesText(report).c_str());
    QCOMPARE(hasNote(report, items + " is Latin-1; titles were converted to UTF-8"), latin1);
  }

  void movieLensWithoutItemsFile() {
    test::Scratch scratch;
    const auto data = scratch.write("u.data", "196\t242\t3\t881250949\n186\t302\t3\t891717742\n");
    core::RatingsReadReport report;
    const auto r = readRatings(data, {}, &report);
    QCOMPARE(r.itemIds, (std::vector<std::string>{"242", "302"}));
    QCOMPARE(r.itemNames, r.itemIds);
    QVERIFY(r.itemAttributeNames.empty());
    QVERIFY2(hasNote(report, "no u.item next to u.data"), notesText(report).c_str());
  }

  void explicitItemsFile() {
    // The 1M items file given for a ratings.dat elsewhere: titles come from it.
    test::Scratch scratch;
    const auto data = scratch.write("ratings.dat", "1::1002::4::10\n2::1050::3::20\n");
    core::RatingsReadOptions options;
    options.items = test::fixture("ratings/ml-1m/movies.dat");
    const auto r = readRatings(data, options);
    QCOMPARE(r.itemNames, (std::vector<std::string>{kCafe, "Lecture, The (2004)"}));
    QCOMPARE(r.ratings[1], (core::Rating{1, 1, 3.0, 20}));
  }

  void genericCsvFixture() {
    core::RatingsReadOptions options;
    options.items = test::fixture("ratings/csv/items.csv");
    core::RatingsReadReport report;
    const auto r = readRatings(test::fixture("ratings/csv/ratings.csv"), options, &report);
    QCOMPARE(core::toString(report.format), std::string_view("csv"));
    QCOMPARE(report.variant, std::string("csv"));
    QCOMPARE(r.ratings.size(), std::size_t{30});
    QCOMPARE(r.userCount(), std::size_t{5});
    QCOMPARE(r.itemCount(), std::size_t{29});
    QVERIFY(!r.hasTime);
    QCOMPARE(r.ratings[0], (core::Rating{0, 0, 5.0, 0}));
    QCOMPARE(r.userIds[static_cast<std::size_t>(r.ratings[29].user)], std::string("5"));
    QCOMPARE(r.itemIds[static_cast<std::size_t>(r.ratings[29].item)], std::string("536"));
    QCOMPARE(r.ratings[29].value, 4.0);
    QCOMPARE(r.itemNames[1], std::string("Lecture 1050"));
    QCOMPARE(r.itemAttributeNames, std::vector<std::string>{"dept"});
    QCOMPARE(r.itemAttributes[0][1], std::string("6"));  // InstEval: lecturer 1050 in dept 6
    // No usual names (student, lecturer, grade): the columns are taken by position and said so.
    QVERIFY2(hasNote(report,
                     "columns used: user = 'student' (column 1) by position, item = 'lecturer' (column 2) by "
                     "position, rating = 'grade' (column 3) by position, no time column"),
             notesText(report).c_str());
  }

  void csvSynonymsTimeAndNegativeRatings() {
    test::Scratch scratch;
    // Tab-separated (sniffed), usual names, ids with leading zeros kept as text, a centred scale.
    const auto file = scratch.write("centred.tsv",
                                    "userId\tmovie_id\tscore\ttimestamp\n007\tA\t-1.5\t100\n008\tA\t2\t200\n"
                                    "007\tb\t0\t-5\n");
    core::RatingsReadReport report;
    const auto r = readRatings(file, {}, &report);
    QCOMPARE(core::toString(report.format), std::string_view("csv"));
    QCOMPARE(r.userIds, (std::vector<std::string>{"007", "008"}));
    QCOMPARE(r.itemIds, (std::vector<std::string>{"A", "b"}));
    QVERIFY(r.hasTime);
    QCOMPARE(r.ratings, (std::vector<core::Rating>{{0, 0, -1.5, 100}, {1, 0, 2.0, 200}, {0, 1, 0.0, -5}}));
    QVERIFY2(hasNote(report,
                     "user = 'userId' (column 1), item = 'movie_id' (column 2), rating = 'score' (column 3), "
                     "time = 'timestamp' (column 4)"),
             notesText(report).c_str());

    // Named columns in another order, chosen by the options; quoted fields hold the delimiter.
    const auto named = scratch.write("named.csv", "when,stars,who,what\n5,4.5,\"Smith, J.\",\"x,y\"\n");
    core::RatingsReadOptions options;
    options.userColumn = "who";
    options.itemColumn = "WHAT";  // names match without case when nothing matches exactly
    options.ratingColumn = "stars";
    options.timeColumn = "when";
    const auto n = readRatings(named, options);
    QCOMPARE(n.userIds, std::vector<std::string>{"Smith, J."});
    QCOMPARE(n.itemIds, std::vector<std::string>{"x,y"});
    QCOMPARE(n.ratings, (std::vector<core::Rating>{{0, 0, 4.5, 5}}));
  }

  void csvColumnConflicts() {
    test::Scratch scratch;
    // A column named in the options is not taken again by a usual name: "rating" holds users here.
    const auto odd = scratch.write("odd.csv", "rating,item,score\nu1,i1,2\n");
    core::RatingsReadOptions options;
    options.userColumn = "rating";
    const auto r = readRatings(odd, options);
    QCOMPARE(r.userIds, std::vector<std::string>{"u1"});
    QCOMPARE(r.ratings[0].value, 2.0);
    // Two roles in one column is a bad request, not a bad file.
    options.itemColumn = "rating";
    QVERIFY_THROWS_EXCEPTION(core::UsageError, readRatings(odd, options));
    // The time column took the third column: no rating is left.
    const auto timed = scratch.write("timed.csv", "a,b,timestamp\n1,2,3\n");
    try {
      readRatings(timed);
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      QCOMPARE(e.file(), timed.string());
      QCOMPARE(e.line(), std::int64_t{1});
      QCOMPARE(e.reason(),
               std::string("no column is left for the rating (columns: a, b, timestamp); name the rating column"));
    }
  }

  void instEval_data() {
    QTest::addColumn<bool>("named");
    QTest::newRow("columns named") << true;
    QTest::newRow("columns found") << false;  // rating by name, student and lecturer by position
  }

  void instEval() {
    QFETCH(bool, named);
    core::RatingsReadOptions options;
    if (named) {
      options.userColumn = "student";
      options.itemColumn = "lecturer";
      options.ratingColumn = "rating";
    }
    const auto source = test::sample("insteval/ratings.csv");
    QVERIFY(core::detectRatingsFormat(source) == RatingsFormat::Csv);
    core::RatingsReadReport report;
    const auto r = readRatings(source, options, &report);
    QCOMPARE(r.ratings.size(), std::size_t{73421});
    QCOMPARE(r.userCount(), std::size_t{2972});
    QCOMPARE(r.itemCount(), std::size_t{1128});
    QVERIFY(!r.hasTime);
    QCOMPARE(histogram(r), (std::map<double, int>{{1, 10186}, {2, 12951}, {3, 17609}, {4, 16921}, {5, 15754}}));
    // First data line: 1,1002,5.
    QCOMPARE(r.userIds[0], std::string("1"));
    QCOMPARE(r.itemIds[0], std::string("1002"));
    QCOMPARE(r.ratings[0], (core::Rating{0, 0, 5.0, 0}));
    QVERIFY2(hasNote(report, "user = 'student' (column 1)"), notesText(report).c_str());
    QCOMPARE(hasNote(report, "by position"), !named);
  }

  void detection() {
    using core::detectRatingsFormat;
    QVERIFY(detectRatingsFormat(test::fixture("ratings/ml-100k/u.data")) == RatingsFormat::MovieLens);
    QVERIFY(detectRatingsFormat(test::fixture("ratings/ml-100k")) == RatingsFormat::MovieLens);
    QVERIFY(detectRatingsFormat(test::fixture("ratings/ml-1m/ratings.dat")) == RatingsFormat::MovieLens);
    QVERIFY(detectRatingsFormat(test::fixture("ratings/ml-1m")) == RatingsFormat::MovieLens);
    QVERIFY(detectRatingsFormat(test::fixture("ratings/ml-latest/ratings.csv")) == RatingsFormat::MovieLens);
    QVERIFY(detectRatingsFormat(test::fixture("ratings/ml-latest")) == RatingsFormat::MovieLens);
    QVERIFY(detectRatingsFormat(test::fixture("ratings/csv/ratings.csv")) == RatingsFormat::Csv);
    QVERIFY(detectRatingsFormat(test::fixture("ratings/csv/items.csv")) == RatingsFormat::Csv);

    test::Scratch scratch;
    // MovieLens data under other names (the 100K split files, a 1M sample) by their first line.
    QVERIFY(detectRatingsFormat(scratch.write("u1.base", "1\t1\t5\t874965758\n")) == RatingsFormat::MovieLens);
    QVERIFY(detectRatingsFormat(scratch.write("sample.dat", "1::1193::5::978300760\n")) == RatingsFormat::MovieLens);
    QVERIFY(detectRatingsFormat(scratch.write("x.csv", "userId,movieId,rating,timestamp\n")) ==
            RatingsFormat::MovieLens);
    QVERIFY(detectRatingsFormat(scratch.write("ratings.csv", "user,item,rating\n1,2,3\n")) == RatingsFormat::Csv);
    // A u1.base read with format auto is MovieLens 100K.
    core::RatingsReadReport report;
    const auto r = readRatings(scratch.path("u1.base"), {}, &report);
    QCOMPARE(report.variant, std::string("movielens-100k"));
    QCOMPARE(r.ratings, (std::vector<core::Rating>{{0, 0, 5.0, 874965758}}));

    const auto missing = scratch.path("nothing-here.csv");
    try {
      detectRatingsFormat(missing);
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      QCOMPARE(e.file(), missing.string());
      QCOMPARE(e.line(), std::int64_t{0});
      QCOMPARE(e.reason(), std::string("does not exist"));
    }
    std::filesystem::create_directories(scratch.path("empty-folder"));
    try {
      detectRatingsFormat(scratch.path("empty-folder"));
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      QCOMPARE(e.file(), scratch.path("empty-folder").string());
      QVERIFY(e.reason().find("without a MovieLens ratings file") != std::string::npos);
    }
  }

  void cancelledBeforeStart() {
    std::stop_source stop;
    stop.request_stop();
    core::ImportControl control;
    control.stop = stop.get_token();
    QVERIFY_THROWS_EXCEPTION(core::Cancelled, core::readRatings(test::fixture("ratings/ml-100k/u.data"), {}, control));
  }

  void cancelledDuringRead() {
    // InstEval's ratings.csv is over a megabyte: the first progress report (after 1 MB) asks to
    // stop, and the reader stops there instead of reading the rest.
    const auto source = test::sample("insteval/ratings.csv");
    const auto size = std::filesystem::file_size(source);
    QVERIFY(size > (std::uint64_t{1} << 20));
    std::stop_source stop;
    core::ImportControl control;
    control.stop = stop.get_token();
    std::vector<std::uint64_t> reports;
    control.progress = [&](std::uint64_t done, std::uint64_t total) {
      reports.push_back(done);
      QCOMPARE(total, size);
      stop.request_stop();
    };
    QVERIFY_THROWS_EXCEPTION(core::Cancelled, core::readRatings(source, {}, control));
    QCOMPARE(reports.size(), std::size_t{1});
    QVERIFY(reports[0] >= (std::uint64_t{1} << 20) && reports[0] < size);
  }

  void progressReachesTheEnd() {
    const auto source = test::sample("insteval/ratings.csv");
    std::uint64_t lastDone = 0, lastTotal = 0;
    int calls = 0;
    core::ImportControl control;
    control.progress = [&](std::uint64_t done, std::uint64_t total) {
      QVERIFY(done >= lastDone);
      lastDone = done;
      lastTotal = total;
      ++calls;
    };
    core::readRatings(source, {}, control);
    QCOMPARE(lastTotal, std::filesystem::file_size(source));
    QCOMPARE(lastDone, lastTotal);
    QVERIFY(calls >= 2);
  }

  void maxRecords_data() {
    QTest::addColumn<QString>("source");
    QTest::newRow("100k") << "ratings/ml-100k/u.data";
    QTest::newRow("1m") << "ratings/ml-1m/ratings.dat";
    QTest::newRow("latest") << "ratings/ml-latest/ratings.csv";
    QTest::newRow("csv") << "ratings/csv/ratings.csv";
  }

  void maxRecords() {
    QFETCH(QString, source);
    core::ImportControl control;
    control.maxRecords = 10;
    const auto r = core::readRatings(test::fixture(source.toStdString()), {}, control);
    // The first 10 InstEval rows: students 1 (4 ratings), 2 (2) and 3 (4), 10 lecturers.
    QCOMPARE(r.ratings.size(), std::size_t{10});
    QCOMPARE(r.userIds, (std::vector<std::string>{"1", "2", "3"}));
    QCOMPARE(r.itemCount(), std::size_t{10});
    QCOMPARE(r.itemIds[9], std::string("140"));
    control.maxRecords = 0;
    QCOMPARE(core::readRatings(test::fixture(source.toStdString()), {}, control).ratings.size(), std::size_t{0});
  }

  void duplicateSearch() {
    // The second rating of a repeated pair that comes first in the file is reported, whichever
    // user it belongs to.
    const std::vector<core::Rating> ratings = {{0, 0, 1, 0}, {1, 1, 1, 0}, {0, 1, 1, 0},
                                               {1, 1, 2, 0}, {0, 0, 3, 0}, {2, 2, 1, 0}};
    core::ratings_detail::DuplicatePair found;
    QVERIFY(core::ratings_detail::findFirstDuplicate(ratings, 3, 3, found));
    QCOMPARE(found.first, std::size_t{1});
    QCOMPARE(found.second, std::size_t{3});
    QVERIFY(!core::ratings_detail::findFirstDuplicate({{0, 0, 1, 0}, {0, 1, 1, 0}, {1, 0, 1, 0}}, 2, 2, found));
  }

  void throughProject_data() {
    QTest::addColumn<QString>("source");
    QTest::newRow("100k") << "ratings/ml-100k/u.data";
    QTest::newRow("1m") << "ratings/ml-1m";
    QTest::newRow("latest") << "ratings/ml-latest/ratings.csv";
    QTest::newRow("csv") << "ratings/csv/ratings.csv";
  }

  void throughProject() {
    // importRatings then loadRatings gives back exactly what readRatings produced.
    QFETCH(QString, source);
    const auto path = test::fixture(source.toStdString());
    const auto expected = readRatings(path);
    test::Scratch scratch;
    const auto file = scratch.path("round.latent");
    std::int64_t id = 0;
    {
      core::Project project(file);
      const auto result = core::importRatings(project, {"ratings", path, {}});
      id = result.dataset.id;
      QVERIFY(result.dataset.kind == core::DataKind::Ratings);
      QCOMPARE(result.dataset.summary.value("ratings", 0), static_cast<int>(expected.ratings.size()));
      QCOMPARE(result.dataset.summary.value("users", 0), static_cast<int>(expected.userCount()));
      QVERIFY(!result.notes.empty());
    }
    core::Project project(file, core::Project::Access::ReadOnly);
    const auto loaded = core::loadRatings(project, id);
    QCOMPARE(loaded.userIds, expected.userIds);
    QCOMPARE(loaded.itemIds, expected.itemIds);
    QCOMPARE(loaded.itemNames, expected.itemNames);
    QCOMPARE(loaded.itemAttributeNames, expected.itemAttributeNames);
    QCOMPARE(loaded.itemAttributes, expected.itemAttributes);
    QCOMPARE(loaded.hasTime, expected.hasTime);
    QCOMPARE(loaded.ratings, expected.ratings);
  }
};

LATENT_TEST_CASE(RatingsImportTest)
#include "tst_ratings_import.moc"
