// SPDX-License-Identifier: GPL-3.0-or-later
// core::Communicator between threads of one process: the distributed sampler's schedule tested
// without MPI (each thread plays one process, with its own state and kernel).
#pragma once

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/util/communicator.hpp"

namespace latent::test {

// What the threads of a group share: a slot per member and a reusable barrier.
class ThreadGroup {
 public:
  explicit ThreadGroup(int size)
      : m_size(size),
        m_bytes(static_cast<std::size_t>(size)),
        m_to(static_cast<std::size_t>(size), -1),
        m_integers(static_cast<std::size_t>(size)),
        m_reals(static_cast<std::size_t>(size)) {}

  int size() const { return m_size; }

  void barrier() {
    std::unique_lock lock(m_mutex);
    const std::uint64_t generation = m_generation;
    if (++m_arrived == m_size) {
      m_arrived = 0;
      ++m_generation;
      m_changed.notify_all();
    } else {
      m_changed.wait(lock, [&] { return m_generation != generation; });
    }
  }

 private:
  friend class ThreadCommunicator;
  int m_size;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  int m_arrived = 0;
  std::uint64_t m_generation = 0;
  std::vector<core::Bytes> m_bytes;
  std::vector<int> m_to;
  std::vector<std::vector<std::int64_t>> m_integers;
  std::vector<std::vector<double>> m_reals;
  // Point-to-point messages not yet received, by (sender, receiver), in the order sent.
  std::map<std::pair<int, int>, std::deque<core::Bytes>> m_mail;
  std::condition_variable m_mailArrived;
};

// Member `rank` of a ThreadGroup: each operation writes its slot, waits for all, reads, and waits
// again so that no member overwrites a slot another has yet to read.
class ThreadCommunicator final : public core::Communicator {
 public:
  ThreadCommunicator(ThreadGroup& group, int rank) : m_group(group), m_rank(rank) {}

  int rank() const override { return m_rank; }
  int size() const override { return m_group.size(); }

  core::Bytes exchange(std::span<const std::byte> send, int to, int from) override {
    countSent(send.size());
    own().assign(send.begin(), send.end());
    m_group.m_to[static_cast<std::size_t>(m_rank)] = to;
    m_group.barrier();
    if (m_group.m_to[static_cast<std::size_t>(from)] != m_rank)
      throw core::CommunicatorError("the sender did not send to this member");
    core::Bytes received = m_group.m_bytes[static_cast<std::size_t>(from)];
    m_group.barrier();
    return received;
  }
  void allReduceSum(std::span<std::int64_t> values) override { reduce(values, m_group.m_integers); }
  void allReduceSum(std::span<double> values) override { reduce(values, m_group.m_reals); }
  void broadcast(core::Bytes& bytes, int root) override {
    if (m_rank == root) {
      countSent(bytes.size());
      own() = bytes;
    }
    m_group.barrier();
    bytes = m_group.m_bytes[static_cast<std::size_t>(root)];
    m_group.barrier();
  }
  std::vector<core::Bytes> allGather(std::span<const std::byte> send) override {
    countSent(send.size());
    own().assign(send.begin(), send.end());
    m_group.barrier();
    std::vector<core::Bytes> all = m_group.m_bytes;
    m_group.barrier();
    return all;
  }
  void send(std::span<const std::byte> bytes, int to) override {
    countSent(bytes.size());
    const std::lock_guard lock(m_group.m_mutex);
    m_group.m_mail[{m_rank, to}].emplace_back(bytes.begin(), bytes.end());
    m_group.m_mailArrived.notify_all();
  }
  void receive(std::span<std::byte> bytes, int from) override {
    std::unique_lock lock(m_group.m_mutex);
    auto& queue = m_group.m_mail[{from, m_rank}];
    m_group.m_mailArrived.wait(lock, [&] { return !queue.empty(); });
    const core::Bytes message = std::move(queue.front());
    queue.pop_front();
    if (message.size() != bytes.size())
      throw core::CommunicatorError("member " + std::to_string(from) + " sent a message of another size");
    std::copy(message.begin(), message.end(), bytes.begin());
  }

 private:
  core::Bytes& own() { return m_group.m_bytes[static_cast<std::size_t>(m_rank)]; }

  // Sums in member order, so that every member gets the same doubles.
  template <typename T>
  void reduce(std::span<T> values, std::vector<std::vector<T>>& slots) {
    countSent(values.size_bytes());
    slots[static_cast<std::size_t>(m_rank)].assign(values.begin(), values.end());
    m_group.barrier();
    for (std::size_t i = 0; i < values.size(); ++i) {
      T sum{};
      for (const auto& slot : slots) sum += slot[i];
      values[i] = sum;
    }
    m_group.barrier();
  }

  ThreadGroup& m_group;
  int m_rank;
};

}  // namespace latent::test
