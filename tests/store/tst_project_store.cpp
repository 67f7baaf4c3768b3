// SPDX-License-Identifier: GPL-3.0-or-later
// The project file: schema, refusal of foreign files, round trips of every table, rollback.
#include <QtTest>

#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>

#include "core/jobs/stored_precision.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/graph_store.hpp"
#include "core/store/process_owner.hpp"
#include "core/store/project.hpp"
#include "core/store/ratings_store.hpp"
#include "core/store/run_store.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_datasets.hpp"
#include "test_support.hpp"

using namespace latent;

class ProjectStoreTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void newProjectHasSchemaAndWal() {
    test::Scratch scratch;
    const auto file = scratch.path("p.latent");
    {
      core::Project p(file);
      QCOMPARE(p.schemaVersion(), core::Project::latestSchemaVersion());
      QVERIFY(p.schemaVersion() >= 1);
      QCOMPARE(p.db().queryInteger("PRAGMA application_id"), std::int64_t{0x4C41544E});
      auto mode = p.db().prepare("PRAGMA journal_mode");
      QVERIFY(mode.step());
      QCOMPARE(mode.text(0), std::string("wal"));
      QVERIFY(p.datasets().empty());
    }
    core::Project again(file, core::Project::Access::ReadOnly);
    QVERIFY(again.datasets().empty());
  }

  void refusesForeignFiles() {
    test::Scratch scratch;
    const auto text = scratch.write("notes.latent", "this is not a database, just some text that is long enough\n");
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::Project{text});
    const auto other = scratch.path("other.db");
    {
      core::Database db(other, core::Database::Mode::ReadWrite);
      db.exec("CREATE TABLE t (x)");
    }
    try {
      core::Project p(other);
      QFAIL("expected a UsageError");
    } catch (const core::UsageError& e) {
      QVERIFY(std::string(e.what()).find("another program") != std::string::npos);
    }
    const auto newer = scratch.path("newer.latent");
    { core::Project p(newer); }
    {
      core::Database db(newer, core::Database::Mode::ReadWrite);
      db.exec("PRAGMA user_version = 999");
    }
    try {
      core::Project p(newer);
      QFAIL("expected a UsageError");
    } catch (const core::UsageError& e) {
      QVERIFY(std::string(e.what()).find("newer") != std::string::npos);
    }
    QVERIFY_THROWS_EXCEPTION(core::UsageError,
                             (core::Project{scratch.path("missing.latent"), core::Project::Access::ReadOnly}));
  }

  void corpusRoundTrip() {
    test::Scratch scratch;
    core::Project p(scratch.path("c.latent"));
    const std::vector<std::string> texts{"Rivers and streams meet the bank.", "Money, loans: the bank's business.",
                                         "..."};
    core::MemoryCorpusSink expected;
    {
      core::CorpusBuilder builder({}, expected);
      for (std::size_t i = 0; i < texts.size(); ++i) {
        core::DocumentRecord r;
        const auto id = std::to_string(i + 1);
        const auto title = "doc " + id;  // DocumentRecord holds views: the strings must outlive it
        r.id = id;
        r.title = title;
        r.text = texts[i];
        builder.addText(r);
      }
      builder.finish();
    }
    const auto id = test::addCorpus(p, "c", texts);
    const auto vocabulary = core::loadVocabulary(p, id);
    QCOMPARE(vocabulary.size(), expected.vocabulary.size());
    for (std::size_t w = 0; w < vocabulary.size(); ++w) {
      QCOMPARE(vocabulary[w].word, expected.vocabulary[w].word);
      QCOMPARE(vocabulary[w].documentFrequency, expected.vocabulary[w].documentFrequency);
      QCOMPARE(vocabulary[w].count, expected.vocabulary[w].count);
    }
    const auto headers = core::listDocuments(p, id);
    QCOMPARE(headers.size(), texts.size());
    for (std::size_t d = 0; d < texts.size(); ++d) {
      const auto doc = core::loadDocument(p, id, static_cast<std::int64_t>(d));
      QCOMPARE(doc.text, texts[d]);
      QCOMPARE(doc.header.id, expected.documents[d].id);
      QCOMPARE(doc.header.title, expected.documents[d].title);
      QVERIFY(doc.header.hasText);
      QCOMPARE(doc.wordIds, expected.documents[d].wordIds);
      QCOMPARE(doc.begins, expected.documents[d].begins);
      QCOMPARE(doc.ends, expected.documents[d].ends);
      QCOMPARE(headers[d].tokenCount, static_cast<std::int64_t>(expected.documents[d].wordIds.size()));
    }
    const auto corpus = core::loadCorpus(p, id);
    QCOMPARE(corpus.tokens, expected.corpus().tokens);
    QCOMPARE(corpus.offsets, expected.corpus().offsets);
    QCOMPARE(corpus.words, expected.corpus().words);
  }

  void graphRoundTrip() {
    test::Scratch scratch;
    core::Project p(scratch.path("g.latent"));
    core::Graph g;
    g.directed = true;
    g.nodeIds = {"1", "2", "x"};
    g.nodeNames = {"John Bosco", "Gregory", "Basil"};
    g.attributeNames = {"group", "fate"};
    g.attributes = {{"Turks", "Turks", "Outcasts"}, {"left", "", "expelled"}};
    g.edges = {{0, 1, 3.0}, {1, 0, 1.0}, {2, 0, 2.5}};
    core::Transaction tx(p.db());
    const auto id = p.createDataset("g", core::DataKind::Graph, "memory", "edges", nlohmann::json::object());
    core::writeGraph(p, id, g);
    tx.commit();
    const auto back = core::loadGraph(p, id);
    QCOMPARE(back.directed, g.directed);
    QCOMPARE(back.nodeIds, g.nodeIds);
    QCOMPARE(back.nodeNames, g.nodeNames);
    QCOMPARE(back.attributeNames, g.attributeNames);
    QCOMPARE(back.attributes, g.attributes);
    QCOMPARE(back.edges, g.edges);
  }

  void ratingsRoundTrip() {
    test::Scratch scratch;
    core::Project p(scratch.path("r.latent"));
    core::Ratings r;
    r.userIds = {"196", "186"};
    r.itemIds = {"242", "302", "377"};
    r.itemNames = {"Kolya (1996)", "L.A. Confidential (1997)", "Heavyweights (1994)"};
    r.itemAttributeNames = {"genres"};
    r.itemAttributes = {{"Comedy", "Crime|Film-Noir", "Children's|Comedy"}};
    r.ratings = {{0, 0, 3.0, 881250949}, {1, 1, 3.5, 891717742}, {0, 2, 1.0, 878887116}};
    r.hasTime = true;
    core::Transaction tx(p.db());
    const auto id = p.createDataset("r", core::DataKind::Ratings, "memory", "movielens", nlohmann::json::object());
    core::writeRatings(p, id, r);
    tx.commit();
    const auto back = core::loadRatings(p, id);
    QCOMPARE(back.userIds, r.userIds);
    QCOMPARE(back.itemIds, r.itemIds);
    QCOMPARE(back.itemNames, r.itemNames);
    QCOMPARE(back.itemAttributeNames, r.itemAttributeNames);
    QCOMPARE(back.itemAttributes, r.itemAttributes);
    QCOMPARE(back.ratings, r.ratings);
    QCOMPARE(back.hasTime, true);
  }

  void runRoundTrip() {
    test::Scratch scratch;
    core::Project p(scratch.path("runs.latent"));
    const auto dataset = test::addCorpus(p, "toy", {"money bank", "river bank"});
    core::RunRecord run;
    run.datasetId = dataset;
    run.model = "unigram";
    run.options = {{"beta", 0.5}};
    run.seed = 12345678901234ULL;
    run.threads = 2;
    run.heldout = 0.25;
    run.objectiveName = "objective";
    run.heldoutName = "held-out";
    run.appVersion = "test";
    const auto id = core::createRun(p, run);
    std::vector<core::MetricRow> rows(3);
    for (int i = 0; i < 3; ++i) {
      rows[static_cast<std::size_t>(i)].iteration = i + 1;
      rows[static_cast<std::size_t>(i)].seconds = 0.5 * (i + 1);
      rows[static_cast<std::size_t>(i)].trainObjective = -10.0 + i;
      if (i == 2) rows[2].heldout = 123.5;
      rows[static_cast<std::size_t>(i)].extras = {{"alpha", 0.1 * i}};
    }
    core::appendMetrics(p, id, rows);
    Eigen::MatrixXd m(2, 3);
    m << 1, 2, 3, 4, 5, 6.25;
    core::saveMatrix(p, id, "topic_word", -1, m);
    core::saveMatrix(p, id, "topic_word", 10, m * 2);
    const std::vector<std::int32_t> topics{1, 0, 1};
    core::saveTokenTopics(p, id, 1, topics);
    core::finishRun(p, id, core::RunStatus::Finished, "", 1.5, 3, {{"heldout_perplexity", 123.5}});

    const auto back = core::loadRun(p, id);
    QCOMPARE(back.model, std::string("unigram"));
    QCOMPARE(back.datasetName, std::string("toy"));
    QCOMPARE(back.seed, run.seed);
    QCOMPARE(back.threads, 2);
    QCOMPARE(back.heldout, 0.25);
    QCOMPARE(back.options, run.options);
    QVERIFY(back.status == core::RunStatus::Finished);
    QCOMPARE(back.iterations.value(), std::int64_t{3});
    QCOMPARE(back.finalMetrics["heldout_perplexity"].get<double>(), 123.5);
    const auto metrics = core::loadMetrics(p, id);
    QCOMPARE(metrics.size(), std::size_t{3});
    QVERIFY(!metrics[0].heldout.has_value());
    QCOMPARE(metrics[2].heldout.value(), 123.5);
    QCOMPARE(metrics[1].extras["alpha"].get<double>(), 0.1);
    QCOMPARE(*core::loadMatrix(p, id, "topic_word"), m);
    QCOMPARE(*core::loadMatrix(p, id, "topic_word", 10), Eigen::MatrixXd(m * 2));
    QVERIFY(!core::loadMatrix(p, id, "doc_topic").has_value());
    QCOMPARE(core::loadTokenTopics(p, id, 1), topics);
    QVERIFY(core::loadTokenTopics(p, id, 0).empty());
    QCOMPARE(core::listRuns(p).size(), std::size_t{1});
    QCOMPARE(core::listRuns(p, dataset + 1).size(), std::size_t{0});
  }

  void largeMatricesAreStoredInParts() {
    // A matrix beyond one part is stored in parts and read back whole, so that no blob nears
    // SQLite's limit (issue 21: lda-gibbs at k 10000 made a 1.1 GB topic-word matrix the file
    // refused). Parts of 1 KB here stand for the 256 MB of kMatrixPartBytes.
    test::Scratch scratch;
    core::Project p(scratch.path("parts.latent"));
    const auto dataset = test::addCorpus(p, "toy", {"money bank"});
    core::RunRecord run;
    run.datasetId = dataset;
    run.model = "lda-gibbs";
    run.appVersion = "test";
    const auto id = core::createRun(p, run);
    const auto parts = [&] { return p.db().queryInteger("SELECT count(*) FROM run_matrix_parts"); };
    const Eigen::MatrixXd large = Eigen::MatrixXd::Random(50, 7);  // 2,800 bytes: three parts
    core::saveMatrix(p, id, "topic_word", -1, large, 1024);
    QCOMPARE(parts(), std::int64_t{3});
    QVERIFY(p.db().queryInteger("SELECT max(length(data)) FROM run_matrix_parts") <= 1024);
    QCOMPARE(p.db().queryInteger("SELECT length(data) FROM run_matrices WHERE name = 'topic_word'"), std::int64_t{0});
    QCOMPARE(*core::loadMatrix(p, id, "topic_word"), large);
    // A matrix within one part stays one blob, as every schema reads it.
    const Eigen::MatrixXd small = Eigen::MatrixXd::Constant(2, 3, 0.5);
    core::saveMatrix(p, id, "alpha", -1, small, 1024);
    QCOMPARE(parts(), std::int64_t{3});
    QCOMPARE(*core::loadMatrix(p, id, "alpha"), small);
    // A snapshot in parts beside the final one; replacing a matrix takes its old parts with it.
    core::saveMatrix(p, id, "topic_word", 10, large * 2, 1024);
    QCOMPARE(parts(), std::int64_t{6});
    QCOMPARE(*core::loadMatrix(p, id, "topic_word", 10), Eigen::MatrixXd(large * 2));
    core::saveMatrix(p, id, "topic_word", -1, small, 1024);
    QCOMPARE(parts(), std::int64_t{3});
    QCOMPARE(*core::loadMatrix(p, id, "topic_word"), small);
    // A part gone missing is a damaged project, named, not a short matrix.
    p.db().exec("DELETE FROM run_matrix_parts WHERE iteration = 10 AND part = 1");
    try {
      core::loadMatrix(p, id, "topic_word", 10);
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      QVERIFY2(std::string(e.what()).find("run_matrix_parts") != std::string::npos, e.what());
    }
    // Removing the dataset removes its runs' matrices and their parts.
    p.removeDataset(dataset);
    QCOMPARE(parts(), std::int64_t{0});
  }

  void partsAreWrittenAFewTensOfMegabytesAtATime() {
    // A matrix over partBytes goes in parts of at most kMatrixPartWriteBytes, however large
    // partBytes is: each part is copied twice by SQLite while it is written.
    test::Scratch scratch;
    core::Project p(scratch.path("part-size.latent"));
    const auto dataset = test::addCorpus(p, "toy", {"money bank"});
    core::RunRecord run;
    run.datasetId = dataset;
    run.model = "lda-gibbs";
    run.appVersion = "test";
    const auto id = core::createRun(p, run);
    const auto values = static_cast<Eigen::Index>(core::kMatrixPartWriteBytes / 8 + 1000);
    const Eigen::MatrixXd large = Eigen::VectorXd::LinSpaced(values, 0.0, 1.0);
    core::saveMatrix(p, id, "topic_word", -1, large, core::kMatrixPartWriteBytes + 4096);
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM run_matrix_parts"), std::int64_t{2});
    QCOMPARE(p.db().queryInteger("SELECT max(length(data)) FROM run_matrix_parts"),
             static_cast<std::int64_t>(core::kMatrixPartWriteBytes));
    QCOMPARE(*core::loadMatrix(p, id, "topic_word"), large);
    // Within partBytes it stays one blob.
    core::saveMatrix(p, id, "topic_word", -1, large, core::kMatrixPartWriteBytes + 8000);
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM run_matrix_parts"), std::int64_t{0});
    QCOMPARE(*core::loadMatrix(p, id, "topic_word"), large);
  }

  void float32MatricesRoundTrip() {
    // A matrix stored as float32 (schema 15) takes four bytes a value, in one blob or in parts,
    // and reads back as the doubles rounded to floats; doubles beside it stay exact.
    test::Scratch scratch;
    core::Project p(scratch.path("f32.latent"));
    const auto dataset = test::addCorpus(p, "toy", {"money bank"});
    core::RunRecord run;
    run.datasetId = dataset;
    run.model = "lda-gibbs";
    run.appVersion = "test";
    const auto id = core::createRun(p, run);
    const Eigen::MatrixXd values = Eigen::MatrixXd::Random(50, 7).cwiseAbs();  // 350 values
    const Eigen::MatrixXd rounded = values.cast<float>().cast<double>();
    QVERIFY(rounded != values);  // the test can tell floats from doubles
    const auto length = [&](const char* name) {
      return p.db().queryInteger(std::string("SELECT length(data) FROM run_matrices WHERE name = '") + name + "'");
    };
    const auto element = [&](const char* name) {
      auto s = p.db().prepare("SELECT element FROM run_matrices WHERE name = ?1");
      s.bind(1, std::string(name));
      return s.step() ? s.text(0) : std::string();
    };
    core::saveMatrix(p, id, "topic_word", -1, values, core::kMatrixPartBytes, core::MatrixElement::Float32);
    QCOMPARE(length("topic_word"), std::int64_t{350 * 4});
    // data stays the last column, where SQLite keeps the zero blob a matrix is inserted as unexpanded.
    QCOMPARE(p.db().queryInteger("SELECT max(cid) FROM pragma_table_info('run_matrices')"),
             p.db().queryInteger("SELECT cid FROM pragma_table_info('run_matrices') WHERE name = 'data'"));
    QCOMPARE(element("topic_word"), std::string("f32"));
    QCOMPARE(*core::loadMatrix(p, id, "topic_word"), rounded);
    // In parts of 1 KB: 256 floats a part, two parts.
    core::saveMatrix(p, id, "doc_topic", -1, values, 1024, core::MatrixElement::Float32);
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM run_matrix_parts WHERE name = 'doc_topic'"), std::int64_t{2});
    QCOMPARE(p.db().queryInteger("SELECT sum(length(data)) FROM run_matrix_parts"), std::int64_t{350 * 4});
    QCOMPARE(*core::loadMatrix(p, id, "doc_topic"), rounded);
    core::saveMatrix(p, id, "alpha", -1, values);
    QCOMPARE(element("alpha"), std::string("f64"));
    QCOMPARE(length("alpha"), std::int64_t{350 * 8});
    QCOMPARE(*core::loadMatrix(p, id, "alpha"), values);
    // A float blob whose length is not whole floats is a damaged project.
    p.db().exec("UPDATE run_matrices SET data = substr(data, 1, 1397) WHERE name = 'topic_word'");
    QVERIFY_THROWS_EXCEPTION(core::InputError, core::loadMatrix(p, id, "topic_word"));
  }

  void schemaFourteenMatricesMigrate() {
    // Schema 15 rebuilds run_matrices with the element column before data: the matrices of an
    // older file, in one blob or in parts, read back unchanged as doubles.
    test::Scratch scratch;
    const auto file = scratch.path("v14.latent");
    const Eigen::MatrixXd large = Eigen::MatrixXd::Random(50, 7), small = Eigen::MatrixXd::Random(3, 2);
    std::int64_t id = 0;
    {
      core::Project p(file);
      const auto dataset = test::addCorpus(p, "toy", {"money bank"});
      core::RunRecord run;
      run.datasetId = dataset;
      run.model = "lda-gibbs";
      run.appVersion = "test";
      id = core::createRun(p, run);
      core::saveMatrix(p, id, "topic_word", -1, large, 1024);
      core::saveMatrix(p, id, "alpha", -1, small);
      p.db().exec("ALTER TABLE run_matrices DROP COLUMN element; PRAGMA user_version = 14");
    }
    core::Project p(file);
    QCOMPARE(p.schemaVersion(), core::Project::latestSchemaVersion());
    QCOMPARE(*core::loadMatrix(p, id, "topic_word"), large);
    QCOMPARE(*core::loadMatrix(p, id, "alpha"), small);
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM run_matrices WHERE element = 'f64'"), std::int64_t{2});
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM run_matrix_parts"), std::int64_t{3});
    // The parts still belong to their matrix: deleting the run takes them.
    p.db().exec("DELETE FROM runs");
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM run_matrix_parts"), std::int64_t{0});
  }

  void largeTopicMatricesAreStoredAsFloat32() {
    // Only large topic-word and document-topic matrices: the others keep doubles whatever their size.
    const std::int64_t limit = core::kFloat32MatrixBytes / 8;
    QCOMPARE(core::storedElement("topic_word", 1000, limit / 1000 + 1), core::MatrixElement::Float32);
    QCOMPARE(core::storedElement("doc_topic", limit + 1, 1), core::MatrixElement::Float32);
    QCOMPARE(core::storedElement("topic_word", 1, limit), core::MatrixElement::Float64);
    QCOMPARE(core::storedElement("alpha", 1, limit + 1), core::MatrixElement::Float64);
    QCOMPARE(core::storedElement("topic_word", 0, 0), core::MatrixElement::Float64);
  }

  void matricesHeldAsFloatsAreStoredAsTheyAre() {
    // A result's matrix held as floats (NamedMatrix::floats) goes in as float32 whatever its name
    // or size, in one blob or in parts, and reads back as exactly those floats widened; a matrix
    // of doubles beside it follows the policy.
    test::Scratch scratch;
    core::Project p(scratch.path("floats.latent"));
    const auto dataset = test::addCorpus(p, "toy", {"money bank"});
    core::RunRecord run;
    run.datasetId = dataset;
    run.model = "lda-gibbs";
    run.appVersion = "test";
    const auto id = core::createRun(p, run);
    const Eigen::MatrixXf floats = Eigen::MatrixXf::Random(50, 7).cwiseAbs();  // 350 values
    const auto element = [&](const char* name, std::int64_t iteration) {
      auto s = p.db().prepare("SELECT element FROM run_matrices WHERE name = ?1 AND iteration = ?2");
      s.bind(1, std::string(name)).bind(2, iteration);
      return s.step() ? s.text(0) : std::string();
    };
    const auto topicWord = core::NamedMatrix::ofFloats("topic_word", floats);
    QCOMPARE(core::storedElement(topicWord), core::MatrixElement::Float32);
    core::saveResultMatrix(p, id, -1, topicWord);
    QCOMPARE(element("topic_word", -1), std::string("f32"));
    QCOMPARE(p.db().queryInteger("SELECT length(data) FROM run_matrices WHERE name = 'topic_word'"),
             std::int64_t{350 * 4});
    QCOMPARE(*core::loadMatrix(p, id, "topic_word"), Eigen::MatrixXd(floats.cast<double>()));
    // In parts of 1 KB (a snapshot): 256 floats a part, two parts, taken as they are.
    core::saveFloatMatrix(p, id, "doc_topic", 5, floats, 1024);
    QCOMPARE(element("doc_topic", 5), std::string("f32"));
    QCOMPARE(p.db().queryInteger("SELECT count(*) FROM run_matrix_parts WHERE name = 'doc_topic'"), std::int64_t{2});
    QCOMPARE(*core::loadMatrix(p, id, "doc_topic", 5), Eigen::MatrixXd(floats.cast<double>()));
    // Small doubles stay doubles, exact; large topic doubles are converted (the models that still
    // form doubles).
    const Eigen::MatrixXd small = Eigen::MatrixXd::Random(3, 2);
    const core::NamedMatrix alpha("alpha", small);
    QCOMPARE(core::storedElement(alpha), core::MatrixElement::Float64);
    core::saveResultMatrix(p, id, -1, alpha);
    QCOMPARE(element("alpha", -1), std::string("f64"));
    QCOMPARE(*core::loadMatrix(p, id, "alpha"), small);
    const std::int64_t limit = core::kFloat32MatrixBytes / 8;
    QCOMPARE(core::storedElement(core::NamedMatrix("doc_topic", Eigen::MatrixXd(limit + 1, 1))),
             core::MatrixElement::Float32);
    QCOMPARE(core::storedElement(core::NamedMatrix("doc_topic", Eigen::MatrixXd(limit, 1))),
             core::MatrixElement::Float64);
  }

  void rollbackLeavesFileUnchanged() {
    test::Scratch scratch;
    const auto file = scratch.path("keep.latent");
    {
      core::Project p(file);
      test::addCorpus(p, "first", {"alpha beta"});
    }
    const auto before = test::fileDigest(file);
    {
      core::Project p(file);
      try {
        core::Transaction tx(p.db());
        const auto id = p.createDataset("second", core::DataKind::Corpus, "x", "lines", nlohmann::json::object());
        core::CorpusWriter writer(p, id);
        core::CorpusBuilder builder({}, writer);
        core::DocumentRecord r;
        r.id = "1";
        r.text = "gamma delta";
        builder.addText(r);
        throw std::runtime_error("simulated failure in the middle of an import");
      } catch (const std::runtime_error&) {
      }
      QCOMPARE(p.datasets().size(), std::size_t{1});
    }
    QCOMPARE(test::fileDigest(file), before);
    QVERIFY(!std::filesystem::exists(file.string() + "-wal"));
  }

  void removingADatasetRemovesItsContents() {
    test::Scratch scratch;
    core::Project p(scratch.path("rm.latent"));
    const auto id = test::addCorpus(p, "gone", {"alpha beta", "gamma"});
    core::RunRecord run;
    run.datasetId = id;
    run.model = "unigram";
    run.appVersion = "t";
    core::createRun(p, run);
    p.removeDataset(id);
    QVERIFY(p.datasets().empty());
    for (const char* table : {"documents", "tokens", "vocabulary", "runs"})
      QCOMPARE(p.db().queryInteger(std::string("SELECT count(*) FROM ") + table), std::int64_t{0});
  }

  // A file written by schema version 1 is migrated forward on opening and keeps its data.
  void migratesVersionOneFiles() {
    test::Scratch scratch;
    const auto file = scratch.path("v1.latent");
    {
      std::ifstream in(test::sample("../sql/001_initial.sql"));
      QVERIFY(in.good());
      const std::string schema((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      core::Database db(file, core::Database::Mode::ReadWrite);
      db.exec(schema);
      db.exec("PRAGMA application_id = 1279349838; PRAGMA user_version = 1");
      db.exec(
          "INSERT INTO datasets (name, kind, source, format, created_at) VALUES ('old', 'corpus', 's', 'lines', 't')");
      db.exec(
          "INSERT INTO runs (dataset_id, model, options, seed, threads, status, app_version, created_at, updated_at) "
          "VALUES (1, 'unigram', '{}', 7, 1, 'finished', '0.0', 't', 't')");
    }
    try {
      core::Project readOnly(file, core::Project::Access::ReadOnly);
      QFAIL("expected a UsageError");
    } catch (const core::UsageError& e) {
      QVERIFY2(std::string(e.what()).find("older schema") != std::string::npos, e.what());
    }
    core::Project p(file);
    QCOMPARE(p.schemaVersion(), core::Project::latestSchemaVersion());
    QCOMPARE(p.datasets().at(0).name, std::string("old"));
    const auto runs = core::listRuns(p);
    QCOMPARE(runs.size(), std::size_t{1});
    QCOMPARE(runs[0].seed, std::uint64_t{7});
    QVERIFY(runs[0].status == core::RunStatus::Finished);
  }

  // A run still marked running whose process has died reads back as interrupted.
  void runsOfDeadProcessesAreInterrupted() {
    test::Scratch scratch;
    core::Project p(scratch.path("dead.latent"));
    const auto dataset = test::addCorpus(p, "toy", {"alpha beta"});
    core::RunRecord run;
    run.datasetId = dataset;
    run.model = "unigram";
    run.appVersion = "t";
    const auto mine = core::createRun(p, run);
    const auto other = core::createRun(p, run);
    QVERIFY(core::loadRun(p, mine).status == core::RunStatus::Running);  // this process is alive
    const pid_t child = fork();
    if (child == 0) _exit(0);
    QVERIFY(child > 0);
    waitpid(child, nullptr, 0);
    p.db()
        .prepare("UPDATE runs SET owner_pid = ?1 WHERE id = ?2")
        .bind(1, static_cast<std::int64_t>(child))
        .bind(2, other)
        .run();
    QVERIFY(core::loadRun(p, other).status == core::RunStatus::Interrupted);
    QCOMPARE(std::string(core::statusName(core::loadRun(p, other).status)), std::string("interrupted"));
    // A run owned by another machine cannot be judged and stays running.
    p.db().prepare("UPDATE runs SET owner_host = 'elsewhere' WHERE id = ?1").bind(1, other).run();
    QVERIFY(core::loadRun(p, other).status == core::RunStatus::Running);
    // A killed run's process id, once reused by a live process (here this one), does not make the
    // run live again: the process holding the id started at another time.
    QVERIFY(core::currentProcessStart().has_value());
    p.db().prepare("UPDATE runs SET owner_started = owner_started - 1 WHERE id = ?1").bind(1, mine).run();
    QVERIFY(core::loadRun(p, mine).status == core::RunStatus::Interrupted);
    // Rows written before the start time was recorded are judged by the process id alone.
    p.db().prepare("UPDATE runs SET owner_started = NULL WHERE id = ?1").bind(1, mine).run();
    QVERIFY(core::loadRun(p, mine).status == core::RunStatus::Running);
  }

  void datasetNamesAreUnique() {
    test::Scratch scratch;
    core::Project p(scratch.path("n.latent"));
    test::addCorpus(p, "same", {"a b c"});
    QVERIFY_THROWS_EXCEPTION(core::UsageError, test::addCorpus(p, "same", {"d e f"}));
    QCOMPARE(p.resolveDataset("same").name, std::string("same"));
    QCOMPARE(p.resolveDataset("1").name, std::string("same"));
    try {
      p.resolveDataset("other");
      QFAIL("expected a UsageError");
    } catch (const core::UsageError& e) {
      QVERIFY(std::string(e.what()).find("it has: same") != std::string::npos);
    }
  }
};

LATENT_TEST_CASE(ProjectStoreTest)
#include "tst_project_store.moc"
