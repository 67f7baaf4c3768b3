// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli export: a run's results as CSV (DESIGN §6).
#include <iostream>
#include <memory>

#include "cli_common.hpp"
#include "core/io/run_export.hpp"
#include "core/util/errors.hpp"

namespace latent::cli {

Command addExportCommand(CLI::App& app) {
  auto project = std::make_shared<std::string>();
  auto run = std::make_shared<std::int64_t>(0);
  auto what = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto iteration = std::make_shared<std::int64_t>(-1);
  std::string kinds;
  for (const auto& k : core::exportKinds()) kinds += (kinds.empty() ? "" : "|") + k.name;
  auto* sub =
      app.add_subcommand("export", "Write a run's results as CSV (a block model's graph also as GEXF or GraphML)");
  sub->add_option("--project", *project, "Project file (.latent)")->required();
  sub->add_option("--run", *run, "Run id (see latent-cli runs)")->required();
  sub->add_option("--what", *what, kinds)->required();
  sub->add_option("--out", *out, "File to write (CSV, or XML for gexf and graphml), - for standard output")->required();
  sub->add_option("--iteration", *iteration,
                  "matrix exports (topic-word, doc-topic, blocks, memberships, block-matrix, factors): the snapshot "
                  "taken at this iteration instead of the final result")
      ->check(CLI::NonNegativeNumber);
  return {sub, [=]() -> int {
            core::Project p(*project, core::Project::Access::ReadOnly);
            const auto snapshot = *iteration >= 0 ? std::optional<std::int64_t>(*iteration) : std::nullopt;
            std::int64_t written = -1;
            writeOutput(*out, *project,
                        [&](std::ostream& stream) { written = core::exportRun(p, *run, *what, stream, snapshot); });
            // A run killed before its end exports its latest snapshot: say which.
            if (written >= 0 && !snapshot)
              std::cerr << "run " << *run << " has no final result; wrote its latest snapshot, iteration " << written
                        << "\n";
            return kExitOk;
          }};
}

}  // namespace latent::cli
