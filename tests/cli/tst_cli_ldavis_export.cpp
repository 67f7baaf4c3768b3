// SPDX-License-Identifier: GPL-3.0-or-later
// `export --what ldavis` (issue 20, missing item 3): a fitted topic model as LDAvis's prepared data,
// every column the length LDAvis's JavaScript expects, the map's topics the run's topics and their
// sizes the run's token shares, each topic's words its own.
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "cli_runner.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;
using test::runCli;
using test::str;

class CliLdavisExportTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void preparedDataAsLdavisReadsIt() {
    test::Scratch scratch;
    const auto project = scratch.path("p.latent");
    const auto text = scratch.path("docs.txt");
    {
      std::ofstream out(text);
      for (int d = 0; d < 40; ++d)
        out << (d % 4 == 0 ? "money bank loan money credit bank interest rate\n"
                           : "river stream bank water river shore fish boat\n");
    }
    QCOMPARE(runCli({"import", "corpus", "--project", str(project), "--name", "toy", "--source", str(text), "--format",
                     "lines"})
                 .exitCode,
             0);
    const auto fit = runCli({"fit", "lda-gibbs", "--project", str(project), "--dataset", "toy", "--k", "3",
                             "--iterations", "80", "--heldout", "0", "--seed", "3", "--json"});
    QVERIFY2(fit.exitCode == 0, qPrintable(fit.err));
    const auto file = scratch.path("run-1-ldavis.json");
    const auto r = runCli({"export", "--project", str(project), "--run", "1", "--what", "ldavis", "--out", str(file)});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    std::ifstream in(file);
    const auto json = nlohmann::json::parse(in);

    for (const char* key : {"mdsDat", "tinfo", "token.table", "R", "lambda.step", "plot.opts", "topic.order"})
      QVERIFY2(json.contains(key), key);
    // R is LDAvis's 30 words, cut to the vocabulary's 12 (stop words dropped).
    QCOMPARE(json["R"].get<int>(), 12);
    QCOMPARE(json["plot.opts"]["xlab"].get<std::string>(), std::string("PC1"));
    const auto& mds = json["mdsDat"];
    for (const char* column : {"x", "y", "topics", "cluster", "Freq"}) QCOMPARE(mds[column].size(), std::size_t{3});
    std::set<int> order;
    for (const auto& k : json["topic.order"]) order.insert(k.get<int>());
    QCOMPARE(order, (std::set<int>{1, 2, 3}));
    double percent = 0;
    for (std::size_t i = 0; i < 3; ++i) {
      percent += mds["Freq"][i].get<double>();
      if (i > 0) QVERIFY(mds["Freq"][i].get<double>() <= mds["Freq"][i - 1].get<double>());
      QVERIFY(std::isfinite(mds["x"][i].get<double>()) && std::isfinite(mds["y"][i].get<double>()));
    }
    QVERIFY(std::abs(percent - 100.0) < 1e-6);

    // tinfo: the default rows are all 12 words, and each topic lists every word it uses with
    // logprob <= 0.
    const auto& tinfo = json["tinfo"];
    const auto rows = tinfo["Term"].size();
    for (const char* column : {"Freq", "Total", "Category", "logprob", "loglift"}) QCOMPARE(tinfo[column].size(), rows);
    std::map<std::string, int> perCategory;
    for (std::size_t i = 0; i < rows; ++i) {
      const auto category = tinfo["Category"][i].get<std::string>();
      ++perCategory[category];
      if (category != "Default") {
        QVERIFY(tinfo["logprob"][i].get<double>() <= 0.0);
        QVERIFY(tinfo["Freq"][i].get<double>() <= tinfo["Total"][i].get<double>() + 1e-9);
      }
    }
    QCOMPARE(perCategory["Default"], 12);
    QVERIFY(perCategory.count("Topic1") && perCategory.count("Topic2") && perCategory.count("Topic3"));
    QCOMPARE(perCategory.size(), std::size_t{4});

    // token.table: each word's shares over topics sum to about one (rounded tokens), topics 1..3.
    const auto& table = json["token.table"];
    QCOMPARE(table["Topic"].size(), table["Term"].size());
    QCOMPARE(table["Freq"].size(), table["Term"].size());
    std::map<std::string, double> shares;
    for (std::size_t i = 0; i < table["Term"].size(); ++i) {
      const int topic = table["Topic"][i].get<int>();
      QVERIFY(topic >= 1 && topic <= 3);
      shares[table["Term"][i].get<std::string>()] += table["Freq"][i].get<double>();
    }
    QCOMPARE(shares.size(), std::size_t{12});
    for (const auto& [term, share] : shares) QVERIFY2(share > 0.5 && share < 1.5, term.c_str());

    // The money words and the river words end up in different topics.
    std::map<std::string, std::pair<int, double>> mainTopic;
    for (std::size_t i = 0; i < table["Term"].size(); ++i) {
      auto& best = mainTopic[table["Term"][i].get<std::string>()];
      if (table["Freq"][i].get<double>() > best.second)
        best = {table["Topic"][i].get<int>(), table["Freq"][i].get<double>()};
    }
    QCOMPARE(mainTopic["loan"].first, mainTopic["credit"].first);
    QCOMPARE(mainTopic["river"].first, mainTopic["water"].first);
    QVERIFY(mainTopic["loan"].first != mainTopic["river"].first);

    // Listed in the help of export.
    const auto help = runCli({"export", "--help"});
    QVERIFY(help.out.contains(QStringLiteral("ldavis")));
  }
};

LATENT_TEST_CASE(CliLdavisExportTest)
#include "tst_cli_ldavis_export.moc"
