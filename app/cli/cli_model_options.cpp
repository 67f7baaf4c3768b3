// SPDX-License-Identifier: GPL-3.0-or-later
// Parsing of model-specific options given on the command line of fit and sweep.
#include <algorithm>

#include "cli_common.hpp"
#include "core/util/errors.hpp"

namespace latent::cli {

nlohmann::json parseModelOptions(const core::ModelInfo& model, const std::vector<std::string>& extras) {
  nlohmann::json options = nlohmann::json::object();
  for (std::size_t i = 0; i < extras.size(); ++i) {
    std::string arg = extras[i];
    if (arg.rfind("--", 0) != 0) throw core::UsageError("unexpected argument '" + arg + "'");
    arg = arg.substr(2);
    std::string value;
    bool hasValue = false;
    if (const auto eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
      hasValue = true;
    } else if (i + 1 < extras.size() && extras[i + 1].rfind("--", 0) != 0) {
      value = extras[++i];
      hasValue = true;
    }
    // Dashes and underscores are the same in option names: --optimize-every is optimize_every.
    std::replace(arg.begin(), arg.end(), '-', '_');
    const core::OptionSpec* spec = nullptr;
    for (const auto& o : model.options)
      if (o.name == arg) spec = &o;
    if (!spec) {
      options[arg] = value;  // resolveOptions names the options the model does have
      continue;
    }
    if (!hasValue && spec->type != core::OptionSpec::Type::Boolean)
      throw core::UsageError("option --" + arg + " needs a value");
    options[arg] = hasValue ? core::parseOptionValue(*spec, value) : nlohmann::json(true);
  }
  return options;
}

}  // namespace latent::cli
