// SPDX-License-Identifier: GPL-3.0-or-later
// Runs in the project file: the run record, its per-iteration metrics, result matrices and
// per-token assignments.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "core/data/filled_sparse_matrix.hpp"
#include "core/data/stored_matrix.hpp"
#include "core/store/project.hpp"

namespace latent::core {

// Interrupted is never stored: it is how a run reads back when it is still marked running but
// the process that owned it, on this machine, no longer exists (it was killed or crashed).
enum class RunStatus { Running, Finished, Stopped, Failed, Interrupted };
// "running", "finished", ... as stored and printed. Named statusName, not toString: QTest's
// QCOMPARE calls a toString of the compared type that argument-dependent lookup finds and frees
// the string it returns (delete[]), so with a toString returning a literal a failing comparison of
// two statuses aborted the test ("munmap_chunk(): invalid pointer") instead of reporting them.
const char* statusName(RunStatus status) noexcept;
RunStatus runStatusFromString(std::string_view text);

struct RunRecord {
  std::int64_t id = 0;
  std::int64_t datasetId = 0;
  std::string datasetName;  // filled when read back
  std::string model;
  nlohmann::json options = nlohmann::json::object();
  std::uint64_t seed = 0;
  int threads = 1;
  double heldout = 0.0;
  RunStatus status = RunStatus::Running;
  std::string message;
  std::string objectiveName;
  std::string heldoutName;
  std::string appVersion;
  std::string createdAt, updatedAt, finishedAt;
  std::optional<double> seconds;
  std::optional<std::int64_t> iterations;
  nlohmann::json finalMetrics = nlohmann::json::object();
  std::optional<std::int64_t> sweepId;  // set when the run is one point of a sweep
  std::string name;                     // the user's name for the run; empty when it has none
  std::string notes;                    // the user's notes on the run (schema 14)
};

struct SweepRecord {
  std::int64_t id = 0;
  std::int64_t datasetId = 0;
  std::string model;
  std::string parameter;  // the option that varies
  std::string createdAt;
};

struct MetricRow {
  std::int64_t iteration = 0;
  double seconds = 0.0;
  std::optional<double> trainObjective;
  std::optional<double> heldout;
  nlohmann::json extras = nlohmann::json::object();
};

// Each call below is one short transaction unless the caller already holds one.
std::int64_t createRun(Project& project, const RunRecord& run);
void appendMetrics(Project& project, std::int64_t runId, std::span<const MetricRow> rows);
// How a matrix's values are stored (schema 15): as doubles, or rounded to floats (about seven
// significant digits) in half the space. loadMatrix reads either back as doubles.
enum class MatrixElement { Float64, Float32 };
// A matrix of more than `partBytes` of stored values is stored in parts (run_matrix_parts, schema
// 13), so that no blob nears SQLite's limit of about 1 GB; loadMatrix joins them. Smaller ones stay
// one blob, written in place. Parts hold at most min(partBytes, kMatrixPartWriteBytes): each is
// bound as a value, which SQLite copies for the binding and again for the row (and a float32 part
// is converted first), so that writing holds a few parts' bytes besides the matrix, not a few
// hundred megabytes.
inline constexpr std::size_t kMatrixPartBytes = std::size_t{256} << 20;
inline constexpr std::size_t kMatrixPartWriteBytes = std::size_t{32} << 20;
void saveMatrix(Project& project, std::int64_t runId, const std::string& name, std::int64_t iteration,
                const Eigen::MatrixXd& values, std::size_t partBytes = kMatrixPartBytes,
                MatrixElement element = MatrixElement::Float64);
// A matrix held as floats (NamedMatrix::floats), stored as float32 without a conversion.
void saveFloatMatrix(Project& project, std::int64_t runId, const std::string& name, std::int64_t iteration,
                     const Eigen::MatrixXf& values, std::size_t partBytes = kMatrixPartBytes);
// A snapshot in sparse form (FilledSparseMatrix; element 'sparse', schema 16): one blob of the
// rows' fills, the columns' starts, the entries' rows and their values, a few megabytes where the
// dense topic-word matrix at K = 3000 takes 320 MB as floats. It is written dense (saveMatrix,
// `denseElement`) instead when that is no larger; over `partBytes` its bytes go in parts, as a
// dense matrix's values do (schema 17). loadMatrix returns the dense matrix, entry for entry the
// one toDense() makes.
void saveSparseMatrix(Project& project, std::int64_t runId, const std::string& name, std::int64_t iteration,
                      const FilledSparseMatrix& values, MatrixElement denseElement,
                      std::size_t partBytes = kMatrixPartBytes);
void saveTokenTopics(Project& project, std::int64_t runId, std::int64_t document, std::span<const std::int32_t> topics);
// A named per-token layer of one document (results/topic_results.hpp: token_class,
// token_content_probability), one float32 per kept token in document order.
void saveTokenValues(Project& project, std::int64_t runId, const std::string& name, std::int64_t document,
                     std::span<const float> values);
void finishRun(Project& project, std::int64_t runId, RunStatus status, const std::string& message, double seconds,
               std::int64_t iterations, const nlohmann::json& finalMetrics);

std::vector<RunRecord> listRuns(Project& project, std::optional<std::int64_t> datasetId = std::nullopt);
std::int64_t createSweep(Project& project, std::int64_t datasetId, const std::string& model,
                         const std::string& parameter);
std::vector<SweepRecord> listSweeps(Project& project, std::optional<std::int64_t> datasetId = std::nullopt);
std::vector<RunRecord> sweepRuns(Project& project, std::int64_t sweepId);
RunRecord loadRun(Project& project, std::int64_t runId);  // throws UsageError when missing
std::vector<MetricRow> loadMetrics(Project& project, std::int64_t runId);
// iteration -1 is the final result; std::nullopt when the run has no such matrix.
std::optional<Eigen::MatrixXd> loadMatrix(Project& project, std::int64_t runId, const std::string& name,
                                          std::int64_t iteration = -1);
// The same matrix in the form it was stored in: a sparse one (saveSparseMatrix) as it is, without
// the dense matrix loadMatrix makes of it, and a float32 one as floats (the topic views read topics
// and doc_topic so: core/data/topic_word_table.hpp, dense_table.hpp); doubles as loadMatrix
// returns them.
std::optional<StoredMatrix> loadStoredMatrix(Project& project, std::int64_t runId, const std::string& name,
                                             std::int64_t iteration = -1);
// Names of the matrices a run holds (final and snapshots), with their iterations.
std::vector<std::pair<std::string, std::int64_t>> listMatrices(Project& project, std::int64_t runId);
std::vector<std::int32_t> loadTokenTopics(Project& project, std::int64_t runId, std::int64_t document);
// The layer `name` of document `document` (its index in the corpus); empty when the run holds none
// for it (a held-out document, another model, a run of an older build).
std::vector<float> loadTokenValues(Project& project, std::int64_t runId, const std::string& name,
                                   std::int64_t document);
// The names of the per-token layers the run stored, sorted.
std::vector<std::string> listTokenValues(Project& project, std::int64_t runId);

}  // namespace latent::core
