// SPDX-License-Identifier: GPL-3.0-or-later
// Links attached to a corpus in a project (issue 18, `import links`): documents named by id or by a
// title only one document has, self-links, repeats and unknown documents noted and left out, a
// second import replacing the first, a damaged link row named on load, and a file naming no
// document refused with the project unchanged.
#include <QtTest>

#include "core/jobs/import_job.hpp"
#include "core/jobs/link_import.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/document_link_store.hpp"
#include "core/store/project.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

std::int64_t importPapers(test::Scratch& scratch, core::Project& project) {
  const auto csv = scratch.write("papers.csv",
                                 "id,title,text\n"
                                 "p1,Topic models,words about topics\n"
                                 "p2,Block models,words about blocks and graphs\n"
                                 "p3,Citation networks,words about links\n"
                                 "p4,Topic models,another paper with the same title\n");
  core::CorpusImportRequest r;
  r.name = "papers";
  r.source = csv;
  r.read.titleColumn = "title";
  r.stopWords = "none";
  return core::importCorpus(project, r, {}).dataset.id;
}

}  // namespace

class DocumentLinksImportTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void linksByIdOrUniqueTitleAreStoredAndLoaded() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    const auto id = importPapers(scratch, project);
    const auto links = scratch.write("cites.csv",
                                     "citing,cited,kind\n"
                                     "p3,p1,x\n"
                                     "p3,Block models,x\n"  // a unique title
                                     "p2,Topic models,x\n"  // a title two documents share
                                     "p3,p1,x\n"            // repeated
                                     "p2,p2,x\n"            // self-link
                                     "p9,p1,x\n"            // unknown
                                     "p4,p1,x\n");
    core::LinksImportRequest request;
    request.corpus = "papers";
    request.source = links;
    const auto result = core::importDocumentLinks(project, request);
    QCOMPARE(result.dataset.summary["links"].get<std::int64_t>(), std::int64_t(3));
    QCOMPARE(result.notes.size(), std::size_t(4));
    QVERIFY(result.notes[0].find("'p9'") != std::string::npos);
    const auto corpus = core::loadCorpus(project, id);
    QCOMPARE(corpus.links.size(), std::size_t(3));
    QCOMPARE(corpus.links[0].source, 2);  // p3 -> p1
    QCOMPARE(corpus.links[0].target, 0);
    QCOMPARE(corpus.links[1].target, 1);  // p3 -> p2 by its title
    const auto ofP1 = core::documentLinksOf(project, id, 0);
    QCOMPARE(ofP1.size(), std::size_t(2));  // cited by p3 and p4
    QVERIFY(!ofP1[0].outgoing);

    // By id only, the title no longer names p2; a second import replaces the first.
    request.key = "id";
    const auto again = core::importDocumentLinks(project, request);
    QCOMPARE(again.dataset.summary["links"].get<std::int64_t>(), std::int64_t(2));
    QCOMPARE(core::loadCorpus(project, id).links.size(), std::size_t(2));
  }

  void aFileNamingNoDocumentIsRefusedAndAStoredBadIndexIsDamage() {
    test::Scratch scratch;
    core::Project project(scratch.path("p.latent"));
    const auto id = importPapers(scratch, project);
    core::LinksImportRequest request;
    request.corpus = "papers";
    request.source = scratch.write("none.csv", "source,target\nq1,q2\n");
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::importDocumentLinks(project, request));
    QVERIFY(core::loadCorpus(project, id).links.empty());
    request.source = scratch.write("cols.csv", "a,b\np1,p2\n");
    request.sourceColumn = "from";
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::importDocumentLinks(project, request));
    request.corpus = "nothing";
    QVERIFY_THROWS_EXCEPTION(core::UsageError, core::importDocumentLinks(project, request));

    project.db().exec("INSERT INTO document_links (dataset_id, source, target) VALUES (" + std::to_string(id) +
                      ", 0, 99)");
    try {
      core::loadCorpus(project, id);
      QFAIL("a link to document 99 of 4 loaded");
    } catch (const core::InputError& e) {
      QVERIFY(std::string(e.what()).find("document_links") != std::string::npos);
    }
  }
};

LATENT_TEST_CASE(DocumentLinksImportTest)
#include "tst_document_links_import.moc"
