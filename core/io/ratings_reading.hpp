// SPDX-License-Identifier: GPL-3.0-or-later
// Internal pieces shared by the ratings readers: the collector, item tables and the per-format readers.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/id_map.hpp"
#include "core/data/ratings.hpp"
#include "core/io/import_control.hpp"
#include "core/io/ratings_import.hpp"

namespace latent::core::ratings_detail {

// Ratings files are lines of a few short fields; a megabyte-long line means a wrong file, and
// refusing it early keeps a 10 MB blob from being buffered and split.
inline constexpr std::size_t kMaxLineBytes = std::size_t{1} << 20;

// Gathers ratings while a reader streams a file: interns ids, remembers on which line each
// rating stood (compactly, see m_lineSteps) and checks for repeated (user, item) pairs at the end.
class RatingsCollector {
 public:
  RatingsCollector(std::string fileName, const ImportControl& control);

  // True when control.maxRecords ratings were collected and the reader should stop.
  bool full() const noexcept;
  // `user` and `item` must already be trimmed, non-empty, valid UTF-8.
  void add(std::string_view user, std::string_view item, double value, std::int64_t time, std::int64_t line);
  std::size_t size() const noexcept { return m_ratings.size(); }

  // Checks duplicates (InputError naming both lines) and hands the ratings over; names = ids.
  Ratings finish(bool hasTime);

 private:
  std::int64_t lineOf(std::size_t index) const;

  std::string m_file;
  std::int64_t m_maxRecords;
  IdMap m_users, m_items;
  std::vector<Rating> m_ratings;
  // (first rating index, line - index) each time that difference changes: exact line numbers
  // for every rating at a few bytes per header, blank line or multi-line record.
  std::vector<std::pair<std::size_t, std::int64_t>> m_lineSteps;
};

// The first (user, item) pair rated twice, by the position of its second rating in the file.
struct DuplicatePair {
  std::size_t first = 0, second = 0;  // indices into the ratings vector
};
// Grouping by user then marking items: linear time, 4 bytes per rating, no hashing of strings.
bool findFirstDuplicate(const std::vector<Rating>& ratings, std::size_t userCount, std::size_t itemCount,
                        DuplicatePair& found);

// An items file as read: every listed item, in file order.
struct ItemTable {
  std::string file;  // display name
  IdMap ids;
  std::vector<std::string> names;  // per index of `ids`; empty -> the id is used
  std::vector<std::string> attributeNames;
  std::vector<std::vector<std::string>> attributes;  // [attribute][index of ids]
  std::int64_t latin1Lines = 0;                      // lines (records) decoded as Latin-1
};

enum class MovieLensVariant { Ml100k, Ml1m, Latest };

std::string_view variantName(MovieLensVariant variant) noexcept;  // "movielens-100k", ...
// The name of the items file that goes with each layout: u.item, movies.dat, movies.csv.
std::string_view itemsFileName(MovieLensVariant variant) noexcept;
// True for the header line of MovieLens' ratings.csv (userId,movieId,rating,timestamp).
bool isMovieLensCsvHeader(std::string_view line) noexcept;
// The layout of a MovieLens ratings file: by name (u.data, ratings.dat), else by its first line.
MovieLensVariant movieLensVariant(const std::filesystem::path& file);

Ratings readMovieLensRatings(const std::filesystem::path& file, MovieLensVariant variant, const ImportControl& control);
ItemTable readMovieLensItems(const std::filesystem::path& file, MovieLensVariant variant);

Ratings readCsvRatings(const std::filesystem::path& file, const RatingsReadOptions& options,
                       const ImportControl& control, std::vector<std::string>& notes, std::string& itemColumnName);
// `itemColumnHint`: the ratings file's item column name, tried after the usual id names.
ItemTable readCsvItems(const std::filesystem::path& file, const std::string& itemColumnHint);

// Input text fit for a message: bytes that are not UTF-8 become '?', and more than `maxBytes`
// is cut with "..." so that a 1 MB field cannot flood the one line an error is.
std::string shown(std::string_view text, std::size_t maxBytes = 40);

// A line's bytes as UTF-8: kept when valid, else read as Latin-1 (item files only).
std::string decodeItemText(std::string_view text, bool& wasLatin1);
// The message for a field that should be a rating; distinguishes empty, nan/inf and text.
std::string badRatingMessage(std::string_view text);
// The message for a time field that is not whole seconds.
std::string badTimeMessage(std::string_view text);
// "user id" + " is not valid UTF-8 ..." for an id field with bytes that are not UTF-8.
std::string badUtf8Message(std::string_view what, std::string_view text);

}  // namespace latent::core::ratings_detail
