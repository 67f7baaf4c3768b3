// SPDX-License-Identifier: GPL-3.0-or-later
// How the processes of a distributed fit (latent-cli fit --distributed) come to hold their data:
// process 0 alone opens the project and loads the dataset, then sends the others what the
// distributed models read, so that the project file need only be on process 0's machine: of a
// corpus, each process's own documents; ratings whole.
#pragma once

#include <exception>
#include <string>

#include "core/data/corpus.hpp"
#include "core/data/corpus_share.hpp"
#include "core/data/data_kind.hpp"
#include "core/data/ratings.hpp"
#include "core/eval/heldout.hpp"
#include "core/util/communicator.hpp"

namespace latent::core {

// What process 0 tells the others when the fit can start: the kind of its dataset (whose data
// follows) and its request, as a text the others compare with their own (runFit: every process
// must have been given the same command line).
struct ProcessZeroStart {
  DataKind kind = DataKind::Corpus;
  std::string request;
};

// Collective, process 0's side: the fit starts, or cannot start for `failure`, which the others
// then throw too.
void announceStart(Communicator& group, const ProcessZeroStart& start);
void announceFailure(Communicator& group, const std::exception& failure);
// Collective, the other processes' side: process 0's start, or throws what stopped it (a
// UsageError where it was the user's doing, so that every process exits as process 0 does).
ProcessZeroStart awaitStart(Communicator& group);

// Collective, every process once it holds the data: `refusal` is why this process cannot take
// part ("" when it can: the memory of its machine, which can differ between a cluster's nodes, or
// a command line other than process 0's).
// When any process refuses, every one throws a UsageError naming the first that did, before a run
// is written.
void agreeToStart(Communicator& group, const std::string& refusal);

// Collective: process 0's training corpus, in the shares of `share.plan` (data/corpus_share.hpp;
// the model's ModelInfo::planCorpus made it on process 0), and its held-out documents in the
// shares of `share.heldoutEnds` (`heldout` may be null when those are empty). Every process gets
// the vocabulary, `share` and the full corpus's document count; process q of the others only its
// own documents' tokens, which go to it alone, in a corpus of every document with the others'
// empty, and likewise its own held-out documents' halves, with every held-out document's index.
// About 4 bytes a token in all, 12 a word and 8 a held-out document to each process.
void sendCorpusShares(Communicator& group, const Corpus& training, const HeldoutDocuments* heldout, CorpusShare& share,
                      std::int64_t fullDocumentCount);
void receiveCorpusShare(Communicator& group, Corpus& corpus, HeldoutDocuments& heldout, CorpusShare& share,
                        std::int64_t& fullDocumentCount);

// Collective: process 0's ratings into the others' (empty) ones, which split off the held-out
// ratings by the seed as process 0 does: its ids, item names and ratings, about 24 bytes a rating
// besides the strings.
void shareRatings(Communicator& group, Ratings& ratings);

}  // namespace latent::core
