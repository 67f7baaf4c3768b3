// SPDX-License-Identifier: GPL-3.0-or-later
// Project files are e-mailed, shared and sometimes damaged or crafted, so the engine treats them as
// untrusted input: every stored index that will address memory is checked as it is loaded, and a
// bad one is reported like a bad input file (exit 2), naming the table and the row, before any
// model sees it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/util/errors.hpp"

namespace latent::core {

class Project;
struct DatasetInfo;

// "FILE: damaged project: table TABLE, ROW: REASON".
InputError damagedProject(const Project& project, std::string_view table, const std::string& row,
                          const std::string& reason);

// Throws damagedProject unless 0 <= value < count; `what` names the value ("word id").
void checkStoredIndex(const Project& project, std::string_view table, const std::string& row, std::string_view what,
                      std::int64_t value, std::size_t count, std::string_view countName);

// A JSON column that should hold an object: the object, or an empty one when the stored text is
// not one (its readers then see their defaults instead of a type error).
nlohmann::json storedObject(const std::string& text);

// Throws damagedProject when the dataset's row could not be read whole (DatasetInfo::damage).
void requireSoundDataset(const Project& project, const DatasetInfo& dataset);

// Rows are addressed by their position: throws damagedProject when `stored` (the row's index
// column) is not `expected`, since a gap or a repeat would shift every later row.
void checkStoredPosition(const Project& project, std::string_view table, const std::string& row,
                         std::string_view column, std::int64_t stored, std::size_t expected);

// A sound dataset's import options as its loader reads them: a missing one is the default, one
// of the wrong type is damage, named.
class StoredOptions {
 public:
  StoredOptions(const Project& project, const DatasetInfo& dataset);  // requireSoundDataset first
  bool flag(const char* key) const;                                   // false when missing
  std::string text(const char* key) const;                            // "" when missing
  std::vector<std::string> names(const char* key) const;              // none when missing

 private:
  [[noreturn]] void fail(const char* key, const char* expected) const;
  const Project& m_project;
  const DatasetInfo& m_dataset;
};

}  // namespace latent::core
