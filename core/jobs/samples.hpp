// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in sample datasets (resources/samples) and how each is imported.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/data/data_kind.hpp"
#include "core/jobs/import_job.hpp"

namespace latent::core {

struct SampleInfo {
  std::string name;  // "sotu", "sampson", ...
  DataKind kind = DataKind::Corpus;
  std::string title;           // one line
  std::string description;     // two sentences: what it is, what to look at
  std::filesystem::path file;  // relative to the samples folder
};

std::vector<SampleInfo> builtInSamples();

// The folder holding the samples: $LATENT_SAMPLES_DIR, else share/latent-studio/samples next to
// the installed binary, else the source tree this binary was built from.
std::filesystem::path samplesDirectory();

// Imports a sample under `name` (the sample's own name when empty). Throws UsageError for an
// unknown sample, naming the ones there are.
ImportResult importSample(Project& project, const std::string& sample, const std::string& name = {},
                          const ImportControl& control = {});

}  // namespace latent::core
