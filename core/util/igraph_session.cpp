// SPDX-License-Identifier: GPL-3.0-or-later
// The process-wide igraph lock and the handlers that capture its errors and warnings.
#include "core/util/igraph_session.hpp"

#include <algorithm>

namespace latent::core {
namespace {

std::mutex& igraphMutex() {
  static std::mutex mutex;
  return mutex;
}

// Written only by the handlers below, while igraphMutex() is held.
std::string g_igraphError;
std::vector<std::string> g_igraphWarnings;

void captureError(const char* reason, const char*, int, igraph_error_t) {
  // igraph unwinds in stages, calling the handler once per stage; the first reason is the real one.
  if (g_igraphError.empty() && reason && *reason) g_igraphError = reason;
  IGRAPH_FINALLY_FREE();
}

void captureWarning(const char* reason, const char*, int) {
  if (reason && *reason && g_igraphWarnings.size() < 5 &&
      std::find(g_igraphWarnings.begin(), g_igraphWarnings.end(), reason) == g_igraphWarnings.end())
    g_igraphWarnings.emplace_back(reason);
}

}  // namespace

IgraphSession::IgraphSession() : m_lock(igraphMutex()) {
  g_igraphError.clear();
  g_igraphWarnings.clear();
  m_previousError = igraph_set_error_handler(&captureError);
  m_previousWarning = igraph_set_warning_handler(&captureWarning);
  // The C attribute table is set once and left in place: igraph_destroy frees attributes through
  // whatever table is set when it runs, so switching tables back and forth could free another
  // caller's graph with the wrong one.
  static bool attributesSet = false;
  if (!attributesSet) {
    igraph_set_attribute_table(&igraph_cattribute_table);
    attributesSet = true;
  }
}

IgraphSession::~IgraphSession() {
  igraph_set_warning_handler(m_previousWarning);
  igraph_set_error_handler(m_previousError);
}

const std::string& IgraphSession::error() const noexcept { return g_igraphError; }
const std::vector<std::string>& IgraphSession::warnings() const noexcept { return g_igraphWarnings; }

}  // namespace latent::core
