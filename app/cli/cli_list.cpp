// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli datasets | runs | samples | models: what a project, this build and its samples hold.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli_common.hpp"
#include "core/jobs/samples.hpp"
#include "core/models/model.hpp"
#include "core/store/run_maintenance.hpp"
#include "core/store/run_store.hpp"

namespace latent::cli {
namespace {

// Wide enough for the longest status ("interrupted") and a space.
constexpr int kStatusWidth = 12;

// A size in bytes as people read it: "812 B", "4.5 kB", "110.1 MB", "1.20 GB" (powers of 1000).
std::string readableBytes(std::int64_t bytes) {
  char text[32];
  const auto b = static_cast<double>(bytes);
  if (bytes < 1000)
    std::snprintf(text, sizeof text, "%lld B", static_cast<long long>(bytes));
  else if (b < 1e6)
    std::snprintf(text, sizeof text, "%.1f kB", b / 1e3);
  else if (b < 1e9)
    std::snprintf(text, sizeof text, "%.1f MB", b / 1e6);
  else
    std::snprintf(text, sizeof text, "%.2f GB", b / 1e9);
  return text;
}

std::string summaryText(const core::DatasetInfo& d) {
  if (!d.damage.empty()) return "damaged: " + d.damage;
  const auto& s = d.summary;
  // The summary is the project file's word, not ours: a value of the wrong type reads as absent.
  auto count = [&](const char* key) {
    const auto it = s.find(key);
    return withThousands(it != s.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0);
  };
  auto flag = [&](const char* key) {
    const auto it = s.find(key);
    return it != s.end() && it->is_boolean() && it->get<bool>();
  };
  switch (d.kind) {
    case core::DataKind::Corpus: {
      std::string text =
          count("documents") + " documents, " + count("tokens") + " tokens, " + count("vocabulary") + " words";
      if (s.contains("links")) text += ", " + count("links") + " links";
      if (const auto it = s.find("metadata_columns"); it != s.end() && it->is_array()) {
        std::string names;
        for (const auto& n : *it)
          if (n.is_string()) names += (names.empty() ? "" : ", ") + terminalSafe(n.get<std::string>());
        if (!names.empty()) text += ", metadata: " + names;
      }
      return text;
    }
    case core::DataKind::Graph: {
      std::string text = count("nodes") + " nodes, " + count("edges") + (flag("directed") ? " arcs" : " edges");
      // A graph of several relations counts the first's edges above and names them all.
      if (const auto it = s.find("relations"); it != s.end() && it->is_array()) {
        std::string names;
        for (const auto& n : *it)
          if (n.is_string()) names += (names.empty() ? "" : ", ") + terminalSafe(n.get<std::string>());
        if (!names.empty()) text += " in the first of relations: " + names;
      }
      return text;
    }
    case core::DataKind::Ratings:
      return count("ratings") + " ratings, " + count("users") + " users, " + count("items") + " items";
    case core::DataKind::Table:
      return count("rows") + " rows, " + count("features") + " features" + (flag("binary") ? " (0/1)" : "");
  }
  return {};
}

std::string fixed(double value, int digits) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(digits) << value;
  return out.str();
}

// The headline number of a run: its model's held-out metric when it has one, else nothing.
std::string headline(const core::RunRecord& run) {
  for (const auto* info : core::modelCatalogue()) {
    if (info->name != run.model) continue;
    const auto& key = info->heldoutKey;
    if (!key.empty() && run.finalMetrics.contains(key) && run.finalMetrics[key].is_number())
      return key + " " + fixed(run.finalMetrics[key].get<double>(), 2);
  }
  return "";
}

}  // namespace

Command addDatasetsCommand(CLI::App& app) {
  auto project = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto* sub = app.add_subcommand("datasets", "List the datasets of a project");
  sub->add_option("--project", *project, "Project file (.latent)")->required();
  sub->add_flag("--json", *json, "One JSON object per dataset and line");
  return {sub, [=]() -> int {
            core::Project p(*project, core::Project::Access::ReadOnly);
            const auto datasets = p.datasets();
            if (*json) {
              for (const auto& d : datasets)
                printJsonLine({{"id", d.id},
                               {"name", d.name},
                               {"kind", std::string(core::toString(d.kind))},
                               {"format", d.format},
                               {"source", d.source},
                               {"created_at", d.createdAt},
                               {"summary", d.summary}});
              return kExitOk;
            }
            if (datasets.empty()) {
              std::cout << "no datasets in " << *project << " (import one with latent-cli import)\n";
              return kExitOk;
            }
            int nameWidth = 24;
            for (const auto& d : datasets)
              nameWidth = std::max(nameWidth, static_cast<int>(terminalSafe(d.name).size()) + 1);
            std::cout << std::left << std::setw(5) << "id" << std::setw(nameWidth) << "name" << std::setw(9) << "kind"
                      << std::setw(11) << "format"
                      << "contents\n";
            for (const auto& d : datasets)
              std::cout << std::setw(5) << d.id << std::setw(nameWidth) << terminalSafe(d.name) << std::setw(9)
                        << core::toString(d.kind) << std::setw(11) << d.format << summaryText(d) << "\n";
            return kExitOk;
          }};
}

Command addRunsCommand(CLI::App& app) {
  auto project = std::make_shared<std::string>();
  auto dataset = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto* sub = app.add_subcommand("runs", "List the runs of a project");
  sub->add_option("--project", *project, "Project file (.latent)")->required();
  sub->add_option("--dataset", *dataset, "Only the runs on this dataset");
  sub->add_flag("--json", *json, "One JSON object per run and line");
  return {sub, [=]() -> int {
            core::Project p(*project, core::Project::Access::ReadOnly);
            std::optional<std::int64_t> only;
            if (!dataset->empty()) only = p.resolveDataset(*dataset).id;
            const auto runs = core::listRuns(p, only);
            if (*json) {
              for (const auto& r : runs) {
                nlohmann::json line = {{"run", r.id},
                                       {"dataset", r.datasetName},
                                       {"model", r.model},
                                       {"status", core::statusName(r.status)},
                                       {"seed", r.seed},
                                       {"threads", r.threads},
                                       {"heldout", r.heldout},
                                       {"options", r.options},
                                       {"created_at", r.createdAt},
                                       {"final", r.finalMetrics}};
                line["seconds"] = r.seconds ? nlohmann::json(*r.seconds) : nlohmann::json(nullptr);
                line["iterations"] = r.iterations ? nlohmann::json(*r.iterations) : nlohmann::json(nullptr);
                if (!r.message.empty()) line["message"] = r.message;
                // A run's own name and notes (schema 14), only when it has them.
                if (!r.name.empty()) line["name"] = r.name;
                if (!r.notes.empty()) line["notes"] = r.notes;
                // What the run's matrices take in the project, final results and snapshots.
                const auto storage = core::runStorage(p, r.id);
                line["matrix_bytes"] = storage.matrixBytes;
                line["snapshot_bytes"] = storage.snapshotBytes;
                printJsonLine(line);
              }
              return kExitOk;
            }
            if (runs.empty()) {
              std::cout << "no runs in " << *project << " (start one with latent-cli fit)\n";
              return kExitOk;
            }
            // Columns as wide as their longest entry and a space ("rbm-gaussian" is 12 characters).
            int datasetWidth = 20, modelWidth = 12;
            for (const auto& r : runs) {
              datasetWidth = std::max(datasetWidth, static_cast<int>(terminalSafe(r.datasetName).size()) + 1);
              modelWidth = std::max(modelWidth, static_cast<int>(r.model.size()) + 1);
            }
            std::cout << std::left << std::setw(6) << "run" << std::setw(datasetWidth) << "dataset"
                      << std::setw(modelWidth) << "model" << std::setw(kStatusWidth) << "status" << std::setw(8)
                      << "seed" << std::setw(9) << "seconds"
                      << "result\n";
            for (const auto& r : runs)
              std::cout << std::setw(6) << r.id << std::setw(datasetWidth) << terminalSafe(r.datasetName)
                        << std::setw(modelWidth) << r.model << std::setw(kStatusWidth) << core::statusName(r.status)
                        << std::setw(8) << r.seed << std::setw(9) << (r.seconds ? fixed(*r.seconds, 2) : "-")
                        << headline(r) << "  (" << readableBytes(core::runStorage(p, r.id).matrixBytes) << " stored)"
                        << (r.name.empty() ? "" : "  \"" + terminalSafe(r.name) + "\"") << "\n";
            return kExitOk;
          }};
}

Command addSamplesCommand(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  auto* sub = app.add_subcommand("samples", "List the built-in sample datasets");
  sub->add_flag("--json", *json, "One JSON object per sample and line");
  return {sub, [=]() -> int {
            // The name column as wide as the longest name, and a space more ("sampson-relations").
            std::size_t nameWidth = 12;
            for (const auto& s : core::builtInSamples()) nameWidth = std::max(nameWidth, s.name.size() + 2);
            for (const auto& s : core::builtInSamples()) {
              if (*json) {
                printJsonLine({{"name", s.name},
                               {"kind", std::string(core::toString(s.kind))},
                               {"title", s.title},
                               {"description", s.description},
                               {"file", (core::samplesDirectory() / s.file).string()}});
              } else {
                std::cout << std::left << std::setw(static_cast<int>(nameWidth)) << s.name << std::setw(9)
                          << core::toString(s.kind) << s.title << "\n";
              }
            }
            return kExitOk;
          }};
}

Command addModelsCommand(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  auto* sub = app.add_subcommand("models", "List the models and their options");
  sub->add_flag("--json", *json, "One JSON object per model and line");
  return {sub, [=]() -> int {
            for (const auto* m : core::modelCatalogue()) {
              if (*json) {
                nlohmann::json options = nlohmann::json::array();
                for (const auto& o : m->options)
                  options.push_back({{"name", o.name}, {"default", o.defaultValue}, {"help", o.help}});
                nlohmann::json alsoFits = nlohmann::json::array();
                for (const auto k : m->alsoFits) alsoFits.push_back(std::string(core::toString(k)));
                printJsonLine({{"name", m->name},
                               {"kind", std::string(core::toString(m->kind))},
                               {"also_fits", alsoFits},
                               {"title", m->title},
                               {"objective", m->objectiveName},
                               {"heldout", m->heldoutName},
                               {"options", options}});
                continue;
              }
              std::cout << m->name << " (" << core::toString(m->kind);
              for (const auto k : m->alsoFits) std::cout << ", " << core::toString(k);
              std::cout << "): " << m->title << "\n  " << m->description << "\n";
              // Columns as wide as this model's longest name and default; names with dashes, as
              // typed on the command line (underscores are accepted too).
              std::size_t nameWidth = 0, defaultWidth = 0;
              for (const auto& o : m->options) {
                nameWidth = std::max(nameWidth, o.name.size());
                defaultWidth = std::max(defaultWidth, o.defaultValue.dump().size());
              }
              for (const auto& o : m->options) {
                std::string flag = o.name;
                std::replace(flag.begin(), flag.end(), '_', '-');
                std::cout << "  --" << std::left << std::setw(static_cast<int>(nameWidth + 2)) << flag << "default "
                          << std::setw(static_cast<int>(defaultWidth + 2)) << o.defaultValue.dump() << o.help << "\n";
              }
            }
            return kExitOk;
          }};
}

}  // namespace latent::cli
