// SPDX-License-Identifier: GPL-3.0-or-later
// Opening, migrating and cataloguing a project file.
#include "core/store/project.hpp"

#include <sqlite3.h>

#include <mutex>
#include <set>
#include <span>
#include <sstream>

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
  // A damaged row is still listed (with empty options and summary) so that the rest of the project
  // stays usable; loading the dataset itself is refused (requireSoundDataset).
  const auto object = [&info](const std::string& text, const char* column) {
    auto value = nlohmann::json::parse(text, nullptr, false);
    if (value.is_object()) return value;
    if (info.damage.empty()) info.damage = std::string(column) + " is not a JSON object";
    return nlohmann::json::object();
  };
  info.options = object(s.text(5), "options");
  info.summary = object(s.text(6), "summary");
  info.createdAt = s.text(7);
  if (!dataKindFromString(s.text(2)) && info.damage.empty()) info.damage = "kind '" + s.text(2) + "' is unknown";
  return info;
}

// Every reader sees ready datasets only: a staging one is an import still being written (or one
// a killed import left, removed on the next opening).
constexpr const char* kDatasetColumns =
    "SELECT id, name, kind, source, format, options, summary, created_at FROM datasets WHERE status = 'ready'";

// Why the file could not be read at all, in the user's words.
InputError unreadable(const std::filesystem::path& file, const StoreError& e) {
  switch (e.code() & 0xFF) {
    case SQLITE_NOTADB:
      return InputError(file.string(), 0,
                        "not a Latent Studio project: not an SQLite database, or a damaged or truncated one");
    case SQLITE_CORRUPT:
      return InputError(file.string(), 0,
                        "damaged or truncated project (SQLite: " + std::string(sqlite3_errstr(e.code())) + ")");
    default:
      throw e;
  }
}

}  // namespace

int Project::latestSchemaVersion() {
  int latest = 0;
  for (const auto& m : resources::migrations()) latest = std::max(latest, migrationVersion(m));
  return latest;
}

Project::Project(const std::filesystem::path& file, Access access)
    : m_path(file), m_db([&]() -> Database {
        std::error_code ec;
        if (access != Access::ReadWrite && !std::filesystem::exists(file, ec))
          throw UsageError("project " + file.string() + " does not exist" +
                           (access == Access::ReadWriteExisting ? " (latent-cli import creates one)" : ""));
        if (std::filesystem::is_directory(file, ec))
          throw UsageError("project " + file.string() + " is a folder, not a project file");
        return Database(file, access == Access::ReadOnly ? Database::Mode::ReadOnly : Database::Mode::ReadWrite);
      }()) {
  std::int64_t applicationId = 0, tables = 0;
  try {
    applicationId = m_db.queryInteger("PRAGMA application_id");
    tables = m_db.queryInteger("SELECT count(*) FROM sqlite_master");
  } catch (const StoreError& e) {
    throw unreadable(file, e);
  }
  checkNotTruncated();
  if (access == Access::ReadWriteExisting && tables == 0)
    throw UsageError(file.string() + " is empty, not a Latent Studio project (latent-cli import creates one)");
  if (applicationId != kApplicationId && !(applicationId == 0 && tables == 0))
    throw UsageError(file.string() + " is not a Latent Studio project (an SQLite database of another program)");
  const auto version = m_db.queryInteger("PRAGMA user_version");
  if (version > latestSchemaVersion())
    throw UsageError(file.string() + " was written by a newer Latent Studio (schema " + std::to_string(version) +
                     "; this build reads up to " + std::to_string(latestSchemaVersion()) + ")");
  if (access != Access::ReadOnly) {
    if (tables > 0) checkIntegrityOnce();
    m_db.exec("PRAGMA journal_mode = WAL");
    m_db.exec("PRAGMA synchronous = NORMAL");
    migrate();
    removeAbandonedImports(*this);
  } else if (version < latestSchemaVersion()) {
    throw UsageError(file.string() + " uses an older schema; open it for writing once to upgrade it");
  }
}

void Project::checkNotTruncated() {
  // The header says how many pages the file holds; a file cut short (a copy interrupted, a full
  // disk) holds fewer. Pages still in the write-ahead log are not in the file yet.
  std::error_code ec;
  const auto wal = std::filesystem::file_size(m_path.string() + "-wal", ec);
  if (!ec && wal > 0) return;
  const auto size = std::filesystem::file_size(m_path, ec);
  if (ec) return;
  const auto pages = m_db.queryInteger("PRAGMA page_count"), pageSize = m_db.queryInteger("PRAGMA page_size");
  if (pages > 0 && pageSize > 0 && static_cast<std::uintmax_t>(pages) * static_cast<std::uintmax_t>(pageSize) > size)
    throw InputError(m_path.string(), 0,
                     "damaged or truncated project: its header counts " + std::to_string(pages) + " pages of " +
                         std::to_string(pageSize) + " bytes, but the file holds " + std::to_string(size) + " bytes");
}

void Project::checkIntegrityOnce() {
  // Writing into a file with a damaged page could spread the damage, and an import would report
  // success into a file that cannot be read back. SQLite's quick check reads every page (about a
  // tenth of a second per 100 MB when cached), so a process checks each file once.
  static std::mutex mutex;
  static std::set<std::filesystem::path> checked;
  std::error_code ec;
  const auto key = std::filesystem::weakly_canonical(m_path, ec);
  {
    std::lock_guard lock(mutex);
    if (checked.contains(key)) return;
  }
  std::string problems;
  try {
    auto check = m_db.prepare("PRAGMA quick_check(3)");
    while (check.step()) {
      std::istringstream lines(check.text(0));
      for (std::string line; std::getline(lines, line);)
        if (line != "ok" && !line.starts_with("*** in database")) problems += (problems.empty() ? "" : "; ") + line;
    }
  } catch (const StoreError& e) {
    throw unreadable(m_path, e);
  }
  if (!problems.empty())
    throw InputError(m_path.string(), 0,
                     "damaged project (" + problems + "); nothing was written to it. `sqlite3 " + m_path.string() +
                         " .recover` can save what is still readable into a new file");
  std::lock_guard lock(mutex);
  checked.insert(key);
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
  auto s = m_db.prepare(withClause(kDatasetColumns, " ORDER BY id"));
  std::vector<DatasetInfo> out;
  while (s.step()) out.push_back(readDataset(s));
  return out;
}

std::optional<DatasetInfo> Project::findDataset(const std::string& name) {
  auto s = m_db.prepare(withClause(kDatasetColumns, " AND name = ?1"));
  s.bind(1, name);
  if (s.step()) return readDataset(s);
  return std::nullopt;
}

DatasetInfo Project::dataset(std::int64_t id) {
  auto s = m_db.prepare(withClause(kDatasetColumns, " AND id = ?1"));
  s.bind(1, id);
  if (!s.step()) throw UsageError("no dataset with id " + std::to_string(id) + " in " + m_path.string());
  return readDataset(s);
}

DatasetInfo Project::resolveDataset(const std::string& nameOrId) {
  if (auto found = findDataset(nameOrId)) return *found;
  if (!nameOrId.empty() && nameOrId.find_first_not_of("0123456789") == std::string::npos) {
    auto s = m_db.prepare(withClause(kDatasetColumns, " AND id = ?1"));
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
