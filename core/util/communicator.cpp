// SPDX-License-Identifier: GPL-3.0-or-later
// The group of one process, and the distributed tests' abort hook.
#include "core/util/communicator.hpp"

#include <cstdlib>
#include <cstring>

namespace latent::core {

void Communicator::broadcastInPlace(std::span<std::byte> bytes, int root) {
  Bytes copy;
  if (rank() == root) copy.assign(bytes.begin(), bytes.end());
  broadcast(copy, root);
  if (copy.size() != bytes.size()) throw CommunicatorError("a broadcast of another size than the root's");
  if (!bytes.empty()) std::memcpy(bytes.data(), copy.data(), bytes.size());
}

Bytes SingleProcessCommunicator::exchange(std::span<const std::byte> send, int to, int from) {
  if (to != 0 || from != 0) throw CommunicatorError("a group of one process has no process " + std::to_string(to));
  return Bytes(send.begin(), send.end());
}

void SingleProcessCommunicator::broadcast(Bytes&, int root) {
  if (root != 0) throw CommunicatorError("a group of one process has no process " + std::to_string(root));
}

std::vector<Bytes> SingleProcessCommunicator::allGather(std::span<const std::byte> send) {
  return {Bytes(send.begin(), send.end())};
}

void SingleProcessCommunicator::send(std::span<const std::byte>, int to) {
  throw CommunicatorError("a group of one process has no process " + std::to_string(to) + " to send to");
}

void SingleProcessCommunicator::receive(std::span<std::byte>, int from) {
  throw CommunicatorError("a group of one process has no process " + std::to_string(from) + " to receive from");
}

DistributedTestFailure::DistributedTestFailure(int rank) {
  const char* value = std::getenv("LATENT_DISTRIBUTED_TEST_ABORT");
  if (value == nullptr) return;
  const std::string text(value);
  const auto colon = text.find(':');
  if (colon == std::string::npos) return;
  try {
    if (std::stoi(text.substr(0, colon)) != rank) return;
    std::size_t end = 0;
    const auto sweeps = std::stoll(text.substr(colon + 1), &end);
    const std::string rest = text.substr(colon + 1 + end);
    if (rest != "" && rest != ":throw") return;
    m_sweeps = sweeps;
    m_throws = rest == ":throw";
  } catch (const std::exception&) {
  }
}

void DistributedTestFailure::afterSweeps(std::int64_t sweeps) const {
  if (sweeps != m_sweeps) return;
  if (m_throws)
    throw std::runtime_error("the distributed tests' failing process, after " + std::to_string(sweeps) + " sweeps");
  std::abort();  // the distributed tests' crashed process
}

}  // namespace latent::core
