// SPDX-License-Identifier: GPL-3.0-or-later
// MpiCommunicator: each operation one MPI call or two (sizes, then the bytes).
#include "mpi/mpi_communicator.hpp"

#include <mpi.h>

#include <algorithm>
#include <limits>
#include <string>

namespace latent::mpi {
namespace {

void check(int code, const char* what, bool& failed) {
  if (code == MPI_SUCCESS) return;
  failed = true;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw core::CommunicatorError(std::string("a process of the distributed run was lost (") + what + ": " +
                                std::string(text, static_cast<std::size_t>(length)) + ")");
}

// MPI counts in ints: what passes 2 GiB (a large corpus's tokens) goes in pieces of 1 GiB.
constexpr std::size_t kPiece = std::size_t{1} << 30;
// Point-to-point messages' tag, apart from the exchange's.
constexpr int kPointToPointTag = 3;

int countOf(std::size_t bytes) {
  if (bytes > static_cast<std::size_t>(std::numeric_limits<int>::max()))
    throw core::CommunicatorError("a message of more than 2 GiB");
  return static_cast<int>(bytes);
}

}  // namespace

MpiCommunicator::MpiCommunicator() {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    int provided = 0;
    // Only the thread that made this object calls MPI; the sampler's worker threads never do.
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &m_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &m_size);
}

MpiCommunicator::~MpiCommunicator() {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (finalised) return;
  if (m_failed)
    MPI_Abort(MPI_COMM_WORLD, 1);  // the others are gone or stuck: end the job
  else
    MPI_Finalize();
}

void MpiCommunicator::abort(int exitCode) { MPI_Abort(MPI_COMM_WORLD, exitCode); }

core::Bytes MpiCommunicator::exchange(std::span<const std::byte> send, int to, int from) {
  countSent(send.size());
  std::int64_t sendSize = static_cast<std::int64_t>(send.size()), receiveSize = 0;
  check(MPI_Sendrecv(&sendSize, 1, MPI_INT64_T, to, 1, &receiveSize, 1, MPI_INT64_T, from, 1, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE),
        "exchange", m_failed);
  core::Bytes received(static_cast<std::size_t>(receiveSize));
  check(MPI_Sendrecv(send.data(), countOf(send.size()), MPI_BYTE, to, 2, received.data(), countOf(received.size()),
                     MPI_BYTE, from, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
        "exchange", m_failed);
  return received;
}

void MpiCommunicator::allReduceSum(std::span<std::int64_t> values) {
  countSent(values.size_bytes());
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), countOf(values.size()), MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD),
        "all-reduce", m_failed);
}

void MpiCommunicator::allReduceSum(std::span<double> values) {
  countSent(values.size_bytes());
  check(MPI_Allreduce(MPI_IN_PLACE, values.data(), countOf(values.size()), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD),
        "all-reduce", m_failed);
}

void MpiCommunicator::broadcast(core::Bytes& bytes, int root) {
  if (m_rank == root) countSent(bytes.size());
  std::int64_t size = static_cast<std::int64_t>(bytes.size());
  check(MPI_Bcast(&size, 1, MPI_INT64_T, root, MPI_COMM_WORLD), "broadcast", m_failed);
  bytes.resize(static_cast<std::size_t>(size));
  check(MPI_Bcast(bytes.data(), countOf(bytes.size()), MPI_BYTE, root, MPI_COMM_WORLD), "broadcast", m_failed);
}

void MpiCommunicator::broadcastInPlace(std::span<std::byte> bytes, int root) {
  if (m_rank == root) countSent(bytes.size());
  for (std::size_t at = 0; at < bytes.size(); at += kPiece) {
    const std::size_t piece = std::min(kPiece, bytes.size() - at);
    check(MPI_Bcast(bytes.data() + at, countOf(piece), MPI_BYTE, root, MPI_COMM_WORLD), "broadcast", m_failed);
  }
}

std::vector<core::Bytes> MpiCommunicator::allGather(std::span<const std::byte> send) {
  countSent(send.size());
  const auto P = static_cast<std::size_t>(m_size);
  int own = countOf(send.size());
  std::vector<int> counts(P, 0), displacements(P, 0);
  check(MPI_Allgather(&own, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD), "all-gather", m_failed);
  std::size_t total = 0;
  for (std::size_t p = 0; p < P; ++p) {
    displacements[p] = countOf(total);
    total += static_cast<std::size_t>(counts[p]);
  }
  core::Bytes all(total);
  check(MPI_Allgatherv(send.data(), own, MPI_BYTE, all.data(), counts.data(), displacements.data(), MPI_BYTE,
                       MPI_COMM_WORLD),
        "all-gather", m_failed);
  std::vector<core::Bytes> out(P);
  for (std::size_t p = 0; p < P; ++p)
    out[p].assign(all.begin() + displacements[p], all.begin() + displacements[p] + counts[p]);
  return out;
}

void MpiCommunicator::send(std::span<const std::byte> bytes, int to) {
  countSent(bytes.size());
  for (std::size_t at = 0; at < bytes.size(); at += kPiece) {
    const std::size_t piece = std::min(kPiece, bytes.size() - at);
    check(MPI_Send(bytes.data() + at, countOf(piece), MPI_BYTE, to, kPointToPointTag, MPI_COMM_WORLD), "send",
          m_failed);
  }
}

void MpiCommunicator::receive(std::span<std::byte> bytes, int from) {
  for (std::size_t at = 0; at < bytes.size(); at += kPiece) {
    const std::size_t piece = std::min(kPiece, bytes.size() - at);
    MPI_Status status;
    check(MPI_Recv(bytes.data() + at, countOf(piece), MPI_BYTE, from, kPointToPointTag, MPI_COMM_WORLD, &status),
          "receive", m_failed);
    int received = 0;
    MPI_Get_count(&status, MPI_BYTE, &received);
    if (static_cast<std::size_t>(received) != piece)
      throw core::CommunicatorError("process " + std::to_string(from) + " sent a message of another size");
  }
}

}  // namespace latent::mpi
