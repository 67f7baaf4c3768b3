// SPDX-License-Identifier: GPL-3.0-or-later
// StagedDataset: staging rows, publishing, discarding, and the clean-up of abandoned imports.
#include "core/store/dataset_staging.hpp"

#include <atomic>
#include <mutex>
#include <set>
#include <vector>

#include "core/store/process_owner.hpp"
#include "core/util/clock.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

// The imports of this process that are still writing, by number: a staging row of this process
// whose number is not here was left by an import that could not delete it.
std::mutex g_liveMutex;
std::set<std::int64_t> g_liveImports;
std::atomic<std::int64_t> g_nextImport{1};

std::int64_t registerImport() {
  const auto number = g_nextImport.fetch_add(1);
  const std::lock_guard lock(g_liveMutex);
  g_liveImports.insert(number);
  return number;
}

void unregisterImport(std::int64_t number) {
  const std::lock_guard lock(g_liveMutex);
  g_liveImports.erase(number);
}

bool importIsLive(std::int64_t number) {
  const std::lock_guard lock(g_liveMutex);
  return g_liveImports.count(number) != 0;
}

// Tables holding a dataset's rows, children first, with the key columns after dataset_id.
struct RowTable {
  const char* name;
  const char* key;
};
constexpr RowTable kRowTables[] = {
    {"tokens", "doc_index"},     {"documents", "doc_index"},
    {"vocabulary", "word_id"},   {"edges", "source, target"},
    {"nodes", "node_index"},     {"ratings", "seq"},
    {"users", "user_index"},     {"items", "item_index"},
    {"table_rows", "row_index"}, {"table_features", "feature_index"},
};

}  // namespace

StagedDataset::StagedDataset(Project& project, DatasetHeader header, std::stop_token stop)
    : m_project(project), m_header(std::move(header)), m_stop(std::move(stop)) {
  if (m_header.name.empty()) throw UsageError("a dataset needs a name");
  m_import = registerImport();
}

StagedDataset::~StagedDataset() {
  discard();
  unregisterImport(m_import);
}

void StagedDataset::writeWaiting(const std::function<void()>& body) {
  WriteWait wait;
  wait.abandon = m_stop;
  try {
    writeWhenFree(m_project.db(), wait, body);
  } catch (const WriteAbandoned&) {
    throw Cancelled();
  }
}

std::int64_t StagedDataset::createRow() {
  auto& db = m_project.db();
  auto holder = db.prepare("SELECT status FROM datasets WHERE name = ?1");
  holder.bind(1, m_header.name);
  if (holder.step()) {
    if (holder.text(0) == "ready")
      throw UsageError("a dataset named '" + m_header.name + "' already exists in " + m_project.path().string());
    throw UsageError("a dataset named '" + m_header.name + "' is being imported into " + m_project.path().string() +
                     " by another import; choose another name or wait for it to finish");
  }
  auto s = db.prepare(
      "INSERT INTO datasets (name, kind, source, format, options, created_at, status, owner_pid, owner_host, "
      "owner_import, owner_started) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'staging', ?7, ?8, ?9, ?10)");
  s.bind(1, m_header.name).bind(2, toString(m_header.kind)).bind(3, m_header.source).bind(4, m_header.format);
  s.bind(5, m_header.options.dump()).bind(6, utcTimestamp()).bind(7, currentProcessId()).bind(8, hostName());
  s.bind(9, m_import);
  if (const auto started = currentProcessStart())
    s.bind(10, *started);
  else
    s.bindNull(10);
  s.run();
  return db.lastInsertId();
}

void StagedDataset::write(const std::function<void(std::int64_t)>& rows) {
  if (m_published) throw std::logic_error("StagedDataset::write after publish");
  // A name still held by a killed import is free again once its rows are gone.
  if (m_id == 0) removeAbandonedImports(m_project);
  std::int64_t id = 0;
  writeWaiting([&] {
    id = m_id != 0 ? m_id : createRow();
    rows(id);
  });
  m_id = id;
}

std::int64_t StagedDataset::publish(const nlohmann::json& summary, const std::function<void(std::int64_t)>& rows) {
  if (m_published) throw std::logic_error("StagedDataset::publish twice");
  if (m_id == 0) removeAbandonedImports(m_project);
  std::int64_t id = 0;
  writeWaiting([&] {
    id = m_id != 0 ? m_id : createRow();
    if (rows) rows(id);
    // The last moment a stop can still undo the import: after this the commit makes it whole.
    if (m_stop.stop_requested()) throw Cancelled();
    auto s = m_project.db().prepare(
        "UPDATE datasets SET status = 'ready', summary = ?2, created_at = ?3, owner_pid = NULL, owner_host = '', "
        "owner_import = NULL WHERE id = ?1");
    s.bind(1, id).bind(2, summary.dump()).bind(3, utcTimestamp()).run();
  });
  m_id = id;
  m_published = true;
  return id;
}

void StagedDataset::discard() noexcept {
  if (m_published || m_id == 0) return;
  try {
    // Already failing or cancelled: wait for the lock about as long as any statement would,
    // then leave the rest to the next opening of the project.
    WriteWait wait;
    wait.limitSeconds = std::chrono::duration<double>(m_project.db().busyTimeout()).count();
    deleteStagingDataset(m_project, m_id, wait);
  } catch (...) {
    // Nothing more can be done here; removeAbandonedImports finishes it later.
  }
  m_id = 0;
}

bool deleteStagingDataset(Project& project, std::int64_t datasetId, const WriteWait& wait) {
  auto& db = project.db();
  for (const auto& table : kRowTables) {
    const std::string sql = std::string("DELETE FROM ") + table.name + " WHERE (dataset_id, " + table.key +
                            ") IN (SELECT dataset_id, " + table.key + " FROM " + table.name +
                            " WHERE dataset_id = ?1 LIMIT ?2)";
    for (;;) {
      std::int64_t deleted = 0;
      const bool written = writeWhenFree(db, wait, [&] {
        db.prepare(sql).bind(1, datasetId).bind(2, static_cast<std::int64_t>(kStagingBatchRows)).run();
        deleted = db.changes();
      });
      if (!written) return false;
      if (deleted < static_cast<std::int64_t>(kStagingBatchRows)) break;
    }
  }
  return writeWhenFree(db, wait, [&] {
    db.prepare("DELETE FROM datasets WHERE id = ?1 AND status = 'staging'").bind(1, datasetId).run();
  });
}

void removeAbandonedImports(Project& project) {
  auto& db = project.db();
  if (db.readOnly()) return;
  std::vector<std::int64_t> abandoned;
  {
    auto s = db.prepare(
        "SELECT id, owner_pid, owner_host, owner_import, owner_started FROM datasets WHERE status = 'staging'");
    const auto self = currentProcessId();
    const auto host = hostName();
    const auto selfStarted = currentProcessStart();
    while (s.step()) {
      const bool ownerless = s.isNull(1);
      const auto pid = s.integer(1);
      const auto started = s.isNull(4) ? std::nullopt : std::optional<std::int64_t>(s.integer(4));
      const bool ours = !ownerless && pid == self && s.text(2) == host && (!started || started == selfStarted);
      if (ownerless || (ours && (s.isNull(3) || !importIsLive(s.integer(3)))) ||
          (!ours && ownerIsGone(pid, s.text(2), started)))
        abandoned.push_back(s.integer(0));
    }
  }
  WriteWait once;
  once.limitSeconds = 0.0;  // one try: opening a project must not wait on another writer
  for (const auto id : abandoned)
    if (!deleteStagingDataset(project, id, once)) return;
}

}  // namespace latent::core
