// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli retrieval: precision-recall of held-out documents as queries against the training
// documents, for finished corpus runs of one split (DESIGN §6; 000 §27.7.3.1).
#include <iomanip>
#include <iostream>
#include <memory>

#include "cli_common.hpp"
#include "core/jobs/run_retrieval.hpp"
#include "core/util/errors.hpp"

namespace latent::cli {

Command addRetrievalCommand(CLI::App& app) {
  auto project = std::make_shared<std::string>();
  auto runs = std::make_shared<std::vector<std::int64_t>>();
  auto out = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  auto* sub = app.add_subcommand(
      "retrieval",
      "Precision-recall of document retrieval: held-out documents query the training documents by the cosine "
      "similarity of the runs' representations; relevant means the same label");
  sub->add_option("--project", *project, "Project file (.latent)")->required();
  sub->add_option("--runs", *runs,
                  "Run ids, comma-separated: finished rbm, rsm or topic-model runs of one labelled corpus, fitted "
                  "with the same --heldout and --seed")
      ->required()
      ->delimiter(',');
  sub->add_option("--out", *out, "CSV to write (run,model,recall,precision), - for standard output")->required();
  sub->add_flag("--json", *json,
                "One JSON object per run and line on standard output instead of the summary on stderr");
  return {sub, [=]() -> int {
            if (*json && *out == "-")
              throw core::UsageError("--json and --out - would share standard output; write the CSV to a file");
            core::Project p(*project, core::Project::Access::ReadOnly);
            const auto levels = core::defaultRecallLevels();
            const auto scored = core::retrievalForRuns(p, *runs, levels);
            writeOutput(*out, *project, [&](std::ostream& stream) { core::writeRetrievalCsv(stream, scored); });
            for (const auto& s : scored) {
              const auto& r = s.result;
              if (*json) {
                printJsonLine({{"run", s.run.id},
                               {"model", s.run.model},
                               {"representation", s.representation},
                               {"map", r.meanAveragePrecision},
                               {"queries", r.queries},
                               {"skipped", r.skippedQueries},
                               {"unlabelled_queries", r.unlabelledQueries},
                               {"unlabelled_training", r.unlabelledTraining},
                               {"ranked", r.rankedDocuments}});
                continue;
              }
              std::cerr << "run " << s.run.id << " (" << s.run.model << ", " << s.representation << "): MAP "
                        << std::fixed << std::setprecision(4) << r.meanAveragePrecision << std::defaultfloat << " over "
                        << r.queries << " queries against " << r.rankedDocuments << " training documents; "
                        << r.skippedQueries << " queries skipped (no training document has their label)";
              if (r.unlabelledQueries + r.unlabelledTraining > 0)
                std::cerr << "; without a label: " << r.unlabelledQueries << " held-out, " << r.unlabelledTraining
                          << " training documents (excluded)";
              std::cerr << "\n";
            }
            return kExitOk;
          }};
}

}  // namespace latent::cli
