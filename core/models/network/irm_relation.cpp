// SPDX-License-Identifier: GPL-3.0-or-later
// Deciding the types of an IRM relation and laying out its links and missing pairs.
#include "core/models/network/irm_relation.hpp"

#include <algorithm>

#include "core/util/errors.hpp"

namespace latent::core::network {
namespace {

const std::string& nodeName(const Graph& graph, std::int32_t v) {
  const auto i = static_cast<std::size_t>(v);
  return i < graph.nodeNames.size() && !graph.nodeNames[i].empty() ? graph.nodeNames[i] : graph.nodeIds[i];
}

// Counting sort of (owner, partner) pairs into start offsets and a flat list, partners ascending.
void fillLists(std::int32_t nodes, std::vector<std::pair<std::int32_t, std::int32_t>>& pairs,
               std::vector<std::int64_t>& start, std::vector<std::int32_t>& items) {
  std::sort(pairs.begin(), pairs.end());
  start.assign(static_cast<std::size_t>(nodes) + 1, 0);
  for (const auto& [owner, partner] : pairs) ++start[static_cast<std::size_t>(owner) + 1];
  for (std::size_t v = 0; v < static_cast<std::size_t>(nodes); ++v) start[v + 1] += start[v];
  items.resize(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) items[i] = pairs[i].second;
}

}  // namespace

IrmTypes detectIrmTypes(const Graph& graph, const std::string& choice) {
  IrmTypes oneType;
  oneType.nodeType.assign(graph.nodeCount(), 0);
  if (choice == "one") return oneType;
  const bool required = choice == "two";
  // With --types auto a graph that is not bipartite by its "type" attribute is simply one type.
  const auto notTwo = [&](const std::string& reason) {
    if (required) throw UsageError("irm --types two: " + reason);
    return oneType;
  };
  const auto attribute = graph.attributeIndex(kIrmTypeAttribute);
  if (!attribute)
    return notTwo(
        "two types need a node attribute 'type' that says which of two kinds each node is (for example "
        "woman and event), and this graph has none");
  const auto& values = graph.attributes[*attribute];
  IrmTypes t;
  t.twoTypes = true;
  t.nodeType.assign(graph.nodeCount(), 0);
  for (std::size_t v = 0; v < graph.nodeCount(); ++v) {
    const std::string& value = v < values.size() ? values[v] : std::string();
    if (value.empty())
      return notTwo("node '" + nodeName(graph, static_cast<std::int32_t>(v)) +
                    "' has no value for the attribute 'type'");
    auto at = std::find(t.names.begin(), t.names.end(), value);
    if (at == t.names.end()) {
      t.names.push_back(value);
      at = t.names.end() - 1;
    }
    t.nodeType[v] = static_cast<std::uint8_t>(std::min<std::ptrdiff_t>(at - t.names.begin(), 255));
  }
  if (t.names.size() != 2) {
    std::string list;
    for (std::size_t i = 0; i < t.names.size() && i < 5; ++i) list += (i ? ", '" : "'") + t.names[i] + "'";
    if (t.names.size() > 5) list += ", ...";
    return notTwo("the attribute 'type' has " + std::to_string(t.names.size()) + " different value" +
                  (t.names.size() == 1 ? "" : "s") + " (" + list + ") but two types need exactly two");
  }
  for (const auto& e : graph.edges) {
    const auto ts = t.nodeType[static_cast<std::size_t>(e.source)];
    if (ts == t.nodeType[static_cast<std::size_t>(e.target)])
      return notTwo("the link between '" + nodeName(graph, e.source) + "' and '" + nodeName(graph, e.target) +
                    "' joins two nodes of type '" + t.names[ts] +
                    "', but in a two-type relation every link joins a node of one type to one of the other");
  }
  return t;
}

IrmRelation buildIrmRelation(const Graph& train, std::span<const HeldoutDyad> heldout, IrmTypes types) {
  IrmRelation r;
  r.nodes = static_cast<std::int32_t>(train.nodeCount());
  r.directed = train.directed;
  if (types.nodeType.size() != train.nodeCount()) types.nodeType.assign(train.nodeCount(), 0);
  r.types = std::move(types);
  const bool two = r.types.twoTypes;

  std::vector<std::pair<std::int32_t, std::int32_t>> outPairs, inPairs;
  outPairs.reserve(train.edges.size() * (r.directed ? 1 : 2));
  if (r.directed) inPairs.reserve(train.edges.size());
  for (const auto& e : train.edges) {
    if (e.source == e.target) continue;  // the relation has no pair of a node with itself
    if (two && r.type(e.source) == r.type(e.target))
      throw UsageError("irm: the link between nodes " + std::to_string(e.source) + " and " + std::to_string(e.target) +
                       " joins two nodes of the same type in a two-type relation");
    outPairs.emplace_back(e.source, e.target);
    if (r.directed)
      inPairs.emplace_back(e.target, e.source);
    else
      outPairs.emplace_back(e.target, e.source);
    ++r.trainLinks;
  }
  fillLists(r.nodes, outPairs, r.outStart, r.out);
  if (r.directed) fillLists(r.nodes, inPairs, r.inStart, r.in);

  std::vector<std::pair<std::int32_t, std::int32_t>> missOut, missIn;
  for (const auto& d : heldout) {
    if (d.source == d.target) continue;
    // Pairs within one type are not part of a two-type relation: nothing to miss.
    if (two && r.type(d.source) == r.type(d.target)) continue;
    missOut.emplace_back(d.source, d.target);
    if (r.directed)
      missIn.emplace_back(d.target, d.source);
    else
      missOut.emplace_back(d.target, d.source);
    ++r.missingPairs;
  }
  fillLists(r.nodes, missOut, r.missingOutStart, r.missingOut);
  if (r.directed) fillLists(r.nodes, missIn, r.missingInStart, r.missingIn);
  return r;
}

}  // namespace latent::core::network
