// SPDX-License-Identifier: GPL-3.0-or-later
// A fit never fails because another process holds the project file: it goes on while another
// connection keeps the write lock for several of its busy timeouts and while another process
// imports, and its final write waits for the lock instead of failing.
#include <QProcess>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>

#include "cli_runner.hpp"
#include "core/jobs/fit_job.hpp"
#include "core/store/project.hpp"
#include "core/store/run_store.hpp"
#include "core/store/write_wait.hpp"
#include "core/util/clock.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

namespace {

// The fit's busy timeout in the command-line test: the lock is held for six of them.
constexpr int kBusyTimeoutMs = 500;
constexpr double kHoldSeconds = 3.0;

// One-line documents for the import that runs beside the fit.
std::string someDocuments(int documents) {
  static const char* words[] = {"river", "bank", "money", "loan", "stream", "water", "credit", "shore"};
  std::string text;
  for (int d = 0; d < documents; ++d)
    for (int w = 0; w < 6; ++w) {
      text += words[(d * 7 + w * 3) % 8];
      text += w == 5 ? '\n' : ' ';
    }
  return text;
}

// Takes the project's write lock from the model's thread at the first report, so it is held
// from then on whatever the speed of the fit; optionally asks the model to stop at that point.
class LockAtFirstReport final : public core::TrainingObserver {
 public:
  LockAtFirstReport(core::Database& holder, std::stop_source* stop) : m_holder(holder), m_stop(stop) {}
  bool onReport(const core::IterationReport& report) override {
    if (!m_locked.exchange(true)) {
      m_holder.exec("BEGIN IMMEDIATE");
      if (m_stop) m_stop->request_stop();
    }
    if (report.inChain()) ++reports;  // the starts' progress is not stored
    return true;
  }
  std::atomic<int> reports{0};

 private:
  core::Database& m_holder;
  std::stop_source* m_stop;
  std::atomic<bool> m_locked{false};
};

// runFit on a thread of its own while another connection takes the lock at the first report;
// returns once the fit's final write has said it is waiting (or the fit ended, which fails).
class LockedFit {
 public:
  explicit LockedFit(const std::filesystem::path& file, bool stopAtFirstReport = false)
      : m_holder(std::make_unique<core::Database>(file, core::Database::Mode::ReadWrite)),
        m_observer(*m_holder, stopAtFirstReport ? &m_stop : nullptr) {
    core::RunRequest request;
    request.model = "lda-gibbs";
    request.dataset = "toy";
    request.options = {{"k", 3}, {"iterations", 40}};
    request.seed = 3;
    request.heldout = 0.2;
    request.evalEvery = 5;
    core::WriteWait wait;
    wait.abandon = m_abandon.get_token();
    wait.waiting = [this](double) {
      const std::lock_guard lock(m_mutex);
      m_waiting = true;
      m_changed.notify_all();
    };
    m_thread = std::thread([this, file, request, wait] {
      try {
        outcome = core::runFit(file, request, &m_observer, m_stop.get_token(), {}, wait);
      } catch (...) {
        error = std::current_exception();
      }
      const std::lock_guard lock(m_mutex);
      m_done = true;
      m_changed.notify_all();
    });
    std::unique_lock lock(m_mutex);
    m_changed.wait_for(lock, std::chrono::seconds(120), [this] { return m_waiting || m_done; });
    waited = m_waiting;
    endedWhileLocked = m_done;
  }
  ~LockedFit() {
    if (m_thread.joinable()) m_thread.join();
  }

  void abandon() { m_abandon.request_stop(); }
  // Releases the lock (from this thread: the fit's thread no longer uses the holder) and joins.
  void release() {
    if (m_abandon.stop_requested()) {
      std::unique_lock lock(m_mutex);
      m_changed.wait_for(lock, std::chrono::seconds(60), [this] { return m_done; });
    }
    m_holder->exec("ROLLBACK");
    m_thread.join();
  }
  int reports() const { return m_observer.reports.load(); }

  bool waited = false;
  bool endedWhileLocked = false;
  std::optional<core::RunOutcome> outcome;
  std::exception_ptr error;

 private:
  std::unique_ptr<core::Database> m_holder;
  std::stop_source m_stop, m_abandon;
  LockAtFirstReport m_observer;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  bool m_waiting = false, m_done = false;
  std::thread m_thread;
};

std::string errorText(const std::exception_ptr& error) {
  try {
    if (error) std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  }
  return {};
}

}  // namespace

class CliSharedProjectTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void init() {
    m_scratch.emplace();
    m_file = m_scratch->path("shared.latent");
    core::Project p(m_file);
    std::vector<std::string> texts;
    for (int d = 0; d < 40; ++d)
      texts.push_back(d % 2 ? "money bank loan money bank credit loan money"
                            : "river bank stream water river shore stream");
    test::addCorpus(p, "toy", texts);
  }

  // latent-cli fit, with a busy timeout of kBusyTimeoutMs: another connection takes the write
  // lock once the fit reports, holds it for six of those timeouts, and another latent-cli
  // imports into the project meanwhile. While the lock is held neither can end (the fit cannot
  // record its end, the import cannot publish), so both must still be running when it goes.
  void fitGoesOnWhileTheFileIsLockedAndImportedInto() {
    QCOMPARE(runCli({"import", "sample", "--project", str(m_file), "--sample", "sotu"}).exitCode, 0);
    const auto lines = m_scratch->write("second.txt", someDocuments(20000));
    auto environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("LATENT_BUSY_TIMEOUT_MS"), QString::number(kBusyTimeoutMs));

    QProcess fit;
    fit.setProcessEnvironment(environment);
    fit.start(QStringLiteral(LATENT_CLI_PATH),
              {"fit",          "lda-gibbs", "--project",        str(m_file), "--dataset", "sotu", "--k",    "8",
               "--iterations", "60",        "--eval-every",     "5",         "--heldout", "0.1",  "--seed", "5",
               "--restarts",   "1",         "--snapshot-every", "5",         "--json"});
    QVERIFY(fit.waitForStarted());
    QString out, err;
    const auto pump = [&] {
      out += QString::fromUtf8(fit.readAllStandardOutput());
      err += QString::fromUtf8(fit.readAllStandardError());
    };
    const core::Stopwatch started;
    while (!out.contains(QStringLiteral("\"iteration\"")) && fit.state() != QProcess::NotRunning &&
           started.seconds() < 120) {
      fit.waitForReadyRead(50);
      pump();
    }
    QVERIFY2(out.contains(QStringLiteral("\"iteration\"")), qPrintable(err));

    core::Database holder(m_file, core::Database::Mode::ReadWrite);
    holder.exec("BEGIN IMMEDIATE");
    QProcess import;
    import.setProcessEnvironment(environment);
    import.start(QStringLiteral(LATENT_CLI_PATH), {"import", "corpus", "--project", str(m_file), "--name", "second",
                                                   "--source", str(lines), "--format", "lines"});
    QVERIFY(import.waitForStarted());
    const core::Stopwatch held;
    while (held.seconds() < kHoldSeconds) {
      fit.waitForReadyRead(50);
      pump();
    }
    pump();
    QVERIFY2(fit.state() == QProcess::Running, qPrintable("the fit ended while the file was locked: " + err));
    QVERIFY2(import.state() == QProcess::Running, qPrintable("the import ended while the file was locked: " +
                                                             QString::fromUtf8(import.readAllStandardError())));
    holder.exec("ROLLBACK");

    QVERIFY(import.waitForFinished(120000));
    QVERIFY2(import.exitStatus() == QProcess::NormalExit && import.exitCode() == 0,
             qPrintable(QString::fromUtf8(import.readAllStandardError())));
    while (fit.state() != QProcess::NotRunning && started.seconds() < 240) {
      fit.waitForFinished(100);
      pump();
    }
    pump();
    QVERIFY2(fit.exitStatus() == QProcess::NormalExit && fit.exitCode() == 0, qPrintable(err));

    test::CliResult result{0, out, err};
    const auto printed = result.jsonLines();
    QVERIFY(!printed.empty());
    const auto& final = printed.back();
    QCOMPARE(final["status"].get<std::string>(), std::string("finished"));
    const auto reports = static_cast<std::size_t>(
        std::count_if(printed.begin(), printed.end(), [](const nlohmann::json& l) { return l.contains("iteration"); }));
    QVERIFY(reports > 0);

    core::Project p(m_file, core::Project::Access::ReadOnly);
    const auto run = core::loadRun(p, final["run"].get<std::int64_t>());
    QVERIFY(run.status == core::RunStatus::Finished);
    QCOMPARE(run.iterations.value_or(0), std::int64_t{60});
    const auto metrics = core::loadMetrics(p, run.id);
    QCOMPARE(metrics.size(), reports);  // every report, none lost to the lock
    QCOMPARE(metrics.back().iteration, std::int64_t{60});
    QVERIFY(core::loadMatrix(p, run.id, "topic_word").has_value());
    // Snapshots that could not be written were kept; the newest one is there.
    std::int64_t latestSnapshot = -1;
    for (const auto& [name, iteration] : core::listMatrices(p, run.id))
      if (name == "topic_word") latestSnapshot = std::max(latestSnapshot, iteration);
    QCOMPARE(latestSnapshot, std::int64_t{60});
    QVERIFY(p.findDataset("second").has_value());
    QCOMPARE(p.findDataset("second")->summary["documents"].get<std::int64_t>(), std::int64_t{20000});
  }

  // The final write finds the lock taken: it waits, says so, and writes everything once free.
  void finalWriteWaitsForTheLock() {
    LockedFit fit(m_file);
    QVERIFY2(fit.waited, errorText(fit.error).c_str());
    QVERIFY(!fit.endedWhileLocked);
    fit.release();
    QVERIFY2(!fit.error, errorText(fit.error).c_str());
    QVERIFY(fit.outcome->run.status == core::RunStatus::Finished);
    core::Project p(m_file, core::Project::Access::ReadOnly);
    const auto run = core::loadRun(p, fit.outcome->run.id);
    QVERIFY(run.status == core::RunStatus::Finished);
    QCOMPARE(core::loadMetrics(p, run.id).size(), static_cast<std::size_t>(fit.reports()));
    QVERIFY(core::loadMatrix(p, run.id, "topic_word").has_value());
  }

  // A stop while the lock is held stops the model; the run is still recorded, as stopped.
  void stoppedRunIsRecordedOnceTheLockGoes() {
    LockedFit fit(m_file, true);
    QVERIFY2(fit.waited, errorText(fit.error).c_str());
    fit.release();
    QVERIFY2(!fit.error, errorText(fit.error).c_str());
    core::Project p(m_file, core::Project::Access::ReadOnly);
    QVERIFY(core::loadRun(p, fit.outcome->run.id).status == core::RunStatus::Stopped);
  }

  // Giving up the wait (a second Ctrl-C) ends the fit with WriteAbandoned; the run keeps only
  // what was written before, still marked running (interrupted once this process is gone).
  void abandonedWaitWritesNothingMore() {
    LockedFit fit(m_file);
    QVERIFY(fit.waited);
    fit.abandon();
    fit.release();
    QVERIFY(fit.error);
    QVERIFY_THROWS_EXCEPTION(core::WriteAbandoned, std::rethrow_exception(fit.error));
    core::Project p(m_file, core::Project::Access::ReadOnly);
    const auto runs = core::listRuns(p);
    QCOMPARE(runs.size(), std::size_t{1});
    QVERIFY(runs[0].status == core::RunStatus::Running);
    QVERIFY(!core::loadMatrix(p, runs[0].id, "topic_word").has_value());
  }

 private:
  std::optional<test::Scratch> m_scratch;
  std::filesystem::path m_file;
};

LATENT_TEST_CASE(CliSharedProjectTest)
#include "tst_cli_shared_project.moc"
