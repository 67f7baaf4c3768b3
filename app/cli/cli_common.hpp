// SPDX-License-Identifier: GPL-3.0-or-later
// What the latent-cli commands share: the stop token wired to Ctrl-C, output helpers.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <memory>
#include <ostream>
#include <stop_token>
#include <string>

#include <nlohmann/json.hpp>

#include "core/models/model.hpp"
#include "core/store/write_wait.hpp"
#include "core/util/communicator.hpp"

namespace latent::cli {

// Exit statuses of DESIGN §6, plus the conventional one for an interrupted command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;   // the machine failed us (disk full, database locked)
inline constexpr int kExitBadInput = 2;  // bad arguments or bad input files
inline constexpr int kExitInterrupted = 130;

// Requested by Ctrl-C (SIGINT/SIGTERM): imports roll back, fits are recorded as stopped.
std::stop_token interruptToken();
// Requested by a second Ctrl-C: a write waiting for another program to release the project file
// gives up (a third one ends the process at once).
std::stop_token abandonToken();

// How a fit's writes wait for the project file: for as long as it takes, saying so on stderr,
// until a second Ctrl-C.
core::WriteWait projectWriteWait(const std::string& project);

// `hook` runs once, on another thread than the command's, when the first interrupt arrives
// (Ctrl-C, SIGTERM); an empty function removes it. For what must be written even when the
// command cannot get there: a process of a distributed fit blocked on a lost peer, which mpirun
// kills a second after it asks it to end.
void onInterrupt(std::function<void()> hook);

// The processes of a fit with --distributed (cli_distributed.cpp): those mpirun started, or this
// one alone.
std::unique_ptr<core::Communicator> distributedGroup();

// One JSON object on one line of stdout, flushed (consumers read it as it comes).
void printJsonLine(const nlohmann::json& object);

// Each command registers itself on the app and returns the function to run when chosen.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command addImportCommand(CLI::App& app);
Command addDatasetsCommand(CLI::App& app);
Command addRunsCommand(CLI::App& app);
Command addSamplesCommand(CLI::App& app);
Command addModelsCommand(CLI::App& app);
Command addFitCommand(CLI::App& app);
Command addExportCommand(CLI::App& app);
Command addHeldoutSplitCommand(CLI::App& app);
Command addSweepCommand(CLI::App& app);
Command addPredictCommand(CLI::App& app);
Command addRecommendCommand(CLI::App& app);
Command addRetrievalCommand(CLI::App& app);

// Model options that are not flags of `fit` / `sweep` themselves, given as extras:
// "--alpha 0.1" or "--alpha=0.1"; a flag without a value means true.
nlohmann::json parseModelOptions(const core::ModelInfo& model, const std::vector<std::string>& extras);

// Writes a result file through `write`, or standard output for "-". The file is written beside
// the target and renamed at the end, so a failure never leaves half a file. Refuses (UsageError)
// a path that is the project file or one of SQLite's files beside it.
void writeOutput(const std::string& path, const std::string& project, const std::function<void(std::ostream&)>& write);

// `text` fit for a terminal: control characters (C0, DEL, C1) and bytes that are not UTF-8 are
// written as escapes (\n, \x1b, \u0085), so that a name in a project file cannot move the
// cursor, recolour the terminal or forge a line of output.
std::string terminalSafe(std::string_view text);

// "1,234,567"
std::string withThousands(std::int64_t value);

// Progress on stderr for long work, only when stderr is a terminal.
class ProgressLine {
 public:
  explicit ProgressLine(std::string label);
  ~ProgressLine();
  void update(std::uint64_t done, std::uint64_t total);

 private:
  std::string m_label;
  bool m_enabled;
  int m_lastPercent = -1;
};

}  // namespace latent::cli
