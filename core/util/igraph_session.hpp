// SPDX-License-Identifier: GPL-3.0-or-later
// One caller at a time inside igraph. igraph 0.10 as built by Debian is not thread-safe
// (IGRAPH_THREAD_SAFE 0): its error handler, warning handler and attribute table are process-wide.
// Every use in the engine (the GML/GraphML/Pajek readers, graph layouts) holds an IgraphSession:
// one mutex serialises them, and the handlers are swapped in for the session and restored after,
// so an igraph error becomes a message here instead of igraph's default abort.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include <igraph/igraph.h>

namespace latent::core {

class IgraphSession {
 public:
  IgraphSession();
  ~IgraphSession();
  IgraphSession(const IgraphSession&) = delete;
  IgraphSession& operator=(const IgraphSession&) = delete;

  // The first reason igraph gave for an error in this session ("" when none), and its warnings
  // (the first few distinct ones).
  const std::string& error() const noexcept;
  const std::vector<std::string>& warnings() const noexcept;

 private:
  std::lock_guard<std::mutex> m_lock;
  igraph_error_handler_t* m_previousError = nullptr;
  igraph_warning_handler_t* m_previousWarning = nullptr;
};

}  // namespace latent::core
