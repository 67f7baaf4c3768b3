// SPDX-License-Identifier: GPL-3.0-or-later
// MovieLens ratings files in the three layouts GroupLens has published (see their README files).
//
// 100K  u.data:      "user<TAB>item<TAB>rating<TAB>timestamp", no header, integer stars 1-5.
// 1M    ratings.dat: "UserID::MovieID::Rating::Timestamp", no header.
// latest/20M/25M ratings.csv: header "userId,movieId,rating,timestamp", then RFC 4180 records;
//       ratings in half stars (3.5).
// Timestamps are seconds since 1970 (whole numbers). Ids are kept as the text of the file (so a
// MovieLens user id stays that id in every export). The file must be UTF-8 (MovieLens ratings
// files are ASCII); only item files get a Latin-1 fallback. Blank lines are skipped.
// Rejected, each as InputError(file, line, reason): an empty file, a NUL byte, a line over
// 1 MB, a wrong number of fields, an empty id, bytes that are not UTF-8, a rating that is not a
// finite number (negative ratings are accepted), a timestamp that is not a whole number, and a
// (user, item) pair rated twice (naming both lines).
#include <cctype>

#include "core/io/ratings_reading.hpp"
#include "core/util/ascii.hpp"
#include "core/util/csv_reader.hpp"
#include "core/util/errors.hpp"
#include "core/util/line_reader.hpp"
#include "core/util/parse_number.hpp"
#include "core/util/utf8.hpp"

namespace latent::core::ratings_detail {
namespace {

// Between two checks of the stop token when progress (per megabyte) comes too rarely.
constexpr std::size_t kRowsPerStopCheck = 1 << 16;

std::size_t splitInto(std::string_view line, std::string_view separator, std::vector<std::string_view>& out) {
  out.clear();
  for (;;) {
    const auto at = line.find(separator);
    out.push_back(line.substr(0, at));
    if (at == std::string_view::npos) return out.size();
    line.remove_prefix(at + separator.size());
  }
}

bool isHeaderFields(const std::vector<std::string_view>& fields) {
  static constexpr std::string_view kHeader[] = {"userId", "movieId", "rating", "timestamp"};
  if (fields.size() != 4) return false;
  for (std::size_t i = 0; i < 4; ++i)
    if (!equalsIgnoreCase(trimSpaces(fields[i]), kHeader[i])) return false;
  return true;
}

// Parses the four fields of one rating, or returns the reason it cannot.
std::string addRating(RatingsCollector& collector, const std::string_view (&f)[4], std::int64_t line) {
  const auto user = trimSpaces(f[0]);
  const auto item = trimSpaces(f[1]);
  if (user.empty()) return "the user id (field 1) is empty";
  if (item.empty()) return "the item id (field 2) is empty";
  if (!utf8::isValid(user)) return badUtf8Message("the user id", user);
  if (!utf8::isValid(item)) return badUtf8Message("the item id", item);
  const auto value = parseReal(f[2]);
  if (!value) return badRatingMessage(trimSpaces(f[2]));
  const auto time = parseInteger(f[3]);
  if (!time) return badTimeMessage(trimSpaces(f[3]));
  collector.add(user, item, *value, *time, line);
  return {};
}

Ratings readLines(const std::filesystem::path& file, MovieLensVariant variant, const ImportControl& control) {
  const bool tabs = variant == MovieLensVariant::Ml100k;
  const std::string_view separator = tabs ? "\t" : "::";
  LineReader reader(file, LineReader::Options{kMaxLineBytes, true});
  RatingsCollector collector(reader.displayName(), control);
  ProgressThrottle progress(control);
  std::vector<std::string_view> fields;
  std::string_view line;
  bool stoppedEarly = false;
  std::size_t lines = 0;
  while (!(stoppedEarly = collector.full()) && reader.next(line)) {
    if (++lines % kRowsPerStopCheck == 0) control.checkStop();
    progress.update(reader.bytesConsumed(), reader.fileSize());
    if (trimSpaces(line).empty()) continue;
    if (const auto bad = utf8::firstInvalid(line); bad != utf8::npos) reader.fail(utf8::invalidMessage(line, bad));
    if (splitInto(line, separator, fields) != 4) {
      // Built with append: GCC 12 misreads `string + literal` chains here as out of bounds.
      std::string message = "expected 4 fields (user, item, rating, timestamp) separated by ";
      message.append(tabs ? "tabs" : "'::'").append(", found ").append(std::to_string(fields.size()));
      reader.fail(message);
    }
    const std::string_view four[4] = {fields[0], fields[1], fields[2], fields[3]};
    if (auto reason = addRating(collector, four, reader.lineNumber()); !reason.empty()) reader.fail(reason);
  }
  if (collector.size() == 0 && !stoppedEarly) throw InputError(reader.displayName(), 0, "holds no ratings");
  return collector.finish(true);
}

Ratings readCsv(const std::filesystem::path& file, const ImportControl& control) {
  CsvReader reader(file, CsvReader::Options{',', kMaxLineBytes});
  RatingsCollector collector(reader.displayName(), control);
  ProgressThrottle progress(control);
  std::vector<std::string> record;
  if (!reader.next(record)) throw InputError(reader.displayName(), 0, "holds no ratings");
  {
    const std::vector<std::string_view> header(record.begin(), record.end());
    if (!isHeaderFields(header))
      reader.fail("expected the MovieLens header userId,movieId,rating,timestamp, found: " +
                  shown(joinColumns(record), 200));
  }
  bool stoppedEarly = false;
  std::size_t records = 0;
  while (!(stoppedEarly = collector.full()) && reader.next(record)) {
    if (++records % kRowsPerStopCheck == 0) control.checkStop();
    progress.update(reader.bytesConsumed(), reader.fileSize());
    if (record.size() != 4)
      reader.fail("expected 4 fields (user, item, rating, timestamp) separated by commas, found " +
                  std::to_string(record.size()));
    const std::string_view four[4] = {record[0], record[1], record[2], record[3]};
    if (auto reason = addRating(collector, four, reader.recordLine()); !reason.empty()) reader.fail(reason);
  }
  if (collector.size() == 0 && !stoppedEarly)
    throw InputError(reader.displayName(), 0, "holds no ratings (only the header line)");
  return collector.finish(true);
}

}  // namespace

std::string_view variantName(MovieLensVariant variant) noexcept {
  switch (variant) {
    case MovieLensVariant::Ml100k:
      return "movielens-100k";
    case MovieLensVariant::Ml1m:
      return "movielens-1m";
    case MovieLensVariant::Latest:
      return "movielens-latest";
  }
  return "movielens";
}

std::string_view itemsFileName(MovieLensVariant variant) noexcept {
  switch (variant) {
    case MovieLensVariant::Ml100k:
      return "u.item";
    case MovieLensVariant::Ml1m:
      return "movies.dat";
    case MovieLensVariant::Latest:
      return "movies.csv";
  }
  return "";
}

bool isMovieLensCsvHeader(std::string_view line) noexcept {
  std::vector<std::string_view> fields;
  splitInto(line, ",", fields);
  return isHeaderFields(fields);
}

MovieLensVariant movieLensVariant(const std::filesystem::path& file) {
  const auto name = file.filename().string();
  if (name == "u.data") return MovieLensVariant::Ml100k;
  if (name == "ratings.dat") return MovieLensVariant::Ml1m;
  LineReader reader(file, LineReader::Options{kMaxLineBytes, true});
  std::string_view line;
  if (!reader.next(line)) throw InputError(reader.displayName(), 0, "holds no ratings");
  if (isMovieLensCsvHeader(line)) return MovieLensVariant::Latest;
  std::vector<std::string_view> fields;
  if (splitInto(line, "::", fields) == 4) return MovieLensVariant::Ml1m;
  if (splitInto(line, "\t", fields) == 4) return MovieLensVariant::Ml100k;
  reader.fail(
      "does not look like MovieLens ratings: expected tab-separated lines as in u.data, '::'-separated lines as in "
      "ratings.dat, or the header userId,movieId,rating,timestamp as in ratings.csv");
}

Ratings readMovieLensRatings(const std::filesystem::path& file, MovieLensVariant variant,
                             const ImportControl& control) {
  control.checkStop();
  if (variant == MovieLensVariant::Latest) return readCsv(file, control);
  return readLines(file, variant, control);
}

}  // namespace latent::core::ratings_detail
