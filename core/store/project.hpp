// SPDX-License-Identifier: GPL-3.0-or-later
// A project file: one SQLite database holding datasets, runs and results (DESIGN §5).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/data/data_kind.hpp"
#include "core/store/database.hpp"

namespace latent::core {

struct DatasetInfo {
  std::int64_t id = 0;
  std::string name;
  DataKind kind = DataKind::Corpus;
  std::string source;
  std::string format;
  nlohmann::json options = nlohmann::json::object();
  nlohmann::json summary = nlohmann::json::object();
  std::string createdAt;
  // Why the row could not be read whole (options or summary not a JSON object); empty when sound.
  std::string damage;
};

class Project {
 public:
  // The schema version this build writes; older files are migrated forward when opened.
  static int latestSchemaVersion();

  enum class Access {
    ReadWrite,          // creates the file when missing and migrates it (imports, New Project)
    ReadWriteExisting,  // as ReadWrite, but refuses a missing or empty file: fits never create projects
    ReadOnly,           // for the GUI's reading connection and for listing commands
  };

  // Throws UsageError when the file is not a Latent Studio project or is newer than this build.
  explicit Project(const std::filesystem::path& file, Access access = Access::ReadWrite);

  Database& db() noexcept { return m_db; }
  const std::filesystem::path& path() const noexcept { return m_path; }
  int schemaVersion();

  // Ready datasets only: none of these sees a dataset whose import is still writing it
  // (store/dataset_staging.hpp).
  std::vector<DatasetInfo> datasets();
  std::optional<DatasetInfo> findDataset(const std::string& name);
  DatasetInfo dataset(std::int64_t id);
  // By name or, failing that, by numeric id; throws UsageError listing the datasets there are.
  DatasetInfo resolveDataset(const std::string& nameOrId);

  // A ready dataset, within the caller's transaction (imports go through StagedDataset instead).
  // Throws UsageError when the name is taken, by a dataset or by an import in progress.
  std::int64_t createDataset(const std::string& name, DataKind kind, const std::string& source,
                             const std::string& format, const nlohmann::json& options);
  // Throws UsageError when a dataset other than `self` has the name, or an import in progress
  // has taken it.
  void checkNameFree(const std::string& name, std::optional<std::int64_t> self = std::nullopt);
  void setDatasetSummary(std::int64_t id, const nlohmann::json& summary);
  void renameDataset(std::int64_t id, const std::string& name);
  void removeDataset(std::int64_t id);

 private:
  void migrate();
  // Refuses (InputError) a file shorter than its header says.
  void checkNotTruncated();
  // Refuses (InputError) a file whose pages SQLite finds damaged; once per file and process.
  void checkIntegrityOnce();

  std::filesystem::path m_path;
  Database m_db;
};

}  // namespace latent::core
