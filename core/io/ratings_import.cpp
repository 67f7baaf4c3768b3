// SPDX-License-Identifier: GPL-3.0-or-later
// Ratings import entry points: format names, detection, dispatch to a reader and the items merge.
//
// Formats (each reader documents its own layout at its top):
//   movielens: MovieLens 100K (u.data + u.item), 1M (ratings.dat + movies.dat) and
//              latest/20M/25M (ratings.csv + movies.csv), see movielens_reader.cpp and
//              ratings_items_file.cpp;
//   csv:       any CSV/TSV with a header and user, item and rating columns, see ratings_csv_reader.cpp.
// The source may also be a MovieLens folder: its u.data, ratings.dat or ratings.csv is read.
// Items are those that have ratings: an items file that lists more items adds nothing, and a
// rated item missing from the items file keeps its id as its name (a note counts them).
#include "core/io/ratings_import.hpp"

#include <system_error>

#include "core/io/ratings_reading.hpp"
#include "core/util/errors.hpp"
#include "core/util/line_reader.hpp"
#include "core/util/parse_number.hpp"

namespace latent::core {
namespace {

using namespace ratings_detail;

bool pathExists(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

bool isDirectory(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

std::string firstLine(const std::filesystem::path& file) {
  LineReader reader(file, LineReader::Options{kMaxLineBytes, true});
  std::string_view line;
  return reader.next(line) ? std::string(line) : std::string();
}

// Splits on a separator string ("\t" or "::").
std::vector<std::string_view> split(std::string_view line, std::string_view separator) {
  std::vector<std::string_view> out;
  for (;;) {
    const auto at = line.find(separator);
    out.push_back(line.substr(0, at));
    if (at == std::string_view::npos) return out;
    line.remove_prefix(at + separator.size());
  }
}

bool allNumbers(const std::vector<std::string_view>& fields) {
  for (const auto f : fields)
    if (!parseReal(f)) return false;
  return true;
}

// Whether a first line is a MovieLens data line under another name (u1.base, a ratings.dat
// sample): four numeric fields separated by tabs or by "::".
bool looksLikeMovieLensData(std::string_view line) {
  for (const std::string_view separator : {std::string_view("\t"), std::string_view("::")}) {
    const auto fields = split(line, separator);
    if (fields.size() == 4 && allNumbers(fields)) return true;
  }
  return false;
}

bool isMovieLensRatingsName(const std::filesystem::path& file) {
  const auto name = file.filename().string();
  return name == "u.data" || name == "ratings.dat";
}

// In a MovieLens folder: the ratings file of whichever layout it holds, or an empty path.
std::filesystem::path movieLensFileIn(const std::filesystem::path& folder) {
  for (const char* name : {"u.data", "ratings.dat"})
    if (pathExists(folder / name) && !isDirectory(folder / name)) return folder / name;
  const auto csv = folder / "ratings.csv";
  if (pathExists(csv) && !isDirectory(csv) && isMovieLensCsvHeader(firstLine(csv))) return csv;
  return {};
}

std::filesystem::path requireMovieLensFileIn(const std::filesystem::path& folder) {
  auto file = movieLensFileIn(folder);
  if (file.empty())
    throw InputError(folder.string(), 0,
                     "is a folder without a MovieLens ratings file (u.data, ratings.dat or ratings.csv); "
                     "give the ratings file itself");
  return file;
}

// Item names and attributes from `table` for the rated items; the rest keep their ids.
void attachItems(Ratings& ratings, const ItemTable& table, std::vector<std::string>& notes) {
  ratings.itemAttributeNames = table.attributeNames;
  ratings.itemAttributes.assign(table.attributeNames.size(), std::vector<std::string>(ratings.itemCount()));
  std::size_t missing = 0;
  for (std::size_t i = 0; i < ratings.itemCount(); ++i) {
    const auto row = table.ids.find(ratings.itemIds[i]);
    if (row < 0) {
      ++missing;
      continue;
    }
    const auto r = static_cast<std::size_t>(row);
    if (!table.names[r].empty()) ratings.itemNames[i] = table.names[r];
    for (std::size_t a = 0; a < table.attributeNames.size(); ++a) ratings.itemAttributes[a][i] = table.attributes[a][r];
  }
  const std::string fileName = std::filesystem::path(table.file).filename().string();
  if (table.latin1Lines > 0)
    notes.push_back(fileName + " is Latin-1; titles were converted to UTF-8 (" + std::to_string(table.latin1Lines) +
                    (table.latin1Lines == 1 ? " line)" : " lines)"));
  if (missing > 0)
    notes.push_back(std::to_string(missing) + (missing == 1 ? " rated item is" : " rated items are") +
                    " not listed in " + fileName + "; " + (missing == 1 ? "it keeps its id" : "they keep their ids") +
                    " as name");
  const std::size_t listed = table.ids.size();
  const std::size_t used = ratings.itemCount() - missing;
  if (listed > used)
    notes.push_back(std::to_string(listed - used) + (listed - used == 1 ? " item" : " items") + " listed in " +
                    fileName + (listed - used == 1 ? " has" : " have") + " no ratings and " +
                    (listed - used == 1 ? "was" : "were") + " left out");
}

void requireExisting(const std::filesystem::path& path) {
  if (!pathExists(path)) throw InputError(path.string(), 0, "does not exist");
}

}  // namespace

std::string_view toString(RatingsFormat format) noexcept {
  switch (format) {
    case RatingsFormat::Auto:
      return "auto";
    case RatingsFormat::MovieLens:
      return "movielens";
    case RatingsFormat::Csv:
      return "csv";
  }
  return "auto";
}

std::optional<RatingsFormat> ratingsFormatFromString(std::string_view name) noexcept {
  if (name == "auto") return RatingsFormat::Auto;
  if (name == "movielens") return RatingsFormat::MovieLens;
  if (name == "csv") return RatingsFormat::Csv;
  return std::nullopt;
}

RatingsFormat detectRatingsFormat(const std::filesystem::path& source) {
  requireExisting(source);
  if (isDirectory(source)) {
    requireMovieLensFileIn(source);
    return RatingsFormat::MovieLens;
  }
  if (isMovieLensRatingsName(source)) return RatingsFormat::MovieLens;
  const std::string line = firstLine(source);
  if (isMovieLensCsvHeader(line) || looksLikeMovieLensData(line)) return RatingsFormat::MovieLens;
  return RatingsFormat::Csv;
}

Ratings readRatings(const std::filesystem::path& source, const RatingsReadOptions& options,
                    const ImportControl& control, RatingsReadReport* report) {
  requireExisting(source);
  control.checkStop();
  const RatingsFormat format = options.format == RatingsFormat::Auto ? detectRatingsFormat(source) : options.format;
  RatingsReadReport local;
  RatingsReadReport& out = report ? *report : local;
  out.format = format;
  out.notes.clear();

  Ratings ratings;
  std::filesystem::path itemsFile = options.items;
  if (!itemsFile.empty()) requireExisting(itemsFile);

  if (format == RatingsFormat::MovieLens) {
    const auto file = isDirectory(source) ? requireMovieLensFileIn(source) : source;
    const MovieLensVariant variant = movieLensVariant(file);
    out.variant = std::string(variantName(variant));
    if (!options.userColumn.empty() || !options.itemColumn.empty() || !options.ratingColumn.empty() ||
        !options.timeColumn.empty())
      out.notes.push_back("the column options apply to CSV files only; MovieLens files have fixed columns");
    ratings = readMovieLensRatings(file, variant, control);
    if (itemsFile.empty()) {
      const auto nextTo = file.parent_path() / itemsFileName(variant);
      if (pathExists(nextTo) && !isDirectory(nextTo))
        itemsFile = nextTo;
      else
        out.notes.push_back("no " + std::string(itemsFileName(variant)) + " next to " + file.filename().string() +
                            "; item names are their ids");
    }
    if (!itemsFile.empty()) attachItems(ratings, readMovieLensItems(itemsFile, variant), out.notes);
  } else {
    out.variant = "csv";
    std::string itemColumn;
    ratings = readCsvRatings(source, options, control, out.notes, itemColumn);
    if (itemsFile.empty())
      out.notes.push_back("no items file was given; item names are their ids");
    else
      attachItems(ratings, readCsvItems(itemsFile, itemColumn), out.notes);
  }
  control.checkStop();
  return ratings;
}

}  // namespace latent::core
