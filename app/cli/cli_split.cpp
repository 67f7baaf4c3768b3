// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli heldout-split: the document-completion split of a corpus, the held-out ratings of a
// ratings table, or the held-out rows of a numeric table, as files, for peer programs and scripts.
#include <iostream>
#include <memory>

#include "cli_common.hpp"
#include "core/eval/heldout.hpp"
#include "core/eval/rating_split.hpp"
#include "core/eval/row_split.hpp"
#include "core/io/split_export.hpp"
#include "core/store/corpus_store.hpp"
#include "core/store/ratings_store.hpp"
#include "core/store/table_store.hpp"
#include "core/util/errors.hpp"

namespace latent::cli {

Command addHeldoutSplitCommand(CLI::App& app) {
  auto project = std::make_shared<std::string>();
  auto dataset = std::make_shared<std::string>();
  auto heldout = std::make_shared<double>(0.1);
  auto seed = std::make_shared<std::uint64_t>(1);
  auto out = std::make_shared<std::string>();
  auto* sub = app.add_subcommand(
      "heldout-split",
      "Write the train / held-out split that fit uses (same --heldout and --seed): LDA-C files for a corpus, CSV "
      "files for ratings and numeric tables");
  sub->add_option("--project", *project, "Project file (.latent)")->required();
  sub->add_option("--dataset", *dataset, "Corpus, ratings or table name or id")->required();
  sub->add_option("--heldout", *heldout, "Fraction of documents (ratings, rows) held out")->capture_default_str();
  sub->add_option("--seed", *seed, "Seed of the split")->capture_default_str();
  sub->add_option("--out", *out,
                  "Folder to write train.ldac, observed.ldac, scored.ldac, vocab.txt, documents.csv (a corpus) or "
                  "train.csv and heldout.csv (ratings: user,item,rating; a table: its header and rows)")
      ->required();
  return {sub, [=]() -> int {
            core::Project p(*project, core::Project::Access::ReadOnly);
            const auto info = p.resolveDataset(*dataset);
            if (info.kind == core::DataKind::Ratings) {
              const auto ratings = core::loadRatings(p, info.id);
              const auto split = core::splitRatings(ratings, *heldout, *seed);
              core::writeRatingSplit(ratings, split, *out);
              std::cout << "wrote " << split.train.size() << " training and " << split.test.size()
                        << " held-out ratings to " << *out << "\n";
              return kExitOk;
            }
            if (info.kind == core::DataKind::Table) {
              const auto table = core::loadTable(p, info.id);
              const auto heldoutRows = core::splitRows(table.rowCount(), *heldout, *seed);
              const std::string idColumn = info.options.value("id_column", std::string());
              core::writeTableSplit(table, heldoutRows, idColumn.empty() ? "row" : idColumn, *out);
              std::cout << "wrote " << table.rowCount() - heldoutRows.size() << " training and " << heldoutRows.size()
                        << " held-out rows to " << *out << "\n";
              return kExitOk;
            }
            if (info.kind != core::DataKind::Corpus)
              throw core::UsageError("dataset '" + info.name + "' is a " + std::string(core::toString(info.kind)) +
                                     ", not a corpus, ratings or table");
            const auto split = core::splitForDocumentCompletion(core::loadCorpus(p, info.id), *heldout, *seed);
            core::writeHeldoutSplit(split, *out);
            std::cout << "wrote " << split.train.documentCount() << " training and " << split.heldout.size()
                      << " held-out documents to " << *out << "\n";
            return kExitOk;
          }};
}

}  // namespace latent::cli
