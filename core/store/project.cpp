// SPDX-License-Identifier: GPL-3.0-or-later
// Opening, migrating and cataloguing a project file.
#include "core/store/project.hpp"

#include <span>

#include "core/store/dataset_staging.hpp"
#include "core/util/clock.hpp"
#include "core/util/embedded_file.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace resources {
std::span<const EmbeddedFile> migrations();  // generated from resources/sql, in order
}

namespace {

// PRAGMA application_id of every project file: "LATN".
constexpr std::int64_t kApplicationId = 0x4C41544E;

int migrationVersion(const EmbeddedFile& file) { return std::stoi(std::string(file.name.substr(0, 3))); }

DatasetInfo readDataset(Statement& s) {
  DatasetInfo info;
  info.id = s.integer(0);
  info.name = s.text(1);
  info.kind = dataKindFromString(s.text(2)).value_or(DataKind::Corpus);
  info.source = s.text(3);
  info.format = s.text(4);
  info.options = nlohmann::json::parse(s.text(5), nullptr, false);
  info.summary = nlohmann::json::parse(s.text(6), nullptr, false);
  info.createdAt = s.text(7);
  return info;
}

// Every reader sees ready datasets only: a staging one is an import still being written (or one
// a killed import left, removed on the next opening).
constexpr const char* kDatasetColumns =
    "SELECT id, name, kind, source, format, options, summary, created_at FROM datasets WHERE status = 'ready'";

}  // namespace

int Project::latestSchemaVersion() {
  int latest = 0;
  for (const auto& m : resources::migrations()) latest = std::max(latest, migrationVersion(m));
  return latest;
}

Project::Project(const std::filesystem::path& file, Access access)
    : m_path(file), m_db([&]() -> Database {
        std::error_code ec;
        if (access == Access::ReadOnly && !std::filesystem::exists(file, ec))
          throw UsageError("project " + file.string() + " does not exist");
        if (std::filesystem::is_directory(file, ec))
          throw UsageError("project " + file.string() + " is a folder, not a project file");
        return Database(file, access == Access::ReadOnly ? Database::Mode::ReadOnly : Database::Mode::ReadWrite);
      }()) {
  std::int64_t applicationId = 0;
  try {
    applicationId = m_db.queryInteger("PRAGMA application_id");
  } catch (const StoreError&) {
    throw UsageError(file.string() + " is not a Latent Studio project (not an SQLite database)");
  }
  const auto tables = m_db.queryInteger("SELECT count(*) FROM sqlite_master");
  if (applicationId != kApplicationId && !(applicationId == 0 && tables == 0))
    throw UsageError(file.string() + " is not a Latent Studio project (an SQLite database of another program)");
  const auto version = m_db.queryInteger("PRAGMA user_version");
  if (version > latestSchemaVersion())
    throw UsageError(file.string() + " was written by a newer Latent Studio (schema " + std::to_string(version) +
                     "; this build reads up to " + std::to_string(latestSchemaVersion()) + ")");
  if (access == Access::ReadWrite) {
    m_db.exec("PRAGMA journal_mode = WAL");
    m_db.exec("PRAGMA synchronous = NORMAL");
    migrate();
    removeAbandonedImports(*this);
  } else if (version < latestSchemaVersion()) {
    throw UsageError(file.string() + " uses an older schema; open it for writing once to upgrade it");
  }
}

int Project::schemaVersion() { return static_cast<int>(m_db.queryInteger("PRAGMA user_version")); }

void Project::migrate() {
  const int current = schemaVersion();
  if (current >= latestSchemaVersion()) return;
  // Migrations run with foreign keys off, as SQLite's way of rebuilding a table needs (dropping a
  // parent table must not cascade; 007 rebuilds `datasets`), and each checks them before its
  // commit. The pragma is a no-op inside a transaction, so it is set around them.
  m_db.exec("PRAGMA foreign_keys = OFF");
  struct ForeignKeysBackOn {
    Database& db;
    ~ForeignKeysBackOn() {
      try {
        db.exec("PRAGMA foreign_keys = ON");
      } catch (...) {
        // Only fails when the connection is unusable, and then nothing more can be done with it.
      }
    }
  } backOn{m_db};
  for (const auto& m : resources::migrations()) {
    const int version = migrationVersion(m);
    if (version <= current) continue;
    Transaction tx(m_db);
    m_db.exec(std::string(m.contents));
    if (m_db.prepare("PRAGMA foreign_key_check").step())
      throw StoreError("migration " + std::string(m.name) + " of " + m_path.string() + " broke a foreign key", 0);
    m_db.exec("PRAGMA application_id = " + std::to_string(kApplicationId));
    m_db.exec("PRAGMA user_version = " + std::to_string(version));
    tx.commit();
  }
}

std::vector<DatasetInfo> Project::datasets() {
  auto s = m_db.prepare(std::string(kDatasetColumns) + " ORDER BY id");
  std::vector<DatasetInfo> out;
  while (s.step()) out.push_back(readDataset(s));
  return out;
}

std::optional<DatasetInfo> Project::findDataset(const std::string& name) {
  auto s = m_db.prepare(std::string(kDatasetColumns) + " AND name = ?1");
  s.bind(1, name);
  if (s.step()) return readDataset(s);
  return std::nullopt;
}

DatasetInfo Project::dataset(std::int64_t id) {
  auto s = m_db.prepare(std::string(kDatasetColumns) + " AND id = ?1");
  s.bind(1, id);
  if (!s.step()) throw UsageError("no dataset with id " + std::to_string(id) + " in " + m_path.string());
  return readDataset(s);
}

DatasetInfo Project::resolveDataset(const std::string& nameOrId) {
  if (auto found = findDataset(nameOrId)) return *found;
  if (!nameOrId.empty() && nameOrId.find_first_not_of("0123456789") == std::string::npos) {
    auto s = m_db.prepare(std::string(kDatasetColumns) + " AND id = ?1");
    s.bind(1, static_cast<std::int64_t>(std::stoll(nameOrId)));
    if (s.step()) return readDataset(s);
  }
  std::string names;
  for (const auto& d : datasets()) names += (names.empty() ? "" : ", ") + d.name;
  throw UsageError("no dataset named '" + nameOrId + "' in " + m_path.string() +
                   (names.empty() ? " (it has no datasets yet)" : " (it has: " + names + ")"));
}

std::int64_t Project::createDataset(const std::string& name, DataKind kind, const std::string& source,
                                    const std::string& format, const nlohmann::json& options) {
  if (name.empty()) throw UsageError("a dataset needs a name");
  checkNameFree(name, std::nullopt);
  auto s = m_db.prepare(
      "INSERT INTO datasets (name, kind, source, format, options, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  s.bind(1, name)
      .bind(2, toString(kind))
      .bind(3, source)
      .bind(4, format)
      .bind(5, options.dump())
      .bind(6, utcTimestamp());
  s.run();
  return m_db.lastInsertId();
}

void Project::setDatasetSummary(std::int64_t id, const nlohmann::json& summary) {
  auto s = m_db.prepare("UPDATE datasets SET summary = ?1 WHERE id = ?2");
  s.bind(1, summary.dump()).bind(2, id).run();
}

void Project::checkNameFree(const std::string& name, std::optional<std::int64_t> self) {
  // Staging datasets count: their name is taken as soon as their import began writing.
  auto s = m_db.prepare("SELECT id, status FROM datasets WHERE name = ?1");
  s.bind(1, name);
  if (!s.step() || (self && s.integer(0) == *self)) return;
  if (s.text(1) == "ready") throw UsageError("a dataset named '" + name + "' already exists in " + m_path.string());
  throw UsageError("a dataset named '" + name + "' is being imported into " + m_path.string() +
                   " by another import; choose another name or wait for it to finish");
}

void Project::renameDataset(std::int64_t id, const std::string& name) {
  if (name.empty()) throw UsageError("a dataset needs a name");
  checkNameFree(name, id);
  Transaction tx(m_db);
  m_db.prepare("UPDATE datasets SET name = ?1 WHERE id = ?2").bind(1, name).bind(2, id).run();
  tx.commit();
}

void Project::removeDataset(std::int64_t id) {
  Transaction tx(m_db);
  // Tokens reference documents, so they go through the cascade; the rest cascades from datasets.
  m_db.prepare("DELETE FROM datasets WHERE id = ?1").bind(1, id).run();
  tx.commit();
}

}  // namespace latent::core
