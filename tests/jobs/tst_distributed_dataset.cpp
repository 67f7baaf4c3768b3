// SPDX-License-Identifier: GPL-3.0-or-later
// Process 0's dataset sent to the other processes of a distributed fit (distributed_dataset.hpp),
// with threads playing the processes (test::ThreadCommunicator): every member ends with process
// 0's corpus or ratings, field for field, and throws what stopped process 0, of the same kind.
#include <QtTest>

#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

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
  corpus.links = {{0, 2, 1.0}, {2, 1, 0.5}};
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
  void everyMemberHoldsProcessZerosCorpus() {
    const auto original = smallCorpus();
    std::vector<core::Corpus> held(kMembers);
    std::vector<core::DataKind> kinds(kMembers, core::DataKind::Table);
    std::vector<std::string> requests(kMembers);
    onEveryMember([&](core::Communicator& c) {
      auto& corpus = held[static_cast<std::size_t>(c.rank())];
      if (c.rank() == 0) {
        corpus = original;
        core::announceStart(c, {core::DataKind::Corpus, "the request"});
        kinds[0] = core::DataKind::Corpus;
        requests[0] = "the request";
      } else {
        const auto start = core::awaitStart(c);
        kinds[static_cast<std::size_t>(c.rank())] = start.kind;
        requests[static_cast<std::size_t>(c.rank())] = start.request;
      }
      core::shareCorpus(c, corpus);
    });
    for (int r = 0; r < kMembers; ++r) {
      const auto& corpus = held[static_cast<std::size_t>(r)];
      QVERIFY(kinds[static_cast<std::size_t>(r)] == core::DataKind::Corpus);
      QCOMPARE(requests[static_cast<std::size_t>(r)], std::string("the request"));
      QVERIFY(corpus.words == original.words);
      QVERIFY(corpus.documentIds == original.documentIds);
      QVERIFY(corpus.titles == original.titles);
      QVERIFY(corpus.offsets == original.offsets);
      QVERIFY(corpus.tokens == original.tokens);
      QVERIFY(corpus.links == original.links);
    }
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
