// SPDX-License-Identifier: GPL-3.0-or-later
// A run's result matrices in the project file: dense (doubles or float32), sparse, each in one blob
// or in parts.
#include "core/store/run_matrices.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/store/blob.hpp"
#include "core/store/damaged_project.hpp"
#include "core/util/errors.hpp"

namespace latent::core {
namespace {

// Opens column `data` of a rowid table's row for SQLite's incremental blob I/O, which copies
// nothing whole, and runs use(blob), which returns SQLite's code of its first failure. Matrices are
// written into a zero blob this way, and read straight into the matrix returned.
template <typename Use>
void useBlobInPlace(Database& db, const char* table, std::int64_t rowid, bool write, const Use& use) {
  sqlite3_blob* blob = nullptr;
  int rc = sqlite3_blob_open(db.handle(), "main", table, "data", rowid, write ? 1 : 0, &blob);
  if (rc == SQLITE_OK) rc = use(blob);
  const std::string message = rc == SQLITE_OK ? std::string() : sqlite3_errmsg(db.handle());
  const int closed = sqlite3_blob_close(blob);
  if (rc == SQLITE_OK) rc = closed;
  if (rc != SQLITE_OK)
    throw StoreError("cannot " + std::string(write ? "write" : "read") + " a matrix of " + std::string(table) + ": " +
                         (message.empty() ? std::string(sqlite3_errstr(rc)) : message),
                     rc);
}

// sqlite3_blob_write and _read take an int count: doubles go 64 MiB at a time.
constexpr std::size_t kBlobChunk = std::size_t{64} << 20;
// Floats are converted into a buffer of this many values at a time (4 MiB).
constexpr std::size_t kFloatChunk = std::size_t{1} << 20;

std::size_t elementBytes(MatrixElement element) { return element == MatrixElement::Float32 ? 4 : 8; }
const char* elementName(MatrixElement element) { return element == MatrixElement::Float32 ? "f32" : "f64"; }

// `count` values as floats, written from byte `at` of an open blob.
int writeFloats(sqlite3_blob* blob, const double* values, std::size_t count, std::size_t at) {
  std::vector<float> buffer(std::min(count, kFloatChunk));
  int rc = SQLITE_OK;
  for (std::size_t done = 0; rc == SQLITE_OK && done < count; done += buffer.size()) {
    const std::size_t n = std::min(buffer.size(), count - done);
    for (std::size_t i = 0; i < n; ++i) buffer[i] = static_cast<float>(values[done + i]);
    rc = sqlite3_blob_write(blob, buffer.data(), static_cast<int>(n * sizeof(float)),
                            static_cast<int>(at + done * sizeof(float)));
  }
  return rc;
}

// The stored form of a FilledSparseMatrix (element 'sparse'), little-endian: the rows' fills
// (doubles), the columns' starts (cols + 1 int64, from 0 to the number of entries), the entries'
// rows (int32) and their values (doubles).
constexpr const char* kSparseElement = "sparse";
std::uint64_t sparseHeadBytes(std::uint64_t rows, std::uint64_t cols) {
  return rows * sizeof(double) + (cols + 1) * sizeof(std::int64_t);
}
constexpr std::uint64_t kSparseEntryBytes = sizeof(std::int32_t) + sizeof(double);

template <typename T>
int writeArray(sqlite3_blob* blob, const std::vector<T>& values, std::uint64_t& at) {
  const std::uint64_t bytes = values.size() * sizeof(T);
  const int rc =
      bytes == 0 ? SQLITE_OK : sqlite3_blob_write(blob, values.data(), static_cast<int>(bytes), static_cast<int>(at));
  at += bytes;
  return rc;
}

// A sparse matrix's arrays read in their stored order through next(bytes), which fills `bytes`
// with the stored bytes that follow (SQLITE_OK, or the error that stopped it).
template <typename Next>
int readSparseArrays(FilledSparseMatrix& sparse, std::size_t entries, Next&& next) {
  const auto array = [&](auto& values, std::size_t count) {
    values.resize(count);
    return count == 0 ? SQLITE_OK : next(std::as_writable_bytes(std::span(values)));
  };
  int rc = array(sparse.rowFill, static_cast<std::size_t>(sparse.rows));
  if (rc == SQLITE_OK) rc = array(sparse.columnStarts, static_cast<std::size_t>(sparse.cols) + 1);
  if (rc == SQLITE_OK) rc = array(sparse.rowIndices, entries);
  if (rc == SQLITE_OK) rc = array(sparse.values, entries);
  return rc;
}

// The bytes of a matrix stored in parts (run_matrix_parts), read in order: each call fills `to`
// with the next ones; SQLITE_CORRUPT where a part is missing or they end early.
class PartBytes {
 public:
  PartBytes(Project& project, std::int64_t runId, const std::string& name, std::int64_t iteration)
      : m_parts(project.db().prepare("SELECT part, data FROM run_matrix_parts WHERE run_id = ?1 AND name = ?2 AND "
                                     "iteration = ?3 ORDER BY part")) {
    m_parts.bind(1, runId).bind(2, name).bind(3, iteration);
  }
  int operator()(std::span<std::byte> to) {
    while (!to.empty()) {
      if (m_at == m_part.size()) {
        if (!m_parts.step() || m_parts.integer(0) != m_next++) return SQLITE_CORRUPT;
        m_part = m_parts.blob(1);
        m_at = 0;
        continue;
      }
      const std::size_t n = std::min(to.size(), m_part.size() - m_at);
      std::memcpy(to.data(), m_part.data() + m_at, n);
      m_at += n;
      to = to.subspan(n);
    }
    return SQLITE_OK;
  }

 private:
  Statement m_parts;
  std::span<const std::byte> m_part;
  std::size_t m_at = 0;
  std::int64_t m_next = 0;
};

// A sparse matrix of `stored` bytes, in one blob (row `rowid` of run_matrices) or in the parts
// `parts` reads (null for one blob), checked entry by entry: a damaged or crafted file is
// reported, never read past its arrays.
FilledSparseMatrix readSparseMatrix(Project& project, const std::string& where, std::int64_t rows, std::int64_t cols,
                                    std::int64_t stored, std::int64_t rowid, PartBytes* parts) {
  const bool inParts = parts != nullptr;
  const auto bytes = static_cast<std::uint64_t>(std::max<std::int64_t>(stored, 0));
  const auto damaged = [&](const std::string& what) {
    return damagedProject(project, inParts ? "run_matrix_parts" : "run_matrices", where, what);
  };
  const std::string shape = "a " + std::to_string(rows) + " x " + std::to_string(cols) + " sparse matrix";
  // Each row and column takes 8 bytes of the blob: larger counts cannot be, and cannot overflow.
  const auto r = static_cast<std::uint64_t>(std::max<std::int64_t>(rows, 0));
  const auto c = static_cast<std::uint64_t>(std::max<std::int64_t>(cols, 0));
  if (rows < 0 || cols < 0 || r > bytes / 8 || c > bytes / 8 || sparseHeadBytes(r, c) > bytes ||
      (bytes - sparseHeadBytes(r, c)) % kSparseEntryBytes != 0 ||
      (c > 0 && r > std::numeric_limits<std::uint64_t>::max() / 8 / c))
    throw damaged(shape + " stored in " + std::to_string(bytes) + " bytes");
  const auto entries = static_cast<std::size_t>((bytes - sparseHeadBytes(r, c)) / kSparseEntryBytes);
  FilledSparseMatrix sparse;
  sparse.rows = rows;
  sparse.cols = cols;
  if (inParts) {
    if (readSparseArrays(sparse, entries, *parts) != SQLITE_OK) throw damaged(shape + " with a part missing");
  } else {
    useBlobInPlace(project.db(), "run_matrices", rowid, false, [&](sqlite3_blob* blob) {
      std::uint64_t at = 0;
      return readSparseArrays(sparse, entries, [&](std::span<std::byte> to) {
        const int rc = sqlite3_blob_read(blob, to.data(), static_cast<int>(to.size()), static_cast<int>(at));
        at += to.size();
        return rc;
      });
    });
  }
  if (sparse.columnStarts.front() != 0 || sparse.columnStarts.back() != static_cast<std::int64_t>(entries))
    throw damaged(shape + " whose column starts do not run from 0 to its " + std::to_string(entries) + " entries");
  for (std::size_t column = 0; column < c; ++column)
    if (sparse.columnStarts[column] > sparse.columnStarts[column + 1])
      throw damaged(shape + " whose column " + std::to_string(column) + " starts after the next");
  for (const auto row : sparse.rowIndices)
    if (row < 0 || row >= rows) throw damaged(shape + " with an entry in row " + std::to_string(row));
  return sparse;
}

}  // namespace

namespace {

// Replaces the run's matrix (name, iteration) with a row whose blob is `blobBytes` zeros, written
// in place afterwards; returns the row's id. Deleted first rather than replaced: the delete takes
// an earlier version's parts with it. A blob of zeros overwritten in place, because bound as a
// value SQLite would copy the matrix once for the binding and again for the row (hundreds of
// megabytes each for a topic-word matrix at K = 1000, and most of the time a stopped run spends
// storing it).
std::int64_t insertZeroedMatrixRow(Project& project, std::int64_t runId, const std::string& name,
                                   std::int64_t iteration, std::int64_t rows, std::int64_t cols,
                                   std::string_view element, std::int64_t blobBytes) {
  auto remove = project.db().prepare("DELETE FROM run_matrices WHERE run_id = ?1 AND name = ?2 AND iteration = ?3");
  remove.bind(1, runId).bind(2, name).bind(3, iteration).run();
  auto s = project.db().prepare(
      "INSERT INTO run_matrices (run_id, name, iteration, rows, cols, element, data) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6, zeroblob(?7))");
  s.bind(1, runId).bind(2, name).bind(3, iteration).bind(4, rows).bind(5, cols);
  s.bind(6, std::string(element)).bind(7, blobBytes).run();
  return project.db().lastInsertId();
}

// saveMatrix of doubles (stored as `element`) or of floats (stored as float32 as they are).
template <typename Scalar>
void saveMatrixValues(Project& project, std::int64_t runId, const std::string& name, std::int64_t iteration,
                      const Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>& values, std::size_t partBytes,
                      MatrixElement element) {
  // Doubles stored as floats are converted on the way; anything else is written as it is held.
  const bool convert = std::is_same_v<Scalar, double> && element == MatrixElement::Float32;
  const std::size_t size = elementBytes(element);
  const auto count = static_cast<std::size_t>(values.size());
  const std::size_t bytes = count * size;
  // Whole values in one blob and in every part.
  const bool inParts = bytes > std::max<std::size_t>(partBytes / size, 1) * size;
  const std::size_t part = std::max<std::size_t>(std::min(partBytes, kMatrixPartWriteBytes) / size, 1) * size;
  inTransaction(project.db(), [&] {
    const auto row = insertZeroedMatrixRow(project, runId, name, iteration, values.rows(), values.cols(),
                                           elementName(element), static_cast<std::int64_t>(inParts ? 0 : bytes));
    if (!inParts) {
      if (bytes == 0) return;
      useBlobInPlace(project.db(), "run_matrices", row, true, [&](sqlite3_blob* blob) {
        if constexpr (std::is_same_v<Scalar, double>)
          if (convert) return writeFloats(blob, values.data(), count, 0);
        const auto* from = reinterpret_cast<const char*>(values.data());
        int rc = SQLITE_OK;
        for (std::size_t at = 0; rc == SQLITE_OK && at < bytes; at += kBlobChunk)
          rc = sqlite3_blob_write(blob, from + at, static_cast<int>(std::min(kBlobChunk, bytes - at)),
                                  static_cast<int>(at));
        return rc;
      });
      return;
    }
    // run_matrix_parts is a WITHOUT ROWID table, which incremental blob I/O cannot open: each
    // part is bound as a value (converted floats from a buffer of one part).
    auto parts = project.db().prepare(
        "INSERT INTO run_matrix_parts (run_id, name, iteration, part, data) VALUES (?1, ?2, ?3, ?4, ?5)");
    std::vector<float> floats;
    const std::size_t perPart = part / size;
    for (std::size_t first = 0, k = 0; first < count; first += perPart, ++k) {
      const std::size_t n = std::min(perPart, count - first);
      parts.bind(1, runId).bind(2, name).bind(3, iteration).bind(4, static_cast<std::int64_t>(k));
      if (convert) {
        floats.resize(n);
        for (std::size_t i = 0; i < n; ++i) floats[i] = static_cast<float>(values.data()[first + i]);
        parts.bindBlob(5, floats.data(), n * sizeof(float));
      } else {
        parts.bindBlob(5, values.data() + first, n * sizeof(Scalar));
      }
      parts.run();
    }
  });
}

}  // namespace

void saveMatrix(Project& project, std::int64_t runId, const std::string& name, std::int64_t iteration,
                const Eigen::MatrixXd& values, std::size_t partBytes, MatrixElement element) {
  saveMatrixValues(project, runId, name, iteration, values, partBytes, element);
}

void saveFloatMatrix(Project& project, std::int64_t runId, const std::string& name, std::int64_t iteration,
                     const Eigen::MatrixXf& values, std::size_t partBytes) {
  saveMatrixValues(project, runId, name, iteration, values, partBytes, MatrixElement::Float32);
}

namespace {

// A sparse matrix's stored bytes, as one blob would hold them, cut into parts of `part` bytes
// (run_matrix_parts, schema 17), each bound as a value from a buffer of one part.
void writeSparseParts(Project& project, std::int64_t runId, const std::string& name, std::int64_t iteration,
                      const FilledSparseMatrix& values, std::size_t part) {
  auto parts = project.db().prepare(
      "INSERT INTO run_matrix_parts (run_id, name, iteration, part, data) VALUES (?1, ?2, ?3, ?4, ?5)");
  std::vector<std::byte> buffer;
  buffer.reserve(part);
  std::int64_t next = 0;
  const auto flush = [&] {
    parts.bind(1, runId).bind(2, name).bind(3, iteration).bind(4, next++);
    parts.bindBlob(5, buffer.data(), buffer.size());
    parts.run();
    buffer.clear();
  };
  const auto put = [&](const auto& array) {
    const auto bytes = std::as_bytes(std::span(array));
    for (std::size_t at = 0; at < bytes.size();) {
      const std::size_t n = std::min(part - buffer.size(), bytes.size() - at);
      buffer.insert(buffer.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at),
                    bytes.begin() + static_cast<std::ptrdiff_t>(at + n));
      at += n;
      if (buffer.size() == part) flush();
    }
  };
  put(values.rowFill);
  put(values.columnStarts);
  put(values.rowIndices);
  put(values.values);
  if (!buffer.empty()) flush();
}

}  // namespace

void saveSparseMatrix(Project& project, std::int64_t runId, const std::string& name, std::int64_t iteration,
                      const FilledSparseMatrix& values, MatrixElement denseElement, std::size_t partBytes) {
  const auto rows = static_cast<std::uint64_t>(values.rows), cols = static_cast<std::uint64_t>(values.cols);
  if (values.rowFill.size() != rows || values.columnStarts.size() != cols + 1 ||
      values.rowIndices.size() != values.values.size() || values.columnStarts.front() != 0 ||
      values.columnStarts.back() != static_cast<std::int64_t>(values.values.size()))
    throw std::logic_error("saveSparseMatrix: the arrays of " + name + " do not fit its shape");
  const std::uint64_t bytes = sparseHeadBytes(rows, cols) + values.entries() * kSparseEntryBytes;
  if (bytes >= rows * cols * elementBytes(denseElement)) {
    // Written out in the element's own type: a large matrix stored as float32 never has a matrix of
    // doubles formed for it (twice the bytes).
    if (denseElement == MatrixElement::Float32)
      saveFloatMatrix(project, runId, name, iteration, values.toDenseFloats(), partBytes);
    else
      saveMatrix(project, runId, name, iteration, values.toDense(), partBytes, denseElement);
    return;
  }
  const bool inParts = bytes > partBytes;
  inTransaction(project.db(), [&] {
    const auto row = insertZeroedMatrixRow(project, runId, name, iteration, static_cast<std::int64_t>(rows),
                                           static_cast<std::int64_t>(cols), kSparseElement,
                                           static_cast<std::int64_t>(inParts ? 0 : bytes));
    if (inParts) {
      writeSparseParts(project, runId, name, iteration, values,
                       std::max<std::size_t>(std::min(partBytes, kMatrixPartWriteBytes), 1));
      return;
    }
    // As saveMatrix: the arrays are written into the row's zero blob in place.
    useBlobInPlace(project.db(), "run_matrices", row, true, [&](sqlite3_blob* blob) {
      std::uint64_t at = 0;
      int rc = writeArray(blob, values.rowFill, at);
      if (rc == SQLITE_OK) rc = writeArray(blob, values.columnStarts, at);
      if (rc == SQLITE_OK) rc = writeArray(blob, values.rowIndices, at);
      if (rc == SQLITE_OK) rc = writeArray(blob, values.values, at);
      return rc;
    });
  });
}

namespace {

// A run's matrix as stored; a float32 one as floats where `keepFloats`, else as doubles.
std::optional<StoredMatrix> readStoredMatrix(Project& project, std::int64_t runId, const std::string& name,
                                             std::int64_t iteration, bool keepFloats) {
  auto s = project.db().prepare(
      "SELECT rows, cols, element, length(data), rowid FROM run_matrices WHERE run_id = ?1 AND name = ?2 AND "
      "iteration = ?3");
  s.bind(1, runId).bind(2, name).bind(3, iteration);
  if (!s.step()) return std::nullopt;
  const auto rows = s.integer(0), cols = s.integer(1);
  const std::string where =
      "run " + std::to_string(runId) + ", matrix " + name + ", iteration " + std::to_string(iteration);
  const std::string element = s.text(2);
  // An empty blob for a matrix with values: the values are in parts (schema 13; a sparse one's
  // bytes, schema 17, which are never empty). While `s` is being read the connection keeps one read
  // transaction, so the sizes and the values read below are of the same version of the file.
  std::int64_t stored = s.integer(3);
  const std::int64_t rowid = s.integer(4);
  const bool inParts = stored == 0 && rows > 0 && cols > 0;
  if (inParts) {
    auto total = project.db().prepare(
        "SELECT coalesce(sum(length(data)), 0) FROM run_matrix_parts WHERE run_id = ?1 AND name = ?2 AND "
        "iteration = ?3");
    total.bind(1, runId).bind(2, name).bind(3, iteration);
    stored = total.step() ? total.integer(0) : 0;
  }
  if (element == kSparseElement) {
    std::optional<PartBytes> parts;
    if (inParts) parts.emplace(project, runId, name, iteration);
    return readSparseMatrix(project, where, rows, cols, stored, rowid, parts ? &*parts : nullptr);
  }
  if (element != "f64" && element != "f32")
    throw damagedProject(project, "run_matrices", where, "an element type '" + element + "'");
  const std::size_t size = element == "f32" ? sizeof(float) : sizeof(double);
  const std::string unit = element == "f32" ? "floats" : "doubles";
  // The size is checked before the matrix is made, divided rather than multiplied so that crafted
  // sizes cannot overflow; the values are then read straight into it, with no second copy.
  const auto count = stored / static_cast<std::int64_t>(size);
  if (rows < 0 || cols < 0 || stored % static_cast<std::int64_t>(size) != 0 ||
      (cols == 0 ? count != 0 : count % cols != 0 || count / cols != rows))
    throw damagedProject(project, inParts ? "run_matrix_parts" : "run_matrices", where,
                         "a " + std::to_string(rows) + " x " + std::to_string(cols) + " matrix stored in " +
                             std::to_string(stored) + " bytes of " + unit);
  // Reads the values into a matrix of Scalar: doubles from either element, or floats from floats
  // (never asked to narrow doubles).
  const auto read = [&](auto zero) {
    using Scalar = decltype(zero);
    Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> values(rows, cols);
    std::size_t filled = 0;
    // Appends whole stored values; false when they would go past the matrix.
    const auto append = [&](std::span<const std::byte> data) {
      const std::size_t n = data.size() / size;
      if (n > static_cast<std::size_t>(count) - filled) return false;
      Scalar* to = values.data() + filled;
      if (size == sizeof(Scalar)) {
        if (n > 0) std::memcpy(to, data.data(), n * sizeof(Scalar));
      } else {
        for (std::size_t i = 0; i < n; ++i) {
          float value = 0.0F;
          std::memcpy(&value, data.data() + i * sizeof(float), sizeof(float));
          to[i] = value;
        }
      }
      filled += n;
      return true;
    };
    if (!inParts) {
      // Read through incremental blob I/O: a blob read as a column would be copied whole first.
      if (count > 0)
        useBlobInPlace(project.db(), "run_matrices", rowid, false, [&](sqlite3_blob* blob) {
          int rc = SQLITE_OK;
          if (size == sizeof(Scalar)) {
            auto* to = reinterpret_cast<char*>(values.data());
            const auto bytes = static_cast<std::size_t>(stored);
            for (std::size_t at = 0; rc == SQLITE_OK && at < bytes; at += kBlobChunk)
              rc = sqlite3_blob_read(blob, to + at, static_cast<int>(std::min(kBlobChunk, bytes - at)),
                                     static_cast<int>(at));
            return rc;
          }
          std::vector<float> buffer(std::min(static_cast<std::size_t>(count), kFloatChunk));
          for (std::size_t done = 0; rc == SQLITE_OK && done < static_cast<std::size_t>(count); done += buffer.size()) {
            const std::size_t n = std::min(buffer.size(), static_cast<std::size_t>(count) - done);
            rc = sqlite3_blob_read(blob, buffer.data(), static_cast<int>(n * sizeof(float)),
                                   static_cast<int>(done * sizeof(float)));
            for (std::size_t i = 0; rc == SQLITE_OK && i < n; ++i) values.data()[done + i] = buffer[i];
          }
          return rc;
        });
      return values;
    }
    auto parts = project.db().prepare(
        "SELECT part, data FROM run_matrix_parts WHERE run_id = ?1 AND name = ?2 AND iteration = ?3 ORDER BY part");
    parts.bind(1, runId).bind(2, name).bind(3, iteration);
    for (std::int64_t expected = 0; parts.step(); ++expected) {
      const auto data = parts.blob(1);
      if (parts.integer(0) != expected || data.size() % size != 0 || !append(data))
        throw damagedProject(
            project, "run_matrix_parts", where + ", part " + std::to_string(parts.integer(0)),
            "a part missing before it, or one of " + std::to_string(data.size()) + " bytes, not whole " + unit);
    }
    if (filled != static_cast<std::size_t>(count))
      throw damagedProject(project, "run_matrix_parts", where,
                           "parts of " + std::to_string(filled) + " values for " + std::to_string(count));
    return values;
  };
  if (keepFloats && size == sizeof(float)) return read(0.0F);
  return read(0.0);
}

}  // namespace

std::optional<Eigen::MatrixXd> loadMatrix(Project& project, std::int64_t runId, const std::string& name,
                                          std::int64_t iteration) {
  auto stored = readStoredMatrix(project, runId, name, iteration, false);
  if (!stored) return std::nullopt;
  if (const auto* sparse = std::get_if<FilledSparseMatrix>(&*stored)) return sparse->toDense();
  return std::move(std::get<Eigen::MatrixXd>(*stored));
}

std::optional<StoredMatrix> loadStoredMatrix(Project& project, std::int64_t runId, const std::string& name,
                                             std::int64_t iteration) {
  return readStoredMatrix(project, runId, name, iteration, true);
}

std::vector<std::pair<std::string, std::int64_t>> listMatrices(Project& project, std::int64_t runId) {
  auto s = project.db().prepare("SELECT name, iteration FROM run_matrices WHERE run_id = ?1 ORDER BY name, iteration");
  s.bind(1, runId);
  std::vector<std::pair<std::string, std::int64_t>> out;
  while (s.step()) out.emplace_back(s.text(0), s.integer(1));
  return out;
}

}  // namespace latent::core
