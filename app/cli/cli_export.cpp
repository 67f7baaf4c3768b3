// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli export: a run's results as CSV (DESIGN §6).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli_common.hpp"
#include "io/run_export.hpp"
#include "util/errors.hpp"

namespace latent::cli {

Command addExportCommand(CLI::App& app) {
  auto project = std::make_shared<std::string>();
  auto run = std::make_shared<std::int64_t>(0);
  auto what = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  std::string kinds;
  for (const auto& k : core::exportKinds()) kinds += (kinds.empty() ? "" : "|") + k.name;
  auto* sub = app.add_subcommand("export", "Write a run's results as CSV");
  sub->add_option("--project", *project, "Project file (.latent)")->required();
  sub->add_option("--run", *run, "Run id (see latent-cli runs)")->required();
  sub->add_option("--what", *what, kinds)->required();
  sub->add_option("--out", *out, "CSV file to write, - for standard output")->required();
  return {sub, [=]() -> int {
            core::Project p(*project, core::Project::Access::ReadOnly);
            if (*out == "-") {
              core::exportRun(p, *run, *what, std::cout);
              return kExitOk;
            }
            // Written beside the target and renamed at the end: a failure never leaves half a file.
            const std::filesystem::path target(*out);
            const std::filesystem::path partial = target.string() + ".partial";
            try {
              std::ofstream file(partial, std::ios::binary | std::ios::trunc);
              if (!file) throw core::UsageError("cannot write " + target.string());
              core::exportRun(p, *run, *what, file);
              file.close();
              if (!file) throw std::runtime_error("writing " + target.string() + " failed (disk full?)");
              std::filesystem::rename(partial, target);
            } catch (...) {
              std::error_code ec;
              std::filesystem::remove(partial, ec);
              throw;
            }
            return kExitOk;
          }};
}

}  // namespace latent::cli
