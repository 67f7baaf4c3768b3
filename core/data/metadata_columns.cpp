// SPDX-License-Identifier: GPL-3.0-or-later
// Gathering metadata columns from per-document JSON objects.
#include "core/data/metadata_columns.hpp"

namespace latent::core {

bool MetadataColumnsCollector::add(const nlohmann::ordered_json& object) {
  const std::size_t d = m_documents++;
  if (!object.is_object()) {
    for (auto& c : m_columns) c.values.resize(m_documents);
    return object.is_null();
  }
  bool sound = true;
  for (const auto& [name, value] : object.items()) {
    auto it = m_index.find(name);
    if (it == m_index.end()) {
      it = m_index.emplace(name, m_columns.size()).first;
      m_columns.push_back({name, {}});
    }
    auto& values = m_columns[it->second].values;
    values.resize(m_documents);
    if (value.is_string())
      values[d] = value.get<std::string>();
    else if (value.is_number())
      values[d] = value.dump();
    else if (!value.is_null())
      sound = false;
  }
  for (auto& c : m_columns) c.values.resize(m_documents);
  return sound;
}

bool MetadataColumnsCollector::addText(std::string_view text) {
  if (text.empty()) return add(nlohmann::ordered_json());
  auto object = nlohmann::ordered_json::parse(text, nullptr, false);
  if (object.is_discarded()) {
    add(nlohmann::ordered_json());
    return false;
  }
  return add(object) && object.is_object();
}

std::vector<Corpus::MetadataColumn> MetadataColumnsCollector::finish() {
  for (auto& c : m_columns) c.values.resize(m_documents);
  m_index.clear();
  m_documents = 0;
  return std::move(m_columns);
}

}  // namespace latent::core
