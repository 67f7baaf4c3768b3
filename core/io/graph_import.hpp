// SPDX-License-Identifier: GPL-3.0-or-later
// Reading graphs from edge lists, adjacency matrices, GML, GraphML and Pajek, plus a nodes file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/data/graph.hpp"
#include "core/io/import_control.hpp"

namespace latent::core {

enum class GraphFormat { Auto, EdgeList, Matrix, Gml, GraphMl, Pajek };

std::string_view toString(GraphFormat format) noexcept;
// Accepts the command line's names: auto edges matrix gml graphml pajek.
std::optional<GraphFormat> graphFormatFromString(std::string_view name) noexcept;

struct GraphReadOptions {
  GraphFormat format = GraphFormat::Auto;
  // CSV with a header whose first column (or the column named "id") holds the node ids used in
  // the graph file; a "name" (or "label") column gives display names; other columns become node
  // attributes (such as a known group label).
  std::filesystem::path nodes;
  // --directed / --undirected; unset: what the file declares (GML, GraphML, Pajek), for matrices
  // directed when asymmetric, for edge lists undirected.
  std::optional<bool> directed;
  // Edge lists with a header only. relationColumn: the column naming each row's relation (Sampson's
  // "relation"); the graph then holds one relation per value, in order of first appearance, the
  // first being `edges`. where: "column=value" keeps only the rows whose column has that value
  // (Sampson's "wave=T4"); empty keeps every row.
  std::string relationColumn;
  std::string where;
};

struct GraphReadReport {
  GraphFormat format = GraphFormat::Auto;
  std::int64_t selfLoopsDropped = 0;
  std::int64_t duplicatesMerged = 0;  // repeated edges merged into one, weights summed
  std::vector<std::string> notes;     // sentences for the user about choices made
};

GraphFormat detectGraphFormat(const std::filesystem::path& source);

Graph readGraph(const std::filesystem::path& source, const GraphReadOptions& options, const ImportControl& control,
                GraphReadReport* report = nullptr);

}  // namespace latent::core
