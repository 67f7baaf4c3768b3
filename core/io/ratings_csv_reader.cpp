// SPDX-License-Identifier: GPL-3.0-or-later
// Generic ratings CSV: a header line, then one rating per record in user, item and rating columns.
//
// The delimiter (',' TAB ';' '|') is sniffed from the header; fields follow RFC 4180 (quotes may
// hold delimiters and line breaks). Columns are found, for each of user, item and rating:
//   1. by the name given in the options (userColumn, itemColumn, ratingColumn); a name the header
//      lacks is an error listing the columns there are;
//   2. else by a usual name, compared without case: user, userId, user_id, uid / item, itemId,
//      item_id, movieId, movie_id, iid / rating, value, score, stars;
//   3. else by position: the first columns not already taken, in the order user, item, rating.
// A note always names the columns used. The time column is optional: timeColumn, else one named
// timestamp, time or date; its values must be whole numbers (seconds since 1970). ISO dates are
// not read (out of scope): such a file is refused with a message saying so.
// Rejected, each as InputError(file, line, reason): an empty file or a header without records,
// a header that is all numbers (no header), fewer than 3 columns, a record whose field count
// differs from the header's, an empty id, an id that is not UTF-8, a rating that is not a finite
// number (negative ratings are fine), a time that is not a whole number, a NUL byte, a line over
// 1 MB, and a (user, item) pair rated twice (naming both lines). Other columns are ignored.
#include "core/io/ratings_reading.hpp"
#include "core/util/csv_reader.hpp"
#include "core/util/errors.hpp"
#include "core/util/parse_number.hpp"
#include "core/util/utf8.hpp"

namespace latent::core::ratings_detail {
namespace {

constexpr std::size_t kRecordsPerStopCheck = 1 << 16;

struct Role {
  const char* what;  // "user", "item", "rating", "time"
  const std::string& option;
  std::vector<std::string_view> synonyms;
  int column = -1;
  bool byPosition = false;
};

int columnByOption(const CsvReader& reader, const std::vector<std::string>& header, const Role& role) {
  if (role.option.empty()) return -1;
  const int c = findColumn(header, role.option);
  if (c < 0)
    reader.fail("no column named '" + shown(role.option) + "' (columns: " + shown(joinColumns(header), 200) + ")");
  return c;
}

std::string columnLabel(const std::vector<std::string>& header, int column) {
  return "'" + shown(header[static_cast<std::size_t>(column)]) + "' (column " + std::to_string(column + 1) + ")";
}

}  // namespace

Ratings readCsvRatings(const std::filesystem::path& file, const RatingsReadOptions& options,
                       const ImportControl& control, std::vector<std::string>& notes, std::string& itemColumnName) {
  control.checkStop();
  CsvReader reader(file, CsvReader::Options{0, kMaxLineBytes});
  std::vector<std::string> header;
  if (!reader.next(header)) throw InputError(reader.displayName(), 0, "holds no ratings (the file is empty)");
  for (const auto& name : header)
    if (!utf8::isValid(name)) reader.fail(badUtf8Message("the header", name));
  {
    bool numbers = true;
    for (const auto& name : header) numbers = numbers && parseReal(name).has_value();
    if (numbers)
      reader.fail(
          "the first line holds numbers, not column names: a ratings CSV needs a header line naming its "
          "columns, such as user,item,rating");
  }
  if (header.size() < 3)
    reader.fail("expected at least 3 columns (user, item, rating) but the header has " + std::to_string(header.size()) +
                ": " + shown(joinColumns(header), 200));

  Role roles[4] = {
      {"user", options.userColumn, {"user", "userId", "user_id", "uid"}},
      {"item", options.itemColumn, {"item", "itemId", "item_id", "movieId", "movie_id", "iid"}},
      {"rating", options.ratingColumn, {"rating", "value", "score", "stars"}},
      {"time", options.timeColumn, {"timestamp", "time", "date"}},
  };
  // Columns named in the options first, so that a usual name or a position never takes one of them.
  for (auto& role : roles) role.column = columnByOption(reader, header, role);
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b)
      if (roles[a].column >= 0 && roles[a].column == roles[b].column)
        throw UsageError(std::string("the ") + roles[a].what + " and " + roles[b].what + " columns are both '" +
                         shown(header[static_cast<std::size_t>(roles[a].column)]) + "'; choose different columns");
  auto taken = [&](int column) {
    for (const auto& role : roles)
      if (role.column == column) return true;
    return false;
  };
  for (auto& role : roles) {
    if (role.column >= 0) continue;
    for (const auto name : role.synonyms)
      if (const int c = findColumn(header, name); c >= 0 && !taken(c)) {
        role.column = c;
        break;
      }
  }
  for (int r = 0; r < 3; ++r) {
    if (roles[r].column >= 0) continue;
    for (int c = 0; c < static_cast<int>(header.size()); ++c)
      if (!taken(c)) {
        roles[r].column = c;
        roles[r].byPosition = true;
        break;
      }
    // Three columns or more, but the time column took one of them.
    if (roles[r].column < 0)
      reader.fail(std::string("no column is left for the ") + roles[r].what +
                  " (columns: " + shown(joinColumns(header), 200) + "); name the " + roles[r].what + " column");
  }

  std::string used = "columns used: ";
  for (int r = 0; r < 4; ++r) {
    if (r > 0) used += ", ";
    if (roles[r].column < 0) {
      used += "no time column";
      continue;
    }
    used += std::string(roles[r].what) + " = " + columnLabel(header, roles[r].column);
    if (roles[r].byPosition) used += " by position";
  }
  notes.push_back(used);

  const auto userCol = static_cast<std::size_t>(roles[0].column);
  const auto itemCol = static_cast<std::size_t>(roles[1].column);
  const auto ratingCol = static_cast<std::size_t>(roles[2].column);
  const int timeCol = roles[3].column;
  itemColumnName = header[itemCol];
  const std::string userWhat = "the user id (column '" + shown(header[userCol]) + "')";
  const std::string itemWhat = "the item id (column '" + shown(header[itemCol]) + "')";

  RatingsCollector collector(reader.displayName(), control);
  ProgressThrottle progress(control);
  std::vector<std::string> record;
  bool stoppedEarly = false;
  std::size_t records = 0;
  while (!(stoppedEarly = collector.full()) && reader.next(record)) {
    if (++records % kRecordsPerStopCheck == 0) control.checkStop();
    progress.update(reader.bytesConsumed(), reader.fileSize());
    if (record.size() != header.size())
      reader.fail("expected " + std::to_string(header.size()) + " columns (as in the header) but found " +
                  std::to_string(record.size()));
    const auto user = trimSpaces(record[userCol]);
    const auto item = trimSpaces(record[itemCol]);
    if (user.empty()) reader.fail(userWhat + " is empty");
    if (item.empty()) reader.fail(itemWhat + " is empty");
    if (!utf8::isValid(user)) reader.fail(badUtf8Message(userWhat, user));
    if (!utf8::isValid(item)) reader.fail(badUtf8Message(itemWhat, item));
    const auto value = parseReal(record[ratingCol]);
    if (!value) reader.fail(badRatingMessage(trimSpaces(record[ratingCol])));
    std::int64_t time = 0;
    if (timeCol >= 0) {
      const auto& text = record[static_cast<std::size_t>(timeCol)];
      const auto parsed = parseInteger(text);
      if (!parsed) reader.fail(badTimeMessage(trimSpaces(text)));
      time = *parsed;
    }
    collector.add(user, item, *value, time, reader.recordLine());
  }
  if (collector.size() == 0 && !stoppedEarly)
    throw InputError(reader.displayName(), 0, "holds no ratings (only the header line)");
  return collector.finish(timeCol >= 0);
}

}  // namespace latent::core::ratings_detail
