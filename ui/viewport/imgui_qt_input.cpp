// ImGuiQtInput: Qt events -> Dear ImGui 1.86 IO.
#include "ui/viewport/imgui_qt_input.h"

#include <algorithm>
#include <array>
#include <cfloat>
#include <filesystem>

#include <QByteArray>
#include <QClipboard>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QWheelEvent>

#include <imgui.h>

namespace sim::ui {

namespace {

// io.KeysDown[] layout: printable keys keep their Qt/ASCII code (< 256), Qt's special keys
// (0x01000000 + n) go to 256 + their ImGuiKey_ index
constexpr int kSpecialKeyBase = 256;

struct SpecialKey {
  int qt_key;
  ImGuiKey imgui_key;
};

constexpr std::array<SpecialKey, 16> kSpecialKeys = {{
    {Qt::Key_Tab, ImGuiKey_Tab},
    {Qt::Key_Left, ImGuiKey_LeftArrow},
    {Qt::Key_Right, ImGuiKey_RightArrow},
    {Qt::Key_Up, ImGuiKey_UpArrow},
    {Qt::Key_Down, ImGuiKey_DownArrow},
    {Qt::Key_PageUp, ImGuiKey_PageUp},
    {Qt::Key_PageDown, ImGuiKey_PageDown},
    {Qt::Key_Home, ImGuiKey_Home},
    {Qt::Key_End, ImGuiKey_End},
    {Qt::Key_Insert, ImGuiKey_Insert},
    {Qt::Key_Delete, ImGuiKey_Delete},
    {Qt::Key_Backspace, ImGuiKey_Backspace},
    {Qt::Key_Space, ImGuiKey_Space},
    {Qt::Key_Return, ImGuiKey_Enter},
    {Qt::Key_Escape, ImGuiKey_Escape},
    {Qt::Key_Enter, ImGuiKey_KeyPadEnter},
}};

// index into io.KeysDown for a Qt key, or -1 when ImGui does not care about it
int KeyIndex(int qt_key) {
  if (qt_key == Qt::Key_Space) return kSpecialKeyBase + ImGuiKey_Space;
  if (qt_key > 0 && qt_key < kSpecialKeyBase) return qt_key;
  for (const SpecialKey& key : kSpecialKeys) {
    if (key.qt_key == qt_key) return kSpecialKeyBase + key.imgui_key;
  }
  return -1;
}


int MouseButtonIndex(Qt::MouseButton button) {
  switch (button) {
    case Qt::LeftButton:
      return 0;
    case Qt::RightButton:
      return 1;
    case Qt::MiddleButton:
      return 2;
    case Qt::BackButton:
      return 3;
    case Qt::ForwardButton:
      return 4;
    default:
      return -1;
  }
}


void SetModifiers(ImGuiIO& io, Qt::KeyboardModifiers modifiers) {
  io.KeyCtrl = modifiers.testFlag(Qt::ControlModifier);
  io.KeyShift = modifiers.testFlag(Qt::ShiftModifier);
  io.KeyAlt = modifiers.testFlag(Qt::AltModifier);
  io.KeySuper = modifiers.testFlag(Qt::MetaModifier);
}


// clipboard hooks: ImGui keeps the returned pointer until the next call, so the text lives here
const char* GetClipboardText(void* user_data) {
  auto* storage = static_cast<QByteArray*>(user_data);
  *storage = QGuiApplication::clipboard()->text().toUtf8();
  return storage->constData();
}


void SetClipboardText(void* /*user_data*/, const char* text) {
  QGuiApplication::clipboard()->setText(QString::fromUtf8(text));
}


QByteArray& ClipboardStorage() {
  static QByteArray storage;
  return storage;
}


// the overlay font: DejaVu Sans where a distribution ships it, else ImGui's built-in bitmap font
void AddOverlayFont(ImGuiIO& io) {
  // size in logical pixels; large enough to read over a busy scene, small enough for a stats box
  constexpr float kFontPixels = 15.0f;
  const char* const kCandidates[] = {
      "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",    // Debian, Ubuntu
      "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",  // Fedora
      "/usr/share/fonts/dejavu/DejaVuSans.ttf",
      "/usr/share/fonts/TTF/DejaVuSans.ttf",  // Arch
  };
  std::error_code ec;
  for (const char* path : kCandidates) {
    if (std::filesystem::is_regular_file(path, ec) &&
        io.Fonts->AddFontFromFileTTF(path, kFontPixels) != nullptr) {
      return;
    }
  }
  io.Fonts->AddFontDefault();
}

}  // namespace


ImGuiQtInput::ImGuiQtInput() {
  ImGuiContext* previous = ImGui::GetCurrentContext();
  IMGUI_CHECKVERSION();
  context_ = ImGui::CreateContext();
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  // no imgui.ini in whatever directory the studio was started from
  io.IniFilename = nullptr;
  io.LogFilename = nullptr;
  io.BackendPlatformName = "contact-studio-qt";
  io.BackendFlags |= ImGuiBackendFlags_HasMouseCursors;
  for (const SpecialKey& key : kSpecialKeys)
    io.KeyMap[key.imgui_key] = kSpecialKeyBase + key.imgui_key;
  io.KeyMap[ImGuiKey_A] = Qt::Key_A;
  io.KeyMap[ImGuiKey_C] = Qt::Key_C;
  io.KeyMap[ImGuiKey_V] = Qt::Key_V;
  io.KeyMap[ImGuiKey_X] = Qt::Key_X;
  io.KeyMap[ImGuiKey_Y] = Qt::Key_Y;
  io.KeyMap[ImGuiKey_Z] = Qt::Key_Z;
  io.GetClipboardTextFn = &GetClipboardText;
  io.SetClipboardTextFn = &SetClipboardText;
  io.ClipboardUserData = &ClipboardStorage();
  AddOverlayFont(io);

  // dark style with rounded, slightly translucent windows
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 5.0f;
  style.FrameRounding = 3.0f;
  style.WindowBorderSize = 0.0f;
  style.WindowPadding = ImVec2(10.0f, 8.0f);
  clock_.start();
  ImGui::SetCurrentContext(previous != nullptr ? previous : context_);
}


ImGuiQtInput::~ImGuiQtInput() {
  ImGuiContext* previous = ImGui::GetCurrentContext();
  ImGui::DestroyContext(context_);
  if (previous != context_) ImGui::SetCurrentContext(previous);
}


void ImGuiQtInput::NewFrame(const QSize& logical_size, const QSize& framebuffer_size) {
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize =
      ImVec2(static_cast<float>(logical_size.width()), static_cast<float>(logical_size.height()));
  // framebuffer scale from the real swapchain size, which is exact where the DPR is fractional
  if (logical_size.width() > 0 && logical_size.height() > 0) {
    io.DisplayFramebufferScale =
        ImVec2(static_cast<float>(framebuffer_size.width()) / logical_size.width(),
               static_cast<float>(framebuffer_size.height()) / logical_size.height());
  }
  // ImGui asserts on a zero delta; the first frame and timer granularity can give one
  const qint64 nanoseconds = clock_.nsecsElapsed();
  clock_.restart();
  io.DeltaTime = std::max(static_cast<float>(nanoseconds * 1e-9), 1e-5f);
}


Qt::CursorShape ImGuiQtInput::CursorShape() const {
  ImGui::SetCurrentContext(context_);
  switch (ImGui::GetMouseCursor()) {
    case ImGuiMouseCursor_TextInput:
      return Qt::IBeamCursor;
    case ImGuiMouseCursor_ResizeAll:
      return Qt::SizeAllCursor;
    case ImGuiMouseCursor_ResizeNS:
      return Qt::SizeVerCursor;
    case ImGuiMouseCursor_ResizeEW:
      return Qt::SizeHorCursor;
    case ImGuiMouseCursor_ResizeNESW:
      return Qt::SizeBDiagCursor;
    case ImGuiMouseCursor_ResizeNWSE:
      return Qt::SizeFDiagCursor;
    case ImGuiMouseCursor_Hand:
      return Qt::PointingHandCursor;
    case ImGuiMouseCursor_NotAllowed:
      return Qt::ForbiddenCursor;
    default:
      return Qt::ArrowCursor;
  }
}


void ImGuiQtInput::MouseMoveEvent(const QMouseEvent& event) {
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos =
      ImVec2(static_cast<float>(event.position().x()), static_cast<float>(event.position().y()));
  SetModifiers(io, event.modifiers());
}


void ImGuiQtInput::MouseButtonEvent(const QMouseEvent& event, bool pressed) {
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos =
      ImVec2(static_cast<float>(event.position().x()), static_cast<float>(event.position().y()));
  const int index = MouseButtonIndex(event.button());
  if (index >= 0) io.MouseDown[index] = pressed;
  SetModifiers(io, event.modifiers());
}


void ImGuiQtInput::WheelEvent(const QWheelEvent& event) {
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  // one notch of a mouse wheel is 120 eighths of a degree; ImGui counts notches
  io.MouseWheel += static_cast<float>(event.angleDelta().y()) / 120.0f;
  io.MouseWheelH += static_cast<float>(event.angleDelta().x()) / 120.0f;
}


void ImGuiQtInput::KeyEvent(const QKeyEvent& event, bool pressed) {
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  const int index = KeyIndex(event.key());
  if (index >= 0 && index < static_cast<int>(IM_ARRAYSIZE(io.KeysDown))) {
    io.KeysDown[index] = pressed;
  }
  SetModifiers(io, event.modifiers());
  // text input: printable characters only (control characters arrive as keys above)
  if (pressed && !event.text().isEmpty()) {
    QString text = event.text();
    text.removeIf([](QChar c) { return c.unicode() < 0x20 || c.unicode() == 0x7f; });
    if (!text.isEmpty()) io.AddInputCharactersUTF8(text.toUtf8().constData());
  }
}


void ImGuiQtInput::FocusOutEvent() {
  ImGui::SetCurrentContext(context_);
  ImGuiIO& io = ImGui::GetIO();
  std::fill(std::begin(io.KeysDown), std::end(io.KeysDown), false);
  std::fill(std::begin(io.MouseDown), std::end(io.MouseDown), false);
  SetModifiers(io, Qt::NoModifier);
}


void ImGuiQtInput::LeaveEvent() {
  ImGui::SetCurrentContext(context_);
  ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
}


bool ImGuiQtInput::WantsMouse() const {
  ImGui::SetCurrentContext(context_);
  return ImGui::GetIO().WantCaptureMouse;
}


bool ImGuiQtInput::WantsKeyboard() const {
  ImGui::SetCurrentContext(context_);
  return ImGui::GetIO().WantCaptureKeyboard;
}

}  // namespace sim::ui
