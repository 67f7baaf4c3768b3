// SPDX-License-Identifier: GPL-3.0-or-later
// The Unicode tokenizer and the stop-word lists.
#include <QtTest>

#include "core/data/stop_words.hpp"
#include "core/data/tokenizer.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "test_support.hpp"

using namespace latent;

namespace {

struct Found {
  std::vector<std::string> words;
  std::vector<std::string> originals;  // text[begin, end)
};

Found tokenize(std::string_view text, core::TokenizerOptions options = {}) {
  core::Tokenizer tokenizer(options);
  std::vector<core::Token> tokens;
  tokenizer.tokenize(text, tokens);
  Found found;
  for (const auto& t : tokens) {
    found.words.emplace_back(t.word);
    found.originals.emplace_back(text.substr(t.begin, t.end - t.begin));
  }
  return found;
}

}  // namespace

class TokenizerTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void englishWithPunctuation() {
    const auto f = tokenize("The Bank's loan, to the river-bank: 1,000 dollars (e.g. money).");
    const std::vector<std::string> expected{"the",   "bank's", "loan",    "to",  "the",
                                            "river", "bank",   "dollars", "e.g", "money"};
    QCOMPARE(f.words, expected);
    QCOMPARE(f.originals[1], std::string("Bank's"));
  }

  void numbersAreDroppedUnlessAsked() {
    QCOMPARE(tokenize("In 1848 there were 3.5 wars").words, (std::vector<std::string>{"in", "there", "were", "wars"}));
    core::TokenizerOptions keep;
    keep.keepNumbers = true;
    QCOMPARE(tokenize("In 1848 there were 3.5 wars", keep).words,
             (std::vector<std::string>{"in", "1848", "there", "were", "3.5", "wars"}));
  }

  void lettersWithDigitsAreWords() {
    QCOMPARE(tokenize("mp3 players, covid19 and the 1990s; 3.5 or 1848").words,
             (std::vector<std::string>{"mp3", "players", "covid19", "and", "the", "1990s", "or"}));
  }

  void shortWordsAreDropped() {
    QCOMPARE(tokenize("I saw a cat").words, (std::vector<std::string>{"saw", "cat"}));
    core::TokenizerOptions all;
    all.minLength = 1;
    QCOMPARE(tokenize("I saw a cat", all).words, (std::vector<std::string>{"i", "saw", "a", "cat"}));
  }

  void unicodeLowerCaseAndSpans() {
    const std::string text = "ÉCOLE Straße naïve Ελληνικά";
    const auto f = tokenize(text);
    QCOMPARE(f.words, (std::vector<std::string>{"école", "straße", "naïve", "ελληνικά"}));
    // Spans are byte offsets that cut the original at the word.
    QCOMPARE(f.originals, (std::vector<std::string>{"ÉCOLE", "Straße", "naïve", "Ελληνικά"}));
  }

  void typographicApostrophe() {
    const auto f = tokenize("don’t DON'T");
    QCOMPARE(f.words, (std::vector<std::string>{"don't", "don't"}));
    QCOMPARE(f.originals[0], std::string("don’t"));
  }

  void decomposedFormsAreComposed() {
    // "cafe" + COMBINING ACUTE ACCENT is the same word as precomposed "café".
    const auto f = tokenize("cafe\xCC\x81 caf\xC3\xA9");
    QCOMPARE(f.words.size(), std::size_t{2});
    QCOMPARE(f.words[0], f.words[1]);
    QCOMPARE(f.words[0], std::string("caf\xC3\xA9"));
  }

  void ideographsAreWordsOfAnyLength() {
    const auto f = tokenize("我爱北京 and 東京");
    QVERIFY(!f.words.empty());
    std::string joined;
    for (const auto& w : f.words) joined += w;
    QVERIFY(joined.find("北京") != std::string::npos);
    QVERIFY(joined.find("and") != std::string::npos);
  }

  void emptyAndSpaceOnly() {
    QVERIFY(tokenize("").words.empty());
    QVERIFY(tokenize("   \n\t  ").words.empty());
  }

  void englishStopWords() {
    const auto en = core::StopWords::english();
    QVERIFY(en.size() > 250);
    for (const char* w : {"the", "and", "of", "don't", "themselves"}) QVERIFY2(en.contains(w), w);
    for (const char* w : {"bank", "river", "money", "government"}) QVERIFY2(!en.contains(w), w);
  }

  void stopWordsFromFile() {
    test::Scratch scratch;
    const auto file = scratch.write("stop.txt", "# my list\nBANK\n  river  \n\nÉcole\n");
    const auto list = core::StopWords::fromFile(file);
    QCOMPARE(list.size(), std::size_t{3});
    QVERIFY(list.contains("bank"));
    QVERIFY(list.contains("river"));
    QVERIFY(list.contains("école"));
    QVERIFY(core::StopWords::fromSpec("none").size() == 0);
  }

  void stopWordFileMustBeUtf8() {
    test::Scratch scratch;
    const auto file = scratch.write("bad.txt", "ok\ncaf\xE9\n");
    try {
      core::StopWords::fromFile(file);
      QFAIL("expected an InputError");
    } catch (const core::InputError& e) {
      QCOMPARE(e.line(), 2);
      QVERIFY(e.reason().find("UTF-8") != std::string::npos);
    }
  }
};

LATENT_TEST_CASE(TokenizerTest)
#include "tst_tokenizer.moc"
