// SPDX-License-Identifier: GPL-3.0-or-later
// A form built from a model's OptionSpec list: one field per option with its default. The options a
// model lists first (and the document fields it needs) are shown; the rest fold under "Advanced",
// so a model with twenty options still fits above the Start button. Each option's help is its
// tooltip and, while the field has the focus or the pointer, the grey line under the form.
#pragma once

#include <QMap>
#include <QStringList>
#include <QWidget>

#include <nlohmann/json.hpp>

#include "core/models/model.hpp"

class QFormLayout;
class QLabel;
class QToolButton;

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

  // The fold of the options past the common ones (null when the model has few options).
  QToolButton* advancedToggle() const noexcept { return m_advancedToggle; }
  bool advancedShown() const;
  void setAdvancedShown(bool shown);
  // Whether `name` is one of the options always shown.
  bool isCommon(const QString& name) const { return m_common.contains(name); }
  // The help line under the form: the help of the option last focused or pointed at.
  QString helpText() const;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void setField(const core::OptionSpec& spec, const nlohmann::json& value);
  void showHelpOf(QWidget* field);

  const core::ModelInfo* m_model = nullptr;
  QFormLayout* m_layout = nullptr;
  QWidget* m_advanced = nullptr;
  QFormLayout* m_advancedLayout = nullptr;
  QToolButton* m_advancedToggle = nullptr;
  QLabel* m_help = nullptr;
  QMap<QString, QWidget*> m_fields;
  QStringList m_common;
};

// Models with more options than this show only their first kCommonOptionCount (and the document
// fields they need) until Advanced is opened.
inline constexpr int kFoldOptionsAbove = 6;
inline constexpr int kCommonOptionCount = 4;
// The width a field may shrink to, whatever the width of its largest value.
inline constexpr int kOptionFieldMinimumWidth = 80;

// "beta" -> "Beta", "max_iterations" -> "Max iterations"; "k" is the number of topics or blocks.
QString optionLabel(const std::string& name);

}  // namespace latent::ui
