// SPDX-License-Identifier: GPL-3.0-or-later
// pmf's distributed ALS (pmf_als_distribution.hpp) with threads playing the processes
// (test::ThreadCommunicator): Q members, each solving its blocks of users and items and
// all-gathering them, hold after every sweep the parameters one solver computes, bit for bit, with
// and without implicit feedback; a stop asked of one member ends the same sweep on all of them.
#include <QtTest>

#include <cmath>
#include <thread>

#include "core/models/ratings/pmf_als.hpp"
#include "core/models/ratings/pmf_als_distribution.hpp"
#include "core/models/ratings/pmf_synthetic.hpp"
#include "test_case.hpp"
#include "thread_group.hpp"

using namespace latent;
namespace pmf = core::pmf;

namespace {

constexpr int kDistributedFactors = 4;
constexpr std::uint64_t kDistributedPmfSeed = 9;

pmf::TrainingRatings distributedPmfRatings() {
  pmf::SyntheticRatingsSpec spec;
  spec.users = 200;
  spec.items = 90;
  spec.ratings = 4000;
  spec.factors = 3;
  const auto ratings = pmf::generateLowRankRatings(spec, 4).ratings;
  return pmf::TrainingRatings::build(ratings.ratings, spec.users, spec.items);
}

pmf::Regularization distributedPmfPenalty() {
  pmf::Regularization reg;
  reg.factors = 2.0;
  reg.biases = 1.0;
  return reg;
}

// Everything a sweep writes, as one vector to compare.
std::vector<float> parameterValues(const pmf::Parameters& p) {
  std::vector<float> all;
  for (const auto* table : {&p.users, &p.items, &p.implicit, &p.implicitSums})
    all.insert(all.end(), table->values.begin(), table->values.end());
  all.insert(all.end(), p.userBias.begin(), p.userBias.end());
  all.insert(all.end(), p.itemBias.begin(), p.itemBias.end());
  return all;
}

std::vector<float> oneSolver(const pmf::TrainingRatings& data, bool implicit, int sweeps) {
  auto params = pmf::Parameters::initial(data, kDistributedFactors, 0.1, kDistributedPmfSeed, implicit);
  const pmf::AlsSolver solver(data, distributedPmfPenalty());
  for (int s = 0; s < sweeps; ++s)
    if (!solver.sweep(params, {})) return {};
  return parameterValues(params);
}

}  // namespace

class PmfDistributedTest : public QObject {
  Q_OBJECT

  void compare(int members, bool implicit) {
    const auto data = distributedPmfRatings();
    constexpr int sweeps = 6;
    const auto reference = oneSolver(data, implicit, sweeps);
    QVERIFY(!reference.empty());

    test::ThreadGroup group(members);
    std::vector<std::vector<float>> ends(static_cast<std::size_t>(members));
    std::vector<std::int64_t> bytes(static_cast<std::size_t>(members), 0);
    std::vector<std::jthread> threads;
    for (int r = 0; r < members; ++r)
      threads.emplace_back([&, r] {
        test::ThreadCommunicator communicator(group, r);
        pmf::AlsDistribution distribution{&communicator, {}, {}};
        auto params = pmf::Parameters::initial(data, kDistributedFactors, 0.1, kDistributedPmfSeed, implicit);
        const pmf::AlsSolver solver(data, distributedPmfPenalty(), &distribution, kDistributedFactors);
        for (int s = 0; s < sweeps; ++s)
          if (!solver.sweep(params, distribution.localStop)) return;
        ends[static_cast<std::size_t>(r)] = parameterValues(params);
        bytes[static_cast<std::size_t>(r)] = communicator.bytesSent();
      });
    threads.clear();
    for (const auto& end : ends) QVERIFY(end == reference);
    // Each member sends only its blocks: together one copy of every row (K floats and a bias) per
    // sweep, plus a stop flag per all-gather and, with implicit feedback, one all-reduce.
    std::int64_t total = 0;
    for (const auto b : bytes) total += b;
    const std::int64_t rows = (200 + 90) * (kDistributedFactors + 1) * 4;
    QCOMPARE(total, sweeps * (rows + 2 * members + (implicit ? 8 * members : 0)));
  }

 private Q_SLOTS:
  void twoMembersAreOneSolver() { compare(2, false); }
  void threeMembersAreOneSolver() { compare(3, false); }
  void twoMembersWithImplicitFeedback() { compare(2, true); }
  void fourMembersWithImplicitFeedback() { compare(4, true); }

  // The blocks cover every row once, in order, each of about equal work (ratings + K per row).
  void blocksShareTheWork() {
    const auto data = distributedPmfRatings();
    const auto bounds = pmf::alsRowBlocks(data.userStart, kDistributedFactors, 4);
    QCOMPARE(bounds.size(), std::size_t(5));
    QCOMPARE(bounds.front(), 0);
    QCOMPARE(bounds.back(), data.users);
    const double total = double(data.count + std::int64_t(kDistributedFactors + 1) * data.users);
    for (std::size_t q = 0; q < 4; ++q) {
      QVERIFY(bounds[q] < bounds[q + 1]);
      const double work = double(data.userStart[static_cast<std::size_t>(bounds[q + 1])] -
                                 data.userStart[static_cast<std::size_t>(bounds[q])] +
                                 std::int64_t(kDistributedFactors + 1) * (bounds[q + 1] - bounds[q]));
      QVERIFY2(std::abs(work - total / 4) < 0.05 * total, qPrintable(QString::number(work / total)));
    }
  }

  // Member 1 alone is asked to stop before its third sweep: both leave that sweep, both agreed
  // tokens are requested, and both hold the same parameters.
  void aStopOfOneMemberStopsAll() {
    const auto data = distributedPmfRatings();
    test::ThreadGroup group(2);
    std::vector<int> stoppedAt(2, 0);
    std::vector<char> agreed(2, 0);
    std::vector<std::vector<float>> ends(2);
    std::vector<std::jthread> threads;
    for (int r = 0; r < 2; ++r)
      threads.emplace_back([&, r] {
        test::ThreadCommunicator communicator(group, r);
        std::stop_source own;
        pmf::AlsDistribution distribution{&communicator, own.get_token(), {}};
        auto params = pmf::Parameters::initial(data, kDistributedFactors, 0.1, kDistributedPmfSeed, true);
        const pmf::AlsSolver solver(data, distributedPmfPenalty(), &distribution, kDistributedFactors);
        for (int s = 1; s <= 10; ++s) {
          if (r == 1 && s == 3) own.request_stop();
          if (!solver.sweep(params, distribution.localStop)) {
            stoppedAt[static_cast<std::size_t>(r)] = s;
            break;
          }
        }
        agreed[static_cast<std::size_t>(r)] = distribution.agreed.stop_requested() ? 1 : 0;
        ends[static_cast<std::size_t>(r)] = parameterValues(params);
      });
    threads.clear();
    QCOMPARE(stoppedAt[0], 3);
    QCOMPARE(stoppedAt[1], 3);
    QVERIFY(agreed[0] && agreed[1]);
    QVERIFY(ends[0] == ends[1]);
  }
};

LATENT_TEST_CASE(PmfDistributedTest)
#include "tst_pmf_distributed.moc"
