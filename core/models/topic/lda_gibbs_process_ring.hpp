// SPDX-License-Identifier: GPL-3.0-or-later
// The block schedule across processes (latent-cli fit --distributed) for the exact samplers whose
// word-topic counts are packed lists, one per word (the sparse and wordwise kernels). Process q of
// Q samples partitions [q P/Q, (q + 1) P/Q); in round r its partition p samples word group
// (p + r) mod P, as in one process (lda_gibbs_rounds.hpp). After each round the processes add up
// the changes of the totals n_k (with whether any was asked to stop), and each passes the word
// group its first partition sampled to the previous process and receives from the next the one its
// last partition samples next: a ring, so a process holds only its own groups' lists current
// between the rounds, and the whole table when made so (makeTableCurrent).
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/models/topic/lda_gibbs_distribution.hpp"
#include "core/models/topic/lda_gibbs_packed_lists.hpp"
#include "core/util/communicator.hpp"

namespace latent::core::topic {

// Word group `words`'s lists of a packed table (word w's: table[offsets[w], offsets[w + 1]), its
// nonzero entries first): per word, how many are nonzero, then those.
template <typename Packed>
void appendWordLists(Bytes& out, std::span<const std::uint32_t> words, const std::vector<std::int64_t>& offsets,
                     const std::vector<Packed>& table) {
  for (const auto w : words) {
    const auto first = static_cast<std::size_t>(offsets[w]), last = static_cast<std::size_t>(offsets[w + 1]);
    std::size_t n = first;
    while (n < last && table[n] != 0) ++n;
    appendValue(out, static_cast<std::uint32_t>(n - first));
    appendValues(out, std::span<const Packed>(table.data() + first, n - first));
  }
}

// The lists appendWordLists wrote, into the same words' places of `table` (the rest of each list zeroed).
template <typename Packed>
void readWordLists(ByteReader& in, std::span<const std::uint32_t> words, const std::vector<std::int64_t>& offsets,
                   std::vector<Packed>& table) {
  for (const auto w : words) {
    const auto first = static_cast<std::size_t>(offsets[w]), last = static_cast<std::size_t>(offsets[w + 1]);
    const auto n = static_cast<std::size_t>(in.read<std::uint32_t>());
    if (n > last - first) throw CommunicatorError("a word's counts do not fit its list");
    in.read(std::span<Packed>(table.data() + first, n));
    std::fill(table.begin() + static_cast<std::ptrdiff_t>(first + n), table.begin() + static_cast<std::ptrdiff_t>(last),
              Packed{0});
  }
}

// A kernel's place in the ring; inactive (one process) without a group of two or more.
class ProcessRing {
 public:
  // `distribution` (null: this process alone) must outlive the ring.
  ProcessRing(GibbsDistribution* distribution, std::size_t partitions) : m_last(partitions) {
    if (distribution == nullptr || distribution->group == nullptr || distribution->group->size() < 2) return;
    m_distribution = distribution;
    const auto processes = static_cast<std::size_t>(distribution->group->size());
    if (partitions % processes != 0)
      throw std::invalid_argument("the partitions (" + std::to_string(partitions) +
                                  ") must be a multiple of the processes (" + std::to_string(processes) + ")");
    const auto perProcess = partitions / processes, rank = static_cast<std::size_t>(distribution->group->rank());
    m_first = rank * perProcess;
    m_last = m_first + perProcess;
    m_testFailure = DistributedTestFailure(distribution->group->rank());
    m_bytesBefore = distribution->group->bytesSent();
  }

  bool active() const noexcept { return m_distribution != nullptr; }
  Communicator& group() const { return *m_distribution->group; }
  // This process's partitions: [first(), last()) (all of them when inactive).
  std::size_t first() const noexcept { return m_first; }
  std::size_t last() const noexcept { return m_last; }
  // This process's documents: its partitions' (every document when inactive).
  DocumentRange documents(const LdaGibbsState& state) const {
    return active()
               ? documentsOf(state, static_cast<std::size_t>(group().rank()), static_cast<std::size_t>(group().size()))
               : documentsOf(state, 0, 1);
  }

  // One sweep: P rounds of this process's partitions (Partition: totals(), runRound(stop, group)),
  // each followed by the sum of the totals' changes and the turn of the ring. False when stopped
  // on any process (then on all, after the same round).
  template <typename Partition, typename Packed>
  bool sweep(std::vector<Partition>& partitions, std::vector<std::int64_t>& totals, tbb::affinity_partitioner& affinity,
             const std::vector<std::vector<std::uint32_t>>& groupWords, const std::vector<std::int64_t>& offsets,
             std::vector<Packed>& table) {
    const std::size_t P = partitions.size();
    const std::size_t K = totals.size();
    Communicator& ring = group();
    const int rank = ring.rank(), processes = ring.size();
    const std::int64_t bytesBefore = ring.bytesSent();
    m_tableCurrent = false;
    m_assignmentsGathered = false;
    std::vector<std::int64_t> message(K + 1, 0);
    std::vector<char> finished(P, 1);
    Bytes outgoing;
    for (std::size_t round = 0; round < P; ++round) {
      tbb::parallel_for(
          tbb::blocked_range<std::size_t>(m_first, m_last, 1),
          [&](const auto& r) {
            for (std::size_t p = r.begin(); p != r.end(); ++p) {
              partitions[p].totals() = totals;
              if (!partitions[p].runRound(m_distribution->localStop, (p + round) % P)) finished[p] = 0;
            }
          },
          affinity);
      std::fill(message.begin(), message.end(), 0);
      for (std::size_t p = m_first; p < m_last; ++p) {
        for (std::size_t k = 0; k < K; ++k) message[k] += partitions[p].totals()[k] - totals[k];
        if (!finished[p]) message[K] = 1;
      }
      ring.allReduceSum(message);
      for (std::size_t k = 0; k < K; ++k) totals[k] += message[k];
      // The group this process's first partition sampled goes to the previous process; the one
      // its last partition samples next comes from the next process.
      outgoing.clear();
      appendWordLists(outgoing, groupWords[(m_first + round) % P], offsets, table);
      const Bytes incoming = ring.exchange(outgoing, (rank + processes - 1) % processes, (rank + 1) % processes);
      ByteReader reader(incoming);
      readWordLists(reader, groupWords[(m_last + round) % P], offsets, table);
      m_shift = (round + 1) % P;
      if (message[K] != 0) {
        m_distribution->agreed.request_stop();
        return false;
      }
    }
    ++m_sweeps;
    m_sweepBytes += ring.bytesSent() - bytesBefore;
    m_testFailure.afterSweeps(m_sweeps);
    return true;
  }

  // Makes the whole table current on every process. Collective: every process calls it at the
  // same point of the chain.
  template <typename Packed>
  void makeTableCurrent(const std::vector<std::vector<std::uint32_t>>& groupWords,
                        const std::vector<std::int64_t>& offsets, std::vector<Packed>& table) {
    if (m_tableCurrent) return;
    const auto P = groupWords.size();
    const auto perProcess = m_last - m_first;
    Bytes own;
    for (std::size_t p = m_first; p < m_last; ++p) appendWordLists(own, groupWords[(p + m_shift) % P], offsets, table);
    const auto all = group().allGather(own);
    for (std::size_t q = 0; q < all.size(); ++q) {
      if (q == static_cast<std::size_t>(group().rank())) continue;
      ByteReader reader(all[q]);
      for (std::size_t p = q * perProcess; p < (q + 1) * perProcess; ++p)
        readWordLists(reader, groupWords[(p + m_shift) % P], offsets, table);
    }
    m_tableCurrent = true;
  }

  // Every token's topic into process 0's `state` from the process whose documents it belongs to,
  // unless gathered since the last sweep. Collective.
  void gatherAssignmentsOnProcessZero(LdaGibbsState& state) {
    if (m_assignmentsGathered) return;
    topic::gatherAssignmentsOnProcessZero(group(), state);
    m_assignmentsGathered = true;
  }

  // Collective, when a kernel is built: `table`'s lists and `totals`, which count this process's
  // documents' tokens, summed over the processes into those of every document, each list in
  // descending order as one process builds it (from counts alone, so the same table to the bit).
  // A piece of the vocabulary at a time, so that no process holds more than a piece of the
  // others' lists at once.
  template <typename Packed>
  void sumCounts(const std::vector<std::int64_t>& offsets, std::vector<Packed>& table, int bits,
                 std::vector<std::int64_t>& totals) {
    group().allReduceSum(totals);
    const auto V = offsets.size() - 1;
    const auto processes = static_cast<std::size_t>(group().size());
    const std::size_t pieces = 4 * processes;
    const Packed mask = (Packed{1} << bits) - 1;
    SparseCounts counts(totals.size());
    std::vector<std::uint32_t> words;
    for (std::size_t piece = 0; piece < pieces; ++piece) {
      words.clear();
      for (auto w = piece * V / pieces; w < (piece + 1) * V / pieces; ++w)
        words.push_back(static_cast<std::uint32_t>(w));
      Bytes own;
      appendWordLists(own, words, offsets, table);
      const auto all = group().allGather(own);
      std::vector<ByteReader> readers;
      for (const auto& part : all) readers.emplace_back(part);
      for (const auto w : words) {
        for (auto& reader : readers) {
          const auto n = reader.read<std::uint32_t>();
          for (std::uint32_t j = 0; j < n; ++j) {
            const auto entry = reader.read<Packed>();
            const auto k = static_cast<std::size_t>(entry & mask);
            if (k >= totals.size()) throw CommunicatorError("a word's counts name a topic past the last");
            counts.add(k, static_cast<std::int32_t>(entry >> bits));
          }
        }
        Packed* const first = table.data() + offsets[w];
        Packed* const last = table.data() + offsets[w + 1];
        if (counts.nonzero().size() > static_cast<std::size_t>(last - first))
          throw CommunicatorError("a word's summed counts do not fit its list");
        // As a kernel builds a list. The places past it stay zero: this process's own list, which
        // they held, had no more topics than the sum.
        std::sort(first, packCounts(counts, first, last, bits), std::greater<Packed>());
        counts.clear();
      }
      for (const auto& reader : readers)
        if (!reader.done()) throw CommunicatorError("a process sent counts of more words than the piece's");
    }
  }

  // Bytes this process sent around the ring and in the totals' sums per sweep, on average.
  double communicatedBytesPerSweep() const {
    return m_sweeps > 0 ? static_cast<double>(m_sweepBytes) / static_cast<double>(m_sweeps) : 0.0;
  }
  // Bytes this process sent outside the sweeps' rounds so far: the synchronisations, from the
  // counts summed when the kernel was built to the results' topics (docs/DISTRIBUTED.md).
  std::int64_t synchronizationBytes() const {
    return active() ? group().bytesSent() - m_bytesBefore - m_sweepBytes : 0;
  }

 private:
  GibbsDistribution* m_distribution = nullptr;
  std::size_t m_first = 0, m_last;
  std::size_t m_shift = 0;     // this process's current word groups: (p + m_shift) mod P, unless the
  bool m_tableCurrent = true;  // whole table is
  bool m_assignmentsGathered = false;
  std::int64_t m_sweeps = 0, m_sweepBytes = 0, m_bytesBefore = 0;
  DistributedTestFailure m_testFailure;
};

}  // namespace latent::core::topic
