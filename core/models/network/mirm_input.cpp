// SPDX-License-Identifier: GPL-3.0-or-later
// Choosing the relations and features of a multi-relational IRM fit.
#include "core/models/network/mirm_input.hpp"

#include <algorithm>

#include "core/eval/link_metrics.hpp"
#include "core/util/errors.hpp"

namespace latent::core::network {
namespace {

std::vector<std::string> mirmCommaList(const std::string& text) {
  std::vector<std::string> items;
  std::string item;
  const auto flush = [&] {
    const auto b = item.find_first_not_of(' '), e = item.find_last_not_of(' ');
    if (b != std::string::npos) items.push_back(item.substr(b, e - b + 1));
    item.clear();
  };
  for (const char c : text) {
    if (c == ',')
      flush();
    else
      item += c;
  }
  flush();
  return items;
}

std::string mirmRelationList(const Graph& graph) {
  std::string list;
  for (const auto& name : graph.relationNames) list += (list.empty() ? "" : ", ") + name;
  return list.empty() ? "one unnamed relation" : list;
}

// The graph's relation r as an IrmRelation of one type; `heldout` pairs are missing.
IrmRelation mirmRelation(const Graph& train, std::size_t r, std::span<const HeldoutDyad> heldout) {
  if (r == 0) return buildIrmRelation(train, heldout, {});
  Graph shell;
  shell.directed = train.directed;
  shell.nodeIds = train.nodeIds;
  shell.edges = train.relationEdges(r);
  return buildIrmRelation(shell, {}, {});
}

}  // namespace

MirmInput buildMirmInput(const Graph& graph, const DyadSplit& split, const std::string& relations,
                         const std::string& features) {
  MirmInput input;
  input.data.nodes = static_cast<std::int32_t>(graph.nodeCount());

  std::vector<std::size_t> chosen{0};
  if (relations == "all") {
    for (std::size_t r = 1; r < graph.relationCount(); ++r) chosen.push_back(r);
  } else {
    for (const auto& name : mirmCommaList(relations)) {
      const auto r = graph.relationIndex(name);
      if (!r)
        throw UsageError("irm-multi --relations: the graph has no relation '" + name + "' (it has " +
                         mirmRelationList(graph) + ")");
      if (std::find(chosen.begin(), chosen.end(), *r) == chosen.end()) chosen.push_back(*r);
    }
  }
  for (const auto r : chosen) {
    input.data.relations.push_back(
        mirmRelation(split.train, r, r == 0 ? split.heldout : std::span<const HeldoutDyad>{}));
    input.relationNames.push_back(r < graph.relationNames.size() ? graph.relationNames[r] : "edges");
  }

  // Feature columns, node-major once all are known.
  std::vector<std::vector<std::int8_t>> columns;
  const auto scored = defaultLabelAttribute(graph);
  for (const auto& name : mirmCommaList(features)) {
    const auto a = graph.attributeIndex(name);
    if (!a) throw UsageError("irm-multi --features: the nodes have no attribute '" + name + "'");
    if (scored && *scored == name)
      throw UsageError("irm-multi --features: '" + name +
                       "' is the attribute the blocks are scored against (NMI, ARI); as a feature it would be "
                       "fitted, not found");
    const auto& values = graph.attributes[*a];
    const bool binary = std::all_of(values.begin(), values.end(),
                                    [](const std::string& v) { return v.empty() || v == "0" || v == "1"; });
    if (binary) {
      auto& column = columns.emplace_back(graph.nodeCount(), std::int8_t{-1});
      for (std::size_t v = 0; v < values.size(); ++v)
        if (!values[v].empty()) column[v] = values[v] == "1" ? 1 : 0;
      input.featureNames.push_back(name);
      continue;
    }
    std::vector<std::string> levels;
    for (const auto& v : values)
      if (!v.empty() && std::find(levels.begin(), levels.end(), v) == levels.end()) levels.push_back(v);
    for (const auto& level : levels) {
      auto& column = columns.emplace_back(graph.nodeCount(), std::int8_t{-1});
      for (std::size_t v = 0; v < values.size(); ++v)
        if (!values[v].empty()) column[v] = values[v] == level ? 1 : 0;
      input.featureNames.push_back(name + "=" + level);
    }
  }
  input.data.features = static_cast<std::int32_t>(columns.size());
  input.data.featureValues.resize(graph.nodeCount() * columns.size());
  for (std::size_t v = 0; v < graph.nodeCount(); ++v)
    for (std::size_t f = 0; f < columns.size(); ++f) input.data.featureValues[v * columns.size() + f] = columns[f][v];
  return input;
}

}  // namespace latent::core::network
