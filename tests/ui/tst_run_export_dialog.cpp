// SPDX-License-Identifier: GPL-3.0-or-later
// Export Results (issue 20, missing item 6): a run's tables written from the GUI, the same files
// as `latent-cli export`, MALLET's among them; nothing half-written when a table cannot be.
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QtTest>

#include "core/jobs/fit_job.hpp"
#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/runs/run_export_dialog.hpp"
#include "ui/runs/run_view.hpp"
#include "ui/util/qt_convert.hpp"
#include "ui_test_data.hpp"

using namespace latent;

class TestRunExportDialog : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { test::isolateSettings(); }

  void writesTheChosenTablesToTheFolder() {
    test::Scratch scratch;
    const auto file = scratch.path("export.latent");
    {
      core::Project project(file);
      std::vector<test::TextDocument> docs;
      for (int d = 0; d < 20; ++d)
        docs.push_back({"d" + std::to_string(d), "doc", d % 2 ? "money bank loan money" : "river bank water river"});
      test::addTextCorpus(project, "toy", docs);
    }
    core::RunRequest request;
    request.model = "lda-gibbs";
    request.dataset = "toy";
    request.options = {{"k", 2}, {"iterations", 30}};
    request.heldout = 0.0;
    const auto runId = core::runFit(file, request, nullptr, {}).run.id;

    ui::RunView view(file, runId);
    QVERIFY(test::waitLoaded(&view));
    auto* dialog = view.openExportDialog();
    QVERIFY(dialog);
    QSignalSpy listed(dialog, &ui::RunExportDialog::listed);
    QVERIFY(listed.wait(20000));
    for (const char* name : {"topic-word", "doc-topic", "assignments", "mallet-topic-keys", "mallet-doc-topics",
                             "mallet-state", "ldavis", "metrics"})
      QVERIFY2(dialog->available().contains(QString::fromLatin1(name)), name);
    QVERIFY(!dialog->available().contains(QStringLiteral("blocks")));  // a topic model has none
    QCOMPARE(ui::RunExportDialog::fileName(runId, QStringLiteral("ldavis")),
             QStringLiteral("run-%1-ldavis.json").arg(runId));
    QCOMPARE(dialog->chosen(), (QStringList{QStringLiteral("topic-word"), QStringLiteral("doc-topic")}));

    const QString folder = ui::fromPath(scratch.path("out"));
    dialog->setFolder(folder);
    dialog->exportChosen();
    QVERIFY(dialog->statusText().contains(QStringLiteral("not a folder")));
    QVERIFY(QDir().mkpath(folder));
    dialog->setChosen(
        {QStringLiteral("topic-word"), QStringLiteral("mallet-topic-keys"), QStringLiteral("mallet-state")});
    QSignalSpy exported(dialog, &ui::RunExportDialog::exported);
    dialog->exportChosen();
    QVERIFY(exported.wait(20000));
    QCOMPARE(exported.first().at(1).toString(), QString());
    QCOMPARE(exported.first().at(0).toStringList().size(), 3);
    QCOMPARE(QDir(folder).entryList(QDir::Files).size(), 3);  // no .partial file left
    QFile topicWord(QDir(folder).filePath(QStringLiteral("run-%1-topic-word.csv").arg(runId)));
    QVERIFY(topicWord.open(QIODevice::ReadOnly));
    QCOMPARE(topicWord.readLine().trimmed(), QByteArray("topic,word,probability"));
    QFile keys(QDir(folder).filePath(QStringLiteral("run-%1-mallet-topic-keys.txt").arg(runId)));
    QVERIFY(keys.open(QIODevice::ReadOnly));
    QVERIFY(keys.readLine().startsWith("0\t"));
    QFile state(QDir(folder).filePath(QStringLiteral("run-%1-mallet-state.gz").arg(runId)));
    QVERIFY(state.open(QIODevice::ReadOnly));
    QCOMPARE(state.read(2), QByteArray("\x1f\x8b"));  // gzip's magic number
    QVERIFY(dialog->statusText().contains(QStringLiteral("Wrote 3 files")));
  }
};

LATENT_TEST_CASE(TestRunExportDialog)
#include "tst_run_export_dialog.moc"
