// SPDX-License-Identifier: GPL-3.0-or-later
// Runs latent-cli as a separate process, the way scripts and benchmarks use it.
#pragma once

#include <QProcess>
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

inline CliResult runCli(const QStringList& arguments, int timeoutMs = 120000) {
  QProcess process;
  process.start(QStringLiteral(LATENT_CLI_PATH), arguments);
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

inline QString str(const std::filesystem::path& p) { return QString::fromStdString(p.string()); }

}  // namespace latent::test
