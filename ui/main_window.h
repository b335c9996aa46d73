// MainWindow: the studio's top-level window. Menus (File, Simulation, View, Help), a toolbar
// (play/pause, step, reset, real time), a status bar (scene, simulated time and real-time factor,
// step time, Vulkan device, frame rate), the Vulkan viewport as central widget and dockable panels
// around it (scene and joints, solver settings, convergence plots, statistics, diagnostics).
// Scenes load on a worker thread of Qt's pool (SceneLoader: progress and Cancel in the status
// bar); a loaded scene is handed to the simulation worker (SimBridge), which swaps it in at a step
// boundary; a load that fails or is cancelled never replaces the scene that runs. Shortcuts follow
// MuJoCo's simulate: Space plays/pauses, → steps, Backspace resets, Esc cancels a load.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QImage>
#include <QMainWindow>
#include <QPointer>
#include <QRect>
#include <QString>
#include <QStringList>

#include "engine/core/diagnostics.h"
#include "engine/io/import_scene.h"
#include "engine/io/overrides.h"
#include "engine/io/scene_file.h"

class QAction;
class QDragEnterEvent;
class QDragMoveEvent;
class QDropEvent;
class QLabel;
class QToolButton;
class QMenu;
class QTimer;
class QVulkanInstance;

namespace sim::ui {

class CameraMenu;
class ConvergencePanel;
class DivergencePanel;
class DiagnosticsPanel;
class HelpPanel;
class ImportDialog;
class InspectorPanel;
class KeyFrameMenu;
class LaneMenu;
class PaintPanel;
class SceneLoader;
class ScenePanel;
class SimBridge;
class SolverPanel;
class StatisticsPanel;
class TeleopPanel;
class TeleopStation;
class VideoMenu;
class VulkanViewport;
struct SimSnapshot;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  /// `instance`: a created QVulkanInstance that outlives the window.
  explicit MainWindow(QVulkanInstance* instance, QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Runs every scene opened from now on once per configuration, side by side in lockstep
  /// (`--compare A,B`); empty: the scene's own solver only.
  void SetCompareConfigs(std::vector<io::SolverConfig> configs);
  /// Compared lanes overlaid as ghosts (true) or side by side (Simulation > Lanes).
  void SetLanesOverlaid(bool overlaid);

  /// Loads the scene, URDF or mesh at `path` (io::LoadAnyScene: a lone robot or mesh gets a default
  /// scene) off the GUI thread and starts simulating it when done. On failure the diagnostics go to
  /// stderr and the diagnostics panel, and the current scene keeps running (an empty one when
  /// nothing was loaded yet); so it does when the load is cancelled (Cancel, Esc). A load still
  /// running is cancelled. Emits SceneLoadFinished either way. An empty `path` fails with a
  /// diagnostic saying that no scene was found.
  void OpenScene(const QString& path);

  /// What File > Open, a drop and the recent files do with `path`: a scene (.json) is opened, a
  /// lone robot or mesh goes through the import dialog (ImportFile), anything else is an error
  /// in the status bar and the current scene stays.
  void OpenOrImport(const QString& path);
  /// Shows the import dialog for the robot or mesh at `path` (window-modal; its fields preset by
  /// SetImportPresets): Import loads it, Save as scene… opens the saved scene, Cancel keeps the
  /// current scene (reported as a cancelled load). A file that cannot be read fails as a load
  /// does; returns null then.
  ImportDialog* ImportFile(const QString& path);
  /// Presets ("key=value,...", io::ApplyImportPresets) of every import dialog from now on.
  void SetImportPresets(const QString& presets) { import_presets_ = presets; }
  /// The import dialog while one is open, else null.
  ImportDialog* import_dialog() const;

  /// Shows and raises the panels named (scene, solver, convergence, statistics, inspector, paint,
  /// teleop, help, diagnostics);
  /// returns false with the unknown names in `*unknown`.
  bool ShowPanels(const QStringList& names, QStringList* unknown);

  /// The window as a person sees it: QWidget::grab() of the widgets with the viewport's rendered
  /// image pasted at the viewport's place, in device pixels. `viewport_rect` (optional) receives
  /// the viewport's rectangle in image pixels. Renders one extra frame; call outside rendering.
  /// Returns a null image when the viewport cannot be read back.
  QImage GrabWindowImage(QRect* viewport_rect = nullptr);
  /// The viewport's rendered image alone (RGB32, device pixels), as GrabWindowImage pastes it.
  /// Renders one extra frame; call outside rendering. Null when it cannot be read back.
  QImage GrabViewportImage();
  /// Writes GrabWindowImage() as PNG with the text chunk "viewport" = "x y width height".
  bool SaveScreenshot(const QString& path, QString* error);

  VulkanViewport* viewport() const { return viewport_; }
  SimBridge* simulation() const { return bridge_; }
  DiagnosticsPanel* diagnostics_panel() const { return diagnostics_panel_; }
  PaintPanel* paint_panel() const { return paint_panel_; }
  TeleopStation* teleop() const { return teleop_; }
  HelpPanel* help_panel() const { return help_panel_; }
  InspectorPanel* inspector_panel() const { return inspector_panel_; }
  CameraMenu* camera_menu() const { return camera_menu_; }
  VideoMenu* video_menu() const { return video_menu_; }
  ScenePanel* scene_panel() const { return scene_panel_; }
  /// Saves the painted structure fields beside the scene (File > Save Painted Fields).
  void SavePaintedFields();
  SceneLoader* scene_loader() const { return loader_; }
  /// The last load failed or was cancelled (the window shows the previous scene or an empty one).
  bool last_load_failed() const { return last_load_failed_; }
  /// The last load was cancelled.
  bool last_load_cancelled() const { return last_load_cancelled_; }
  /// A rendering error has been reported by the viewport.
  bool render_failed() const { return render_failed_; }
  /// Recently opened files, newest first (QSettings "recentFiles").
  QStringList RecentFiles() const;

 signals:
  /// A load finished; `ok` false when it failed (its diagnostics are listed) or was cancelled.
  void SceneLoadFinished(bool ok, const QString& path);
  /// An import dialog was opened (ImportFile).
  void ImportDialogOpened(sim::ui::ImportDialog* dialog);

 protected:
  /// Drops of files on the window (and on the 3D view, through eventFilter) go to OpenOrImport.
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dragMoveEvent(QDragMoveEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void CreateActions();
  void CreateMenus();
  void CreateToolBar();
  void CreateDocks();
  void CreateStatusBar();
  void ConnectSimulation();

  void ApplyLoadResult(const QString& path, const Expected<io::Scene>& result);
  void OnLoadCancelled(const QString& path);
  void LoadImport(const QString& path, const io::ImportSettings& settings);
  void ShowEmptyScene();
  void OnSceneChanged(const SimSnapshot& snapshot);
  // a click in the viewport: inspects the contact drawn under it, else picks a body
  void OnClick(const QPointF& position);
  void OnSnapshot(const SimSnapshot& snapshot);
  void OnOpenSceneTriggered();
  void OnReloadTriggered();
  void OnSaveScreenshotTriggered();
  void OnAboutTriggered();
  void OnRenderError(const QString& message);
  void OnSimulationDiagnostics(const std::vector<Diagnostic>& diagnostics);
  void ShowDiagnosticsPanel();
  void UpdateStatusLabels();
  void AddRecentFile(const QString& path);
  void UpdateRecentMenu();
  void SendPacing();
  void SendRay(const QPointF& position, int kind);
  /// Before the running scene is replaced by `next_scene`: true to go on; with unsaved paint the
  /// user chooses to save (the scene then opens once saved), discard, or cancel.
  bool ConfirmUnsavedPaint(const QString& next_scene);

  VulkanViewport* viewport_ = nullptr;
  QWidget* viewport_container_ = nullptr;
  SimBridge* bridge_ = nullptr;
  SceneLoader* loader_ = nullptr;
  ScenePanel* scene_panel_ = nullptr;
  SolverPanel* solver_panel_ = nullptr;
  ConvergencePanel* convergence_panel_ = nullptr;
  DivergencePanel* divergence_panel_ = nullptr;
  StatisticsPanel* statistics_panel_ = nullptr;
  DiagnosticsPanel* diagnostics_panel_ = nullptr;
  PaintPanel* paint_panel_ = nullptr;
  TeleopPanel* teleop_panel_ = nullptr;
  TeleopStation* teleop_ = nullptr;  // the teleop panel's, gizmo's and devices' wiring
  HelpPanel* help_panel_ = nullptr;
  InspectorPanel* inspector_panel_ = nullptr;
  CameraMenu* camera_menu_ = nullptr;  // View menu: follow, frame, named cameras
  VideoMenu* video_menu_ = nullptr;    // File menu: Record Video
  int unsaved_paint_ = 0;              // painted fields not saved, as the worker last said
  QString open_after_save_;            // a scene to open once the painted fields are saved
  QPointer<ImportDialog> import_dialog_;
  QString import_presets_;
  std::optional<io::ImportSettings> last_import_;  // what Reload imports again at import_path_
  QString import_path_;

  QAction* open_action_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  QAction* reload_action_ = nullptr;
  QAction* screenshot_action_ = nullptr;
  QAction* quit_action_ = nullptr;
  QAction* play_action_ = nullptr;
  QAction* step_action_ = nullptr;
  QAction* reset_action_ = nullptr;
  QAction* real_time_action_ = nullptr;
  QAction* slower_action_ = nullptr;
  QAction* faster_action_ = nullptr;
  QAction* reset_camera_action_ = nullptr;
  QAction* overlay_action_ = nullptr;
  QAction* help_action_ = nullptr;
  QAction* about_action_ = nullptr;
  QAction* undo_paint_action_ = nullptr;
  QAction* redo_paint_action_ = nullptr;
  QAction* save_paint_action_ = nullptr;
  KeyFrameMenu* key_frame_menu_ = nullptr;
  LaneMenu* lane_menu_ = nullptr;
  bool lanes_overlaid_ = false;  ///< --lanes ghost: the home camera frames lane 1 only

  QLabel* scene_label_ = nullptr;
  QLabel* sim_label_ = nullptr;
  QLabel* device_label_ = nullptr;
  QLabel* fps_label_ = nullptr;
  QToolButton* problems_button_ = nullptr;  ///< diagnostics counts in the status bar
  QTimer* fps_timer_ = nullptr;

  std::vector<io::SolverConfig> compare_configs_;
  QString scene_path_;    // last path asked for (what Reload loads again)
  QString applied_path_;  // path of the scene that was last loaded
  bool last_load_failed_ = false;
  bool last_load_cancelled_ = false;
  bool render_failed_ = false;
  double speed_ = 1.0;  // real-time factor asked for
};

}  // namespace sim::ui
