// SPDX-License-Identifier: GPL-3.0-or-later
// Runs latent-cli as a separate process, the way scripts and benchmarks use it.
#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <vector>

namespace latent::test {

struct CliResult {
  int exitCode = -1;
  QString out;
  QString err;

  // Every non-empty line of stdout parsed as JSON (fails the test on a line that is not).
  std::vector<nlohmann::json> jsonLines() const {
    std::vector<nlohmann::json> lines;
    for (const auto& line : out.split('\n', Qt::SkipEmptyParts)) {
      auto parsed = nlohmann::json::parse(line.toStdString(), nullptr, false);
      if (parsed.is_discarded()) qWarning() << "not JSON:" << line;
      lines.push_back(std::move(parsed));
    }
    return lines;
  }
};

// `program ARGS` in `environment`; a run past `timeoutMs` is killed and reads "timed out".
inline CliResult runProgram(const QString& program, const QStringList& arguments,
                            const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment(),
                            int timeoutMs = 120000) {
  QProcess process;
  process.setProcessEnvironment(environment);
  process.start(program, arguments);
  CliResult result;
  if (!process.waitForFinished(timeoutMs)) {
    process.kill();
    process.waitForFinished();
    result.err = "timed out";
    return result;
  }
  result.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
  result.out = QString::fromUtf8(process.readAllStandardOutput());
  result.err = QString::fromUtf8(process.readAllStandardError());
  return result;
}

inline CliResult runCli(const QStringList& arguments, int timeoutMs = 120000) {
  return runProgram(QStringLiteral(LATENT_CLI_PATH), arguments, QProcessEnvironment::systemEnvironment(), timeoutMs);
}

#ifdef LATENT_MPIRUN_PATH
// mpirun's options for the tests: as root too (CI runs as root), more processes than cores
// allowed, a waiting process yielding its core (Open MPI otherwise polls).
inline const QStringList kMpirunOptions{"--oversubscribe", "--allow-run-as-root", "--mca", "mpi_yield_when_idle", "1"};

// mpirun -np N latent-cli ARGS; `abortHook` RANK:SWEEPS makes that process abort after so many
// sweeps (core/util/communicator.hpp).
inline CliResult runMpi(int processes, const QStringList& arguments, const QString& abortHook = {}) {
  auto environment = QProcessEnvironment::systemEnvironment();
  if (!abortHook.isEmpty()) environment.insert("LATENT_DISTRIBUTED_TEST_ABORT", abortHook);
  return runProgram(
      QStringLiteral(LATENT_MPIRUN_PATH),
      kMpirunOptions + QStringList{"-np", QString::number(processes), QStringLiteral(LATENT_CLI_PATH)} + arguments,
      environment);
}

// One app context of an mpirun of several (MPMD, joined by ':'): `processes` processes working
// in `directory` (mpirun's -wdir), with mpirun `options` for them alone (-x NAME=VALUE: their own
// environment) and latent-cli's `arguments`. A project named by a relative path is then on some
// processes' side only, as on cluster nodes that share no file system.
struct MpiContext {
  int processes = 1;
  QString directory;
  QStringList options;
  QStringList arguments;
};

inline CliResult runMpiContexts(const std::vector<MpiContext>& contexts) {
  QStringList all = kMpirunOptions;
  for (std::size_t c = 0; c < contexts.size(); ++c) {
    if (c > 0) all << ":";
    all << "-np" << QString::number(contexts[c].processes) << "-wdir" << contexts[c].directory;
    all << contexts[c].options << QStringLiteral(LATENT_CLI_PATH) << contexts[c].arguments;
  }
  return runProgram(QStringLiteral(LATENT_MPIRUN_PATH), all);
}
#endif

inline QString str(const std::filesystem::path& p) { return QString::fromStdString(p.string()); }

}  // namespace latent::test
