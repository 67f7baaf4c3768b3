// SPDX-License-Identifier: GPL-3.0-or-later
// Process 0's dataset sent to the other processes of a distributed fit (distributed_dataset.hpp),
// with threads playing the processes (test::ThreadCommunicator): every member ends with its share
// of process 0's corpus or with its ratings, field for field, and throws what stopped process 0, of
// the same kind.
#include <QtTest>

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "core/eval/heldout.hpp"
#include "core/jobs/distributed_dataset.hpp"
#include "core/util/errors.hpp"
#include "test_case.hpp"
#include "thread_group.hpp"

using namespace latent;

namespace {

constexpr int kMembers = 3;

core::Corpus smallCorpus() {
  core::Corpus corpus;
  corpus.words = {"bank", "river", "", "loan"};  // an empty string travels too
  corpus.addDocument("a.txt", "A", std::vector<std::int32_t>{0, 1, 1, 3});
  corpus.addDocument("b.txt", "", std::vector<std::int32_t>{});
  corpus.addDocument("c.txt", "C, third", std::vector<std::int32_t>{2, 0});
  corpus.addDocument("d.txt", "D", std::vector<std::int32_t>{1, 2, 3});
  corpus.addDocument("e.txt", "E", std::vector<std::int32_t>{});
  corpus.addDocument("f.txt", "F", std::vector<std::int32_t>{0});
  return corpus;
}

core::Ratings smallRatings() {
  core::Ratings ratings;
  ratings.userIds = {"u1", "u2"};
  ratings.itemIds = {"i1", "i2", "i3"};
  ratings.itemNames = {"First", "Second", "Third"};
  ratings.ratings = {{0, 2, 4.5, 100}, {1, 0, 1.0, 200}};
  ratings.hasTime = true;
  return ratings;
}

// Runs `member(communicator)` on every member of a group, each on its own thread.
void onEveryMember(const std::function<void(core::Communicator&)>& member) {
  test::ThreadGroup group(kMembers);
  std::vector<std::jthread> threads;
  for (int r = 0; r < kMembers; ++r)
    threads.emplace_back([&, r] {
      test::ThreadCommunicator communicator(group, r);
      member(communicator);
    });
}

// What member r threw when process 0 failed with `failure`: "usage", "cancelled" or "other",
// with the message.
std::vector<std::string> whatTheOthersThrow(const std::exception& failure) {
  std::vector<std::string> caught(kMembers);
  onEveryMember([&](core::Communicator& c) {
    if (c.rank() == 0) {
      core::announceFailure(c, failure);
      return;
    }
    auto& out = caught[static_cast<std::size_t>(c.rank())];
    try {
      core::awaitStart(c);
      out = "started";
    } catch (const core::UsageError& e) {
      out = std::string("usage: ") + e.what();
    } catch (const core::Cancelled&) {
      out = "cancelled";
    } catch (const std::exception& e) {
      out = std::string("other: ") + e.what();
    }
  });
  return {caught.begin() + 1, caught.end()};
}

}  // namespace

class DistributedDatasetTest : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Each member holds its partitions' documents of process 0's corpus, where they are in the
  // whole corpus, every other document empty, and what the plan says of the whole.
  void everyMemberHoldsItsShareOfProcessZerosCorpus() {
    const auto original = smallCorpus();
    // Six partitions of a document each, two a member: member 1 holds documents 2 and 3, member 2
    // documents 4 (empty) and 5.
    const core::CorpusPlan plan{{1, 2, 3, 4, 5, 6}, {0, 1, 2, 0}};
    std::vector<core::Corpus> held(kMembers);
    std::vector<core::HeldoutDocuments> heldout(kMembers);
    std::vector<core::CorpusShare> shares(kMembers);
    std::vector<std::int64_t> fullDocuments(kMembers, 0);
    std::vector<core::DataKind> kinds(kMembers, core::DataKind::Table);
    std::vector<std::string> requests(kMembers);
    onEveryMember([&](core::Communicator& c) {
      const auto r = static_cast<std::size_t>(c.rank());
      if (c.rank() == 0) {
        shares[0] = core::describeCorpus(original, plan);
        core::announceStart(c, {core::DataKind::Corpus, "the request"});
        kinds[0] = core::DataKind::Corpus;
        requests[0] = "the request";
        core::sendCorpusShares(c, original, nullptr, shares[0], 9);
      } else {
        const auto start = core::awaitStart(c);
        kinds[r] = start.kind;
        requests[r] = start.request;
        core::receiveCorpusShare(c, held[r], heldout[r], shares[r], fullDocuments[r]);
      }
    });
    const auto whole = core::describeCorpus(original, plan);
    QCOMPARE(whole.tokens, std::int64_t{10});
    QCOMPARE(whole.longestDocument, std::int64_t{4});
    QCOMPARE(whole.squaredLengths, 16.0 + 4.0 + 9.0 + 1.0);
    QVERIFY(whole.wordFrequencies == (std::vector<std::int64_t>{3, 3, 2, 2}));
    for (int r = 1; r < kMembers; ++r) {
      const auto& corpus = held[static_cast<std::size_t>(r)];
      const auto& share = shares[static_cast<std::size_t>(r)];
      QVERIFY(kinds[static_cast<std::size_t>(r)] == core::DataKind::Corpus);
      QCOMPARE(requests[static_cast<std::size_t>(r)], std::string("the request"));
      QCOMPARE(fullDocuments[static_cast<std::size_t>(r)], std::int64_t{9});
      QVERIFY(share.plan.partitionEnds == plan.partitionEnds);
      QVERIFY(share.plan.wordGroups == plan.wordGroups);
      QCOMPARE(share.tokens, whole.tokens);
      QVERIFY(share.wordFrequencies == whole.wordFrequencies);
      QCOMPARE(share.longestDocument, whole.longestDocument);
      QCOMPARE(share.squaredLengths, whole.squaredLengths);
      QVERIFY(corpus.words == original.words);
      QCOMPARE(corpus.documentCount(), original.documentCount());
      const auto [first, end] = core::documentsOfProcess(plan, r, kMembers);
      std::size_t tokens = 0;
      for (std::size_t d = 0; d < original.documentCount(); ++d) {
        const bool own = static_cast<std::int64_t>(d) >= first && static_cast<std::int64_t>(d) < end;
        const auto held = corpus.document(d);
        const auto sent = original.document(d);
        if (own) {
          QVERIFY(std::equal(held.begin(), held.end(), sent.begin(), sent.end()));
          tokens += sent.size();
        } else {
          QVERIFY(held.empty());
        }
      }
      QCOMPARE(corpus.tokenCount(), tokens);
    }
    QCOMPARE(held[1].tokenCount(), std::size_t{5});
    QCOMPARE(held[2].tokenCount(), std::size_t{1});
    for (const auto& none : heldout) QVERIFY(none.empty());  // nothing held out, nothing planned
  }

  // Each member holds the halves of the held-out documents it scores, every other held-out
  // document empty, and every held-out document's index (its fold-in's seed).
  void everyMemberHoldsItsHeldoutDocuments() {
    const auto original = smallCorpus();
    const core::CorpusPlan plan{{2, 4, 6}, {}};
    core::HeldoutDocuments sent;
    sent.documents = {7, 8, 11, 12};
    sent.observed.words = sent.scored.words = original.words;
    sent.observed.addDocument("g", "", std::vector<std::int32_t>{0, 1, 2});
    sent.scored.addDocument("g", "", std::vector<std::int32_t>{3, 3});
    sent.observed.addDocument("h", "", std::vector<std::int32_t>{1});
    sent.scored.addDocument("h", "", std::vector<std::int32_t>{2});
    sent.observed.addDocument("i", "", std::vector<std::int32_t>{0, 0});
    sent.scored.addDocument("i", "", std::vector<std::int32_t>{1, 1});
    sent.observed.addDocument("j", "", std::vector<std::int32_t>{3});
    sent.scored.addDocument("j", "", std::vector<std::int32_t>{0});
    // 5, 2, 4 and 2 tokens: member 0 takes the first (5 of 13), member 1 the next two, member 2
    // the last.
    QVERIFY(core::heldoutEndsOfProcesses(sent, kMembers) == (std::vector<std::int64_t>{1, 3, 4}));
    std::vector<core::Corpus> held(kMembers);
    std::vector<core::HeldoutDocuments> heldout(kMembers);
    std::vector<core::CorpusShare> shares(kMembers);
    std::vector<std::int64_t> fullDocuments(kMembers, 0);
    onEveryMember([&](core::Communicator& c) {
      const auto r = static_cast<std::size_t>(c.rank());
      if (c.rank() == 0) {
        shares[0] = core::describeCorpus(original, plan);
        shares[0].heldoutEnds = core::heldoutEndsOfProcesses(sent, kMembers);
        core::sendCorpusShares(c, original, &sent, shares[0], 10);
      } else {
        core::receiveCorpusShare(c, held[r], heldout[r], shares[r], fullDocuments[r]);
      }
    });
    for (int r = 1; r < kMembers; ++r) {
      const auto& mine = heldout[static_cast<std::size_t>(r)];
      QVERIFY(shares[static_cast<std::size_t>(r)].heldoutEnds == shares[0].heldoutEnds);
      QVERIFY(mine.documents == sent.documents);
      QCOMPARE(mine.observed.documentCount(), sent.size());
      QCOMPARE(mine.scored.documentCount(), sent.size());
      const auto [first, end] = core::heldoutOfProcess(shares[0], r);
      for (std::size_t d = 0; d < sent.size(); ++d) {
        const bool own = static_cast<std::int64_t>(d) >= first && static_cast<std::int64_t>(d) < end;
        for (const auto halves : {&core::HeldoutDocuments::observed, &core::HeldoutDocuments::scored}) {
          const auto got = (mine.*halves).document(d), expected = (sent.*halves).document(d);
          if (own)
            QVERIFY(std::equal(got.begin(), got.end(), expected.begin(), expected.end()));
          else
            QVERIFY(got.empty());
        }
      }
    }
    QCOMPARE(heldout[1].observed.tokenCount() + heldout[1].scored.tokenCount(), std::size_t{6});
    QCOMPARE(heldout[2].observed.tokenCount() + heldout[2].scored.tokenCount(), std::size_t{2});
  }

  // Fewer held-out documents than processes: some score none; the ends still cover them all.
  void heldoutDocumentsAreSharedByTheirTokens() {
    core::HeldoutDocuments two;
    two.documents = {0, 1};
    for (const int length : {3, 1}) {
      two.observed.addDocument("", "", std::vector<std::int32_t>(static_cast<std::size_t>(length), 0));
      two.scored.addDocument("", "", std::vector<std::int32_t>(static_cast<std::size_t>(length), 0));
    }
    const auto ends = core::heldoutEndsOfProcesses(two, 4);
    // 8 tokens: the cuts at 2, 4 and 6 all fall after the first document.
    QVERIFY(ends == (std::vector<std::int64_t>{1, 1, 1, 2}));
    QVERIFY(core::heldoutEndsOfProcesses(two, 1) == (std::vector<std::int64_t>{2}));
    QVERIFY(core::heldoutEndsOfProcesses(core::HeldoutDocuments{}, 3) == (std::vector<std::int64_t>{0, 0, 0}));
  }

  void everyMemberHoldsProcessZerosRatings() {
    const auto original = smallRatings();
    std::vector<core::Ratings> held(kMembers);
    onEveryMember([&](core::Communicator& c) {
      auto& ratings = held[static_cast<std::size_t>(c.rank())];
      if (c.rank() == 0) ratings = original;
      core::shareRatings(c, ratings);
    });
    for (const auto& ratings : held) {
      QVERIFY(ratings.userIds == original.userIds);
      QVERIFY(ratings.itemIds == original.itemIds);
      QVERIFY(ratings.itemNames == original.itemNames);
      QVERIFY(ratings.ratings == original.ratings);
      QVERIFY(ratings.hasTime);
    }
  }

  // A user's mistake stays a usage error (exit 2 on every process), an interrupt an interrupt,
  // anything else a failure, each with process 0's message.
  void theOthersThrowWhatStoppedProcessZero() {
    const std::vector<std::string> usage(kMembers - 1, "usage: no dataset named 'x'");
    QVERIFY(whatTheOthersThrow(core::UsageError("no dataset named 'x'")) == usage);
    const std::vector<std::string> input(kMembers - 1, "usage: f.csv:3: a bad row");
    QVERIFY(whatTheOthersThrow(core::InputError("f.csv", 3, "a bad row")) == input);
    const std::vector<std::string> cancelled(kMembers - 1, "cancelled");
    QVERIFY(whatTheOthersThrow(core::Cancelled()) == cancelled);
    const std::vector<std::string> other(kMembers - 1, "other: disk I/O error");
    QVERIFY(whatTheOthersThrow(std::runtime_error("disk I/O error")) == other);
  }
};

LATENT_TEST_CASE(DistributedDatasetTest)
#include "tst_distributed_dataset.moc"
