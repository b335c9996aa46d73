// ImportDialog: what a lone mesh or robot becomes when the user opens or drops it: its material
// (a preset, friction, and for a soft body Young's modulus and Poisson's ratio), its mass as a
// density or a total (the resulting mass shown live from the file's volume, so a 3 m armadillo
// at 1000 kg/m³ reads as tonnes), the file's up axis (a Y-up mesh is turned to stand on Z), a
// uniform scale, the pose on the ground (position, yaw) and a robot's fixed or free base. Import
// loads it as a scene; Save as scene… writes a scene file (engine/io/import_scene.h) that the
// window then opens; Cancel changes nothing. A failed save is shown in the dialog, which stays.
#pragma once

#include <QDialog>
#include <QString>

#include "engine/core/diagnostics.h"
#include "engine/io/import_scene.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QRadioButton;

namespace sim::ui {

class ImportDialog : public QDialog {
  Q_OBJECT

 public:
  /// For the file `source` (io::InspectImportFile), with the default settings.
  explicit ImportDialog(const io::ImportSource& source, QWidget* parent = nullptr);

  /// Sets the fields from "key=value,..." presets (io::ApplyImportPresets); `save=FILE` makes
  /// Save as scene… write FILE without asking for it. Returns the presets' errors.
  Diagnostics ApplyPresets(const QString& presets);

  /// The settings the fields say now.
  io::ImportSettings settings() const;

  /// The presets' `save` file (empty: Save as Scene… asks for one).
  const QString& save_path() const { return save_path_; }
  QPushButton* import_button() const { return import_button_; }
  QPushButton* save_button() const { return save_button_; }
  QPushButton* cancel_button() const { return cancel_button_; }
  /// "Mass: 6.14 t — …": the mass the import gives, updated as the fields change.
  QLabel* mass_label() const { return mass_label_; }
  /// "Size: … footprint, … tall" after the up axis and the scale.
  QLabel* size_label() const { return size_label_; }
  /// A failed save's message (hidden while there is none).
  QLabel* error_label() const { return error_label_; }

 signals:
  /// Import was clicked: load these settings as a scene (the dialog closes).
  void ImportRequested(const sim::io::ImportSettings& settings);
  /// Save as scene… wrote the scene file at `path` (the dialog closes).
  void SceneSaved(const QString& path);

 private:
  void SetFields(const io::ImportSettings& settings);
  void OnPresetChosen(int index);
  void UpdateSummary();
  void OnSave();

  io::ImportSource source_;
  QString save_path_;  // from the presets: Save as scene… writes here without asking
  Vec3 color_ = io::ImportSettings{}.color;  // the preset's colour (no field of its own)

  QComboBox* preset_box_ = nullptr;
  QDoubleSpinBox* friction_box_ = nullptr;
  QDoubleSpinBox* youngs_box_ = nullptr;
  QDoubleSpinBox* poisson_box_ = nullptr;
  QRadioButton* density_button_ = nullptr;
  QRadioButton* mass_button_ = nullptr;
  QDoubleSpinBox* density_box_ = nullptr;
  QDoubleSpinBox* mass_box_ = nullptr;
  QComboBox* up_box_ = nullptr;
  QDoubleSpinBox* scale_box_ = nullptr;
  QDoubleSpinBox* position_boxes_[3] = {nullptr, nullptr, nullptr};
  QDoubleSpinBox* yaw_box_ = nullptr;
  QComboBox* base_box_ = nullptr;
  QLabel* mass_label_ = nullptr;
  QLabel* size_label_ = nullptr;
  QLabel* hint_label_ = nullptr;
  QLabel* error_label_ = nullptr;
  QPushButton* import_button_ = nullptr;
  QPushButton* save_button_ = nullptr;
  QPushButton* cancel_button_ = nullptr;
};

}  // namespace sim::ui
