// ImGuiQtInput: the platform side of the viewport's Dear ImGui overlay (the part a GLFW or SDL
// backend would do): it owns the ImGui context and feeds it Qt's display size, framebuffer scale,
// frame time, mouse, wheel, keys, text and clipboard. Written for the ImGui 1.86 IO API
// (io.MousePos / MouseDown / KeysDown + KeyMap); the renderer side is sim::render::OverlayRenderer.
#pragma once

#include <QElapsedTimer>
#include <QSize>
#include <Qt>

class QKeyEvent;
class QMouseEvent;
class QWheelEvent;
struct ImGuiContext;

namespace sim::ui {

/// One ImGui context bound to one Qt window. GUI thread only.
class ImGuiQtInput {
 public:
  /// Creates the context (dark style, no imgui.ini, the system's DejaVu Sans when found, else
  /// ImGui's built-in font) and installs the key map and clipboard hooks.
  ImGuiQtInput();
  ~ImGuiQtInput();
  ImGuiQtInput(const ImGuiQtInput&) = delete;
  ImGuiQtInput& operator=(const ImGuiQtInput&) = delete;

  ImGuiContext* context() const { return context_; }

  /// Platform half of a new frame; call before ImGui::NewFrame(). `logical_size`: window size in
  /// device-independent pixels; `framebuffer_size`: swapchain size in physical pixels.
  void NewFrame(const QSize& logical_size, const QSize& framebuffer_size);
  /// The cursor ImGui asks for (arrow, text beam, resize arrows) for the host to show while
  /// ImGui owns the mouse.
  Qt::CursorShape CursorShape() const;

  // events from the Qt window; every event goes to ImGui, whether or not it also moves the camera
  void MouseMoveEvent(const QMouseEvent& event);
  void MouseButtonEvent(const QMouseEvent& event, bool pressed);
  void WheelEvent(const QWheelEvent& event);
  void KeyEvent(const QKeyEvent& event, bool pressed);
  /// Releases every key and button (the window lost focus mid-press).
  void FocusOutEvent();
  /// The mouse left the window: ImGui should stop hovering.
  void LeaveEvent();

  /// ImGui's decision from the last frame: the mouse is over or dragging an ImGui window.
  bool WantsMouse() const;
  /// An ImGui text field or widget has keyboard focus.
  bool WantsKeyboard() const;

 private:
  ImGuiContext* context_ = nullptr;
  QElapsedTimer clock_;
};

}  // namespace sim::ui
