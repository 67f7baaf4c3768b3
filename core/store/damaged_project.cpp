// SPDX-License-Identifier: GPL-3.0-or-later
// Messages for project files whose contents break the schema's promises.
#include "core/store/damaged_project.hpp"

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

}  // namespace latent::core
