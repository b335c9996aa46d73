// ImportDialog: the fields, the live mass and size, and the three buttons.
#include "ui/import_dialog.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QVBoxLayout>

namespace sim::ui {

namespace {

// above this the mass label warns: a lone mesh in its file's units is often metres-sized [kg]
constexpr double kHeavyMass = 1000;

// a mass for people: g, kg or t with three significant digits
QString MassText(double kg) {
  if (kg < 1) return QStringLiteral("%1 g").arg(kg * 1e3, 0, 'g', 3);
  if (kg < 1000) return QStringLiteral("%1 kg").arg(kg, 0, 'g', 3);
  return QStringLiteral("%1 t").arg(kg * 1e-3, 0, 'g', 3);
}

QString Metres(double m) { return QStringLiteral("%1 m").arg(m, 0, 'g', 3); }

QDoubleSpinBox* SpinBox(double lo, double hi, int decimals, double step, const QString& suffix,
                        const char* name) {
  auto* box = new QDoubleSpinBox;
  box->setObjectName(QLatin1String(name));
  box->setRange(lo, hi);
  box->setDecimals(decimals);
  box->setSingleStep(step);
  box->setSuffix(suffix);
  box->setAccelerated(true);
  return box;
}

// the up axes in the order of the combo box, with their names
const std::vector<std::pair<io::UpAxis, const char*>>& UpAxes() {
  static const std::vector<std::pair<io::UpAxis, const char*>> axes = {
      {io::UpAxis::kPlusZ, "+Z (as in the file)"},
      {io::UpAxis::kPlusY, "+Y (turned to stand on Z)"},
      {io::UpAxis::kMinusY, "−Y"},
      {io::UpAxis::kPlusX, "+X"},
      {io::UpAxis::kMinusX, "−X"},
      {io::UpAxis::kMinusZ, "−Z (upside down)"}};
  return axes;
}

QString KindText(const io::ImportSource& source) {
  switch (source.kind) {
    case io::ImportKind::kRobot:
      return QObject::tr("URDF robot: %1 links, %2 joints").arg(source.nodes).arg(source.elements);
    case io::ImportKind::kTetMesh:
      return QObject::tr("tet mesh (a soft body): %L1 nodes, %L2 tets")
          .arg(source.nodes)
          .arg(source.elements);
    case io::ImportKind::kSurfaceMesh:
      return QObject::tr("surface mesh (a rigid body): %L1 vertices, %L2 triangles%3")
          .arg(source.nodes)
          .arg(source.elements)
          .arg(source.closed ? QString() : QObject::tr(", open"));
  }
  return QString();
}

}  // namespace


ImportDialog::ImportDialog(const io::ImportSource& source, QWidget* parent)
    : QDialog(parent), source_(source) {
  setObjectName(QStringLiteral("ImportDialog"));
  const QString file = QFileInfo(QString::fromStdString(source.path)).fileName();
  setWindowTitle(tr("Import %1").arg(file));
  const bool robot = source.kind == io::ImportKind::kRobot;
  const bool soft = source.kind == io::ImportKind::kTetMesh;
  const bool massive = !robot && source.closed;

  auto* layout = new QVBoxLayout(this);
  auto* heading = new QLabel(QStringLiteral("<b>%1</b><br>%2")
                                 .arg(file.toHtmlEscaped(), KindText(source).toHtmlEscaped()));
  layout->addWidget(heading);

  // material: a preset fills the values, which stay editable
  auto* material = new QGroupBox(tr("Material"));
  auto* material_form = new QFormLayout(material);
  preset_box_ = new QComboBox;
  preset_box_->setObjectName(QStringLiteral("ImportPreset"));
  for (const io::ImportMaterialPreset& preset : io::ImportMaterialPresets()) {
    preset_box_->addItem(QString::fromLatin1(preset.name));
  }
  friction_box_ = SpinBox(0, 10, 3, 0.05, QString(), "ImportFriction");
  youngs_box_ = SpinBox(1, 1e13, 0, 1e4, tr(" Pa"), "ImportYoungsModulus");
  poisson_box_ = SpinBox(-0.99, 0.4999, 4, 0.05, QString(), "ImportPoissonRatio");
  material_form->addRow(tr("Preset"), preset_box_);
  material_form->addRow(tr("Friction with the ground μ"), friction_box_);
  if (soft) {
    material_form->addRow(tr("Young's modulus"), youngs_box_);
    material_form->addRow(tr("Poisson's ratio"), poisson_box_);
  } else {
    youngs_box_->hide();
    poisson_box_->hide();
  }
  layout->addWidget(material);

  // mass: a density or the total, and what it comes to
  auto* mass = new QGroupBox(tr("Mass"));
  auto* mass_form = new QFormLayout(mass);
  density_button_ = new QRadioButton(tr("Density"));
  density_button_->setObjectName(QStringLiteral("ImportByDensity"));
  mass_button_ = new QRadioButton(tr("Total mass"));
  mass_button_->setObjectName(QStringLiteral("ImportByMass"));
  density_box_ = SpinBox(1e-3, 1e6, 3, 100, tr(" kg/m³"), "ImportDensity");
  mass_box_ = SpinBox(1e-6, 1e9, 4, 0.5, tr(" kg"), "ImportMass");
  mass_form->addRow(density_button_, density_box_);
  mass_form->addRow(mass_button_, mass_box_);
  mass_label_ = new QLabel;
  mass_label_->setObjectName(QStringLiteral("ImportMassLabel"));
  mass_label_->setWordWrap(true);
  mass_form->addRow(mass_label_);
  mass->setEnabled(massive);
  layout->addWidget(mass);

  // placement: up axis, scale, where on the ground, a robot's base
  auto* placement = new QGroupBox(tr("Placement"));
  auto* placement_form = new QFormLayout(placement);
  up_box_ = new QComboBox;
  up_box_->setObjectName(QStringLiteral("ImportUpAxis"));
  for (const auto& [axis, name] : UpAxes()) {
    up_box_->addItem(tr(name), static_cast<int>(axis));
  }
  scale_box_ = SpinBox(1e-6, 1e6, 6, 0.1, QString(), "ImportScale");
  scale_box_->setEnabled(!robot);
  scale_box_->setToolTip(tr("Uniform scale from the file's units to metres (0.001: millimetres)"));
  auto* position = new QWidget;
  auto* position_layout = new QHBoxLayout(position);
  position_layout->setContentsMargins(0, 0, 0, 0);
  const char* const position_names[3] = {"ImportX", "ImportY", "ImportZ"};
  for (int k = 0; k < 3; ++k) {
    position_boxes_[k] = SpinBox(-1e6, 1e6, 3, 0.1, tr(" m"), position_names[k]);
    position_layout->addWidget(position_boxes_[k]);
  }
  position->setToolTip(
      tr("Where the centre of the object's footprint stands; z lifts it above the ground"));
  yaw_box_ = SpinBox(-360, 360, 1, 15, tr("°"), "ImportYaw");
  base_box_ = new QComboBox;
  base_box_->setObjectName(QStringLiteral("ImportBase"));
  base_box_->addItem(tr("fixed to the world"), true);
  base_box_->addItem(tr("free (falls, can tip over)"), false);
  size_label_ = new QLabel;
  size_label_->setObjectName(QStringLiteral("ImportSizeLabel"));
  hint_label_ = new QLabel;
  hint_label_->setObjectName(QStringLiteral("ImportHintLabel"));
  hint_label_->setWordWrap(true);
  placement_form->addRow(tr("Up axis of the file"), up_box_);
  placement_form->addRow(tr("Scale"), scale_box_);
  placement_form->addRow(tr("Position x, y, z"), position);
  placement_form->addRow(tr("Yaw about Z"), yaw_box_);
  if (robot) {
    placement_form->addRow(tr("Base"), base_box_);
  } else {
    base_box_->hide();
  }
  placement_form->addRow(size_label_);
  placement_form->addRow(hint_label_);
  layout->addWidget(placement);

  error_label_ = new QLabel;
  error_label_->setObjectName(QStringLiteral("ImportErrorLabel"));
  error_label_->setWordWrap(true);
  error_label_->setStyleSheet(QStringLiteral("color: #c62828"));
  error_label_->hide();
  layout->addWidget(error_label_);

  auto* buttons = new QDialogButtonBox;
  import_button_ = buttons->addButton(tr("Import"), QDialogButtonBox::AcceptRole);
  import_button_->setObjectName(QStringLiteral("ImportButton"));
  import_button_->setDefault(true);
  save_button_ = buttons->addButton(tr("Save as Scene…"), QDialogButtonBox::ActionRole);
  save_button_->setObjectName(QStringLiteral("SaveSceneButton"));
  save_button_->setToolTip(
      tr("Write a scene file that names this file relative to itself, then open it"));
  cancel_button_ = buttons->addButton(QDialogButtonBox::Cancel);
  cancel_button_->setObjectName(QStringLiteral("CancelImportButton"));
  layout->addWidget(buttons);

  io::ImportSettings defaults;
  defaults.source = source_;
  SetFields(defaults);

  connect(preset_box_, &QComboBox::activated, this, &ImportDialog::OnPresetChosen);
  for (QDoubleSpinBox* box :
       {friction_box_, youngs_box_, poisson_box_, density_box_, mass_box_, scale_box_, yaw_box_,
        position_boxes_[0], position_boxes_[1], position_boxes_[2]}) {
    connect(box, &QDoubleSpinBox::valueChanged, this, &ImportDialog::UpdateSummary);
  }
  // editing a value picks its way of giving the mass
  connect(density_box_, &QDoubleSpinBox::valueChanged, this,
          [this] { density_button_->setChecked(true); });
  connect(mass_box_, &QDoubleSpinBox::valueChanged, this,
          [this] { mass_button_->setChecked(true); });
  connect(density_button_, &QRadioButton::toggled, this, &ImportDialog::UpdateSummary);
  connect(up_box_, &QComboBox::currentIndexChanged, this, &ImportDialog::UpdateSummary);
  connect(import_button_, &QPushButton::clicked, this, [this] {
    emit ImportRequested(settings());
    accept();
  });
  connect(save_button_, &QPushButton::clicked, this, &ImportDialog::OnSave);
  connect(cancel_button_, &QPushButton::clicked, this, &QDialog::reject);
}


void ImportDialog::SetFields(const io::ImportSettings& settings) {
  // one summary after all fields, and no field's signal picks the mass mode
  const QSignalBlocker blockers[] = {
      QSignalBlocker(friction_box_),      QSignalBlocker(youngs_box_),
      QSignalBlocker(poisson_box_),       QSignalBlocker(density_box_),
      QSignalBlocker(mass_box_),          QSignalBlocker(up_box_),
      QSignalBlocker(scale_box_),         QSignalBlocker(yaw_box_),
      QSignalBlocker(base_box_),          QSignalBlocker(position_boxes_[0]),
      QSignalBlocker(position_boxes_[1]), QSignalBlocker(position_boxes_[2]),
      QSignalBlocker(density_button_),    QSignalBlocker(mass_button_)};
  color_ = settings.color;
  friction_box_->setValue(settings.friction);
  youngs_box_->setValue(settings.youngs_modulus);
  poisson_box_->setValue(settings.poisson_ratio);
  density_box_->setValue(settings.density);
  // without a total yet, the box offers what the density gives
  const double mass = settings.total_mass ? *settings.total_mass : io::ImportedMass(settings);
  mass_box_->setValue(mass > 0 ? mass : 1.0);
  (settings.total_mass ? mass_button_ : density_button_)->setChecked(true);
  const auto& axes = UpAxes();
  for (int i = 0; i < static_cast<int>(axes.size()); ++i) {
    if (axes[i].first == settings.up) up_box_->setCurrentIndex(i);
  }
  scale_box_->setValue(settings.scale);
  for (int k = 0; k < 3; ++k) position_boxes_[k]->setValue(settings.position[k]);
  yaw_box_->setValue(settings.yaw_deg);
  base_box_->setCurrentIndex(settings.fixed_base ? 0 : 1);
  UpdateSummary();
}


io::ImportSettings ImportDialog::settings() const {
  io::ImportSettings settings;
  settings.source = source_;
  settings.color = color_;
  settings.friction = friction_box_->value();
  settings.youngs_modulus = youngs_box_->value();
  settings.poisson_ratio = poisson_box_->value();
  settings.density = density_box_->value();
  if (mass_button_->isChecked()) settings.total_mass = mass_box_->value();
  settings.up = static_cast<io::UpAxis>(up_box_->currentData().toInt());
  settings.scale = scale_box_->value();
  for (int k = 0; k < 3; ++k) settings.position[k] = position_boxes_[k]->value();
  settings.yaw_deg = yaw_box_->value();
  settings.fixed_base = base_box_->currentData().toBool();
  return settings;
}


Diagnostics ImportDialog::ApplyPresets(const QString& presets) {
  io::ImportSettings values = settings();
  std::vector<std::pair<std::string, std::string>> other;
  Diagnostics diagnostics = io::ApplyImportPresets(presets.toStdString(), &values, &other);
  for (const auto& [key, value] : other) {
    if (key == "save") {
      save_path_ = QString::fromStdString(value);
    } else {
      diagnostics.Error("--import", 0, "",
                        "'" + key + "=" + value +
                            "': unknown key (expected material, friction, youngs_modulus, "
                            "poisson_ratio, density, mass, up, scale, x, y, z, yaw, base, save)");
    }
  }
  SetFields(values);
  return diagnostics;
}


void ImportDialog::OnPresetChosen(int index) {
  const auto& presets = io::ImportMaterialPresets();
  if (index < 0 || index >= static_cast<int>(presets.size())) return;
  const io::ImportMaterialPreset& preset = presets[index];
  io::ImportSettings values = settings();
  values.friction = preset.friction;
  values.youngs_modulus = preset.youngs_modulus;
  values.poisson_ratio = preset.poisson_ratio;
  values.density = preset.density;
  values.color = preset.color;
  values.total_mass.reset();
  SetFields(values);
}


void ImportDialog::UpdateSummary() {
  const io::ImportSettings values = settings();
  const double mass = io::ImportedMass(values);
  const double volume = source_.volume * std::pow(values.scale, 3);
  if (source_.kind == io::ImportKind::kRobot) {
    mass_label_->setText(
        tr("Mass: %1, from the URDF's inertials").arg(MassText(source_.robot_mass)));
  } else if (!source_.closed) {
    mass_label_->setText(tr("No mass: an open surface is imported as a fixed obstacle"));
  } else {
    const double density = values.total_mass ? mass / volume : values.density;
    QString text = tr("Mass: <b>%1</b> — %2 kg/m³ × %3 m³")
                       .arg(MassText(mass))
                       .arg(QString::number(density, 'g', 4))
                       .arg(volume, 0, 'g', 3);
    if (mass > kHeavyMass) {
      text +=
          tr("<br><span style='color:#b26a00'>Heavy: is the file in millimetres or "
             "centimetres? Set the scale (0.001, 0.01) or a total mass.</span>");
    }
    mass_label_->setText(text);
  }

  if (source_.kind == io::ImportKind::kRobot) {
    size_label_->setText(tr("Size: as the URDF places its links"));
    hint_label_->clear();
    return;
  }
  const Vec3 size = io::ImportedSize(values);
  size_label_->setText(tr("Size: %1 × %2 footprint, %3 tall")
                           .arg(Metres(size.x()), Metres(size.y()), Metres(size.z())));
  // a mesh whose tallest side is not its up axis usually lies on its side
  const bool tallest_up = size.z() >= size.x() && size.z() >= size.y();
  hint_label_->setText(tallest_up ? QString()
                                  : tr("Its tallest side lies flat: a Y-up file stands with +Y."));
  hint_label_->setVisible(!tallest_up);
}


void ImportDialog::OnSave() {
  QString path = save_path_;
  if (path.isEmpty()) {
    // beside the file by default: a scene may read the files of its own folder
    const QFileInfo file(QString::fromStdString(source_.path));
    path = QFileDialog::getSaveFileName(
        this, tr("Save as Scene"), file.absoluteDir().filePath(file.completeBaseName() + ".json"),
        tr("Scenes (*.json)"));
    if (path.isEmpty()) return;
  }
  const Diagnostics diagnostics = io::SaveImportScene(settings(), path.toStdString());
  if (diagnostics.has_errors()) {
    error_label_->setText(QString::fromStdString(diagnostics.Format()).trimmed());
    error_label_->show();
    return;
  }
  error_label_->hide();
  emit SceneSaved(path);
  accept();
}

}  // namespace sim::ui
