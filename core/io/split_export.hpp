// SPDX-License-Identifier: GPL-3.0-or-later
// Writes a corpus's held-out split to files, so that other programs (the peer benchmarks) train and
// score on exactly the documents and half-documents we do.
#pragma once

#include <filesystem>

#include "core/eval/heldout.hpp"

namespace latent::core {

// In `folder` (created when missing): train.ldac, observed.ldac and scored.ldac in LDA-C format
// ("N id:count ...", 0-based word ids, one document per line, held-out documents in the same order
// in observed and scored), vocab.txt (line k+1 = word id k), and documents.csv
// ("part,row,document,corpus_index": which document of the corpus each line is).
void writeHeldoutSplit(const CorpusSplit& split, const std::filesystem::path& folder);

}  // namespace latent::core
