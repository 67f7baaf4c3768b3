// SPDX-License-Identifier: GPL-3.0-or-later
// Background work at a lower scheduling priority than the thread that draws the window: on a
// machine with as many busy fits as cores, the GUI thread then still gets a core when it needs
// one (tests/benchmarks/README.md, "GUI responsiveness while two fits run").
#pragma once

namespace latent::core {

// Lowers the calling thread's priority (Linux: nice +10 for this thread only; elsewhere nothing)
// and marks it as background work. An unprivileged process cannot raise it back, so call it only
// on threads that do nothing but background work.
void lowerCurrentThreadPriority() noexcept;
bool currentThreadIsBackground() noexcept;

}  // namespace latent::core
