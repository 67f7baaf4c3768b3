// SPDX-License-Identifier: GPL-3.0-or-later
// The exact kernels' distributed schedule (lda_gibbs_process_ring.hpp) with threads playing
// the processes (test::ThreadCommunicator): Q members with P partitions between them, each but
// member 0 holding only its share of the corpus, are the one-process chain with P partitions, every
// topic of every token the same; a stop asked of one member ends the sweep on all of them after
// the same round.
#include <QtTest>

#include <cstdlib>
#include <thread>

#include "core/data/corpus_share.hpp"
#include "core/data/synthetic_lda.hpp"
#include "core/jobs/distributed_dataset.hpp"
#include "core/models/topic/lda_gibbs_distribution.hpp"
#include "core/models/topic/lda_gibbs_sparse_kernel.hpp"
#include "core/models/topic/lda_gibbs_state.hpp"
#include "core/models/topic/lda_gibbs_wordwise_kernel.hpp"
#include "test_case.hpp"
#include "thread_group.hpp"

using namespace latent;
using core::topic::GibbsDistribution;
using core::topic::LdaGibbsState;
using Sparse = core::topic::SparseGibbsKernel<std::uint32_t>;
using Wordwise = core::topic::WordwiseGibbsKernel<std::uint32_t>;

namespace {

constexpr int kDistributedTopics = 4;
constexpr std::uint64_t kDistributedSeed = 11;

core::Corpus distributedTestCorpus() {
  core::SyntheticLdaSpec spec;
  spec.topics = kDistributedTopics;
  spec.vocabulary = 80;
  spec.documents = 120;
  spec.meanLength = 60;
  spec.seed = 5;
  return core::generateLdaCorpus(spec).corpus;
}

struct ChainEnd {
  std::vector<std::int32_t> topics;
  std::vector<std::int64_t> totals;
  double logPrior = 0.0;
};

template <typename Kernel>
ChainEnd oneProcessChain(const core::Corpus& corpus, int partitions, int sweeps) {
  LdaGibbsState state(corpus, kDistributedTopics, 0.1, 0.05, partitions, kDistributedSeed);
  Kernel kernel(state);
  std::vector<double> logPrior;
  for (int s = 1; s <= sweeps; ++s)
    if (!kernel.sweep({}, s == sweeps, logPrior)) return {};
  kernel.synchronize(true);  // the wordwise kernel's tokens' topics into the state
  const auto z = state.assignments();
  return {{z.begin(), z.end()}, kernel.topicTotals(), logPrior[0]};
}

}  // namespace

class LdaGibbsDistributedTest : public QObject {
  Q_OBJECT

  // As in a distributed fit: member 0 holds the whole corpus and sends the others their shares
  // of it (jobs/distributed_dataset.hpp), by the plan a fit makes (planChain).
  template <typename Kernel>
  void compare(int members, int partitions) {
    const auto corpus = distributedTestCorpus();
    constexpr int sweeps = 12;
    const ChainEnd reference = oneProcessChain<Kernel>(corpus, partitions, sweeps);
    QVERIFY(!reference.topics.empty());

    test::ThreadGroup group(members);
    std::vector<ChainEnd> ends(static_cast<std::size_t>(members));
    std::vector<std::int64_t> bytes(static_cast<std::size_t>(members), 0);
    std::vector<std::size_t> heldTokens(static_cast<std::size_t>(members), 0);
    std::vector<std::jthread> threads;
    for (int r = 0; r < members; ++r)
      threads.emplace_back([&, r] {
        test::ThreadCommunicator communicator(group, r);
        core::Corpus shard;
        core::HeldoutDocuments noHeldout;
        core::CorpusShare share;
        std::int64_t fullDocuments = 0;
        if (r == 0) {
          share = core::describeCorpus(corpus, core::topic::planChain(corpus, kDistributedTopics, partitions,
                                                                      core::topic::PartitionBalance::Tokens));
          core::sendCorpusShares(communicator, corpus, nullptr, share,
                                 static_cast<std::int64_t>(corpus.documentCount()));
        } else {
          core::receiveCorpusShare(communicator, shard, noHeldout, share, fullDocuments);
        }
        const core::Corpus& held = r == 0 ? corpus : shard;
        heldTokens[static_cast<std::size_t>(r)] = held.tokenCount();
        GibbsDistribution distribution{&communicator, {}, {}};
        LdaGibbsState state(held, kDistributedTopics, 0.1, 0.05, partitions, kDistributedSeed,
                            core::topic::PartitionBalance::Tokens, &share);
        Kernel kernel(state, &distribution);
        std::vector<double> logPrior;
        for (int s = 1; s <= sweeps; ++s)
          if (!kernel.sweep({}, s == sweeps, logPrior)) return;
        kernel.synchronize(true);
        // Member 0 gathers every token's topic; the others hold their own documents' (in place).
        std::vector<std::int32_t> topics(corpus.tokenCount(), -1);
        const auto own =
            core::topic::documentsOf(state, static_cast<std::size_t>(r), static_cast<std::size_t>(members));
        const auto z = state.assignments();
        for (std::size_t d = r == 0 ? 0 : own.begin; d < (r == 0 ? corpus.documentCount() : own.end); ++d)
          for (std::size_t j = 0; j < held.documentLength(d); ++j)
            topics[static_cast<std::size_t>(corpus.offsets[d]) + j] = z[static_cast<std::size_t>(held.offsets[d]) + j];
        ends[static_cast<std::size_t>(r)] = {topics, kernel.topicTotals(), logPrior[0]};
        bytes[static_cast<std::size_t>(r)] = static_cast<std::int64_t>(kernel.communicatedBytesPerSweep());
      });
    threads.clear();
    QVERIFY(ends[0].topics == reference.topics);
    for (std::size_t r = 0; r < ends.size(); ++r) {
      QVERIFY(ends[r].totals == reference.totals);
      QCOMPARE(ends[r].logPrior, reference.logPrior);
      for (std::size_t i = 0; i < reference.topics.size(); ++i)
        if (ends[r].topics[i] >= 0) QCOMPARE(ends[r].topics[i], reference.topics[i]);
    }
    // The others hold only their share of the tokens, all of it.
    std::size_t shared = 0;
    for (std::size_t r = 1; r < heldTokens.size(); ++r) {
      QVERIFY(heldTokens[r] < corpus.tokenCount());
      shared += heldTokens[r];
    }
    const auto own0 = core::documentsOfProcess(
        core::topic::planChain(corpus, kDistributedTopics, partitions, core::topic::PartitionBalance::Tokens), 0,
        members);
    QCOMPARE(static_cast<std::int64_t>(shared),
             static_cast<std::int64_t>(corpus.tokenCount()) - corpus.offsets[static_cast<std::size_t>(own0.second)]);
    // Every member sends every word group once per sweep, each at another round (so with other
    // counts): about the same bytes on each.
    QVERIFY(bytes[0] > 0);
    for (const auto b : bytes) QVERIFY(std::abs(b - bytes[0]) < bytes[0] / 10);
  }

 private Q_SLOTS:
  // Each with both exact kernels, which hold a process's tokens differently (the wordwise kernel
  // in its own order).
  void twoMembersAreTheChainWithTwoPartitions() {
    compare<Sparse>(2, 2);
    compare<Wordwise>(2, 2);
  }
  void twoMembersOfTwoPartitionsEachAreTheChainWithFour() {
    compare<Sparse>(2, 4);
    compare<Wordwise>(2, 4);
  }
  void threeMembersAreTheChainWithThreePartitions() {
    compare<Sparse>(3, 3);
    compare<Wordwise>(3, 3);
  }

  // A different chain with P partitions than with one: the comparison above could tell them apart.
  void partitionsChangeTheChain() {
    const auto corpus = distributedTestCorpus();
    QVERIFY(oneProcessChain<Sparse>(corpus, 2, 12).topics != oneProcessChain<Sparse>(corpus, 1, 12).topics);
    QVERIFY(oneProcessChain<Wordwise>(corpus, 2, 12).topics != oneProcessChain<Wordwise>(corpus, 1, 12).topics);
  }

  // Member 1 alone is asked to stop: both members end the sweep after the same round, both
  // agreed tokens are requested, and the counts gathered afterwards are whole.
  void aStopOfOneMemberStopsAll() {
    const auto corpus = distributedTestCorpus();
    test::ThreadGroup group(2);
    std::vector<int> stoppedAt(2, 0);
    std::vector<char> agreed(2, 0);
    std::vector<std::int64_t> tokens(2, 0);
    std::vector<std::jthread> threads;
    for (int r = 0; r < 2; ++r)
      threads.emplace_back([&, r] {
        test::ThreadCommunicator communicator(group, r);
        std::stop_source own;
        GibbsDistribution distribution{&communicator, own.get_token(), {}};
        LdaGibbsState state(corpus, kDistributedTopics, 0.1, 0.05, 2, kDistributedSeed);
        Sparse kernel(state, &distribution);
        std::vector<double> logPrior;
        for (int s = 1; s <= 10; ++s) {
          if (r == 1 && s == 4) own.request_stop();
          if (!kernel.sweep({}, false, logPrior)) {
            stoppedAt[static_cast<std::size_t>(r)] = s;
            break;
          }
        }
        kernel.synchronize(true);
        agreed[static_cast<std::size_t>(r)] = distribution.agreed.stop_requested() ? 1 : 0;
        for (const auto n : kernel.topicTotals()) tokens[static_cast<std::size_t>(r)] += n;
      });
    threads.clear();
    QCOMPARE(stoppedAt[0], 4);
    QCOMPARE(stoppedAt[1], 4);
    QVERIFY(agreed[0] && agreed[1]);
    QCOMPARE(tokens[0], static_cast<std::int64_t>(corpus.tokenCount()));
    QCOMPARE(tokens[1], tokens[0]);
  }
};

LATENT_TEST_CASE(LdaGibbsDistributedTest)
#include "tst_lda_gibbs_distributed.moc"
