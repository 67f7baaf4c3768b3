// SPDX-License-Identifier: GPL-3.0-or-later
// The four kinds of dataset a project holds.
#pragma once

#include <optional>
#include <string_view>

namespace latent::core {

enum class DataKind { Corpus, Graph, Ratings, Table };

constexpr std::string_view toString(DataKind kind) noexcept {
  switch (kind) {
    case DataKind::Corpus:
      return "corpus";
    case DataKind::Graph:
      return "graph";
    case DataKind::Ratings:
      return "ratings";
    case DataKind::Table:
      return "table";
  }
  return "corpus";
}

constexpr std::optional<DataKind> dataKindFromString(std::string_view s) noexcept {
  if (s == "corpus") return DataKind::Corpus;
  if (s == "graph") return DataKind::Graph;
  if (s == "ratings") return DataKind::Ratings;
  if (s == "table") return DataKind::Table;
  return std::nullopt;
}

}  // namespace latent::core
