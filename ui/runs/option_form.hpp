// SPDX-License-Identifier: GPL-3.0-or-later
// A form built from a model's OptionSpec list: one field per option with its default, and the
// option's one-line help as a grey line under the field and as its tooltip.
#pragma once

#include <QMap>
#include <QStringList>
#include <QWidget>

#include <nlohmann/json.hpp>

#include "core/models/model.hpp"

class QFormLayout;

namespace latent::ui {

class OptionForm final : public QWidget {
  Q_OBJECT

 public:
  explicit OptionForm(QWidget* parent = nullptr);

  // Rebuilds the fields for this model (null: no fields), every field at its default.
  void setModel(const core::ModelInfo* model);
  const core::ModelInfo* model() const noexcept { return m_model; }

  // The values as the model's options JSON (integers as integers, reals as reals).
  nlohmann::json values() const;
  // Sets the fields named in `options`; the others go back to their defaults.
  void setValues(const nlohmann::json& options);
  void resetToDefaults();
  // What the free-text options (a document field's name) offer in their lists: the fields of the
  // dataset the run is for. What is typed stays.
  void setTextSuggestions(const QStringList& suggestions);

  // The field of one option (QSpinBox, QDoubleSpinBox, QCheckBox or QComboBox, editable for text), or null.
  QWidget* field(const QString& name) const { return m_fields.value(name, nullptr); }

 private:
  void setField(const core::OptionSpec& spec, const nlohmann::json& value);

  const core::ModelInfo* m_model = nullptr;
  QFormLayout* m_layout = nullptr;
  QMap<QString, QWidget*> m_fields;
};

// "beta" -> "Beta", "max_iterations" -> "Max iterations"; "k" is the number of topics or blocks.
QString optionLabel(const std::string& name);

}  // namespace latent::ui
