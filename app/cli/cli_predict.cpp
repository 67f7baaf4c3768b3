// SPDX-License-Identifier: GPL-3.0-or-later
// latent-cli predict and recommend: use a finished graph or ratings run (DESIGN §6).
#include <iostream>
#include <memory>

#include "cli_common.hpp"
#include "core/io/csv_writer.hpp"
#include "core/jobs/run_predictions.hpp"
#include "core/util/errors.hpp"

namespace latent::cli {

Command addPredictCommand(CLI::App& app) {
  auto project = std::make_shared<std::string>();
  auto run = std::make_shared<std::int64_t>(0);
  auto pairs = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  auto* sub = app.add_subcommand(
      "predict", "Predict ratings (user,item) or link probabilities (source,target) with a finished run");
  sub->add_option("--project", *project, "Project file (.latent)")->required();
  sub->add_option("--run", *run, "Run id (see latent-cli runs)")->required();
  sub->add_option("--pairs", *pairs, "CSV with header user,item (ratings) or source,target (graphs), ids as imported")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("--out", *out, "CSV to write (the same columns plus prediction), - for standard output")->required();
  return {sub, [=]() -> int {
            core::Project p(*project, core::Project::Access::ReadOnly);
            core::PredictionReport report;
            writeOutput(*out, *project,
                        [&](std::ostream& stream) { report = core::predictPairs(p, *run, *pairs, stream); });
            // A run killed before its end predicts with its latest snapshot: say which.
            if (report.iteration >= 0)
              std::cerr << "run " << *run << " has no final result; predicted with its latest snapshot, iteration "
                        << report.iteration << "\n";
            if (report.unseen > 0)
              std::cerr << report.unseen << (report.unseen == 1 ? " pair names" : " pairs name")
                        << " an id the run's dataset does not have; predicted with the model's fallback and marked "
                           "in the column unseen\n";
            return kExitOk;
          }};
}

Command addRecommendCommand(CLI::App& app) {
  auto project = std::make_shared<std::string>();
  auto run = std::make_shared<std::int64_t>(0);
  auto user = std::make_shared<std::string>();
  auto ratings = std::make_shared<std::string>();
  auto top = std::make_shared<std::size_t>(10);
  auto out = std::make_shared<std::string>("-");
  auto* sub = app.add_subcommand("recommend",
                                 "Top-N unrated items for a user of a ratings run, or for a new user's few ratings");
  sub->add_option("--project", *project, "Project file (.latent)")->required();
  sub->add_option("--run", *run, "Run id of a pmf or rbm-ratings run (see latent-cli runs)")->required();
  auto* userOption = sub->add_option("--user", *user, "A user id of the dataset");
  auto* ratingsOption =
      sub->add_option("--ratings", *ratings,
                      "A new user's ratings, CSV with header item,rating: folded in without retraining")
          ->check(CLI::ExistingFile);
  userOption->excludes(ratingsOption);
  sub->add_option("--top", *top, "How many items")->capture_default_str()->check(CLI::Range(1, 1000000));
  sub->add_option("--out", *out, "CSV to write (rank,item,name,prediction), - for standard output")
      ->capture_default_str();
  return {sub, [=]() -> int {
            if (user->empty() == ratings->empty())
              throw core::UsageError("recommend needs --user or --ratings (one of them)");
            core::Project p(*project, core::Project::Access::ReadOnly);
            const auto list = user->empty() ? core::recommendForNewUser(p, *run, *ratings, *top)
                                            : core::recommendForUser(p, *run, *user, *top);
            writeOutput(*out, *project, [&](std::ostream& stream) {
              core::CsvWriter csv(stream);
              csv.field("rank").field("item").field("name").field("prediction").endRow();
              for (std::size_t r = 0; r < list.size(); ++r)
                csv.field(r + 1).field(list[r].itemId).field(list[r].itemName).field(list[r].prediction).endRow();
            });
            return kExitOk;
          }};
}

}  // namespace latent::cli
