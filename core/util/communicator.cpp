// SPDX-License-Identifier: GPL-3.0-or-later
// The group of one process, and the distributed tests' abort hook.
#include "core/util/communicator.hpp"

#include <cstdlib>

namespace latent::core {

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

std::int64_t distributedTestAbortAfterSweeps(int rank) {
  const char* value = std::getenv("LATENT_DISTRIBUTED_TEST_ABORT");
  if (value == nullptr) return -1;
  const std::string text(value);
  const auto colon = text.find(':');
  if (colon == std::string::npos) return -1;
  try {
    if (std::stoi(text.substr(0, colon)) != rank) return -1;
    return std::stoll(text.substr(colon + 1));
  } catch (const std::exception&) {
    return -1;
  }
}

}  // namespace latent::core
