// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli heldout-split: the document-completion split of a corpus as files, for peer programs.
#include <iostream>
#include <memory>

#include "cli_common.hpp"
#include "core/eval/heldout.hpp"
#include "core/io/split_export.hpp"
#include "core/store/corpus_store.hpp"
#include "core/util/errors.hpp"

namespace latent::cli {

Command addHeldoutSplitCommand(CLI::App& app) {
  auto project = std::make_shared<std::string>();
  auto dataset = std::make_shared<std::string>();
  auto heldout = std::make_shared<double>(0.1);
  auto seed = std::make_shared<std::uint64_t>(1);
  auto out = std::make_shared<std::string>();
  auto* sub = app.add_subcommand(
      "heldout-split", "Write the train / held-out split that fit uses (same --heldout and --seed) as LDA-C files");
  sub->add_option("--project", *project, "Project file (.latent)")->required();
  sub->add_option("--dataset", *dataset, "Corpus name or id")->required();
  sub->add_option("--heldout", *heldout, "Fraction of documents held out")->capture_default_str();
  sub->add_option("--seed", *seed, "Seed of the split")->capture_default_str();
  sub->add_option("--out", *out, "Folder to write train.ldac, observed.ldac, scored.ldac, vocab.txt, documents.csv")
      ->required();
  return {sub, [=]() -> int {
            core::Project p(*project, core::Project::Access::ReadOnly);
            const auto info = p.resolveDataset(*dataset);
            if (info.kind != core::DataKind::Corpus)
              throw core::UsageError("dataset '" + info.name + "' is a " + std::string(core::toString(info.kind)) +
                                     ", not a corpus");
            const auto split = core::splitForDocumentCompletion(core::loadCorpus(p, info.id), *heldout, *seed);
            core::writeHeldoutSplit(split, *out);
            std::cout << "wrote " << split.train.documentCount() << " training and " << split.heldout.size()
                      << " held-out documents to " << *out << "\n";
            return kExitOk;
          }};
}

}  // namespace latent::cli
