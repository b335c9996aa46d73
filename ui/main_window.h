// MainWindow: the studio's top-level window. Menus (File, View, Help), a status bar (scene, Vulkan
// device, frame rate), the Vulkan viewport as central widget and dockable panels around it (scene
// contents on the left, load diagnostics at the bottom). Scenes load on a worker thread of Qt's
// pool; the result is applied on the GUI thread, and a failed load never replaces the scene shown.
#pragma once

#include <memory>

#include <QImage>
#include <QMainWindow>
#include <QRect>
#include <QString>

#include "engine/core/diagnostics.h"
#include "engine/io/scene_file.h"

class QAction;
class QLabel;
class QTimer;
class QVulkanInstance;

namespace sim::ui {

class DiagnosticsPanel;
class ScenePanel;
class VulkanViewport;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  /// `instance`: a created QVulkanInstance that outlives the window.
  explicit MainWindow(QVulkanInstance* instance, QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Loads the scene file at `path` off the GUI thread and shows it when done. On failure the
  /// diagnostics go to stderr and the diagnostics panel, and the current scene stays (an empty one
  /// when nothing was loaded yet). Emits SceneLoadFinished either way. An empty `path` fails with a
  /// diagnostic saying that no scene was found.
  void OpenScene(const QString& path);

  /// The window as a person sees it: QWidget::grab() of the widgets with the viewport's rendered
  /// image pasted at the viewport's place, in device pixels. `viewport_rect` (optional) receives
  /// the viewport's rectangle in image pixels. Renders one extra frame; call outside rendering.
  /// Returns a null image when the viewport cannot be read back.
  QImage GrabWindowImage(QRect* viewport_rect = nullptr);
  /// Writes GrabWindowImage() as PNG with the text chunk "viewport" = "x y width height".
  bool SaveScreenshot(const QString& path, QString* error);

  VulkanViewport* viewport() const { return viewport_; }
  /// The last load failed (the window shows the previous scene or an empty one).
  bool last_load_failed() const { return last_load_failed_; }
  /// A rendering error has been reported by the viewport.
  bool render_failed() const { return render_failed_; }

 signals:
  /// A load finished; `ok` false when it failed (its diagnostics are listed).
  void SceneLoadFinished(bool ok, const QString& path);

 private:
  void CreateActions();
  void CreateMenus();
  void CreateDocks();
  void CreateStatusBar();

  void ApplyLoadResult(const QString& path, const Expected<io::Scene>& result);
  void ShowScene(const io::Scene* scene);
  void OnOpenSceneTriggered();
  void OnReloadTriggered();
  void OnSaveScreenshotTriggered();
  void OnAboutTriggered();
  void OnRenderError(const QString& message);
  void ShowDiagnosticsPanel();
  void UpdateFrameRateLabel();

  VulkanViewport* viewport_ = nullptr;
  QWidget* viewport_container_ = nullptr;
  ScenePanel* scene_panel_ = nullptr;
  DiagnosticsPanel* diagnostics_panel_ = nullptr;

  QAction* open_action_ = nullptr;
  QAction* reload_action_ = nullptr;
  QAction* screenshot_action_ = nullptr;
  QAction* quit_action_ = nullptr;
  QAction* reset_camera_action_ = nullptr;
  QAction* overlay_action_ = nullptr;
  QAction* about_action_ = nullptr;

  QLabel* scene_label_ = nullptr;
  QLabel* device_label_ = nullptr;
  QLabel* fps_label_ = nullptr;
  QTimer* fps_timer_ = nullptr;

  std::unique_ptr<io::Scene> scene_;  // the scene shown; null when none
  QString scene_path_;                // last path asked for (what Reload loads again)
  int load_generation_ = 0;           // only the newest load is applied
  bool last_load_failed_ = false;
  bool render_failed_ = false;
};

}  // namespace sim::ui
