// SPDX-License-Identifier: GPL-3.0-or-later
// Running one fit end to end: load the dataset, split off held-out data, record the run, run the
// model in a oneTBB arena of the requested size, store the result.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>

#include <nlohmann/json.hpp>

#include "core/models/model.hpp"
#include "core/store/run_store.hpp"
#include "core/store/write_wait.hpp"

namespace latent::core {

struct RunRequest {
  std::string model;
  std::string dataset;                                // name, or numeric id
  nlohmann::json options = nlohmann::json::object();  // model options; defaults fill the rest
  std::uint64_t seed = 1;
  int threads = 1;
  double heldout = 0.0;  // fraction of documents / dyads / ratings held out (seeded)
  int evalEvery = 10;
  std::optional<std::int64_t> sweepId;  // the sweep this run belongs to, if any
  // latent-cli fit --distributed: the processes that run this fit together (every one calls
  // runFit with the same request); null: this process alone.
  Communicator* communicator = nullptr;
  // FitSettings::float32MatrixBytes: left at its default but in tests of the float32 path.
  std::int64_t float32MatrixBytes = kFloat32MatrixBytes;
};

struct RunOutcome {
  RunRecord run;     // as finally stored
  FitResult result;  // matrices included
};

// Validates the request against the project and the model before anything is written
// (UsageError), so a bad request leaves no run behind. Returns the resolved model options.
nlohmann::json validateRunRequest(Project& project, const RunRequest& request);

// Runs synchronously on the calling thread (the GUI calls it from a JobRunner thread).
// `observer` (may be null) sees every report after the recorder has it; `onCreated` learns the
// run's record as soon as it exists. A model failure is recorded as a failed run and rethrown.
//
// Another process holding the project's write lock never makes the fit fail: while the model
// runs, the recorder keeps what it could not write (run_recorder.hpp), and the writes that must
// happen (creating the run, the final result and status) wait for the lock for as long as it
// takes, telling `wait.waiting`. `stop` stops the model, and the run is still recorded as
// stopped once the lock is free; only `wait.abandon` gives up a wait, throwing WriteAbandoned:
// the run then keeps what was written before and reads as interrupted once this process ends.
//
// Distributed (request.communicator): process 0 does all of the above and sends the others the
// loaded dataset (jobs/distributed_dataset.hpp), or what stopped it, which they then throw too;
// they never open the project, fit that dataset and write nothing (their outcome's run is
// empty), so the project file need only be on process 0's machine. A process
// lost during the fit makes the model throw (CommunicatorError) on the others: process 0 then
// records the run as failed, keeping its last snapshot.
RunOutcome runFit(const std::filesystem::path& projectFile, const RunRequest& request, TrainingObserver* observer,
                  std::stop_token stop, const std::function<void(const RunRecord&)>& onCreated = {},
                  const WriteWait& wait = {});

}  // namespace latent::core
