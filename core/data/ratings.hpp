// SPDX-License-Identifier: GPL-3.0-or-later
// A ratings table: (user, item, value, time) with the ids and names of the imported files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace latent::core {

struct Rating {
  std::int32_t user = 0;
  std::int32_t item = 0;
  double value = 0.0;
  std::int64_t time = 0;  // seconds since 1970 (or the file's own unit); 0 when absent
  friend bool operator==(const Rating&, const Rating&) = default;
};

struct Ratings {
  std::vector<std::string> userIds;    // ids of the imported file, index = user
  std::vector<std::string> itemIds;    // ids of the imported file, index = item
  std::vector<std::string> itemNames;  // titles when an items file was given, else the id
  // Further item columns (MovieLens genres): itemAttributes[a][item].
  std::vector<std::string> itemAttributeNames;
  std::vector<std::vector<std::string>> itemAttributes;
  std::vector<Rating> ratings;  // in file order, at most one per (user, item)
  bool hasTime = false;

  std::size_t userCount() const noexcept { return userIds.size(); }
  std::size_t itemCount() const noexcept { return itemIds.size(); }
};

}  // namespace latent::core
