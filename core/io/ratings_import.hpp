// SPDX-License-Identifier: GPL-3.0-or-later
// Reading ratings from MovieLens (100K, 1M, latest) and generic CSV.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/ratings.hpp"
#include "core/io/import_control.hpp"

namespace latent::core {

enum class RatingsFormat { Auto, MovieLens, Csv };

std::string_view toString(RatingsFormat format) noexcept;
// Accepts the command line's names: auto movielens csv.
std::optional<RatingsFormat> ratingsFormatFromString(std::string_view name) noexcept;

struct RatingsReadOptions {
  RatingsFormat format = RatingsFormat::Auto;
  // Item names: u.item, movies.dat or movies.csv; found next to a MovieLens ratings file when
  // empty. For CSV: a CSV with an item id column and a name/title column.
  std::filesystem::path items;
  // Generic CSV: column names; empty means "user", "item", "rating" (and common synonyms), then
  // the first three columns. The time column is optional.
  std::string userColumn, itemColumn, ratingColumn, timeColumn;
};

struct RatingsReadReport {
  RatingsFormat format = RatingsFormat::Auto;
  std::string variant;             // "movielens-100k", "movielens-1m", "movielens-latest", "csv"
  std::vector<std::string> notes;  // sentences for the user (columns used, encoding, ...)
};

RatingsFormat detectRatingsFormat(const std::filesystem::path& source);

Ratings readRatings(const std::filesystem::path& source, const RatingsReadOptions& options,
                    const ImportControl& control, RatingsReadReport* report = nullptr);

}  // namespace latent::core
