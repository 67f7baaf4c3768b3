// SPDX-License-Identifier: GPL-3.0-or-later
// The processes of latent-cli fit --distributed: MPI's when mpirun started this one, else this
// process alone.
#include <cstdlib>
#include <memory>

#include "cli_common.hpp"
#include "core/util/errors.hpp"
#ifdef LATENT_HAVE_MPI
#include "mpi/mpi_communicator.hpp"
#endif

namespace latent::cli {

std::unique_ptr<core::Communicator> distributedGroup() {
  // Open MPI's launcher tells each process how many it started.
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  const bool launched = size != nullptr && std::atoi(size) > 1;
#ifdef LATENT_HAVE_MPI
  if (launched) return std::make_unique<mpi::MpiCommunicator>();
#else
  if (launched) throw core::UsageError("--distributed: this latent-cli was built without MPI");
#endif
  return std::make_unique<core::SingleProcessCommunicator>();
}

}  // namespace latent::cli
