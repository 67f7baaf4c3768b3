// SPDX-License-Identifier: GPL-3.0-or-later
// Writes that must not fail because another process holds the project file's write lock.
#pragma once

#include <chrono>
#include <functional>
#include <limits>
#include <stop_token>

#include "core/store/database.hpp"

namespace latent::core {

// Thrown when a waiting writer was told to give up (WriteWait::abandon): what it was to write
// was not written.
class WriteAbandoned : public StoreError {
 public:
  using StoreError::StoreError;
};

// How a writer waits while another connection holds the write lock (an import, a fit, a
// sqlite3 shell in a transaction): it tries again, for as long as it takes unless told otherwise.
struct WriteWait {
  std::stop_token abandon;  // requested: give up waiting and throw WriteAbandoned
  // Told about once a second while waiting, with the seconds waited so far (not at all when the
  // lock was free or came free within the first try).
  std::function<void(double seconds)> waiting;
  double limitSeconds = std::numeric_limits<double>::infinity();  // then give up (returns false)
};

// The longest one try blocks on the lock before writeWhenFree looks at `abandon` again.
inline constexpr std::chrono::milliseconds kWriteAttempt{200};

// Runs `body` in one BEGIN IMMEDIATE ... COMMIT, beginning again while another connection holds
// the write lock; `body` may run more than once (a try that found the lock busy inside it is
// rolled back), so it must only write what it was given. True once committed; false when
// `limitSeconds` passed first. Other store errors are thrown as they are.
bool writeWhenFree(Database& db, const WriteWait& wait, const std::function<void()>& body);

}  // namespace latent::core
