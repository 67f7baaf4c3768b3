// SPDX-License-Identifier: GPL-3.0-or-later
// Users, items (with names and attributes) and one row per rating.
#include "core/store/ratings_store.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/store/damaged_project.hpp"

namespace latent::core {

std::size_t ratingsRowCount(const Ratings& ratings) {
  return ratings.userCount() + ratings.itemCount() + ratings.ratings.size() + 1;
}

void writeRatingsRows(Project& project, std::int64_t datasetId, const Ratings& ratings, std::size_t first,
                      std::size_t count) {
  auto& db = project.db();
  const std::size_t end = std::min(first + count, ratingsRowCount(ratings));
  const std::size_t usersEnd = ratings.userCount();
  const std::size_t itemsEnd = usersEnd + ratings.itemCount();
  const std::size_t ratingsEnd = itemsEnd + ratings.ratings.size();
  if (first < usersEnd) {
    auto users = db.prepare("INSERT INTO users (dataset_id, user_index, external_id) VALUES (?1, ?2, ?3)");
    for (std::size_t u = first; u < std::min(end, usersEnd); ++u)
      users.bind(1, datasetId).bind(2, static_cast<std::int64_t>(u)).bind(3, ratings.userIds[u]).run();
  }
  if (end > usersEnd && first < itemsEnd) {
    auto items = db.prepare(
        "INSERT INTO items (dataset_id, item_index, external_id, name, attributes) VALUES (?1, ?2, ?3, ?4, ?5)");
    for (std::size_t row = std::max(first, usersEnd); row < std::min(end, itemsEnd); ++row) {
      const std::size_t i = row - usersEnd;
      nlohmann::ordered_json attributes = nlohmann::ordered_json::object();
      for (std::size_t a = 0; a < ratings.itemAttributeNames.size(); ++a)
        attributes[ratings.itemAttributeNames[a]] = ratings.itemAttributes[a][i];
      items.bind(1, datasetId).bind(2, static_cast<std::int64_t>(i)).bind(3, ratings.itemIds[i]);
      items.bind(4, ratings.itemNames[i]).bind(5, attributes.dump()).run();
    }
  }
  if (end > itemsEnd && first < ratingsEnd) {
    auto rows = db.prepare(
        "INSERT INTO ratings (dataset_id, seq, user_index, item_index, value, time) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    for (std::size_t row = std::max(first, itemsEnd); row < std::min(end, ratingsEnd); ++row) {
      const std::size_t seq = row - itemsEnd;
      const auto& r = ratings.ratings[seq];
      rows.bind(1, datasetId).bind(2, static_cast<std::int64_t>(seq)).bind(3, r.user).bind(4, r.item).bind(5, r.value);
      if (ratings.hasTime)
        rows.bind(6, r.time);
      else
        rows.bindNull(6);
      rows.run();
    }
  }
  if (end > ratingsEnd) {
    auto facts = db.prepare(
        "UPDATE datasets SET options = json_set(options, '$.item_attributes', json(?2), '$.has_time', json(?3)) "
        "WHERE id = ?1");
    facts.bind(1, datasetId).bind(2, nlohmann::json(ratings.itemAttributeNames).dump());
    facts.bind(3, ratings.hasTime ? "true" : "false").run();
  }
}

void writeRatings(Project& project, std::int64_t datasetId, const Ratings& ratings) {
  writeRatingsRows(project, datasetId, ratings, 0, ratingsRowCount(ratings));
}

Ratings loadRatings(Project& project, std::int64_t datasetId) {
  Ratings ratings;
  const auto info = project.dataset(datasetId);
  const StoredOptions options(project, info);
  ratings.hasTime = options.flag("has_time");
  ratings.itemAttributeNames = options.names("item_attributes");
  ratings.itemAttributes.assign(ratings.itemAttributeNames.size(), {});
  auto users =
      project.db().prepare("SELECT external_id, user_index FROM users WHERE dataset_id = ?1 ORDER BY user_index");
  users.bind(1, datasetId);
  while (users.step()) {
    checkStoredPosition(project, "users", "dataset " + std::to_string(datasetId) + ", user " + users.text(0),
                        "user_index", users.integer(1), ratings.userIds.size());
    ratings.userIds.push_back(users.text(0));
  }
  auto items = project.db().prepare(
      "SELECT external_id, name, attributes, item_index FROM items WHERE dataset_id = ?1 ORDER BY item_index");
  items.bind(1, datasetId);
  while (items.step()) {
    checkStoredPosition(project, "items", "dataset " + std::to_string(datasetId) + ", item " + items.text(0),
                        "item_index", items.integer(3), ratings.itemIds.size());
    ratings.itemIds.push_back(items.text(0));
    ratings.itemNames.push_back(items.text(1));
    const auto attributes = nlohmann::json::parse(items.text(2), nullptr, false);
    for (std::size_t a = 0; a < ratings.itemAttributeNames.size(); ++a) {
      const auto value = attributes.is_object() ? attributes.find(ratings.itemAttributeNames[a]) : attributes.end();
      ratings.itemAttributes[a].push_back(value != attributes.end() && value->is_string() ? value->get<std::string>()
                                                                                          : "");
    }
  }
  auto rows = project.db().prepare(
      "SELECT user_index, item_index, value, time, seq FROM ratings WHERE dataset_id = ?1 ORDER BY seq");
  rows.bind(1, datasetId);
  while (rows.step()) {
    const auto user = rows.integer(0), item = rows.integer(1);
    const auto value = rows.real(2);
    const auto row = "dataset " + std::to_string(datasetId) + ", rating " + std::to_string(rows.integer(4));
    checkStoredIndex(project, "ratings", row, "user_index", user, ratings.userCount(), "users");
    checkStoredIndex(project, "ratings", row, "item_index", item, ratings.itemCount(), "items");
    if (!std::isfinite(value)) throw damagedProject(project, "ratings", row, "the value is not a finite number");
    ratings.ratings.push_back({static_cast<std::int32_t>(user), static_cast<std::int32_t>(item), value,
                               rows.isNull(3) ? 0 : rows.integer(3)});
  }
  return ratings;
}

}  // namespace latent::core
