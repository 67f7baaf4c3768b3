// SPDX-License-Identifier: GPL-3.0-or-later
// A thin RAII layer over the SQLite C API: connections, prepared statements, transactions.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace latent::core {

// A failure of the database itself (disk full, file locked, corrupt file), not of user input.
class StoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  StoreError(const std::string& what, int code) : std::runtime_error(what), m_code(code) {}
  // SQLite's extended result code; 0 when the error did not come from SQLite.
  int code() const noexcept { return m_code; }
  // Another connection held a lock for longer than this connection would wait.
  bool busy() const noexcept;

 private:
  int m_code = 0;
};

class Statement {
 public:
  Statement() = default;
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  // Parameters are 1-based, as in SQL's ?1, ?2 ...
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view text);
  Statement& bind(int index, const char* text) { return bind(index, std::string_view(text)); }
  Statement& bind(int index, const std::string& text) { return bind(index, std::string_view(text)); }
  Statement& bindBlob(int index, const void* data, std::size_t bytes);
  template <typename T>
  Statement& bindBlob(int index, std::span<const T> values) {
    return bindBlob(index, values.data(), values.size_bytes());
  }
  Statement& bindNull(int index);

  // Runs one step: true when a row is ready, false when done.
  bool step();
  // Steps to completion (for statements that return no rows) and resets for the next use.
  void run();
  void reset();

  bool isNull(int column) const;
  std::int64_t integer(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  std::span<const std::byte> blob(int column) const;

 private:
  [[noreturn]] void fail(int rc) const;
  sqlite3_stmt* m_stmt = nullptr;
  sqlite3* m_db = nullptr;
};

class Database {
 public:
  enum class Mode { ReadWrite, ReadOnly };

  // Opens (and with ReadWrite, creates) the file; WAL journal, foreign keys on, busy timeout
  // defaultBusyTimeout().
  Database(const std::filesystem::path& path, Mode mode);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  Statement prepare(std::string_view sql) { return Statement(m_db, sql); }
  // Runs one or more statements without parameters (schema scripts, pragmas).
  void exec(const std::string& sql);
  std::int64_t queryInteger(const std::string& sql);
  std::int64_t lastInsertId() const;
  // Rows changed by the last INSERT, UPDATE or DELETE.
  std::int64_t changes() const;
  bool readOnly() const noexcept { return m_mode == Mode::ReadOnly; }
  // True between BEGIN and COMMIT/ROLLBACK on this connection.
  bool inTransaction() const noexcept;
  sqlite3* handle() const noexcept { return m_db; }

  // How long a statement waits for another connection's lock before it fails with a busy
  // StoreError: 10 s, or the environment's LATENT_BUSY_TIMEOUT_MS (tests shorten it to show that
  // writers which must not fail outlast it).
  static std::chrono::milliseconds defaultBusyTimeout();
  std::chrono::milliseconds busyTimeout() const noexcept { return m_busyTimeout; }
  void setBusyTimeout(std::chrono::milliseconds timeout);

 private:
  sqlite3* m_db = nullptr;
  Mode m_mode;
  std::chrono::milliseconds m_busyTimeout{0};
};

// BEGIN IMMEDIATE ... COMMIT; rolls back when destroyed without commit(), so an exception
// anywhere in a write leaves the file as it was.
class Transaction {
 public:
  // Waits up to the connection's busy timeout for the write lock, then throws a busy StoreError.
  explicit Transaction(Database& db);
  // Waits at most `wait` for the write lock; when another connection keeps it longer, nothing
  // is thrown and active() is false (for writers that try again later instead of failing).
  Transaction(Database& db, std::chrono::milliseconds wait);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  bool active() const noexcept { return !m_done; }
  void commit();

 private:
  Database& m_db;
  bool m_done = false;
};

// Runs body() in a transaction of its own, unless the caller already holds one on `db`.
template <typename F>
void inTransaction(Database& db, F&& body) {
  if (db.inTransaction()) {
    body();
    return;
  }
  Transaction tx(db);
  body();
  tx.commit();
}

// A query's text: `select` with `clause` (WHERE ..., ORDER BY ...) appended. Appended in place,
// because with operator+ on a temporary GCC 12 at -O2 took the moved temporary for an
// out-of-bounds copy in some unity units (a false -Warray-bounds of that compiler).
std::string withClause(std::string_view select, std::string_view clause);

}  // namespace latent::core
