// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 20 defect 8: the graph import's notes name the dialog's own choice ("Edges are: Directed"),
// not the command line's --directed, in the preview and in the notes of an import.
#include <QtTest>

#include "test_case.hpp"
#include "test_support.hpp"
#include "ui/import/import_settings.hpp"

using namespace latent;

class TestImportGraphHint : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void previewNamesTheDialogsChoice() {
    test::Scratch scratch;
    ui::ImportSettings settings;
    settings.kind = core::DataKind::Graph;
    settings.graph.name = "arcs";
    settings.graph.source = scratch.write("arcs.csv", "source,target\na,b\nb,c\nc,a\n");
    const auto preview = ui::computeImportPreview(settings);
    QVERIFY2(preview.error.isEmpty(), qPrintable(preview.error));
    QVERIFY2(preview.note.contains(QStringLiteral("read as undirected")), qPrintable(preview.note));
    QVERIFY2(preview.note.contains(QStringLiteral("“Edges are: Directed”")), qPrintable(preview.note));
    QVERIFY2(!preview.note.contains(QStringLiteral("--")), qPrintable(preview.note));
  }

  void bothFlagsBecomeTheirChoice() {
    QCOMPARE(ui::importNoteText("import with --undirected, or --directed"),
             QStringLiteral("import with “Edges are: Undirected”, or “Edges are: Directed”"));
  }
};

LATENT_TEST_CASE(TestImportGraphHint)
#include "tst_import_graph_hint.moc"
