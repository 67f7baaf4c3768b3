// SPDX-License-Identifier: GPL-3.0-or-later
// The ANES 1996 sample imported into a new project and one model fitted to it through the job, as
// the tests of the models of survey answers do.
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "core/jobs/fit_job.hpp"
#include "core/jobs/samples.hpp"
#include "core/store/project.hpp"

namespace latent::test {

// Creates the project `file`, imports the sample "anes96" and fits `model` with `options`, seed 1,
// a fifth of the voters held out.
inline core::RunOutcome fitOnAnes(const std::filesystem::path& file, const std::string& model,
                                  const nlohmann::json& options) {
  {
    core::Project project(file);
    core::importSample(project, "anes96");
  }
  core::RunRequest request;
  request.model = model;
  request.dataset = "anes96";
  request.options = options;
  request.seed = 1;
  request.heldout = 0.2;
  return core::runFit(file, request, nullptr, {});
}

}  // namespace latent::test
