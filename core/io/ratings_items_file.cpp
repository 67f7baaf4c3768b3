// SPDX-License-Identifier: GPL-3.0-or-later
// Item files that give rated items their names and attributes (MovieLens u.item, movies.dat, movies.csv; CSV).
//
// 100K u.item: '|'-separated, no header, 24 fields: movie id | title | release date | video
//   release date | IMDb URL | 19 genre flags (0 or 1) for unknown, Action, Adventure, Animation,
//   Children's, Comedy, Crime, Documentary, Drama, Fantasy, Film-Noir, Horror, Musical, Mystery,
//   Romance, Sci-Fi, Thriller, War, Western. Attributes: release_date, genres (the names of the
//   set flags joined with '|').
// 1M movies.dat: "MovieID::Title::Genres", genres '|'-joined. Attribute: genres.
// latest movies.csv: header movieId,title,genres, RFC 4180 (quoted titles hold commas). Attribute: genres.
// Generic CSV (--items with a CSV ratings file): a header; the id column is the first of item,
//   itemId, movieId, id or the ratings file's item column name, else the first column; the name
//   column is name or title, else the first other column; every other column is an attribute
//   named by its header.
// GroupLens ship u.item and movies.dat in ISO-8859-1, so every line (record) of an items file is
// read as UTF-8 when valid and as Latin-1 otherwise; the count becomes a note.
// Rejected, each as InputError(file, line, reason): an empty file, a NUL byte, a line over 1 MB,
// a wrong number of fields, an empty id, a genre flag other than 0/1, and an id listed twice.
// An empty title keeps the id as the name.
#include <array>

#include "core/io/ratings_reading.hpp"
#include "core/util/csv_reader.hpp"
#include "core/util/errors.hpp"
#include "core/util/line_reader.hpp"
#include "core/util/parse_number.hpp"

namespace latent::core::ratings_detail {
namespace {

constexpr std::array<std::string_view, 19> kGenres100k = {
    "unknown",     "Action", "Adventure", "Animation", "Children's", "Comedy",  "Crime",
    "Documentary", "Drama",  "Fantasy",   "Film-Noir", "Horror",     "Musical", "Mystery",
    "Romance",     "Sci-Fi", "Thriller",  "War",       "Western"};

// Adds one item row, refusing an id seen before; lines[] keeps where each id was first listed.
class TableBuilder {
 public:
  TableBuilder(ItemTable& table, std::vector<std::string> attributeNames) : m_table(table) {
    m_table.attributeNames = std::move(attributeNames);
    m_table.attributes.assign(m_table.attributeNames.size(), {});
  }

  // Returns a reason when the row cannot be added.
  std::string add(std::string_view id, std::string_view name, std::vector<std::string> attributes, std::int64_t line) {
    id = trimSpaces(id);
    if (id.empty()) return "the item id is empty";
    bool added = false;
    const auto index = m_table.ids.intern(id, &added);
    if (!added)
      return "item id " + shown(id) + " is listed twice (lines " +
             std::to_string(m_lines[static_cast<std::size_t>(index)]) + " and " + std::to_string(line) + ")";
    m_lines.push_back(line);
    m_table.names.emplace_back(trimSpaces(name));
    for (std::size_t a = 0; a < attributes.size(); ++a) m_table.attributes[a].push_back(std::move(attributes[a]));
    return {};
  }

 private:
  ItemTable& m_table;
  std::vector<std::int64_t> m_lines;
};

std::vector<std::string_view> split(std::string_view line, std::string_view separator) {
  std::vector<std::string_view> out;
  for (;;) {
    const auto at = line.find(separator);
    out.push_back(line.substr(0, at));
    if (at == std::string_view::npos) return out;
    line.remove_prefix(at + separator.size());
  }
}

// u.item and movies.dat: one item per line.
ItemTable readItemLines(const std::filesystem::path& file, bool layout100k) {
  ItemTable table;
  LineReader reader(file, LineReader::Options{kMaxLineBytes, true});
  table.file = reader.displayName();
  TableBuilder builder(
      table, layout100k ? std::vector<std::string>{"release_date", "genres"} : std::vector<std::string>{"genres"});
  std::string_view raw;
  while (reader.next(raw)) {
    if (trimSpaces(raw).empty()) continue;
    bool latin1 = false;
    const std::string line = decodeItemText(raw, latin1);
    if (latin1) ++table.latin1Lines;
    const auto f = split(line, layout100k ? "|" : "::");
    std::string reason;
    if (layout100k) {
      if (f.size() != 5 + kGenres100k.size())
        reader.fail(
            "expected 24 fields separated by '|' (movie id, title, release date, video release date, "
            "IMDb URL and 19 genre flags), found " +
            std::to_string(f.size()));
      std::string genres;
      for (std::size_t g = 0; g < kGenres100k.size(); ++g) {
        const auto flag = trimSpaces(f[5 + g]);
        if (flag != "0" && flag != "1")
          reader.fail("the genre flag for " + std::string(kGenres100k[g]) + " (field " + std::to_string(6 + g) +
                      ") is '" + std::string(flag) + "', expected 0 or 1");
        if (flag == "1") {
          if (!genres.empty()) genres += '|';
          genres += kGenres100k[g];
        }
      }
      reason = builder.add(f[0], f[1], {std::string(trimSpaces(f[2])), genres}, reader.lineNumber());
    } else {
      if (f.size() != 3)
        reader.fail("expected 3 fields (movie id, title, genres) separated by '::', found " + std::to_string(f.size()));
      reason = builder.add(f[0], f[1], {std::string(trimSpaces(f[2]))}, reader.lineNumber());
    }
    if (!reason.empty()) reader.fail(reason);
  }
  if (table.ids.size() == 0) throw InputError(table.file, 0, "holds no items");
  return table;
}

std::vector<std::string> decodeRecord(std::vector<std::string>& record, std::int64_t& latin1Records) {
  bool any = false;
  std::vector<std::string> out;
  out.reserve(record.size());
  for (auto& field : record) {
    bool latin1 = false;
    out.push_back(decodeItemText(field, latin1));
    any = any || latin1;
  }
  if (any) ++latin1Records;
  return out;
}

int firstColumnNamed(const std::vector<std::string>& header, std::initializer_list<std::string_view> names) {
  for (const auto name : names)
    if (!name.empty())
      if (const int c = findColumn(header, name); c >= 0) return c;
  return -1;
}

}  // namespace

ItemTable readMovieLensItems(const std::filesystem::path& file, MovieLensVariant variant) {
  if (variant != MovieLensVariant::Latest) return readItemLines(file, variant == MovieLensVariant::Ml100k);

  ItemTable table;
  CsvReader reader(file, CsvReader::Options{',', kMaxLineBytes});
  table.file = reader.displayName();
  TableBuilder builder(table, {"genres"});
  std::vector<std::string> record;
  if (!reader.next(record)) throw InputError(table.file, 0, "holds no items");
  if (record.size() != 3 || findColumn(record, "movieId") != 0 || findColumn(record, "title") != 1 ||
      findColumn(record, "genres") != 2)
    reader.fail("expected the MovieLens header movieId,title,genres, found: " + shown(joinColumns(record), 200));
  while (reader.next(record)) {
    if (record.size() != 3)
      reader.fail("expected 3 fields (movieId, title, genres) separated by commas, found " +
                  std::to_string(record.size()));
    auto fields = decodeRecord(record, table.latin1Lines);
    if (auto reason = builder.add(fields[0], fields[1], {std::string(trimSpaces(fields[2]))}, reader.recordLine());
        !reason.empty())
      reader.fail(reason);
  }
  if (table.ids.size() == 0) throw InputError(table.file, 0, "holds no items (only the header line)");
  return table;
}

ItemTable readCsvItems(const std::filesystem::path& file, const std::string& itemColumnHint) {
  ItemTable table;
  CsvReader reader(file, CsvReader::Options{0, kMaxLineBytes});
  table.file = reader.displayName();
  std::vector<std::string> raw;
  if (!reader.next(raw)) throw InputError(table.file, 0, "holds no items");
  std::int64_t headerLatin1 = 0;
  const auto header = decodeRecord(raw, headerLatin1);
  if (header.size() < 2)
    reader.fail("expected at least 2 columns (item id, name) but the header has " + std::to_string(header.size()) +
                ": " + shown(joinColumns(header), 200));
  int idCol = firstColumnNamed(header, {"item", "itemId", "movieId", "id", itemColumnHint});
  if (idCol < 0) idCol = 0;
  int nameCol = firstColumnNamed(header, {"name", "title"});
  if (nameCol < 0 || nameCol == idCol) nameCol = idCol == 0 ? 1 : 0;
  std::vector<std::string> attributeNames;
  std::vector<std::size_t> attributeCols;
  for (std::size_t c = 0; c < header.size(); ++c)
    if (static_cast<int>(c) != idCol && static_cast<int>(c) != nameCol) {
      attributeNames.push_back(header[c]);
      attributeCols.push_back(c);
    }
  TableBuilder builder(table, attributeNames);
  while (reader.next(raw)) {
    if (raw.size() != header.size())
      reader.fail("expected " + std::to_string(header.size()) + " columns (as in the header) but found " +
                  std::to_string(raw.size()));
    auto fields = decodeRecord(raw, table.latin1Lines);
    std::vector<std::string> attributes;
    for (const auto c : attributeCols) attributes.push_back(std::move(fields[c]));
    if (auto reason = builder.add(fields[static_cast<std::size_t>(idCol)], fields[static_cast<std::size_t>(nameCol)],
                                  std::move(attributes), reader.recordLine());
        !reason.empty())
      reader.fail(reason);
  }
  if (table.ids.size() == 0) throw InputError(table.file, 0, "holds no items (only the header line)");
  return table;
}

}  // namespace latent::core::ratings_detail
