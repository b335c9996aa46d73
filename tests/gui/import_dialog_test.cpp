// The import dialog on Qt's offscreen platform (no display, no Vulkan), driven as a person would
// with QTest (typing into the fields, keys on the up-axis box, clicks on the buttons) for the
// shared Y-up armadillo: the default density reads as tonnes with a warning, a typed total mass
// of 2 kg reads as 2 kg, the up axis +Y makes it stand (the hint that it lies flat goes), Import
// hands on the settings, Save as Scene writes a scene the real loader reads with that mass, a
// save outside the scene's file roots shows its error and keeps the dialog open, Cancel hands on
// nothing.
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QtTest/QTest>

#include <gtest/gtest.h>

#include "engine/io/file_roots.h"
#include "engine/io/scene_file.h"
#include "tests/support/shared_data.h"
#include "ui/import_dialog.h"

namespace sim::ui {
namespace {

namespace fs = std::filesystem;

const std::string kArmadillo = test_support::SharedDataDir() + "/tetmesh/armadillo_4k.node";

class ImportDialogTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "import_dialog_test";
    static char* argv[] = {name, nullptr};
    if (QApplication::instance() == nullptr) new QApplication(argc, argv);
  }

  void SetUp() override {
    if (!fs::exists(kArmadillo)) return;
    Expected<io::ImportSource> source = io::InspectImportFile(kArmadillo);
    ASSERT_TRUE(source.ok()) << source.diagnostics().Format();
    dialog_ = std::make_unique<ImportDialog>(source.value());
    dialog_->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(dialog_.get()));
    dir_ = fs::temp_directory_path() /
           ("cs_import_dialog_" +
            std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  template <typename T>
  T* Find(const char* name) const {
    T* widget = dialog_->findChild<T*>(QLatin1String(name));
    EXPECT_NE(widget, nullptr) << name;
    return widget;
  }

  // replaces a spin box's text as typed
  static void Type(QDoubleSpinBox* box, const QString& text) {
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, text);
    QTest::keyClick(box, Qt::Key_Tab);
  }

  // the dialog with a total mass of 2 kg typed and +Y chosen by keys, as in the issue
  void TypeTwoKilogramsYUp() {
    QTest::mouseClick(Find<QRadioButton>("ImportByMass"), Qt::LeftButton);
    Type(Find<QDoubleSpinBox>("ImportMass"), QStringLiteral("2"));
    Type(Find<QDoubleSpinBox>("ImportScale"), QStringLiteral("0.1"));
    QComboBox* up = Find<QComboBox>("ImportUpAxis");
    up->setFocus();
    QTest::keyClick(up, Qt::Key_Down);  // +Z -> +Y
  }

  std::unique_ptr<ImportDialog> dialog_;
  fs::path dir_;
};

#define SKIP_WITHOUT_ARMADILLO() SIM_REQUIRE_SHARED_DATA(kArmadillo)


TEST_F(ImportDialogTest, TheMassAndSizeFollowTheFieldsAsTheyAreTyped) {
  SKIP_WITHOUT_ARMADILLO();
  // as the file comes: a 3 m armadillo at 1000 kg/m³, tonnes, with the hint that it lies flat
  const QString heavy = dialog_->mass_label()->text();
  EXPECT_TRUE(heavy.contains(QStringLiteral(" t</b>"))) << heavy.toStdString();
  EXPECT_TRUE(heavy.contains(QStringLiteral("Heavy"))) << heavy.toStdString();
  EXPECT_TRUE(Find<QLabel>("ImportHintLabel")->isVisible());
  // the window as a person sees it, for a look
  dialog_->grab().save(QString::fromStdString((dir_ / "import_dialog.png").string()));

  TypeTwoKilogramsYUp();
  const QString light = dialog_->mass_label()->text();
  EXPECT_TRUE(light.contains(QStringLiteral("Mass: <b>2 kg</b>"))) << light.toStdString();
  EXPECT_FALSE(light.contains(QStringLiteral("Heavy"))) << light.toStdString();
  // up +Y: its 3.03 m along the file's y, scaled by 0.1, is the height
  const QString size = dialog_->size_label()->text();
  EXPECT_TRUE(size.endsWith(QStringLiteral("0.303 m tall"))) << size.toStdString();
  EXPECT_FALSE(Find<QLabel>("ImportHintLabel")->isVisible());
  const io::ImportSettings settings = dialog_->settings();
  EXPECT_EQ(settings.up, io::UpAxis::kPlusY);
  EXPECT_EQ(settings.total_mass, 2.0);
  EXPECT_EQ(settings.scale, 0.1);
  dialog_->grab().save(QString::fromStdString((dir_ / "import_dialog_2kg.png").string()));
  if (const char* keep = std::getenv("SIM_KEEP_SCREENSHOTS")) {
    fs::copy(dir_ / "import_dialog.png", fs::path(keep) / "import_dialog.png",
             fs::copy_options::overwrite_existing);
    fs::copy(dir_ / "import_dialog_2kg.png", fs::path(keep) / "import_dialog_2kg.png",
             fs::copy_options::overwrite_existing);
  }
}


TEST_F(ImportDialogTest, ImportHandsOnTheSettingsAndCancelNothing) {
  SKIP_WITHOUT_ARMADILLO();
  std::vector<io::ImportSettings> imported;
  QObject::connect(dialog_.get(), &ImportDialog::ImportRequested,
                   [&imported](const io::ImportSettings& s) { imported.push_back(s); });
  QSignalSpy saved(dialog_.get(), &ImportDialog::SceneSaved);
  TypeTwoKilogramsYUp();
  QTest::mouseClick(dialog_->import_button(), Qt::LeftButton);
  ASSERT_EQ(imported.size(), 1u);
  const io::ImportSettings& settings = imported.front();
  EXPECT_EQ(settings.total_mass, 2.0);
  EXPECT_EQ(settings.up, io::UpAxis::kPlusY);
  EXPECT_EQ(dialog_->result(), QDialog::Accepted);
  EXPECT_FALSE(dialog_->isVisible());

  // a second dialog cancelled: nothing is handed on
  Expected<io::ImportSource> source = io::InspectImportFile(kArmadillo);
  ImportDialog other(source.value());
  int other_imported = 0;
  QObject::connect(&other, &ImportDialog::ImportRequested, [&] { ++other_imported; });
  QSignalSpy other_saved(&other, &ImportDialog::SceneSaved);
  other.show();
  QTest::mouseClick(other.cancel_button(), Qt::LeftButton);
  EXPECT_EQ(other.result(), QDialog::Rejected);
  EXPECT_EQ(other_imported, 0);
  EXPECT_EQ(other_saved.count(), 0);
  EXPECT_EQ(saved.count(), 0);
}


TEST_F(ImportDialogTest, SaveAsSceneWritesASceneTheLoaderReadsWithTheMass) {
  SKIP_WITHOUT_ARMADILLO();
  const std::string scene = (dir_ / "armadillo.json").string();
  EXPECT_TRUE(dialog_->ApplyPresets(QString::fromStdString("save=" + scene)).empty());
  TypeTwoKilogramsYUp();

  // outside the scene's file roots: the error shows, the dialog stays, nothing is written
  unsetenv(io::kFileRootsVariable);
  QSignalSpy saved(dialog_.get(), &ImportDialog::SceneSaved);
  QTest::mouseClick(dialog_->save_button(), Qt::LeftButton);
  EXPECT_EQ(saved.count(), 0);
  EXPECT_TRUE(dialog_->isVisible());
  EXPECT_TRUE(dialog_->error_label()->isVisible());
  EXPECT_TRUE(dialog_->error_label()->text().contains(QLatin1String(io::kFileRootsVariable)))
      << dialog_->error_label()->text().toStdString();
  EXPECT_FALSE(fs::exists(scene));

  // with the shared data allowed, as a user would allow it
  setenv(io::kFileRootsVariable, test_support::SharedDataDir().c_str(), 1);
  QTest::mouseClick(dialog_->save_button(), Qt::LeftButton);
  unsetenv(io::kFileRootsVariable);
  ASSERT_EQ(saved.count(), 1) << dialog_->error_label()->text().toStdString();
  EXPECT_EQ(saved.front().front().toString().toStdString(), scene);
  EXPECT_EQ(dialog_->result(), QDialog::Accepted);
  setenv(io::kFileRootsVariable, test_support::SharedDataDir().c_str(), 1);
  Expected<io::Scene> loaded = io::LoadScene(scene);
  unsetenv(io::kFileRootsVariable);
  ASSERT_TRUE(loaded.ok()) << loaded.diagnostics().Format();
  const std::vector<Real>& masses = loaded->model->particle_mass;
  EXPECT_NEAR(std::accumulate(masses.begin(), masses.end(), 0.0), 2.0, 2e-9);
}

}  // namespace
}  // namespace sim::ui
