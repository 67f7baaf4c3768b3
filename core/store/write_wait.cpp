// SPDX-License-Identifier: GPL-3.0-or-later
// writeWhenFree: short tries at the write lock until one gets it.
#include "core/store/write_wait.hpp"

#include <thread>

#include "core/util/clock.hpp"

namespace latent::core {

bool writeWhenFree(Database& db, const WriteWait& wait, const std::function<void()>& body) {
  const Stopwatch waited;
  double told = 0.0;
  for (;;) {
    if (wait.abandon.stop_requested())
      throw WriteAbandoned("gave up waiting for the project file, which another connection kept locked");
    const double tryStart = waited.seconds();
    {
      Transaction tx(db, kWriteAttempt);
      if (tx.active()) {
        try {
          body();
          tx.commit();
          return true;
        } catch (const StoreError& e) {
          if (!e.busy()) throw;
          // Rolled back when tx goes; the next try writes it all again.
        }
      }
    }
    // SQLite answers busy at once, without waiting, when waiting could deadlock; do not spin.
    if (waited.seconds() - tryStart < 0.05) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    const double seconds = waited.seconds();
    if (seconds >= wait.limitSeconds) return false;
    if (wait.waiting && seconds >= told + 1.0) {
      told = seconds;
      wait.waiting(seconds);
    }
  }
}

}  // namespace latent::core
