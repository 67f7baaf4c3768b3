// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli: the headless front-end; parses arguments, runs one command, maps errors to exit codes.
#include <atomic>
#include <csignal>
#include <cstdio>
#include <functional>
#include <iostream>
#include <mutex>
#include <thread>

#include "cli_common.hpp"
#include "core/store/database.hpp"
#include "core/store/write_wait.hpp"
#include "core/util/errors.hpp"

namespace latent::cli {
namespace {

std::atomic<int> g_interrupts{0};
std::stop_source g_stop;
std::stop_source g_abandon;
std::mutex g_hookMutex;
std::function<void()> g_interruptHook;

// Runs the hook set by onInterrupt, once, on the watcher thread.
void runInterruptHook() {
  std::function<void()> hook;
  {
    const std::lock_guard lock(g_hookMutex);
    hook.swap(g_interruptHook);
  }
  if (!hook) return;
  try {
    hook();
  } catch (const std::exception& e) {
    std::cerr << "latent-cli: " << e.what() << "\n";
  }
}

// The first signal stops the command, the second gives up a wait for the project file, the
// third ends the process (SQLite keeps the file whole; a run then reads as interrupted).
void onSignal(int number) {
  if (g_interrupts.fetch_add(1) + 1 >= 3) {
    std::signal(number, SIG_DFL);
    std::raise(number);
  }
}

}  // namespace

std::stop_token interruptToken() { return g_stop.get_token(); }
std::stop_token abandonToken() { return g_abandon.get_token(); }

void onInterrupt(std::function<void()> hook) {
  const std::lock_guard lock(g_hookMutex);
  g_interruptHook = std::move(hook);
}

}  // namespace latent::cli

int main(int argc, char** argv) {
  using namespace latent;
  std::signal(SIGINT, cli::onSignal);
  std::signal(SIGTERM, cli::onSignal);
  // A signal handler may only count; this thread turns the count into stop requests.
  std::jthread watcher([](std::stop_token own) {
    while (!own.stop_requested()) {
      const int interrupts = cli::g_interrupts.load();
      if (interrupts >= 1) {
        cli::g_stop.request_stop();
        cli::runInterruptHook();
      }
      if (interrupts >= 2) {
        cli::g_abandon.request_stop();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });

  CLI::App app{"Latent Studio command line: import data, fit latent variable models, export results.", "latent-cli"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("latent-cli ") + "0.1.0");
  std::vector<cli::Command> commands = {
      cli::addImportCommand(app),  cli::addDatasetsCommand(app),     cli::addRunsCommand(app),
      cli::addSamplesCommand(app), cli::addModelsCommand(app),       cli::addFitCommand(app),
      cli::addExportCommand(app),  cli::addHeldoutSplitCommand(app), cli::addSweepCommand(app),
      cli::addPredictCommand(app), cli::addRecommendCommand(app),    cli::addRetrievalCommand(app)};
  // CLI11 would say only that a subcommand is required; name the word it did not know.
  std::string names;
  bool known = false;
  for (const auto& c : commands) {
    names += (names.empty() ? "" : ", ") + c.app->get_name();
    known |= argc > 1 && c.app->get_name() == argv[1];
  }
  if (argc > 1 && argv[1][0] != '-' && !known) {
    std::cerr << "latent-cli: unknown command '" << argv[1] << "' (commands: " << names << ")\n";
    return cli::kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    std::cerr << "latent-cli: " << e.what() << " (see latent-cli --help)\n";
    return cli::kExitBadInput;
  }
  try {
    for (auto& command : commands)
      if (command.app->parsed()) return command.run();
    return cli::kExitBadInput;
  } catch (const core::InputError& e) {
    std::cerr << "latent-cli: " << cli::terminalSafe(e.what()) << "\n";
    return cli::kExitBadInput;
  } catch (const core::UsageError& e) {
    std::cerr << "latent-cli: " << cli::terminalSafe(e.what()) << "\n";
    return cli::kExitBadInput;
  } catch (const CLI::ParseError& e) {
    std::cerr << "latent-cli: " << cli::terminalSafe(e.what()) << "\n";
    return cli::kExitBadInput;
  } catch (const core::Cancelled&) {
    std::cerr << "latent-cli: interrupted; nothing was changed\n";
    return cli::kExitInterrupted;
  } catch (const core::WriteAbandoned& e) {
    std::cerr << "latent-cli: interrupted: " << cli::terminalSafe(e.what()) << "; what was not saved is lost\n";
    return cli::kExitInterrupted;
  } catch (const std::exception& e) {
    std::cerr << "latent-cli: " << cli::terminalSafe(e.what()) << "\n";
    return cli::kExitFailure;
  }
}
