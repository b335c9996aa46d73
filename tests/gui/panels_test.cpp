// The studio's panels against snapshots, on Qt's offscreen platform (no display, no Vulkan): the
// solver panel shows a lane's settings and turns edits into `--set` overrides for the right lane;
// the scene panel lists bodies, soft bodies, particles and joints, turns a drive slider into a
// target and a row click into a selection, and follows the selection; the convergence panel plots
// every Newton iteration of every lane; the statistics panel has one column per lane.
#include <chrono>
#include <cmath>
#include <numbers>
#include <thread>
#include <utility>
#include <vector>

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineSeries>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include "engine/solvers/nsn/nsn_settings.h"
#include "engine/visual/lane_colors.h"
#include "engine/visual/visual_frame.h"
#include "tests/support/model_builder.h"
#include "ui/panels/convergence_panel.h"
#include "ui/panels/divergence_panel.h"
#include "ui/panels/paint_panel.h"
#include "ui/panels/scene_panel.h"
#include "ui/panels/solver_panel.h"
#include "ui/panels/statistics_panel.h"
#include "ui/sim_worker.h"

namespace sim::ui {
namespace {

using test_support::AddBody;
using test_support::AddJoint;
using test_support::AddParticle;
using test_support::AddWorldShape;
using test_support::Box;
using test_support::MakeEmptyModel;
using test_support::Plane;

class PanelsTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "panels_test";
    static char* argv[] = {name, nullptr};
    if (QApplication::instance() == nullptr) new QApplication(argc, argv);
  }

  // a ground, two boxes on a driven hinge, a free particle; two compared lanes
  static SimSnapshot MakeSnapshot() {
    Model model = MakeEmptyModel();
    State state;
    AddWorldShape(&model, Plane(), Pose{});
    const int a = AddBody(&model, &state, "arm", Box(Vec3::Constant(0.1)), 1,
                          Pose{Vec3(0, 0, 1), Quat::Identity()});
    AddBody(&model, &state, "box", Box(Vec3::Constant(0.1)), 2,
            Pose{Vec3(1, 0, 0.1), Quat::Identity()});
    const int j = AddJoint(&model, state, JointType::kRevolute, kWorldBody, a, Vec3(0, 0, 1.2));
    model.joint_name[j] = "hinge";
    model.joint_drive[j].stiffness = 10;
    model.joint_limited[j] = 1;
    model.joint_lower[j] = -1;
    model.joint_upper[j] = 1;
    AddParticle(&model, &state, "grain", 0.1, 0.02, Vec3(2, 0, 0.02));
    auto shared = std::make_shared<const Model>(std::move(model));

    SimSnapshot snapshot;
    snapshot.serial = 1;
    snapshot.scene_generation = 1;
    snapshot.model = shared;
    snapshot.frame = MakeVisualFrame(*shared, state);
    for (const char* label : {"nsn", "nsn:ncp=min"}) {
      LaneSnapshot lane;
      lane.label = label;
      lane.model = shared;
      lane.settings = shared->options.solver;
      lane.joint_positions = {0.25};
      lane.joint_targets = {std::nan("")};
      lane.report.unilateral_rows = 4;
      lane.report.friction_rows = 8;
      lane.report.bilateral_rows = 6;
      lane.report.outer_iterations = 3;
      for (int i = 0; i < 3; ++i) {
        IterationRecord record;
        record.normal_error = std::pow(10.0, -2 - i);
        record.friction_error = std::pow(10.0, -1 - i);
        record.bilateral_error = std::pow(10.0, -3 - i);
        record.merit = std::pow(10.0, -i);
        lane.report.iterations.push_back(record);
        lane.report.inner_residuals.push_back(std::pow(10.0, -i));
      }
      lane.history = {StepSample{1, 1 / 120.0, 1 / 120.0, 3, 60, 4, 0.2}};
      snapshot.lanes.push_back(lane);
    }
    snapshot.lanes[1].settings.Set("ncp", NcpFunction::kMinMap);
    return snapshot;
  }
};


TEST_F(PanelsTest, SolverPanelShowsSettingsAndSendsOverridesPerLane) {
  SolverPanel panel;
  panel.show();
  std::vector<std::pair<int, QString>> sent;
  QObject::connect(
      &panel, &SolverPanel::OverrideRequested,
      [&](int lane, const QString& assignment) { sent.emplace_back(lane, assignment); });
  const SimSnapshot snapshot = MakeSnapshot();
  panel.ShowSnapshot(snapshot);
  // compared lanes: a lane selector with "all lanes" and each lane
  const auto combos = panel.findChildren<QComboBox*>();
  QComboBox* lanes = nullptr;
  QComboBox* ncp = nullptr;
  for (QComboBox* combo : combos) {
    if (combo->findData(-1) >= 0) lanes = combo;
    if (combo->findData(QStringLiteral("min")) >= 0) ncp = combo;
  }
  ASSERT_NE(lanes, nullptr);
  ASSERT_NE(ncp, nullptr);
  EXPECT_EQ(lanes->count(), 3);
  EXPECT_EQ(ncp->currentData().toString(), QStringLiteral("fb"));  // lane 0's

  // an edit of the Newton iterations goes to every lane by default
  QSpinBox* newton = nullptr;
  for (QSpinBox* spin : panel.findChildren<QSpinBox*>()) {
    if (spin->value() == ReadNsnSettings(snapshot.lanes[0].settings).newton_iterations)
      newton = spin;
  }
  ASSERT_NE(newton, nullptr);
  newton->setValue(9);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0].first, -1);
  EXPECT_EQ(sent[0].second, QStringLiteral("solver.newton_iterations=9"));

  // lane 2 selected: its settings are shown and edits go to it alone
  lanes->setCurrentIndex(2);
  emit lanes->activated(2);
  panel.ShowSnapshot(snapshot);
  EXPECT_EQ(ncp->currentData().toString(), QStringLiteral("min"));
  ncp->setCurrentIndex(0);
  emit ncp->activated(0);
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[1].first, 1);
  EXPECT_EQ(sent[1].second, QStringLiteral("solver.ncp=fb"));
  // a rejected edit springs back to what the worker reports
  panel.ShowSnapshot(snapshot);
  EXPECT_EQ(ncp->currentData().toString(), QStringLiteral("min"));
}


TEST_F(PanelsTest, SolverPanelShowsTheRunningSolversOwnSettings) {
  // the solver's section is generated from its descriptor table: NSN's Newton iterations, then,
  // once the worker reports the lane switched to PGS, PGS's sweeps and position correction
  SolverPanel panel;
  panel.show();
  std::vector<QString> sent;
  QObject::connect(&panel, &SolverPanel::OverrideRequested,
                   [&](int, const QString& assignment) { sent.push_back(assignment); });
  SimSnapshot snapshot = MakeSnapshot();
  snapshot.lanes.resize(1);
  panel.ShowSnapshot(snapshot);
  const auto has_setting = [&](const char* label) {
    for (QLabel* text : panel.findChildren<QLabel*>()) {
      if (text->text() == QString::fromLatin1(label) && text->isVisibleTo(&panel)) return true;
    }
    return false;
  };
  EXPECT_TRUE(has_setting("Newton iterations"));
  EXPECT_FALSE(has_setting("Position correction"));
  // the solver combo sends the switch
  QComboBox* solver = nullptr;
  for (QComboBox* combo : panel.findChildren<QComboBox*>()) {
    if (combo->findData(QStringLiteral("pgs")) >= 0) solver = combo;
  }
  ASSERT_NE(solver, nullptr);
  solver->setCurrentIndex(solver->findData(QStringLiteral("pgs")));
  emit solver->activated(solver->currentIndex());
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(sent[0], QStringLiteral("solver.name=pgs"));
  // the worker's answer: the lane runs PGS, whose own settings replace NSN's
  snapshot.lanes[0].settings.name = "pgs";
  panel.ShowSnapshot(snapshot);
  EXPECT_FALSE(has_setting("Newton iterations"));
  EXPECT_TRUE(has_setting("Position correction"));
  QSpinBox* sweeps = nullptr;
  for (QSpinBox* spin : panel.findChildren<QSpinBox*>()) {
    if (spin->isVisibleTo(&panel) && spin->value() == 20 && spin->maximum() == 10000) sweeps = spin;
  }
  ASSERT_NE(sweeps, nullptr);
  sweeps->setValue(50);
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[1], QStringLiteral("solver.iterations=50"));
}


TEST_F(PanelsTest, ScenePanelListsTheSceneDrivesJointsAndFollowsTheSelection) {
  ScenePanel panel;
  panel.show();
  SimSnapshot snapshot = MakeSnapshot();
  panel.ShowSnapshot(snapshot);
  const auto trees = panel.findChildren<QTreeWidget*>();
  ASSERT_EQ(trees.size(), 2);
  QTreeWidget* objects =
      trees[0]->headerItem()->text(0) == QStringLiteral("Name") ? trees[0] : trees[1];
  QTreeWidget* joints = objects == trees[0] ? trees[1] : trees[0];
  // ground, two bodies, the particle
  ASSERT_EQ(objects->topLevelItemCount(), 4);
  EXPECT_EQ(objects->topLevelItem(3)->text(1), QStringLiteral("particle"));
  ASSERT_EQ(joints->topLevelItemCount(), 1);
  EXPECT_EQ(joints->topLevelItem(0)->text(0), QStringLiteral("hinge"));

  // the live value, after the refresh period
  for (int i = 0; i < 50 && joints->topLevelItem(0)->text(1).isEmpty(); ++i) {
    QCoreApplication::processEvents();
    std::this_thread::sleep_for(std::chrono::milliseconds(ScenePanel::kRefreshMs / 10));
    snapshot.serial++;
    panel.ShowSnapshot(snapshot);
  }
  EXPECT_EQ(joints->topLevelItem(0)->text(1), QStringLiteral("14.3°"));  // 0.25 rad

  // the drive slider spans the limits [−1, 1] rad
  std::vector<std::pair<int, double>> targets;
  QObject::connect(&panel, &ScenePanel::JointTargetChanged,
                   [&](int joint, double target) { targets.emplace_back(joint, target); });
  auto* slider = qobject_cast<QSlider*>(joints->itemWidget(joints->topLevelItem(0), 3));
  ASSERT_NE(slider, nullptr);
  slider->setValue(slider->maximum());
  ASSERT_FALSE(targets.empty());
  EXPECT_EQ(targets.back().first, 0);
  EXPECT_DOUBLE_EQ(targets.back().second, 1.0);

  // a row click selects its body; the worker's selection selects the row
  std::vector<int> selected;
  QObject::connect(&panel, &ScenePanel::BodySelected, [&](int body) { selected.push_back(body); });
  objects->setCurrentItem(objects->topLevelItem(2));
  ASSERT_EQ(selected.size(), 1u);
  EXPECT_EQ(selected[0], 1);
  snapshot.selected_body = 0;
  panel.ShowSnapshot(snapshot);
  EXPECT_EQ(objects->currentItem(), objects->topLevelItem(1));
  EXPECT_EQ(selected.size(), 1u) << "following the worker must not echo a selection back";
}


TEST_F(PanelsTest, ConvergencePanelPlotsEveryLane) {
  ConvergencePanel panel;
  panel.show();
  panel.ShowSnapshot(MakeSnapshot(), true);
  const auto views = panel.findChildren<QChartView*>();
  ASSERT_EQ(views.size(), 3);
  auto chart = [&](const char* title_start) -> QChart* {
    for (QChartView* view : views) {
      if (view->chart()->title().startsWith(QLatin1String(title_start))) return view->chart();
    }
    ADD_FAILURE() << "no chart " << title_start;
    return views[0]->chart();
  };
  // compared lanes: one series per lane in the lane's colour (LaneColor, the viewport label's),
  // the largest of the three errors, one point per iteration; one legend entry per lane
  const QList<QAbstractSeries*> newton = chart("Last step: largest residual")->series();
  ASSERT_EQ(newton.size(), 2);
  for (int k = 0; k < 2; ++k) {
    auto* series = static_cast<QLineSeries*>(newton[k]);
    EXPECT_EQ(series->count(), 3) << series->name().toStdString();
    EXPECT_EQ(series->pen().color(), QColor::fromRgb(LaneColor(k)));
  }
  EXPECT_EQ(newton[1]->name(), QStringLiteral("nsn:ncp=min"));
  EXPECT_EQ(chart("Last step: inner")->series().size(), 2);
  EXPECT_EQ(chart("Per step")->series().size(), 4);
  EXPECT_FALSE(chart("Per step")->legend()->isVisible());
}


TEST_F(PanelsTest, DivergencePanelPlotsEveryLaneInItsColour) {
  DivergencePanel panel;
  panel.show();
  panel.ShowSnapshot(MakeSnapshot(), true);
  const auto views = panel.findChildren<QChartView*>();
  ASSERT_EQ(views.size(), DivergencePanel::kChartCount);
  for (QChartView* view : views) {
    const QList<QAbstractSeries*> series = view->chart()->series();
    ASSERT_EQ(series.size(), 2) << view->chart()->title().toStdString();
    for (int k = 0; k < 2; ++k) {
      EXPECT_EQ(static_cast<QLineSeries*>(series[k])->pen().color(), QColor::fromRgb(LaneColor(k)));
    }
  }
  // the reference lane chooser lists the lanes
  auto* reference = panel.findChild<QComboBox*>(QStringLiteral("ReferenceLane"));
  ASSERT_NE(reference, nullptr);
  EXPECT_EQ(reference->count(), 2);
  EXPECT_EQ(reference->itemText(1), QStringLiteral("nsn:ncp=min"));
}


TEST_F(PanelsTest, StatisticsPanelHasAColumnPerLane) {
  StatisticsPanel panel;
  panel.show();
  std::this_thread::sleep_for(std::chrono::milliseconds(StatisticsPanel::kRefreshMs + 10));
  panel.ShowSnapshot(MakeSnapshot(), 60, 16.7);
  auto* table = panel.findChild<QTreeWidget*>();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->columnCount(), 3);
  EXPECT_EQ(table->headerItem()->text(2), QStringLiteral("nsn:ncp=min"));
  bool found_bodies = false;
  for (int r = 0; r < table->topLevelItemCount(); ++r) {
    if (table->topLevelItem(r)->text(0).startsWith(QStringLiteral("Bodies"))) {
      EXPECT_EQ(table->topLevelItem(r)->text(1), QStringLiteral("2 / 1"));
      found_bodies = true;
    }
  }
  EXPECT_TRUE(found_bodies);
}

// the paint panel's brush is what its widgets say (the angle in radians); its buttons follow the
// painter: undo and redo while there are strokes to undo or redo, save while a field is unsaved
TEST_F(PanelsTest, PaintPanelGivesItsBrushAndFollowsThePainter) {
  PaintPanel panel;
  EXPECT_TRUE(panel.SetTool(QStringLiteral("set angle")));
  EXPECT_FALSE(panel.SetTool(QStringLiteral("spray")));
  panel.SetRadius(0.25);
  panel.SetAngleDegrees(30);
  const Brush brush = panel.brush();
  EXPECT_EQ(brush.tool, BrushTool::kSetAngle);
  EXPECT_DOUBLE_EQ(brush.radius, 0.25);
  EXPECT_NEAR(brush.angle, std::numbers::pi / 6, 1e-12);
  bool toggled = false;
  QObject::connect(&panel, &PaintPanel::PaintModeToggled, [&](bool on) { toggled = on; });
  panel.SetPaintMode(true);
  EXPECT_TRUE(toggled);

  SimSnapshot snapshot;
  snapshot.paint.undo_depth = 2;
  snapshot.paint.unsaved_fields = 1;
  snapshot.paint.message = "set angle on field 0";
  panel.ShowSnapshot(snapshot);
  const auto button = [&](const char* text) {
    for (QPushButton* b : panel.findChildren<QPushButton*>()) {
      if (b->text() == QString::fromUtf8(text)) return b;
    }
    return static_cast<QPushButton*>(nullptr);
  };
  ASSERT_NE(button("Undo"), nullptr);
  EXPECT_TRUE(button("Undo")->isEnabled());
  EXPECT_FALSE(button("Redo")->isEnabled());
  EXPECT_TRUE(button("Save PNG")->isEnabled());
  bool saved = false;
  QObject::connect(&panel, &PaintPanel::SaveRequested, [&] { saved = true; });
  button("Save PNG")->click();
  EXPECT_TRUE(saved);
  bool shown = false;
  for (QLabel* label : panel.findChildren<QLabel*>()) {
    shown |= label->text().contains(QStringLiteral("not saved"));
  }
  EXPECT_TRUE(shown);
}

}  // namespace
}  // namespace sim::ui
