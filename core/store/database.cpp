// SPDX-License-Identifier: GPL-3.0-or-later
// SQLite wrapper implementation.
#include "core/store/database.hpp"

#include <sqlite3.h>

#include <cstdlib>
#include <utility>

namespace latent::core {
namespace {

[[noreturn]] void throwError(sqlite3* db, int rc, std::string_view what) {
  std::string message(what);
  message += ": ";
  message += db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  throw StoreError(message, rc);
}

// The primary result code of an extended one (SQLITE_BUSY_SNAPSHOT is SQLITE_BUSY).
int primaryCode(int code) noexcept { return code & 0xFF; }

sqlite3* openConnection(const std::string& name, int flags) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(name.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = "cannot open " + name + ": " + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
    sqlite3_close(db);
    throw StoreError(message, rc);
  }
  return db;
}

// A read fails as "read-only" (SQLITE_READONLY_DIRECTORY, _CANTINIT) only when the connection
// cannot set up the write-ahead log's shared memory.
bool cannotInitialiseWal(sqlite3* db) {
  sqlite3_stmt* probe = nullptr;
  if (sqlite3_prepare_v2(db, "SELECT count(*) FROM sqlite_master", -1, &probe, nullptr) != SQLITE_OK) {
    sqlite3_finalize(probe);
    return primaryCode(sqlite3_extended_errcode(db)) == SQLITE_READONLY;
  }
  const int rc = sqlite3_step(probe);
  sqlite3_finalize(probe);
  return rc != SQLITE_ROW && primaryCode(sqlite3_extended_errcode(db)) == SQLITE_READONLY;
}

bool hasWalContent(const std::filesystem::path& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path.string() + "-wal", ec);
  return !ec && size > 0;
}

// "file:" URI of a path (RFC 3986 escapes for what a URI reads specially), read as immutable.
std::string immutableUri(const std::filesystem::path& path) {
  std::string uri = "file:";
  for (const char c : std::filesystem::absolute(path).string()) {
    if (c == '%' || c == '?' || c == '#') {
      static constexpr char kHex[] = "0123456789ABCDEF";
      uri += '%';
      uri += kHex[(static_cast<unsigned char>(c) >> 4) & 0xF];
      uri += kHex[static_cast<unsigned char>(c) & 0xF];
    } else {
      uri += c;
    }
  }
  return uri + "?immutable=1";
}

}  // namespace

bool StoreError::busy() const noexcept { return primaryCode(m_code) == SQLITE_BUSY; }

Statement::Statement(sqlite3* db, std::string_view sql) : m_db(db) {
  const int rc = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &m_stmt, nullptr);
  if (rc != SQLITE_OK) throwError(db, rc, "cannot prepare SQL statement");
}

Statement::~Statement() { sqlite3_finalize(m_stmt); }

Statement::Statement(Statement&& other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr)), m_db(std::exchange(other.m_db, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    sqlite3_finalize(m_stmt);
    m_stmt = std::exchange(other.m_stmt, nullptr);
    m_db = std::exchange(other.m_db, nullptr);
  }
  return *this;
}

void Statement::fail(int rc) const { throwError(m_db, rc, "database error"); }

Statement& Statement::bind(int index, std::int64_t value) {
  if (const int rc = sqlite3_bind_int64(m_stmt, index, value); rc != SQLITE_OK) fail(rc);
  return *this;
}

Statement& Statement::bind(int index, double value) {
  if (const int rc = sqlite3_bind_double(m_stmt, index, value); rc != SQLITE_OK) fail(rc);
  return *this;
}

Statement& Statement::bind(int index, std::string_view text) {
  // A default string_view has a null data pointer, which SQLite would store as NULL, not "".
  const char* data = text.data() ? text.data() : "";
  const int rc = sqlite3_bind_text64(m_stmt, index, data, text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK) fail(rc);
  return *this;
}

Statement& Statement::bindBlob(int index, const void* data, std::size_t bytes) {
  // A zero-length blob is still a blob, not NULL.
  const int rc = bytes == 0 ? sqlite3_bind_zeroblob(m_stmt, index, 0)
                            : sqlite3_bind_blob64(m_stmt, index, data, bytes, SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) fail(rc);
  return *this;
}

Statement& Statement::bindNull(int index) {
  if (const int rc = sqlite3_bind_null(m_stmt, index); rc != SQLITE_OK) fail(rc);
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(m_stmt);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(rc);
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(m_stmt);
  sqlite3_clear_bindings(m_stmt);
}

bool Statement::isNull(int column) const { return sqlite3_column_type(m_stmt, column) == SQLITE_NULL; }
std::int64_t Statement::integer(int column) const { return sqlite3_column_int64(m_stmt, column); }
double Statement::real(int column) const { return sqlite3_column_double(m_stmt, column); }

std::string Statement::text(int column) const {
  const auto* p = sqlite3_column_text(m_stmt, column);
  const int n = sqlite3_column_bytes(m_stmt, column);
  return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n)) : std::string();
}

std::span<const std::byte> Statement::blob(int column) const {
  const void* p = sqlite3_column_blob(m_stmt, column);
  const int n = sqlite3_column_bytes(m_stmt, column);
  return {static_cast<const std::byte*>(p), p ? static_cast<std::size_t>(n) : 0};
}

Database::Database(const std::filesystem::path& path, Mode mode) : m_mode(mode) {
  const int flags = mode == Mode::ReadOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  m_db = openConnection(path.string(), flags);
  if (mode == Mode::ReadOnly && cannotInitialiseWal(m_db) && !hasWalContent(path)) {
    // A WAL project in a folder this user cannot write: SQLite cannot create the shared-memory
    // file a reader needs. With no write-ahead log beside it, everything is in the file itself,
    // and no one who cannot write the folder can start one, so it is read as immutable.
    sqlite3_close(m_db);
    m_db = openConnection(immutableUri(path), flags | SQLITE_OPEN_URI);
  }
  setBusyTimeout(defaultBusyTimeout());
  sqlite3_extended_result_codes(m_db, 1);
  try {
    exec("PRAGMA foreign_keys = ON");
  } catch (...) {
    sqlite3_close(m_db);
    throw;
  }
}

Database::~Database() { sqlite3_close(m_db); }

std::chrono::milliseconds Database::defaultBusyTimeout() {
  if (const char* text = std::getenv("LATENT_BUSY_TIMEOUT_MS")) {
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (end != text && *end == '\0' && value >= 0) return std::chrono::milliseconds(value);
  }
  return std::chrono::milliseconds(10000);
}

void Database::setBusyTimeout(std::chrono::milliseconds timeout) {
  m_busyTimeout = timeout;
  sqlite3_busy_timeout(m_db, static_cast<int>(timeout.count()));
}

void Database::exec(const std::string& sql) {
  char* error = nullptr;
  const int rc = sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &error);
  if (rc != SQLITE_OK) {
    std::string message = error ? error : sqlite3_errstr(rc);
    sqlite3_free(error);
    throw StoreError("database error: " + message, sqlite3_extended_errcode(m_db));
  }
}

std::int64_t Database::queryInteger(const std::string& sql) {
  Statement s = prepare(sql);
  return s.step() ? s.integer(0) : 0;
}

std::int64_t Database::lastInsertId() const { return sqlite3_last_insert_rowid(m_db); }

std::int64_t Database::changes() const { return sqlite3_changes64(m_db); }

bool Database::inTransaction() const noexcept { return sqlite3_get_autocommit(m_db) == 0; }

Transaction::Transaction(Database& db) : m_db(db) { m_db.exec("BEGIN IMMEDIATE"); }

Transaction::Transaction(Database& db, std::chrono::milliseconds wait) : m_db(db) {
  const auto usual = m_db.busyTimeout();
  m_db.setBusyTimeout(wait);
  try {
    m_db.exec("BEGIN IMMEDIATE");
  } catch (const StoreError& e) {
    m_db.setBusyTimeout(usual);
    if (!e.busy()) throw;
    m_done = true;  // never began: nothing to roll back
    return;
  }
  m_db.setBusyTimeout(usual);
}

Transaction::~Transaction() {
  if (!m_done) {
    try {
      m_db.exec("ROLLBACK");
    } catch (...) {
      // Nothing more can be done; SQLite rolls back on close.
    }
  }
}

void Transaction::commit() {
  m_db.exec("COMMIT");
  m_done = true;
}

std::string withClause(std::string_view select, std::string_view clause) {
  std::string query(select);
  query += clause;
  return query;
}

}  // namespace latent::core
