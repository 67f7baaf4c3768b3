// SPDX-License-Identifier: GPL-3.0-or-later
// core's Communicator over MPI_COMM_WORLD (Open MPI), for processes started by mpirun.
#pragma once

#include <memory>

#include "core/util/communicator.hpp"

namespace latent::mpi {

// Initialises MPI on construction and finalises it on destruction: one per process, made by the
// thread that makes every MPI call. Errors return instead of aborting the process, so that a
// process that lost another one can still record its run as failed (CommunicatorError).
class MpiCommunicator final : public core::Communicator {
 public:
  MpiCommunicator();
  ~MpiCommunicator() override;
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  int rank() const override { return m_rank; }
  int size() const override { return m_size; }
  core::Bytes exchange(std::span<const std::byte> send, int to, int from) override;
  void allReduceSum(std::span<std::int64_t> values) override;
  void allReduceSum(std::span<double> values) override;
  void broadcast(core::Bytes& bytes, int root) override;
  void broadcastInPlace(std::span<std::byte> bytes, int root) override;
  std::vector<core::Bytes> allGather(std::span<const std::byte> send) override;
  void send(std::span<const std::byte> bytes, int to) override;
  void receive(std::span<std::byte> bytes, int from) override;
  void abort(int exitCode) override;

 private:
  int m_rank = 0;
  int m_size = 1;
  bool m_failed = false;  // after an error MPI_Finalize could wait for the lost process forever
};

}  // namespace latent::mpi
