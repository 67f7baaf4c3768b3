// SPDX-License-Identifier: GPL-3.0-or-later
// Project files are e-mailed, shared and sometimes damaged or crafted, so the engine treats them as
// untrusted input: every stored index that will address memory is checked as it is loaded, and a
// bad one is reported like a bad input file (exit 2), naming the table and the row, before any
// model sees it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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

}  // namespace latent::core
