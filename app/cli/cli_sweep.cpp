// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli sweep MODEL --k 5,10,20: one run per value, held-out metric against K (000 §27.3.8).
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli_common.hpp"
#include "core/jobs/sweep_job.hpp"
#include "core/util/errors.hpp"
#include "core/util/parse_number.hpp"

namespace latent::cli {
namespace {

std::vector<std::int64_t> parseValues(const std::string& list, const std::string& name) {
  std::vector<std::int64_t> values;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    const auto v = core::parseInteger(item);
    if (!v)
      throw core::UsageError("--" + name + " takes whole numbers separated by commas, such as 5,10,20 (got '" + item +
                             "')");
    values.push_back(*v);
  }
  return values;
}

}  // namespace

Command addSweepCommand(CLI::App& app) {
  struct Args {
    std::string model, project, dataset, values;
    std::string parameter = "k";
    std::optional<std::int64_t> iterations;
    std::uint64_t seed = 1;
    int threads = 1;
    double heldout = 0.1;
    int evalEvery = 10;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* sub =
      app.add_subcommand("sweep", "Fit a model for several numbers of topics or blocks and compare held-out metrics");
  sub->allow_extras();
  sub->add_option("model", args->model, "Model name (see latent-cli models)")->required();
  sub->add_option("--project", args->project, "Project file (.latent)")->required();
  sub->add_option("--dataset", args->dataset, "Dataset name or id")->required();
  sub->add_option("--k", args->values, "The values to try, separated by commas: 5,10,20,40")->required();
  sub->add_option("--iterations", args->iterations, "Iterations of every run");
  sub->add_option("--seed", args->seed, "Seed of every run (and of the held-out split)")->capture_default_str();
  sub->add_option("--threads", args->threads, "Worker threads")->capture_default_str();
  sub->add_option("--heldout", args->heldout, "Fraction held out for evaluation")->capture_default_str();
  sub->add_option("--eval-every", args->evalEvery, "Evaluate held-out metrics every this many iterations")
      ->capture_default_str();
  sub->add_flag("--json", args->json, "One JSON object per value and a final one, each on a line");
  return {sub, [=]() -> int {
            auto model = core::createModel(args->model);
            const auto& info = model->info();
            core::SweepRequest request;
            request.parameter = args->parameter;
            request.values = parseValues(args->values, args->parameter);
            request.base.model = info.name;
            request.base.dataset = args->dataset;
            request.base.options = parseModelOptions(info, sub->remaining());
            if (args->iterations) request.base.options["iterations"] = *args->iterations;
            request.base.seed = args->seed;
            request.base.threads = args->threads;
            request.base.heldout = args->heldout;
            request.base.evalEvery = args->evalEvery;
            {
              core::Project project(args->project, core::Project::Access::ReadWriteExisting);
              core::validateSweepRequest(project, request);
            }
            const std::string key = info.heldoutKey;
            auto metric = [&](const core::RunRecord& run, const std::string& name) -> nlohmann::json {
              return run.finalMetrics.contains(name) ? run.finalMetrics[name] : nlohmann::json(nullptr);
            };
            // Graph models may also report ICL (an information criterion, higher is better): shown
            // beside the held-out metric, "-" for those that do not compute it.
            const bool criterion = info.kind == core::DataKind::Graph;
            const int keyWidth = static_cast<int>(std::max<std::size_t>(22, key.size() + 2));
            if (!args->json) {
              std::cout << std::left << std::setw(8) << args->parameter << std::setw(7) << "run" << std::setw(10)
                        << "status" << std::setw(keyWidth) << key;
              if (criterion) std::cout << std::setw(14) << "icl";
              std::cout << "seconds\n";
            }
            auto outcome = core::runSweep(
                args->project, request, nullptr, interruptToken(),
                [&](std::int64_t value, const core::RunRecord& run) {
                  if (args->json) {
                    nlohmann::json line = {{args->parameter, value},
                                           {"run", run.id},
                                           {"status", core::statusName(run.status)},
                                           {"seconds", run.seconds.value_or(0.0)}};
                    for (const auto& [k, v] : run.finalMetrics.items())
                      if (k.rfind("heldout", 0) == 0 || k == "icl") line[k] = v;
                    printJsonLine(line);
                  } else {
                    auto text = [&](const std::string& name) {
                      const auto m = metric(run, name);
                      std::ostringstream number;
                      if (m.is_number())
                        number << m.get<double>();
                      else
                        number << "-";
                      return number.str();
                    };
                    std::ostringstream seconds;
                    seconds << std::fixed << std::setprecision(2) << run.seconds.value_or(0.0);
                    std::cout << std::setw(8) << value << std::setw(7) << run.id << std::setw(10)
                              << core::statusName(run.status) << std::setw(keyWidth) << text(key);
                    if (criterion) std::cout << std::setw(14) << text("icl");
                    std::cout << seconds.str() << "\n" << std::flush;
                  }
                },
                projectWriteWait(args->project));
            // The best value by the held-out metric (lower is better for perplexities and RMSE).
            std::optional<std::int64_t> best;
            double bestValue = 0;
            for (std::size_t i = 0; i < outcome.runs.size(); ++i) {
              const auto m = metric(outcome.runs[i], key);
              if (m.is_number() && (!best || m.get<double>() < bestValue)) {
                best = request.values[i];
                bestValue = m.get<double>();
              }
            }
            // ICL (integrated completed likelihood, Côme & Latouche 2015), where the model gives it: the highest.
            std::optional<std::int64_t> bestIcl;
            double bestIclValue = 0;
            for (std::size_t i = 0; i < outcome.runs.size(); ++i) {
              const auto m = metric(outcome.runs[i], "icl");
              if (m.is_number() && (!bestIcl || m.get<double>() > bestIclValue)) {
                bestIcl = request.values[i];
                bestIclValue = m.get<double>();
              }
            }
            if (args->json) {
              nlohmann::json final = {{"sweep", outcome.sweepId},      {"model", info.name},
                                      {"dataset", args->dataset},      {"parameter", args->parameter},
                                      {"points", outcome.runs.size()}, {"stopped", outcome.stopped}};
              final["best_" + args->parameter] = best ? nlohmann::json(*best) : nlohmann::json(nullptr);
              final["best_" + key] = best ? nlohmann::json(bestValue) : nlohmann::json(nullptr);
              if (bestIcl) final["best_icl_" + args->parameter] = *bestIcl;
              printJsonLine(final);
            } else {
              if (best)
                std::cout << "lowest " << info.heldoutName << ": " << bestValue << " at " << args->parameter << " = "
                          << *best << " (sweep " << outcome.sweepId << ")\n";
              if (bestIcl)
                std::cout << "highest ICL: " << bestIclValue << " at " << args->parameter << " = " << *bestIcl << "\n";
            }
            return outcome.stopped ? kExitInterrupted : kExitOk;
          }};
}

}  // namespace latent::cli
