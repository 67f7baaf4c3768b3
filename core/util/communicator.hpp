// SPDX-License-Identifier: GPL-3.0-or-later
// The few collective operations a fit spread over several processes needs (latent-cli fit
// --distributed), behind an interface so that core links no message-passing library: the Open
// MPI implementation lives in its own target (mpi/), this process's in communicator.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace latent::core {

using Bytes = std::vector<std::byte>;

// A process of the group failed or could not be reached: the fit cannot go on.
class CommunicatorError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Every operation is collective: each process of the group calls it, in the same order.
class Communicator {
 public:
  virtual ~Communicator() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;

  // Sends `send` to process `to` and receives what process `from` sends to this one (a shift
  // around a ring when to = rank - 1 and from = rank + 1).
  virtual Bytes exchange(std::span<const std::byte> send, int to, int from) = 0;
  // Every process's values replaced by their sum over the processes.
  virtual void allReduceSum(std::span<std::int64_t> values) = 0;
  virtual void allReduceSum(std::span<double> values) = 0;
  // `bytes` of process `root` copied to every process.
  virtual void broadcast(Bytes& bytes, int root) = 0;
  // The same into memory every process has sized alike (a corpus's tokens), with no copy where
  // the implementation allows one; by default through broadcast.
  virtual void broadcastInPlace(std::span<std::byte> bytes, int root);
  // Every process's `send`, indexed by rank, on every process.
  virtual std::vector<Bytes> allGather(std::span<const std::byte> send) = 0;

  // Point to point, not collective: `bytes` to process `to`, which takes them with receive() into
  // memory of exactly their size (sent before, when it does not know it), in the order they were
  // sent. What one process holds for each of the others: its share of a corpus, its tokens' topics.
  virtual void send(std::span<const std::byte> bytes, int to) = 0;
  virtual void receive(std::span<std::byte> bytes, int from) = 0;

  // Ends every process of the group at once with `exitCode`, for a process that leaves with an
  // error the others do not share: they would wait for it in their next collective, and it for
  // them in MPI_Finalize. Nothing in a group of one.
  virtual void abort(int exitCode) { static_cast<void>(exitCode); }
  // Whether every process learnt of the error this one leaves with (process 0 sent it,
  // jobs/distributed_dataset.hpp), so that they end together and none need abort.
  bool endedTogether() const noexcept { return m_endedTogether; }
  void markEndedTogether() noexcept { m_endedTogether = true; }

  // Bytes this process has handed to the operations above: what the communication model in
  // docs/DISTRIBUTED.md counts.
  std::int64_t bytesSent() const noexcept { return m_bytesSent; }

 protected:
  void countSent(std::size_t bytes) noexcept { m_bytesSent += static_cast<std::int64_t>(bytes); }

 private:
  std::int64_t m_bytesSent = 0;
  bool m_endedTogether = false;
};

// A group of one: what a fit runs on without mpirun, so that --distributed alone equals a
// normal run.
class SingleProcessCommunicator final : public Communicator {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  Bytes exchange(std::span<const std::byte> send, int to, int from) override;
  void allReduceSum(std::span<std::int64_t>) override {}
  void allReduceSum(std::span<double>) override {}
  void broadcast(Bytes&, int root) override;
  std::vector<Bytes> allGather(std::span<const std::byte> send) override;
  void send(std::span<const std::byte> bytes, int to) override;
  void receive(std::span<std::byte> bytes, int from) override;
};

// Plain values appended to and read back from a byte buffer, in this machine's layout (every
// process of a run is the same program on the same kind of machine).
template <typename T>
void appendValues(Bytes& out, std::span<const T> values) {
  static_assert(std::is_trivially_copyable_v<T>);
  const std::size_t at = out.size();
  out.resize(at + values.size_bytes());
  if (!values.empty()) std::memcpy(out.data() + at, values.data(), values.size_bytes());
}

template <typename T>
void appendValue(Bytes& out, const T& value) {
  appendValues(out, std::span<const T>(&value, 1));
}

// Reads values from a buffer in the order they were appended.
class ByteReader {
 public:
  explicit ByteReader(std::span<const std::byte> bytes) : m_bytes(bytes) {}

  template <typename T>
  void read(std::span<T> values) {
    static_assert(std::is_trivially_copyable_v<T>);
    if (m_at + values.size_bytes() > m_bytes.size()) throw CommunicatorError("a message ended early");
    if (!values.empty()) std::memcpy(values.data(), m_bytes.data() + m_at, values.size_bytes());
    m_at += values.size_bytes();
  }
  template <typename T>
  T read() {
    T value{};
    read(std::span<T>(&value, 1));
    return value;
  }
  bool done() const noexcept { return m_at == m_bytes.size(); }

 private:
  std::span<const std::byte> m_bytes;
  std::size_t m_at = 0;
};

// The test hook of the distributed tests (tests/cli/tst_cli_distributed*.cpp): with the
// environment variable LATENT_DISTRIBUTED_TEST_ABORT="RANK:SWEEPS", process RANK of a
// distributed fit aborts once it has finished SWEEPS sweeps, as a crashed node would; with
// "RANK:SWEEPS:throw" it throws instead, as a process meeting an error of its own would.
class DistributedTestFailure {
 public:
  DistributedTestFailure() = default;
  // Read from the environment; nothing happens on another rank, or when it is unset.
  explicit DistributedTestFailure(int rank);
  // After each sweep, with the number of sweeps finished.
  void afterSweeps(std::int64_t sweeps) const;

 private:
  std::int64_t m_sweeps = -1;
  bool m_throws = false;
};

}  // namespace latent::core
