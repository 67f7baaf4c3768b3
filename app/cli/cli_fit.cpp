// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli fit MODEL: runs a model on a dataset and records the run (DESIGN §6).
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iomanip>
#include <iostream>
#include <memory>

#include "cli_common.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"

namespace latent::cli {
namespace {

struct FitArgs {
  std::string model, project, dataset;
  std::optional<std::int64_t> k, iterations;
  std::uint64_t seed = 1;
  int threads = 1;
  double heldout = 0.0;
  int evalEvery = 10;
  bool json = false;
  bool distributed = false;
};

// Six significant digits, or a fixed number of decimals.
std::string number(double value, int digits = 6, bool fixedPoint = false) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, fixedPoint ? "%.*f" : "%.*g", digits, value);
  return buffer;
}

std::string number(const nlohmann::json& value) {
  return value.is_number_float() ? number(value.get<double>())
         : value.is_string()     ? value.get<std::string>()
                                 : value.dump();
}

// Prints each report as it arrives, as a JSON line or a readable line.
class ReportPrinter final : public core::TrainingObserver {
 public:
  ReportPrinter(const core::ModelInfo& model, bool json) : m_model(model), m_json(json) {}

  bool onReport(const core::IterationReport& r) override {
    if (!r.inChain()) {
      // Progress of the restarts for a person; machines read the restarts from the final line.
      if (!m_json) {
        const bool warp = r.phase == core::FitPhase::WarpStart;
        std::cout << (warp ? "warp start" : "restarts");
        if (r.start > 0) std::cout << " restart " << r.start;  // 0: every start at once
        std::cout << (warp ? " warp_start_sweep " : " restart_sweep ") << r.iteration << "  "
                  << number(r.seconds, 2, true) << " s\n"
                  << std::flush;
      }
      return true;
    }
    if (m_json) {
      nlohmann::json line = {{"iteration", r.iteration}, {"seconds", r.seconds}};
      line["train_objective"] =
          std::isfinite(r.trainObjective) ? nlohmann::json(r.trainObjective) : nlohmann::json(nullptr);
      if (r.heldout) line[m_model.heldoutKey] = *r.heldout;
      for (const auto& [key, value] : r.extras) line[key] = value;
      printJsonLine(line);
    } else {
      std::cout << "iteration " << std::left << std::setw(7) << r.iteration << "objective " << std::setw(12)
                << number(r.trainObjective);
      if (r.heldout) std::cout << "held-out " << std::setw(12) << number(*r.heldout);
      std::cout << number(r.seconds, 2, true) << " s\n" << std::flush;
    }
    return true;
  }

 private:
  const core::ModelInfo& m_model;
  bool m_json;
};

// The run `id` recorded as failed, if it is still running, with the iterations its reports reached.
void markDistributedRunFailed(const std::string& projectFile, std::int64_t id) {
  core::Project project(projectFile, core::Project::Access::ReadWriteExisting);
  if (core::loadRun(project, id).status != core::RunStatus::Running) return;
  const auto metrics = core::loadMetrics(project, id);
  const std::int64_t iterations = metrics.empty() ? 0 : metrics.back().iteration;
  const double seconds = metrics.empty() ? 0.0 : metrics.back().seconds;
  core::finishRun(project, id, core::RunStatus::Failed,
                  "a process of the distributed run ended, or mpirun was interrupted: the run ends at its last "
                  "snapshot",
                  seconds, iterations, nlohmann::json::object());
}

// The fit of one process of a distributed run. An error that only this process meets (a write
// process 0 could not make, a lost peer) ends the whole job, said first: the others would wait
// for this process in the chain's collectives, and it for them in MPI_Finalize. An error process
// 0 sent them all before the fit ends each of them as usual.
core::RunOutcome fitInGroup(core::Communicator* group, const std::function<core::RunOutcome()>& fit) {
  try {
    return fit();
  } catch (const std::exception& e) {
    if (group == nullptr || group->size() == 1 || group->endedTogether()) throw;
    std::cerr << "latent-cli: " << terminalSafe(e.what()) << "\n" << std::flush;
    const bool user = core::isUserError(e);
    const bool interrupted =
        dynamic_cast<const core::Cancelled*>(&e) != nullptr || dynamic_cast<const core::WriteAbandoned*>(&e) != nullptr;
    group->abort(user ? kExitBadInput : interrupted ? kExitInterrupted : kExitFailure);
    throw;
  }
}

}  // namespace

Command addFitCommand(CLI::App& app) {
  auto args = std::make_shared<FitArgs>();
  auto* sub = app.add_subcommand("fit", "Fit a model to a dataset; model options go after the others (--alpha 0.1)");
  sub->allow_extras();
  sub->add_option("model", args->model, "Model name (see latent-cli models)")->required();
  sub->add_option("--project", args->project, "Project file (.latent)")->required();
  sub->add_option("--dataset", args->dataset, "Dataset name or id")->required();
  sub->add_option("--k", args->k, "Number of topics, blocks or factors (models that have one)");
  sub->add_option("--iterations", args->iterations, "Number of iterations or epochs (iterative models)");
  sub->add_option("--seed", args->seed, "Random seed; same seed, threads and data give the same numbers")
      ->capture_default_str();
  sub->add_option("--threads", args->threads, "Worker threads")->capture_default_str();
  sub->add_option("--heldout", args->heldout, "Fraction of documents, dyads or ratings held out for evaluation")
      ->capture_default_str();
  sub->add_option("--eval-every", args->evalEvery, "Evaluate held-out metrics every this many iterations")
      ->capture_default_str();
  sub->add_flag("--json", args->json, "One JSON object per evaluation and a final one, each on a line");
  sub->add_flag("--distributed", args->distributed,
                "Spread the fit over the processes mpirun started (mpirun -np N latent-cli fit ...); process 0 "
                "alone reads the project (the others get the data from it) and writes the run. lda-gibbs with the "
                "sparse or wordwise sampler, pmf with the ALS solver");

  return {sub, [=]() -> int {
            auto model = core::createModel(args->model);
            const auto& info = model->info();
            core::RunRequest request;
            request.model = info.name;
            request.dataset = args->dataset;
            request.options = parseModelOptions(info, sub->remaining());
            if (args->k) request.options["k"] = *args->k;
            if (args->iterations) request.options["iterations"] = *args->iterations;
            request.seed = args->seed;
            request.threads = args->threads;
            request.heldout = args->heldout;
            request.evalEvery = args->evalEvery;
            std::unique_ptr<core::Communicator> group;
            if (args->distributed) {
              group = distributedGroup();
              request.communicator = group.get();
            }
            // The other processes of a distributed fit write nothing and print nothing.
            const bool root = group == nullptr || group->rank() == 0;

            ReportPrinter printer(info, args->json);
            auto announce = [&](const core::RunRecord& run) {
              // mpirun ends every process a second after asking (SIGTERM) once one of them has died or
              // it was interrupted itself: process 0, likely blocked on the lost one, marks the run failed
              // at once, keeping its last snapshot. A chain that still gets to stop overwrites this with
              // its own status.
              const bool distributedRun = group != nullptr && group->size() > 1;
              // The stop is acknowledged at once, with the fit's time when it came: the model stops within
              // DESIGN §4's bound, but the process ends only once the result is stored, which for a large
              // matrix takes longer. The final "stopped in" line, against this one, gives the model's share.
              onInterrupt([project = args->project, id = run.id, distributedRun, json = args->json,
                           started = std::chrono::steady_clock::now()] {
                if (!json) {
                  const std::chrono::duration<double> into = std::chrono::steady_clock::now() - started;
                  std::cerr << "latent-cli: stopping run " << id << " " << number(into.count(), 2, true)
                            << " s into the fit; it keeps what it has reached, which is being stored\n";
                }
                if (distributedRun) markDistributedRunFailed(project, id);
              });
              if (args->json) return;
              std::cout << "run " << run.id << ": " << info.name << " on '" << terminalSafe(run.datasetName)
                        << "' (seed " << run.seed << ", " << run.threads << (run.threads == 1 ? " thread" : " threads");
              if (run.heldout > 0) std::cout << ", " << run.heldout * 100 << "% held out";
              std::cout << ")\n";
            };
            const auto outcome = fitInGroup(group.get(), [&] {
              return core::runFit(args->project, request, root ? &printer : nullptr, interruptToken(), announce,
                                  projectWriteWait(args->project));
            });
            if (!root) return outcome.result.status == core::FitStatus::Cancelled ? kExitInterrupted : kExitOk;
            onInterrupt({});
            const auto& run = outcome.run;

            nlohmann::json final = {{"run", run.id},
                                    {"model", run.model},
                                    {"dataset", run.datasetName},
                                    {"k", run.options.value("k", std::int64_t{1})},
                                    {"seconds", run.seconds.value_or(0.0)},
                                    {"status", core::statusName(run.status)},
                                    {"iterations", run.iterations.value_or(0)},
                                    {"seed", run.seed}};
            for (const auto& [key, value] : run.finalMetrics.items()) final[key] = value;
            // What the model wants the user to know about a run that went through (lda-hmm on a corpus
            // without stop words): on stderr, and in the final line under "message".
            if (!run.message.empty() && run.status != core::RunStatus::Failed) {
              std::cerr << "latent-cli: " << run.message << "\n";
              final["message"] = run.message;
            }
            if (args->json) {
              printJsonLine(final);
            } else {
              std::cout << core::statusName(run.status) << " in " << number(run.seconds.value_or(0.0), 2, true)
                        << " s\n";
              if (run.finalMetrics.contains(info.heldoutKey))
                std::cout << "  " << run.heldoutName << ": " << number(run.finalMetrics[info.heldoutKey]) << "\n";
              for (const auto& [key, value] : run.finalMetrics.items())
                if (key != info.heldoutKey) std::cout << "  " << key << ": " << number(value) << "\n";
              std::cout << "export with: latent-cli export --project " << args->project << " --run " << run.id
                        << " --what metrics --out run" << run.id << "-metrics.csv\n";
            }
            return run.status == core::RunStatus::Stopped ? kExitInterrupted : kExitOk;
          }};
}

}  // namespace latent::cli
