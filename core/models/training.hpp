// SPDX-License-Identifier: GPL-3.0-or-later
// What a model tells the outside world while it trains: reports, snapshots, its final status.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <Eigen/Core>

namespace latent::core {

enum class FitStatus {
  Converged,      // met its convergence test
  MaxIterations,  // ran the iterations it was given
  Cancelled,      // stopped on request; the state reached is kept
  Failed,
};

constexpr const char* toString(FitStatus s) noexcept {
  switch (s) {
    case FitStatus::Converged: return "converged";
    case FitStatus::MaxIterations: return "max-iterations";
    case FitStatus::Cancelled: return "cancelled";
    case FitStatus::Failed: return "failed";
  }
  return "failed";
}

// One report per evaluated iteration (DESIGN §4).
struct IterationReport {
  std::int64_t iteration = 0;  // 1-based
  double seconds = 0.0;        // since the fit started
  double trainObjective = std::numeric_limits<double>::quiet_NaN();
  std::optional<double> heldout;  // the held-out metric, when evaluated at this iteration
  std::vector<std::pair<std::string, double>> extras;  // model-specific (alpha, K, ...)
};

struct NamedMatrix {
  std::string name;  // "topic_word", "doc_topic", ...
  Eigen::MatrixXd values;
};

// The matrix called `name` among a result's or a snapshot's matrices; null when there is none.
inline const Eigen::MatrixXd* findMatrix(const std::vector<NamedMatrix>& matrices, std::string_view name) {
  for (const auto& m : matrices)
    if (m.name == name) return &m.values;
  return nullptr;
}

// A picture of the parameters in the middle of a run: written to the project so that a stopped
// or killed run keeps what it reached, and drawn by live views.
struct ModelSnapshot {
  std::int64_t iteration = 0;
  std::vector<NamedMatrix> matrices;
};

// Called on the worker thread. Implementations stay cheap and never block: copy and post.
class TrainingObserver {
 public:
  virtual ~TrainingObserver() = default;
  // Returning false asks the model to stop, like a stop request.
  virtual bool onReport(const IterationReport& report) = 0;
  virtual void onSnapshot(std::shared_ptr<const ModelSnapshot> snapshot) { (void)snapshot; }
};

// Forwards to several observers; stops when any of them asks to.
class ObserverList final : public TrainingObserver {
 public:
  void add(TrainingObserver* observer) {
    if (observer) m_observers.push_back(observer);
  }
  bool onReport(const IterationReport& report) override {
    bool keepGoing = true;
    for (auto* o : m_observers) keepGoing = o->onReport(report) && keepGoing;
    return keepGoing;
  }
  void onSnapshot(std::shared_ptr<const ModelSnapshot> snapshot) override {
    for (auto* o : m_observers) o->onSnapshot(snapshot);
  }

 private:
  std::vector<TrainingObserver*> m_observers;
};

}  // namespace latent::core
