// SPDX-License-Identifier: GPL-3.0-or-later
// Messages for project files whose contents break the schema's promises.
#include "core/store/damaged_project.hpp"

#include <algorithm>

#include "core/store/project.hpp"

namespace latent::core {

InputError damagedProject(const Project& project, std::string_view table, const std::string& row,
                          const std::string& reason) {
  return InputError(project.path().string(), 0,
                    "damaged project: table " + std::string(table) + ", " + row + ": " + reason);
}

void checkStoredIndex(const Project& project, std::string_view table, const std::string& row, std::string_view what,
                      std::int64_t value, std::size_t count, std::string_view countName) {
  if (value >= 0 && static_cast<std::uint64_t>(value) < count) return;
  throw damagedProject(project, table, row,
                       std::string(what) + " " + std::to_string(value) + " is outside the " + std::to_string(count) +
                           " " + std::string(countName));
}

nlohmann::json storedObject(const std::string& text) {
  auto value = nlohmann::json::parse(text, nullptr, false);
  return value.is_object() ? value : nlohmann::json::object();
}

void requireSoundDataset(const Project& project, const DatasetInfo& dataset) {
  if (!dataset.damage.empty())
    throw damagedProject(project, "datasets", "row id " + std::to_string(dataset.id), dataset.damage);
}

void checkStoredPosition(const Project& project, std::string_view table, const std::string& row,
                         std::string_view column, std::int64_t stored, std::size_t expected) {
  if (stored != static_cast<std::int64_t>(expected))
    throw damagedProject(project, table, row,
                         std::string(column) + " " + std::to_string(stored) + " where " + std::to_string(expected) +
                             " was expected (rows missing or out of order)");
}

StoredOptions::StoredOptions(const Project& project, const DatasetInfo& dataset)
    : m_project(project), m_dataset(dataset) {
  requireSoundDataset(project, dataset);
}

void StoredOptions::fail(const char* key, const char* expected) const {
  throw damagedProject(m_project, "datasets", "row id " + std::to_string(m_dataset.id),
                       std::string("options.") + key + " is not " + expected);
}

bool StoredOptions::flag(const char* key) const {
  const auto it = m_dataset.options.find(key);
  if (it == m_dataset.options.end()) return false;
  if (!it->is_boolean()) fail(key, "true or false");
  return it->get<bool>();
}

std::string StoredOptions::text(const char* key) const {
  const auto it = m_dataset.options.find(key);
  if (it == m_dataset.options.end()) return {};
  if (!it->is_string()) fail(key, "a name");
  return it->get<std::string>();
}

std::vector<std::string> StoredOptions::names(const char* key) const {
  const auto it = m_dataset.options.find(key);
  if (it == m_dataset.options.end()) return {};
  if (!it->is_array() || !std::all_of(it->begin(), it->end(), [](const auto& n) { return n.is_string(); }))
    fail(key, "a list of names");
  return it->get<std::vector<std::string>>();
}

}  // namespace latent::core
