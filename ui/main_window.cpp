// MainWindow: menus, toolbar, status bar, docks, scene loading and the simulation's wiring.
#include "ui/main_window.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <utility>

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPixmap>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QUrl>
#include <QVulkanInstance>

#include <imgui.h>

#include "engine/io/default_scene.h"
#include "engine/io/scene_catalog.h"
#include "engine/io/text_util.h"
#include "engine/visual/lane_colors.h"
#include "engine/visual/visual_frame.h"
#include "ui/camera_menu.h"
#include "ui/frame_compose.h"
#include "ui/import_dialog.h"
#include "ui/key_frame_menu.h"
#include "ui/lane_menu.h"
#include "ui/panels/convergence_panel.h"
#include "ui/panels/diagnostics_panel.h"
#include "ui/panels/divergence_panel.h"
#include "ui/panels/help_panel.h"
#include "ui/panels/inspector_panel.h"
#include "ui/panels/paint_panel.h"
#include "ui/panels/scene_panel.h"
#include "ui/panels/solver_panel.h"
#include "ui/panels/statistics_panel.h"
#include "ui/panels/teleop_panel.h"
#include "ui/scene_loader.h"
#include "ui/sim_bridge.h"
#include "ui/studio_shortcuts.h"
#include "ui/teleop_station.h"
#include "ui/video_menu.h"
#include "ui/viewport/pick_controller.h"
#include "ui/viewport/vulkan_viewport.h"

namespace sim::ui {

namespace {

// File > Open: everything io::LoadAnyScene accepts (a scene, or a lone robot or mesh with a
// default scene around it)
constexpr const char* kOpenFileFilter =
    "Scenes, robots and meshes (*.json *.urdf *.msh *.vtk *.node *.ele *.obj *.stl *.dae *.ply "
    "*.off *.glb *.gltf);;Scenes (*.json);;URDF robots (*.urdf);;Tetrahedral meshes (*.msh *.vtk "
    "*.node *.ele);;Surface meshes (*.obj *.stl *.dae *.ply *.off *.glb *.gltf);;All files (*)";

// default client size: fits a 1366x768 laptop screen with room for the taskbar
constexpr int kDefaultWidth = 1280;
constexpr int kDefaultHeight = 800;
// width of the scene dock at start [px], at most this fraction of the window's
constexpr int kSceneDockWidth = 400;
constexpr double kSceneDockFraction = 0.24;
// width of the plot and table docks when shown from the command line [px], at most this fraction
// of the window's (so at 1280 px the viewport keeps half of the width with both sides open)
constexpr int kPlotDockWidth = 520;
constexpr double kPlotDockFraction = 0.3;
// height of the diagnostics dock when it appears [px]: about six rows
constexpr int kDiagnosticsDockHeight = 150;
// frame-rate label refresh period [ms]; matches the meter's averaging window
constexpr int kFrameRateRefreshMs = 500;
// recent files kept in the File menu
constexpr int kMaxRecentFiles = 8;
const char* const kRecentFilesKey = "recentFiles";
// slow motion and fast forward bounds of the real-time factor (− and = keys, as in MuJoCo)
constexpr double kMinSpeed = 1.0 / 64.0;
constexpr double kMaxSpeed = 16.0;
// what a cursor ray is for
enum RayKind { kPickRay = 0, kBeginDragRay, kMoveDragRay, kBeginPaintRay, kPaintRay };

// QVulkanWindow::grab() hands back the swapchain bytes in a QImage of the RGBA8888 family; a BGRA
// swapchain other than B8G8R8A8_UNORM (which Qt swaps itself) needs its red and blue exchanged
QImage ViewportImageToRgb(QImage image, VkFormat format) {
  if (format == VK_FORMAT_B8G8R8A8_SRGB) image = std::move(image).rgbSwapped();
  return image.convertToFormat(QImage::Format_RGB32);
}

// the first local file of a drag, or empty (text, remote URLs)
QString DroppedFile(const QMimeData* mime) {
  if (mime == nullptr) return QString();
  for (const QUrl& url : mime->urls()) {
    if (url.isLocalFile()) return url.toLocalFile();
  }
  return QString();
}

}  // namespace


MainWindow::MainWindow(QVulkanInstance* instance, QWidget* parent) : QMainWindow(parent) {
  setWindowTitle(QStringLiteral("Contact Studio"));
  setObjectName(QStringLiteral("MainWindow"));
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowTabbedDocks |
                 QMainWindow::AllowNestedDocks);

  // central widget: the Vulkan window inside a container widget
  viewport_ = new VulkanViewport(instance);
  viewport_container_ = QWidget::createWindowContainer(viewport_, this);
  viewport_container_->setObjectName(QStringLiteral("Viewport"));
  viewport_container_->setFocusPolicy(Qt::StrongFocus);
  viewport_container_->setMinimumSize(320, 240);
  setCentralWidget(viewport_container_);

  bridge_ = new SimBridge(viewport_, this);
  help_panel_ = new HelpPanel(this);
  addDockWidget(Qt::RightDockWidgetArea, help_panel_);
  help_panel_->hide();
  CreateActions();
  CreateMenus();
  CreateToolBar();
  CreateDocks();
  CreateStatusBar();
  ConnectSimulation();

  connect(viewport_, &VulkanViewport::DeviceReady, this,
          [this](const QString& name) { device_label_->setText(tr("Vulkan: %1").arg(name)); });
  // queued: the viewport reports from inside its frame, the handler may touch widgets and dialogs
  connect(viewport_, &VulkanViewport::RenderError, this, &MainWindow::OnRenderError,
          Qt::QueuedConnection);

  // start at the default size, shrunk to the screen when it is smaller
  QSize size(kDefaultWidth, kDefaultHeight);
  if (const QScreen* screen = QGuiApplication::primaryScreen()) {
    size = size.boundedTo(screen->availableSize());
  }
  resize(size);
  resizeDocks({scene_panel_},
              {std::min(kSceneDockWidth, static_cast<int>(kSceneDockFraction * size.width()))},
              Qt::Horizontal);
  ShowEmptyScene();
  // files dropped anywhere: the widgets, and the 3D view's own window
  setAcceptDrops(true);
  viewport_->installEventFilter(this);
}


// the bridge (a child) stops the simulation thread before the viewport goes
MainWindow::~MainWindow() = default;


void MainWindow::SetCompareConfigs(std::vector<io::SolverConfig> configs) {
  compare_configs_ = std::move(configs);
}


void MainWindow::SetLanesOverlaid(bool overlaid) {
  lanes_overlaid_ = overlaid;
  lane_menu_->SetOverlaid(overlaid);
}


void MainWindow::CreateActions() {
  open_action_ = new QAction(tr("&Open…"), this);
  open_action_->setShortcuts(ShortcutKeys(StudioCommand::kOpen));
  open_action_->setStatusTip(tr("Open a scene (JSON), a URDF robot or a mesh"));
  connect(open_action_, &QAction::triggered, this, &MainWindow::OnOpenSceneTriggered);

  reload_action_ = new QAction(tr("&Reload"), this);
  reload_action_->setShortcuts(ShortcutKeys(StudioCommand::kReload));
  reload_action_->setStatusTip(tr("Load the current file again"));
  connect(reload_action_, &QAction::triggered, this, &MainWindow::OnReloadTriggered);

  screenshot_action_ = new QAction(tr("Save &Screenshot…"), this);
  screenshot_action_->setShortcuts(ShortcutKeys(StudioCommand::kScreenshot));
  screenshot_action_->setStatusTip(tr("Save the window as a PNG image"));
  connect(screenshot_action_, &QAction::triggered, this, &MainWindow::OnSaveScreenshotTriggered);

  quit_action_ = new QAction(tr("&Quit"), this);
  quit_action_->setShortcuts(ShortcutKeys(StudioCommand::kQuit));
  quit_action_->setMenuRole(QAction::QuitRole);
  connect(quit_action_, &QAction::triggered, this, &QWidget::close);

  // simulation: MuJoCo simulate's keys
  play_action_ = new QAction(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Play"), this);
  play_action_->setCheckable(true);
  play_action_->setShortcuts(ShortcutKeys(StudioCommand::kPlay));
  play_action_->setStatusTip(tr("Run or pause the simulation (Space)"));
  connect(play_action_, &QAction::triggered, this, [this](bool run) {
    if (run) {
      bridge_->Send(command::Play{});
    } else {
      bridge_->Send(command::Pause{});
    }
  });

  step_action_ = new QAction(style()->standardIcon(QStyle::SP_MediaSeekForward), tr("&Step"), this);
  step_action_->setShortcuts(ShortcutKeys(StudioCommand::kStep));
  step_action_->setStatusTip(tr("Pause and take one step (→)"));
  connect(step_action_, &QAction::triggered, this, [this] { bridge_->Send(command::StepOnce{1}); });

  reset_action_ =
      new QAction(style()->standardIcon(QStyle::SP_MediaSkipBackward), tr("Rese&t"), this);
  reset_action_->setShortcuts(ShortcutKeys(StudioCommand::kReset));
  reset_action_->setStatusTip(tr("Back to the scene's initial state (Backspace)"));
  connect(reset_action_, &QAction::triggered, this, [this] { bridge_->Send(command::Reset{}); });

  real_time_action_ = new QAction(tr("Real &Time"), this);
  real_time_action_->setCheckable(true);
  real_time_action_->setChecked(true);
  real_time_action_->setShortcuts(ShortcutKeys(StudioCommand::kRealTime));
  real_time_action_->setStatusTip(
      tr("Pace the simulation to the wall clock; off: as fast as possible"));
  connect(real_time_action_, &QAction::toggled, this, [this] { SendPacing(); });

  slower_action_ = new QAction(tr("S&lower"), this);
  slower_action_->setShortcuts(ShortcutKeys(StudioCommand::kSlower));
  slower_action_->setStatusTip(tr("Halve the real-time factor (slow motion)"));
  connect(slower_action_, &QAction::triggered, this, [this] {
    speed_ = std::max(kMinSpeed, speed_ / 2);
    SendPacing();
  });
  faster_action_ = new QAction(tr("&Faster"), this);
  faster_action_->setShortcuts(ShortcutKeys(StudioCommand::kFaster));
  faster_action_->setStatusTip(tr("Double the real-time factor"));
  connect(faster_action_, &QAction::triggered, this, [this] {
    speed_ = std::min(kMaxSpeed, speed_ * 2);
    SendPacing();
  });

  reset_camera_action_ = new QAction(tr("&Reset Camera"), this);
  // Home everywhere; the viewport itself also takes F (a bare letter as a window shortcut would
  // steal typing from text fields, in Qt and in the ImGui overlay)
  reset_camera_action_->setShortcuts(ShortcutKeys(StudioCommand::kResetCamera));
  reset_camera_action_->setStatusTip(tr("Return to the scene's camera (F in the viewport)"));
  connect(reset_camera_action_, &QAction::triggered, this, [this] { viewport_->ResetCamera(); });

  overlay_action_ = new QAction(tr("Show &Overlay"), this);
  overlay_action_->setCheckable(true);
  overlay_action_->setChecked(true);
  overlay_action_->setShortcuts(ShortcutKeys(StudioCommand::kOverlay));
  overlay_action_->setStatusTip(tr("Show the statistics overlay in the viewport"));
  connect(overlay_action_, &QAction::toggled, this,
          [this](bool visible) { viewport_->SetOverlayVisible(visible); });

  // structure-field painting (the paint panel has the same as buttons)
  undo_paint_action_ = new QAction(tr("&Undo Paint Stroke"), this);
  undo_paint_action_->setShortcuts(ShortcutKeys(StudioCommand::kUndoPaint));
  connect(undo_paint_action_, &QAction::triggered, this,
          [this] { bridge_->Send(command::UndoPaint{}); });
  redo_paint_action_ = new QAction(tr("&Redo Paint Stroke"), this);
  redo_paint_action_->setShortcuts(ShortcutKeys(StudioCommand::kRedoPaint));
  connect(redo_paint_action_, &QAction::triggered, this,
          [this] { bridge_->Send(command::RedoPaint{}); });
  save_paint_action_ = new QAction(tr("&Save Painted Fields"), this);
  save_paint_action_->setShortcuts(ShortcutKeys(StudioCommand::kSavePaint));
  save_paint_action_->setStatusTip(
      tr("Write the painted structure fields as PNGs beside the scene and reference them"));
  connect(save_paint_action_, &QAction::triggered, this, &MainWindow::SavePaintedFields);

  help_action_ = new QAction(tr("&Keys and Mouse"), this);
  help_action_->setShortcuts(ShortcutKeys(StudioCommand::kHelp));
  help_action_->setStatusTip(tr("Every key and mouse action of the studio (F1)"));
  connect(help_action_, &QAction::triggered, this, [this] { help_panel_->Toggle(); });

  about_action_ = new QAction(tr("&About Contact Studio"), this);
  about_action_->setMenuRole(QAction::AboutRole);
  connect(about_action_, &QAction::triggered, this, &MainWindow::OnAboutTriggered);
}


void MainWindow::CreateMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(open_action_);
  recent_menu_ = file->addMenu(tr("Open &Recent"));
  file->addAction(reload_action_);
  file->addAction(save_paint_action_);
  file->addSeparator();
  file->addAction(screenshot_action_);
  video_menu_ = new VideoMenu(this, file, this);
  file->addSeparator();
  file->addAction(quit_action_);
  UpdateRecentMenu();

  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->addAction(undo_paint_action_);
  edit->addAction(redo_paint_action_);

  QMenu* simulation = menuBar()->addMenu(tr("&Simulation"));
  simulation->addAction(play_action_);
  simulation->addAction(step_action_);
  simulation->addAction(reset_action_);
  simulation->addSeparator();
  simulation->addAction(real_time_action_);
  simulation->addAction(slower_action_);
  simulation->addAction(faster_action_);
  simulation->addSeparator();
  key_frame_menu_ = new KeyFrameMenu(simulation, bridge_, this);
  lane_menu_ = new LaneMenu(simulation, bridge_, this, this);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->addAction(reset_camera_action_);
  camera_menu_ = new CameraMenu(viewport_, view, statusBar(), this);
  view->addSeparator();
  view->addAction(overlay_action_);
  view->addSeparator();
  view->setObjectName(QStringLiteral("ViewMenu"));

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(help_action_);
  help->addAction(about_action_);
}


void MainWindow::CreateToolBar() {
  QToolBar* bar = addToolBar(tr("Simulation"));
  bar->setObjectName(QStringLiteral("SimulationToolBar"));
  bar->setMovable(false);
  bar->addAction(play_action_);
  bar->addAction(step_action_);
  bar->addAction(reset_action_);
  bar->addSeparator();
  bar->addAction(real_time_action_);
  bar->addAction(slower_action_);
  bar->addAction(faster_action_);
}


void MainWindow::CreateDocks() {
  scene_panel_ = new ScenePanel(this);
  addDockWidget(Qt::LeftDockWidgetArea, scene_panel_);
  solver_panel_ = new SolverPanel(this);
  addDockWidget(Qt::LeftDockWidgetArea, solver_panel_);
  tabifyDockWidget(scene_panel_, solver_panel_);
  scene_panel_->raise();

  convergence_panel_ = new ConvergencePanel(this);
  addDockWidget(Qt::RightDockWidgetArea, convergence_panel_);
  divergence_panel_ = new DivergencePanel(this);
  addDockWidget(Qt::RightDockWidgetArea, divergence_panel_);
  tabifyDockWidget(convergence_panel_, divergence_panel_);
  statistics_panel_ = new StatisticsPanel(this);
  addDockWidget(Qt::RightDockWidgetArea, statistics_panel_);
  tabifyDockWidget(divergence_panel_, statistics_panel_);
  inspector_panel_ = new InspectorPanel(this);
  addDockWidget(Qt::RightDockWidgetArea, inspector_panel_);
  tabifyDockWidget(statistics_panel_, inspector_panel_);
  convergence_panel_->raise();
  // the plots and the tables on demand: the viewport keeps the room by default
  convergence_panel_->hide();
  divergence_panel_->hide();
  statistics_panel_->hide();
  inspector_panel_->hide();

  // the right side's panels are tabs of one dock, so opening many keeps the viewport's width
  paint_panel_ = new PaintPanel(this);
  addDockWidget(Qt::RightDockWidgetArea, paint_panel_);
  tabifyDockWidget(inspector_panel_, paint_panel_);
  paint_panel_->hide();
  teleop_panel_ = new TeleopPanel(this);
  addDockWidget(Qt::RightDockWidgetArea, teleop_panel_);
  tabifyDockWidget(paint_panel_, teleop_panel_);
  teleop_panel_->hide();
  tabifyDockWidget(teleop_panel_, help_panel_);

  diagnostics_panel_ = new DiagnosticsPanel(this);
  addDockWidget(Qt::BottomDockWidgetArea, diagnostics_panel_);
  // only in the way while there is nothing to report; every load that reports shows it again
  diagnostics_panel_->hide();

  // View > panels toggles, in dock order
  if (QMenu* view = menuBar()->findChild<QMenu*>(QStringLiteral("ViewMenu"))) {
    QMenu* panels = view->addMenu(tr("&Panels"));
    panels->addAction(scene_panel_->toggleViewAction());
    panels->addAction(solver_panel_->toggleViewAction());
    panels->addAction(convergence_panel_->toggleViewAction());
    panels->addAction(divergence_panel_->toggleViewAction());
    panels->addAction(statistics_panel_->toggleViewAction());
    panels->addAction(inspector_panel_->toggleViewAction());
    panels->addAction(paint_panel_->toggleViewAction());
    panels->addAction(teleop_panel_->toggleViewAction());
    panels->addAction(diagnostics_panel_->toggleViewAction());
  }
}


void MainWindow::CreateStatusBar() {
  scene_label_ = new QLabel(this);
  // the scene's name gives way first when a load's progress needs the room (the title has it too)
  scene_label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
  sim_label_ = new QLabel(this);
  device_label_ = new QLabel(tr("Vulkan: starting…"), this);
  fps_label_ = new QLabel(this);
  // fixed widths so the bar does not jiggle as digits change
  sim_label_->setMinimumWidth(fontMetrics().horizontalAdvance(
      QStringLiteral("t = 0000.000 s · 00.00× real time · step 000.000 ms (paused)")));
  fps_label_->setMinimumWidth(
      fontMetrics().horizontalAdvance(QStringLiteral("0000.0 FPS (00.00 ms)")));
  fps_label_->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
  // the diagnostics' counts, shown while there are any; a click opens the panel
  problems_button_ = new QToolButton(this);
  problems_button_->setObjectName(QStringLiteral("ProblemsButton"));
  problems_button_->setAutoRaise(true);
  problems_button_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  problems_button_->setToolTip(tr("Show the diagnostics panel"));
  problems_button_->hide();
  connect(problems_button_, &QToolButton::clicked, this, &MainWindow::ShowDiagnosticsPanel);
  connect(
      diagnostics_panel_, &DiagnosticsPanel::CountsChanged, this, [this](int errors, int warnings) {
        problems_button_->setVisible(errors > 0 || warnings > 0);
        problems_button_->setIcon(style()->standardIcon(errors > 0 ? QStyle::SP_MessageBoxCritical
                                                                   : QStyle::SP_MessageBoxWarning));
        QStringList parts;
        if (errors > 0) parts << tr("%n error(s)", nullptr, errors);
        if (warnings > 0) parts << tr("%n warning(s)", nullptr, warnings);
        problems_button_->setText(parts.join(QStringLiteral(", ")));
      });
  // loads: progress and Cancel while one runs, Esc anywhere in the window
  loader_ = new SceneLoader(statusBar(), this);
  addAction(loader_->cancel_action());
  connect(loader_, &SceneLoader::Finished, this,
          [this](const QString& path, const SceneLoader::Result& result) {
            ApplyLoadResult(path, *result);
          });
  connect(loader_, &SceneLoader::Cancelled, this, &MainWindow::OnLoadCancelled);
  statusBar()->addWidget(scene_label_, 1);
  statusBar()->addPermanentWidget(problems_button_);
  statusBar()->addPermanentWidget(sim_label_);
  statusBar()->addPermanentWidget(device_label_);
  statusBar()->addPermanentWidget(fps_label_);

  fps_timer_ = new QTimer(this);
  connect(fps_timer_, &QTimer::timeout, this, &MainWindow::UpdateStatusLabels);
  fps_timer_->start(kFrameRateRefreshMs);
  UpdateStatusLabels();
}


void MainWindow::ConnectSimulation() {
  connect(bridge_, &SimBridge::SceneChanged, this,
          [this](const std::shared_ptr<const SimSnapshot>& s) { OnSceneChanged(*s); });
  connect(bridge_, &SimBridge::SnapshotReady, this,
          [this](const std::shared_ptr<const SimSnapshot>& s) { OnSnapshot(*s); });
  connect(bridge_, &SimBridge::DiagnosticsRaised, this, &MainWindow::OnSimulationDiagnostics);
  teleop_ = new TeleopStation(this, bridge_, viewport_, teleop_panel_);

  // panels write commands
  connect(scene_panel_, &ScenePanel::BodySelected, this,
          [this](int body) { bridge_->Send(command::SelectBody{body}); });
  connect(scene_panel_, &ScenePanel::JointTargetChanged, this, [this](int joint, double target) {
    bridge_->Send(command::SetJointTarget{joint, target});
  });
  connect(scene_panel_, &ScenePanel::JointTakenChanged, this, [this](int joint, bool taken) {
    bridge_->Send(command::SetJointTaken{joint, taken});
  });
  connect(solver_panel_, &SolverPanel::OverrideRequested, this,
          [this](int lane, const QString& assignment) {
            bridge_->Send(command::SetOverride{lane, assignment.toStdString()});
          });
  connect(divergence_panel_, &DivergencePanel::ReferenceLaneChanged, this,
          [this](int lane) { bridge_->Send(command::SetReferenceLane{lane}); });
  connect(solver_panel_, &SolverPanel::SubstepsChanged, this,
          [this](int substeps) { bridge_->Send(command::SetSubsteps{substeps}); });

  // the viewport's clicks and ctrl+drags become rays
  connect(viewport_, &VulkanViewport::PickRequested, this, &MainWindow::OnClick);
  connect(viewport_, &VulkanViewport::DragStarted, this,
          [this](const QPointF& p) { SendRay(p, kBeginDragRay); });
  connect(viewport_, &VulkanViewport::DragMoved, this,
          [this](const QPointF& p) { SendRay(p, kMoveDragRay); });
  connect(viewport_, &VulkanViewport::DragEnded, this,
          [this] { bridge_->Send(command::EndDrag{}); });

  // paint mode: strokes become rays, the panel's buttons commands; entering it from the shaded
  // view shows the structure view, where the paint is seen
  connect(paint_panel_, &PaintPanel::PaintModeToggled, this, [this](bool on) {
    viewport_->SetPaintMode(on);
    if (on && viewport_->render_options().view == render::ViewMode::kShaded) {
      render::RenderOptions options = viewport_->render_options();
      options.view = render::ViewMode::kStructure;
      viewport_->SetRenderOptions(options);
    }
  });
  connect(viewport_, &VulkanViewport::PaintStarted, this,
          [this](const QPointF& p) { SendRay(p, kBeginPaintRay); });
  connect(viewport_, &VulkanViewport::PaintMoved, this,
          [this](const QPointF& p) { SendRay(p, kPaintRay); });
  connect(viewport_, &VulkanViewport::PaintEnded, this,
          [this] { bridge_->Send(command::EndPaint{}); });
  connect(paint_panel_, &PaintPanel::UndoRequested, this,
          [this] { bridge_->Send(command::UndoPaint{}); });
  connect(paint_panel_, &PaintPanel::RedoRequested, this,
          [this] { bridge_->Send(command::RedoPaint{}); });
  connect(paint_panel_, &PaintPanel::SaveRequested, this,
          [this] { bridge_->Send(command::SavePaint{}); });
}


bool MainWindow::ShowPanels(const QStringList& names, QStringList* unknown) {
  const std::vector<std::pair<QString, QDockWidget*>> panels = {
      {QStringLiteral("scene"), scene_panel_},
      {QStringLiteral("solver"), solver_panel_},
      {QStringLiteral("convergence"), convergence_panel_},
      {QStringLiteral("divergence"), divergence_panel_},
      {QStringLiteral("statistics"), statistics_panel_},
      {QStringLiteral("inspector"), inspector_panel_},
      {QStringLiteral("paint"), paint_panel_},
      {QStringLiteral("teleop"), teleop_panel_},
      {QStringLiteral("help"), help_panel_},
      {QStringLiteral("diagnostics"), diagnostics_panel_}};
  for (const QString& name : names) {
    const auto found = std::find_if(panels.begin(), panels.end(),
                                    [&](const auto& panel) { return panel.first == name; });
    if (found == panels.end()) {
      if (unknown != nullptr) *unknown << name;
      continue;
    }
    found->second->show();
    found->second->raise();
    // the plots need room to be read
    if (found->second == convergence_panel_ || found->second == divergence_panel_ ||
        found->second == statistics_panel_ || found->second == inspector_panel_) {
      resizeDocks({found->second},
                  {std::min(kPlotDockWidth, static_cast<int>(kPlotDockFraction * width()))},
                  Qt::Horizontal);
    }
  }
  return unknown == nullptr || unknown->isEmpty();
}


void MainWindow::OnClick(const QPointF& position) {
  // in the contacts view a click on a drawn contact point inspects that contact; elsewhere it
  // selects the body under the cursor (the worker casts the ray)
  const std::shared_ptr<const SimSnapshot>& snapshot = bridge_->latest();
  if (snapshot != nullptr && viewport_->render_options().view == render::ViewMode::kContacts) {
    const int contact =
        PickContact(snapshot->frame, viewport_->camera(), position, QSizeF(viewport_->size()));
    if (contact >= 0) {
      ShowPanels({QStringLiteral("inspector")}, nullptr);
      inspector_panel_->SelectContact(*snapshot, snapshot->frame.contacts[contact]);
      viewport_->SetInspectedContact(inspector_panel_->inspected_point());
      return;
    }
  }
  SendRay(position, kPickRay);
}


void MainWindow::SendRay(const QPointF& position, int kind) {
  Vec3 origin, direction;
  const OrbitCamera& camera = viewport_->camera();
  PixelRay(camera, position, QSizeF(viewport_->size()), &origin, &direction);
  switch (kind) {
    case kPickRay:
      bridge_->Send(command::Pick{origin, direction});
      break;
    case kBeginDragRay:
      bridge_->Send(command::BeginDrag{origin, direction, ViewDirection(camera)});
      break;
    case kBeginPaintRay:
      bridge_->Send(command::BeginPaint{origin, direction, paint_panel_->brush()});
      break;
    case kPaintRay:
      bridge_->Send(command::PaintTo{origin, direction});
      break;
    default:
      bridge_->Send(command::MoveDrag{origin, direction});
      break;
  }
}


void MainWindow::SendPacing() {
  bridge_->Send(command::SetPacing{real_time_action_->isChecked(), speed_});
}


void MainWindow::OpenScene(const QString& path) {
  scene_path_ = path;
  last_import_.reset();
  // a newer Open or Reload supersedes the load still running
  loader_->Load(path);
}


void MainWindow::ApplyLoadResult(const QString& path, const Expected<io::Scene>& result) {
  const Diagnostics& diagnostics = result.diagnostics();
  // diagnostics in the compilers' format on stderr as well, for terminals and CI logs
  if (!diagnostics.empty()) std::cerr << diagnostics.Format() << std::flush;
  diagnostics_panel_->SetDiagnostics(diagnostics);
  if (!diagnostics.empty()) ShowDiagnosticsPanel();

  last_load_failed_ = !result.ok();
  last_load_cancelled_ = false;
  if (result.ok()) {
    applied_path_ = path;
    const io::Scene& scene = result.value();
    const Model& model = *scene.model;
    // the scene's own camera, exactly (tests project points with the same camera)
    const OrbitCamera camera(model.camera, model.options.up);
    // compared lanes stand side by side along the camera's right axis
    command::LoadScene load;
    load.model = scene.model;
    load.initial_state = scene.initial_state;
    load.path = scene.path;
    load.key_frames = scene.key_frames;
    load.configs = compare_configs_;
    if (compare_configs_.size() > 1) {
      const Vec3 back = (camera.Eye() - camera.target).cast<double>();
      const Vec3 right = model.options.up.cross(back).normalized();
      load.lane_offset = LaneOffset(model, scene.initial_state, right);
    }
    // compared lanes side by side: the camera backs off to see them all
    viewport_->SetHomeCamera(
        lanes_overlaid_
            ? camera
            : CompareCamera(camera, load.lane_offset, static_cast<int>(compare_configs_.size())));
    bridge_->Send(std::move(load));
    play_action_->setChecked(true);
    AddRecentFile(path);
    statusBar()->clearMessage();
  } else {
    // a failed load leaves the scene running as it is (MuJoCo's simulate does the same)
    const int errors = diagnostics.error_count();
    statusBar()->showMessage(tr("Could not load %1: %2 %3, see Diagnostics")
                                 .arg(path)
                                 .arg(errors)
                                 .arg(errors == 1 ? tr("error") : tr("errors")));
  }
  emit SceneLoadFinished(result.ok(), path);
}


void MainWindow::OnLoadCancelled(const QString& path) {
  // nothing of the load is kept: the scene, its diagnostics and Reload stay as they were
  last_load_failed_ = true;
  last_load_cancelled_ = true;
  scene_path_ = applied_path_;
  std::cerr << "contact-studio: load of " << path.toStdString() << " cancelled" << std::endl;
  statusBar()->showMessage(tr("Load of %1 cancelled").arg(QFileInfo(path).fileName()));
  emit SceneLoadFinished(false, path);
}


void MainWindow::ShowEmptyScene() {
  viewport_->SetFrame(std::make_shared<const VisualFrame>());
  viewport_->SetSceneName(QString());
  viewport_->SetHomeCamera(OrbitCamera());
  scene_panel_->SetScene(nullptr, VisualFrame{});
  scene_label_->setText(tr("No scene"));
  setWindowTitle(QStringLiteral("Contact Studio"));
}


void MainWindow::OnSceneChanged(const SimSnapshot& snapshot) {
  inspector_panel_->ClearContact();
  if (snapshot.model == nullptr) return;
  const Model& model = *snapshot.model;
  const QString name = QString::fromStdString(model.name);
  const QString file = QFileInfo(QString::fromStdString(snapshot.scene_path)).fileName();
  viewport_->SetSceneName(name);
  // the scene's views; its camera follows the body it names from the scene's first frame
  camera_menu_->SetScene(model);
  viewport_->SetFollowBody(model.camera.follow_body, false);
  QString label = tr("%1 — %2").arg(name.isEmpty() ? tr("(unnamed scene)") : name, file);
  if (snapshot.lanes.size() > 1) {
    QStringList lanes;
    for (const LaneSnapshot& lane : snapshot.lanes) lanes << QString::fromStdString(lane.label);
    label += tr(" — comparing %1").arg(lanes.join(QStringLiteral(" | ")));
  }
  scene_label_->setText(label);
  setWindowTitle(tr("%1 — Contact Studio").arg(name.isEmpty() ? file : name));
}


void MainWindow::OnSnapshot(const SimSnapshot& snapshot) {
  scene_panel_->ShowSnapshot(snapshot);
  key_frame_menu_->ShowSnapshot(snapshot);
  lane_menu_->ShowSnapshot(snapshot);
  solver_panel_->ShowSnapshot(snapshot);
  convergence_panel_->ShowSnapshot(snapshot);
  divergence_panel_->ShowSnapshot(snapshot);
  statistics_panel_->ShowSnapshot(snapshot, viewport_->fps(), viewport_->frame_ms());
  inspector_panel_->ShowSnapshot(snapshot);
  viewport_->SetInspectedContact(inspector_panel_->inspected_point());
  paint_panel_->ShowSnapshot(snapshot);
  teleop_->ShowSnapshot(snapshot);
  // compared lanes carry their solver's name in the viewport
  std::vector<LaneLabel> labels;
  if (snapshot.lanes.size() > 1) {
    for (std::size_t k = 0; k < snapshot.lanes.size(); ++k) {
      const LaneSnapshot& lane = snapshot.lanes[k];
      labels.push_back({lane.label, lane.label_W, lane.stopped, !lane.unsupported.empty(),
                        LaneColor(static_cast<int>(k))});
    }
  }
  viewport_->SetLaneLabels(std::move(labels));
  unsaved_paint_ = snapshot.paint.unsaved_fields;
  if (!open_after_save_.isEmpty() && unsaved_paint_ == 0) {
    OpenScene(std::exchange(open_after_save_, QString()));
  }
  // the toolbar follows the worker (a non-finite step pauses it)
  if (play_action_->isChecked() != snapshot.running) play_action_->setChecked(snapshot.running);
}


void MainWindow::OnSimulationDiagnostics(const std::vector<Diagnostic>& diagnostics) {
  for (const Diagnostic& d : diagnostics) std::cerr << d.Format() << "\n";
  std::cerr << std::flush;
  diagnostics_panel_->AppendDiagnostics(diagnostics);
  // an error (a non-finite step, which also pauses) opens the panel; warnings such as an
  // unconverged step only count in its title and the status bar, so the viewport does not
  // shrink under a drag the user is making
  const bool error = std::any_of(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& d) {
    return d.severity == Severity::kError;
  });
  if (error) ShowDiagnosticsPanel();
}


QImage MainWindow::GrabWindowImage(QRect* viewport_rect) {
  // widgets first: the container shows nothing of the native Vulkan window in a widget grab
  const QPixmap widgets = grab();
  const qreal dpr = widgets.devicePixelRatio();
  QImage image = widgets.toImage().convertToFormat(QImage::Format_RGB32);
  image.setDevicePixelRatio(1.0);

  // the viewport's rectangle in image (device) pixels
  const QPoint top_left = viewport_container_->mapTo(this, QPoint(0, 0));
  const QRect rect(static_cast<int>(std::lround(top_left.x() * dpr)),
                   static_cast<int>(std::lround(top_left.y() * dpr)),
                   static_cast<int>(std::lround(viewport_container_->width() * dpr)),
                   static_cast<int>(std::lround(viewport_container_->height() * dpr)));

  // then the rendered frame, pasted at that place (scaled only if the swapchain size differs);
  // without it the picture would not show what the user sees
  QImage view = GrabViewportImage();
  if (view.isNull()) return QImage();
  if (view.size() != rect.size()) {
    view = view.scaled(rect.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
  }
  QPainter painter(&image);
  painter.setCompositionMode(QPainter::CompositionMode_Source);
  painter.drawImage(rect.topLeft(), view);
  painter.end();
  if (viewport_rect != nullptr) *viewport_rect = rect;
  return image;
}


QImage MainWindow::GrabViewportImage() {
  QImage view = viewport_->grab();
  if (view.isNull()) return QImage();
  view = ViewportImageToRgb(std::move(view), viewport_->colorFormat());
  view.setDevicePixelRatio(1.0);
  return view;
}


bool MainWindow::SaveScreenshot(const QString& path, QString* error) {
  QRect rect;
  QImage image = GrabWindowImage(&rect);
  if (image.isNull()) {
    if (error != nullptr) {
      *error =
          tr("could not read back the Vulkan viewport (no swapchain yet, or the surface does "
             "not allow transfers)");
    }
    return false;
  }
  // where the 3D view is inside the picture, for tests and for cropping
  image.setText(QStringLiteral("viewport"), QStringLiteral("%1 %2 %3 %4")
                                                .arg(rect.x())
                                                .arg(rect.y())
                                                .arg(rect.width())
                                                .arg(rect.height()));
  image.setText(QStringLiteral("Software"), QStringLiteral("Contact Studio"));
  if (!image.save(path, "PNG")) {
    if (error != nullptr) *error = tr("could not write %1").arg(path);
    return false;
  }
  return true;
}


void MainWindow::SavePaintedFields() { bridge_->Send(command::SavePaint{}); }


bool MainWindow::ConfirmUnsavedPaint(const QString& next_scene) {
  if (unsaved_paint_ == 0) return true;
  const QMessageBox::StandardButton answer = QMessageBox::question(
      this, tr("Painted structure fields"),
      tr("%n painted structure field(s) of this scene are not saved.", nullptr, unsaved_paint_),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Cancel) return false;
  if (answer == QMessageBox::Discard) return true;
  // save first; the scene opens once the worker says the fields are saved (OnSnapshot)
  bridge_->Send(command::SavePaint{});
  open_after_save_ = next_scene;
  return false;
}


void MainWindow::OnOpenSceneTriggered() {
  QString directory = QFileInfo(scene_path_).absolutePath();
  if (scene_path_.isEmpty()) {
    directory = QString::fromStdString(
        io::FindScenesDirectory(QCoreApplication::applicationFilePath().toStdString()));
  }
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open"), directory, tr(kOpenFileFilter));
  if (!path.isEmpty()) OpenOrImport(path);
}


void MainWindow::OnReloadTriggered() {
  if (scene_path_.isEmpty() || !ConfirmUnsavedPaint(scene_path_)) return;
  if (last_import_ && scene_path_ == import_path_) {
    LoadImport(scene_path_, *last_import_);
  } else {
    OpenScene(scene_path_);
  }
}


void MainWindow::OpenOrImport(const QString& path) {
  const std::string file = path.toStdString();
  if (io::LowerExtension(file) != ".json" && !io::ImportKindOf(file)) {
    const QString message =
        tr("Cannot open %1: not a scene (.json), a URDF robot or a mesh (.msh, .vtk, .node, .ele, "
           ".obj, .stl, …); the current scene stays")
            .arg(QFileInfo(path).fileName());
    std::cerr << "contact-studio: error: " << message.toStdString() << std::endl;
    statusBar()->showMessage(message);
    return;
  }
  if (!ConfirmUnsavedPaint(path)) return;
  if (io::LowerExtension(file) == ".json") {
    OpenScene(path);
  } else {
    ImportFile(path);
  }
}


ImportDialog* MainWindow::ImportFile(const QString& path) {
  Expected<io::ImportSource> source = io::InspectImportFile(path.toStdString());
  if (!source.ok()) {
    ApplyLoadResult(path, Expected<io::Scene>(source.diagnostics()));
    return nullptr;
  }
  // one import at a time: a newer one replaces the dialog still open
  if (import_dialog_) import_dialog_->reject();
  auto* dialog = new ImportDialog(source.value(), this);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  if (!import_presets_.isEmpty()) {
    const Diagnostics errors = dialog->ApplyPresets(import_presets_);
    if (!errors.empty()) std::cerr << errors.Format() << std::flush;
  }
  connect(dialog, &ImportDialog::ImportRequested, this,
          [this, path](const io::ImportSettings& settings) { LoadImport(path, settings); });
  connect(dialog, &ImportDialog::SceneSaved, this, &MainWindow::OpenScene);
  connect(dialog, &QDialog::rejected, this, [this, path] { OnLoadCancelled(path); });
  import_dialog_ = dialog;
  dialog->open();
  emit ImportDialogOpened(dialog);
  return dialog;
}


ImportDialog* MainWindow::import_dialog() const { return import_dialog_.data(); }


void MainWindow::LoadImport(const QString& path, const io::ImportSettings& settings) {
  scene_path_ = path;
  import_path_ = path;
  last_import_ = settings;
  loader_->Load(path, [settings](const LoadProgress& progress) {
    return io::LoadImportScene(settings, progress);
  });
}


void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (!DroppedFile(event->mimeData()).isEmpty()) event->acceptProposedAction();
}


void MainWindow::dragMoveEvent(QDragMoveEvent* event) {
  if (!DroppedFile(event->mimeData()).isEmpty()) event->acceptProposedAction();
}


void MainWindow::dropEvent(QDropEvent* event) {
  const QString file = DroppedFile(event->mimeData());
  if (file.isEmpty()) return;
  event->acceptProposedAction();
  OpenOrImport(file);
}


bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
  if (watched == viewport_) {
    switch (event->type()) {
      case QEvent::DragEnter:
        dragEnterEvent(static_cast<QDragEnterEvent*>(event));
        return true;
      case QEvent::DragMove:
        dragMoveEvent(static_cast<QDragMoveEvent*>(event));
        return true;
      case QEvent::Drop:
        dropEvent(static_cast<QDropEvent*>(event));
        return true;
      default:
        break;
    }
  }
  return QMainWindow::eventFilter(watched, event);
}


void MainWindow::OnSaveScreenshotTriggered() {
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Save Screenshot"), QStringLiteral("contact-studio.png"), tr("PNG images (*.png)"));
  if (path.isEmpty()) return;
  QString error;
  if (SaveScreenshot(path, &error)) {
    statusBar()->showMessage(tr("Saved %1").arg(path), 5000);
  } else {
    QMessageBox::warning(this, tr("Save Screenshot"), error);
  }
}


void MainWindow::OnAboutTriggered() {
  const QString device =
      viewport_->device_name().isEmpty() ? tr("(none)") : viewport_->device_name();
  QMessageBox::about(
      this, tr("About Contact Studio"),
      tr("<h3>Contact Studio %1</h3>"
         "<p>Interactive simulator for contact-rich robotics: rigid bodies, articulated robots and "
         "FEM solids coupled through frictional contact.</p>"
         "<p>Vulkan device: %2<br>Qt %3, Dear ImGui %4</p>")
          .arg(QCoreApplication::applicationVersion(), device.toHtmlEscaped(),
               QString::fromLatin1(qVersion()), QString::fromLatin1(IMGUI_VERSION)));
}


void MainWindow::OnRenderError(const QString& message) {
  render_failed_ = true;
  std::cerr << "contact-studio: error: " << message.toStdString() << std::endl;
  diagnostics_panel_->AddMessage(Severity::kError, message);
  ShowDiagnosticsPanel();
  statusBar()->showMessage(tr("Rendering failed: %1").arg(message));
}


void MainWindow::ShowDiagnosticsPanel() {
  if (diagnostics_panel_->isVisible()) return;
  diagnostics_panel_->show();
  // a strip under the viewport, not half the window
  resizeDocks({diagnostics_panel_}, {kDiagnosticsDockHeight}, Qt::Vertical);
}


void MainWindow::UpdateStatusLabels() {
  const double fps = viewport_->fps();
  fps_label_->setText(
      fps > 0 ? tr("%1 FPS (%2 ms)").arg(fps, 0, 'f', 1).arg(viewport_->frame_ms(), 0, 'f', 2)
              : tr("— FPS"));
  const SimSnapshot& s = *bridge_->latest();
  if (s.lanes.empty()) {
    sim_label_->clear();
    return;
  }
  // step time: the median of the recent steps of lane 0
  std::vector<double> ms;
  for (const StepSample& sample : s.lanes[0].history) ms.push_back(sample.total_ms);
  double median = 0;
  if (!ms.empty()) {
    std::nth_element(ms.begin(), ms.begin() + ms.size() / 2, ms.end());
    median = ms[ms.size() / 2];
  }
  sim_label_->setText(tr("t = %1 s · %2× real time · step %3 ms%4")
                          .arg(s.lanes[0].time, 0, 'f', 3)
                          .arg(s.real_time_factor, 0, 'f', 2)
                          .arg(median, 0, 'f', 3)
                          .arg(s.running ? QString() : tr(" (paused)")));
}


QStringList MainWindow::RecentFiles() const {
  return QSettings().value(QLatin1String(kRecentFilesKey)).toStringList();
}


void MainWindow::AddRecentFile(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  QStringList files = RecentFiles();
  files.removeAll(absolute);
  files.prepend(absolute);
  while (files.size() > kMaxRecentFiles) files.removeLast();
  QSettings().setValue(QLatin1String(kRecentFilesKey), files);
  UpdateRecentMenu();
}


void MainWindow::UpdateRecentMenu() {
  recent_menu_->clear();
  const QStringList files = RecentFiles();
  for (int i = 0; i < files.size(); ++i) {
    const QString& file = files[i];
    QAction* action = recent_menu_->addAction(
        QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(file).fileName()));
    action->setStatusTip(file);
    connect(action, &QAction::triggered, this, [this, file] { OpenOrImport(file); });
  }
  recent_menu_->setEnabled(!files.isEmpty());
}

}  // namespace sim::ui
