// SPDX-License-Identifier: GPL-3.0-or-later
// A dataset being imported: written in short transactions under a 'staging' dataset row that no
// reader lists or finds, and made visible ('ready') in one last short commit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>

#include <nlohmann/json.hpp>

#include "core/data/data_kind.hpp"
#include "core/store/project.hpp"
#include "core/store/write_wait.hpp"

namespace latent::core {

// The most one staging transaction writes: little enough that another writer (a fit recording
// its metrics) waits only briefly, enough that commits cost the import little.
inline constexpr std::size_t kStagingBatchRows = 10000;
inline constexpr std::size_t kStagingBatchBytes = std::size_t{4} << 20;

struct DatasetHeader {
  std::string name;
  DataKind kind = DataKind::Corpus;
  std::string source;
  std::string format;
  nlohmann::json options = nlohmann::json::object();
};

// Reading and tokenising happen outside every transaction; each write() is one short
// transaction. The staging row is created by the first write, so an import that fails before it
// wrote anything leaves the file untouched, byte for byte. Destroyed unpublished (an error, a
// cancel), it deletes what it wrote, in short transactions too; what it cannot delete (the file
// stayed locked) is removed when the project is next opened for writing.
class StagedDataset {
 public:
  // `stop` is the import's stop request: a stop while waiting for the write lock throws
  // Cancelled. Throws UsageError for an empty name.
  StagedDataset(Project& project, DatasetHeader header, std::stop_token stop = {});
  ~StagedDataset();
  StagedDataset(const StagedDataset&) = delete;
  StagedDataset& operator=(const StagedDataset&) = delete;

  // Runs `rows(datasetId)` in one transaction (which it may run again after a busy try, so it
  // must only write what it was given). The first write creates the staging row and throws
  // UsageError when the name is taken by a dataset or by an import in progress.
  void write(const std::function<void(std::int64_t datasetId)>& rows);
  // The last commit: `rows` (may be empty), the summary, and the flip to ready. Returns the id.
  std::int64_t publish(const nlohmann::json& summary, const std::function<void(std::int64_t datasetId)>& rows = {});
  // Deletes what was written (nothing when published); called by the destructor.
  void discard() noexcept;

 private:
  std::int64_t createRow();  // within the caller's transaction
  void writeWaiting(const std::function<void()>& body);

  Project& m_project;
  DatasetHeader m_header;
  std::stop_token m_stop;
  std::int64_t m_id = 0;      // 0 until the first write commits
  std::int64_t m_import = 0;  // this import's number within this process
  bool m_published = false;
};

// Deletes a staging dataset and its rows, a batch of rows per transaction, the dataset row
// last. False when a transaction waited past `wait.limitSeconds`: what is left stays staging.
bool deleteStagingDataset(Project& project, std::int64_t datasetId, const WriteWait& wait);

// Deletes the staging datasets whose import is over: its process is gone (killed, crashed), or
// it is this process and no StagedDataset writes it any more. Each is skipped when another
// connection holds the write lock (the next opening tries again). Reads only when there is none.
void removeAbandonedImports(Project& project);

}  // namespace latent::core
