// VulkanViewport and its QVulkanWindowRenderer: scene + ImGui overlay in QVulkanWindow's default
// render pass, camera control from mouse and keys.
#include "ui/viewport/vulkan_viewport.h"

#include <algorithm>
#include <array>
#include <exception>
#include <utility>

#include <QCursor>
#include <QElapsedTimer>
#include <QFocusEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QVulkanFunctions>
#include <QVulkanInstance>
#include <QWheelEvent>

#include <imgui.h>

#include "render/hud.h"
#include "render/overlay_renderer.h"
#include "render/scene_renderer.h"
#include "ui/studio_shortcuts.h"
#include "ui/viewport/contact_highlight.h"

namespace sim::ui {

// Per-device renderer: owns the scene and overlay renderers for the lifetime of the VkDevice.
class ViewportRenderer : public QVulkanWindowRenderer {
 public:
  explicit ViewportRenderer(VulkanViewport* window) : window_(window) {}

  void initResources() override;
  void releaseResources() override;
  void startNextFrame() override;

 private:
  VulkanViewport* window_;
  std::unique_ptr<render::SceneRenderer> scene_;
  std::unique_ptr<render::OverlayRenderer> overlay_;
  VkFormat color_format_ = VK_FORMAT_UNDEFINED;
  bool failed_ = false;  // a per-frame error was reported; do not flood the UI with repeats
};


void ViewportRenderer::initResources() {
  // describe QVulkanWindow's device and default render pass to the render library
  render::DeviceContext context;
  context.instance = window_->vulkanInstance()->vkInstance();
  context.physical_device = window_->physicalDevice();
  context.device = window_->device();
  context.queue = window_->graphicsQueue();
  context.queue_family = window_->graphicsQueueFamilyIndex();
  context.render_pass = window_->defaultRenderPass();
  context.samples = window_->sampleCountFlagBits();
  context.frames_in_flight = static_cast<std::uint32_t>(window_->concurrentFrameCount());
  context.color_format = window_->colorFormat();
  color_format_ = context.color_format;
  failed_ = false;

  const VkPhysicalDeviceProperties* properties = window_->physicalDeviceProperties();
  window_->OnDeviceReady(properties != nullptr ? QString::fromUtf8(properties->deviceName)
                                               : QString());
  // a renderer that fails to build leaves the viewport without it (at worst clearing to the sky),
  // never a crash; the scene and the overlay fail independently
  try {
    scene_ = std::make_unique<render::SceneRenderer>(context);
  } catch (const std::exception& error) {
    window_->OnRenderError(QStringLiteral("the scene renderer could not start: %1")
                               .arg(QString::fromUtf8(error.what())));
  }
  try {
    overlay_ = std::make_unique<render::OverlayRenderer>(context, window_->imgui_input_.context());
  } catch (const std::exception& error) {
    window_->OnRenderError(QStringLiteral("the ImGui overlay could not start: %1")
                               .arg(QString::fromUtf8(error.what())));
  }
}


void ViewportRenderer::releaseResources() {
  // QVulkanWindow has waited for the device to go idle before calling this
  overlay_.reset();
  scene_.reset();
}


void ViewportRenderer::startNextFrame() {
  VulkanViewport& window = *window_;
  const QSize image_size = window.swapChainImageSize();
  const VkExtent2D extent{static_cast<std::uint32_t>(image_size.width()),
                          static_cast<std::uint32_t>(image_size.height())};
  const std::uint32_t slot = static_cast<std::uint32_t>(window.currentFrame());
  const std::shared_ptr<const VisualFrame> frame = window.LatestFrame();
  VkCommandBuffer cmd = window.currentCommandBuffer();
  QElapsedTimer cpu_time;
  cpu_time.start();
  bool options_edited = false;

  // outside the pass: upload this slot's camera and instances, render the shadow map, build the
  // overlay's draw lists
  bool draw_scene = scene_ != nullptr;
  ImDrawData* overlay_data = nullptr;
  bool imgui_frame_open = false;
  try {
    // a followed body moves the camera before the frame is drawn
    window.camera_.Track(*frame);
    if (draw_scene) {
      scene_->Prepare(slot, *frame, window.camera(), extent, window.render_options_);
      scene_->RecordShadowPass(cmd, slot);
    }
    if (overlay_ != nullptr) {
      window.imgui_input_.NewFrame(window.size(), image_size);
      overlay_->NewFrame();
      ImGui::NewFrame();
      imgui_frame_open = true;
      if (window.overlay_visible_) {
        DrawStatsOverlay(window.MakeStatsInfo(*frame));
        DrawLaneLabels(window.lane_labels_, window.camera());
        if (window.inspected_contact_) {
          DrawContactHighlight(*window.inspected_contact_, window.camera());
        }
        if (window.scene_name_.isEmpty() && frame->shapes.empty()) DrawNoSceneHint();
        options_edited = render::DrawViewControls(&window.render_options_);
        render::DrawLegends(*frame, window.render_options_, window.camera());
      }
      ImGui::Render();
      imgui_frame_open = false;
      if (window.overlay_visible_) overlay_data = ImGui::GetDrawData();
    }
  } catch (const std::exception& error) {
    // keep ImGui's frame bookkeeping balanced for the next frame
    if (imgui_frame_open) ImGui::EndFrame();
    draw_scene = false;
    overlay_data = nullptr;
    if (!failed_) window.OnRenderError(QString::fromUtf8(error.what()));
    failed_ = true;
  }

  // default render pass: with MSAA, attachment 0 is the resolve target, 1 depth, 2 the MSAA colour
  const VkClearColorValue sky = render::SkyClearValue(color_format_);
  std::array<VkClearValue, 3> clear_values{};
  clear_values[0].color = sky;
  clear_values[1].depthStencil = {1.0f, 0};
  clear_values[2].color = sky;
  VkRenderPassBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
  begin.renderPass = window.defaultRenderPass();
  begin.framebuffer = window.currentFramebuffer();
  begin.renderArea.extent = extent;
  begin.clearValueCount = window.sampleCountFlagBits() > VK_SAMPLE_COUNT_1_BIT ? 3 : 2;
  begin.pClearValues = clear_values.data();
  // Qt includes vulkan.h without prototypes; its resolved device functions record here
  QVulkanDeviceFunctions* vk = window.vulkanInstance()->deviceFunctions(window.device());
  vk->vkCmdBeginRenderPass(cmd, &begin, VK_SUBPASS_CONTENTS_INLINE);
  try {
    if (draw_scene) scene_->Record(cmd, slot);
    if (overlay_data != nullptr) overlay_->Record(overlay_data, cmd);
  } catch (const std::exception& error) {
    if (!failed_) window.OnRenderError(QString::fromUtf8(error.what()));
    failed_ = true;
  }
  vk->vkCmdEndRenderPass(cmd);
  window.render_cpu_ms_ = 1e-6 * static_cast<double>(cpu_time.nsecsElapsed());

  // hand the frame over, keep rendering continuously
  window.frameReady();
  window.requestUpdate();
  window.OnFrameRendered();
  if (options_edited) window.OnRenderOptionsEdited();
}


VulkanViewport::VulkanViewport(QVulkanInstance* instance)
    : latest_frame_(std::make_shared<const VisualFrame>()) {
  setVulkanInstance(instance);
  setFlags(QVulkanWindow::PersistentResources);
  // sRGB swapchain: shaders output linear colour and blending/MSAA resolve happen in linear space
  setPreferredColorFormats({VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_SRGB});
  setSampleCount(ChooseSampleCount());
}


int VulkanViewport::ChooseSampleCount() {
  // CONTACT_STUDIO_MSAA=N asks for N samples when the device offers them
  const QList<int> supported = supportedSampleCounts();
  bool ok = false;
  const int asked = qEnvironmentVariableIntValue("CONTACT_STUDIO_MSAA", &ok);
  if (ok) return supported.contains(asked) ? asked : 1;
  // 4x where offered (every desktop GPU), except on software rasterizers (lavapipe), where it
  // costs about as much as the rest of the frame (render_bench) and would drop the view below
  // interactive rates
  // (QVulkanWindow uses the first physical device unless told otherwise)
  const QList<VkPhysicalDeviceProperties> devices = availablePhysicalDevices();
  const bool software =
      !devices.isEmpty() && devices.front().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  return !software && supported.contains(4) ? 4 : 1;
}


VulkanViewport::~VulkanViewport() {
  // release the renderer (and its ImGui backend) now, while the ImGui context member still exists;
  // QVulkanWindow's own destructor would do it after our members are gone
  destroy();
}


QVulkanWindowRenderer* VulkanViewport::createRenderer() { return new ViewportRenderer(this); }


void VulkanViewport::SetFrame(std::shared_ptr<const VisualFrame> frame) {
  if (frame == nullptr) frame = std::make_shared<const VisualFrame>();
  std::lock_guard<std::mutex> lock(frame_mutex_);
  latest_frame_ = std::move(frame);
}


std::shared_ptr<const VisualFrame> VulkanViewport::LatestFrame() const {
  std::lock_guard<std::mutex> lock(frame_mutex_);
  return latest_frame_;
}


void VulkanViewport::SetSceneName(const QString& name) { scene_name_ = name; }


void VulkanViewport::SetPaintMode(bool on) {
  // a stroke in progress ends with the mode
  if (!on) EmitPickAction(pick_.Cancel(), QPointF());
  pick_.SetPaintMode(on);
  UpdateCursor();
}


void VulkanViewport::SetRenderOptions(const render::RenderOptions& options) {
  render_options_ = options;
  emit RenderOptionsChanged();
}


void VulkanViewport::OnRenderOptionsEdited() { emit RenderOptionsChanged(); }


void VulkanViewport::SetHomeCamera(const OrbitCamera& camera) { camera_.SetHome(camera); }


void VulkanViewport::ResetCamera() { camera_.Reset(); }


void VulkanViewport::SetFollowBody(int body, bool recentre) {
  camera_.SetFollow(body, recentre);
  emit FollowChanged(body);
}


bool VulkanViewport::ToggleFollowSelection() {
  if (camera_.follow() != kWorldBody) {
    SetFollowBody(kWorldBody, false);
    return true;
  }
  const int selected = LatestFrame()->selected_body;
  if (selected == kWorldBody) return false;
  SetFollowBody(selected, true);
  return true;
}


bool VulkanViewport::FrameBody(std::optional<int> body) {
  const std::optional<Box3f> box =
      FrameBounds(*LatestFrame(), body, render_options_.show_collision);
  if (!box) return false;
  camera_.Frame(*box, static_cast<float>(width()) / static_cast<float>(std::max(1, height())));
  return true;
}


bool VulkanViewport::FrameAll() { return FrameBody(std::nullopt); }


bool VulkanViewport::FrameSelection() {
  const int selected = LatestFrame()->selected_body;
  return selected != kWorldBody && FrameBody(selected);
}


void VulkanViewport::OnDeviceReady(const QString& device_name) {
  device_name_ = device_name;
  render_error_.clear();
  emit DeviceReady(device_name);
}


void VulkanViewport::OnFrameRendered() {
  ++frames_rendered_;
  frame_rate_.Tick();
  emit FrameRendered(frames_rendered_);
}


void VulkanViewport::OnRenderError(const QString& message) {
  render_error_ = message;
  emit RenderError(message);
}


StatsOverlayInfo VulkanViewport::MakeStatsInfo(const VisualFrame& frame) const {
  StatsOverlayInfo info;
  info.scene_name = scene_name_.isEmpty() ? std::string("(no scene)") : scene_name_.toStdString();
  info.fps = frame_rate_.fps();
  info.frame_ms = frame_rate_.frame_ms();
  info.sim_time = frame.time;
  info.sim_step = frame.step;
  info.shape_count = static_cast<int>(frame.shapes.size());
  info.samples = sampleCountFlagBits() > VK_SAMPLE_COUNT_1_BIT ? sampleCountFlagBits() : 1;
  info.mesh_count = static_cast<int>(frame.mesh_instances.size());
  info.soft_body_count = static_cast<int>(frame.soft_bodies.size());
  info.contact_count = static_cast<int>(frame.contacts.size());
  info.render_cpu_ms = render_cpu_ms_;
  info.view = render::ViewModeName(render_options_.view);
  return info;
}


void VulkanViewport::EmitPickAction(PickController::Action action, const QPointF& position) {
  switch (action) {
    case PickController::Action::kPick:
      emit PickRequested(position);
      break;
    case PickController::Action::kBeginDrag:
      emit DragStarted(position);
      break;
    case PickController::Action::kMoveDrag:
      emit DragMoved(position);
      break;
    case PickController::Action::kEndDrag:
      emit DragEnded();
      break;
    case PickController::Action::kBeginPaint:
      emit PaintStarted(position);
      break;
    case PickController::Action::kMovePaint:
      emit PaintMoved(position);
      break;
    case PickController::Action::kEndPaint:
      emit PaintEnded();
      break;
    case PickController::Action::kNone:
      break;
  }
}


void VulkanViewport::UpdateCursor() {
  if (pick_.dragging() || pick_.paint_mode()) {
    setCursor(Qt::CrossCursor);
    return;
  }
  switch (camera_.drag()) {
    case CameraController::Drag::kOrbit:
      setCursor(Qt::ClosedHandCursor);
      break;
    case CameraController::Drag::kPan:
      setCursor(Qt::SizeAllCursor);
      break;
    case CameraController::Drag::kNone:
      setCursor(imgui_input_.WantsMouse() ? imgui_input_.CursorShape() : Qt::ArrowCursor);
      break;
  }
}


// every event goes to ImGui first; the camera only sees what ImGui does not want
void VulkanViewport::SetTeleopMode(bool on) {
  teleop_mode_ = on;
  gizmo_handle_ = render::GizmoHandle::kNone;
}


bool VulkanViewport::BeginGizmoDrag(const QPointF& position) {
  const std::shared_ptr<const VisualFrame> frame = LatestFrame();
  for (const VisualTeleopTarget& target : frame->teleop_targets) {
    if (!target.gizmo) continue;
    const auto& X = target.X_WT;
    Mat3 R;
    R << X[0], X[1], X[2], X[4], X[5], X[6], X[8], X[9], X[10];
    const Pose X_WT{Vec3(X[3], X[7], X[11]), Quat(R).normalized()};
    Vec3 origin, direction;
    PixelRay(camera(), position, QSizeF(size()), &origin, &direction);
    const render::GizmoHandle handle =
        render::PickGizmoHandle(X_WT.p, render::ViewHeightAtTarget(camera()), origin, direction);
    if (handle == render::GizmoHandle::kNone) return false;
    gizmo_handle_ = handle;
    gizmo_start_ = X_WT;
    gizmo_ray_origin_ = origin;
    gizmo_ray_direction_ = direction;
    return true;
  }
  return false;
}


void VulkanViewport::mousePressEvent(QMouseEvent* event) {
  imgui_input_.MouseButtonEvent(*event, true);
  // teleop mode: a plain left press on the gizmo drags the end-effector target
  if (teleop_mode_ && event->button() == Qt::LeftButton && event->modifiers() == Qt::NoModifier &&
      !imgui_input_.WantsMouse() && BeginGizmoDrag(event->position())) {
    event->accept();
    return;
  }
  // ctrl+left grabs with the spring; anything else may still be a click, and moves the camera
  const PickController::Action action = pick_.Press(event->button(), event->modifiers(),
                                                    event->position(), imgui_input_.WantsMouse());
  if (action == PickController::Action::kNone) {
    camera_.Press(event->button(), event->modifiers(), event->position(),
                  imgui_input_.WantsMouse());
  }
  EmitPickAction(action, event->position());
  UpdateCursor();
  event->accept();
}


void VulkanViewport::mouseReleaseEvent(QMouseEvent* event) {
  imgui_input_.MouseButtonEvent(*event, false);
  if (gizmo_handle_ != render::GizmoHandle::kNone && event->button() == Qt::LeftButton) {
    gizmo_handle_ = render::GizmoHandle::kNone;
    event->accept();
    return;
  }
  camera_.Release(event->button());
  EmitPickAction(pick_.Release(event->button(), event->position()), event->position());
  UpdateCursor();
  event->accept();
}


void VulkanViewport::mouseMoveEvent(QMouseEvent* event) {
  imgui_input_.MouseMoveEvent(*event);
  if (gizmo_handle_ != render::GizmoHandle::kNone) {
    Vec3 origin, direction;
    PixelRay(camera(), event->position(), QSizeF(size()), &origin, &direction);
    emit TeleopPoseDragged(render::DragGizmo(gizmo_handle_, gizmo_start_, gizmo_ray_origin_,
                                             gizmo_ray_direction_, origin, direction));
    event->accept();
    return;
  }
  camera_.Move(event->position(), static_cast<float>(height()));
  EmitPickAction(pick_.Move(event->position()), event->position());
  UpdateCursor();
  event->accept();
}


void VulkanViewport::mouseDoubleClickEvent(QMouseEvent* event) {
  // Qt 6 delivers the second press as a press too; ImGui has seen it there
  EmitPickAction(pick_.DoubleClick(event->button(), imgui_input_.WantsMouse()), event->position());
  event->accept();
}


void VulkanViewport::wheelEvent(QWheelEvent* event) {
  imgui_input_.WheelEvent(*event);
  // one notch of a mouse wheel is 120 eighths of a degree
  camera_.Wheel(static_cast<float>(event->angleDelta().y()) / 120.0f, imgui_input_.WantsMouse());
  event->accept();
}


void VulkanViewport::keyPressEvent(QKeyEvent* event) {
  imgui_input_.KeyEvent(*event, true);
  if (teleop_mode_ && teleop_key_filter_ && !imgui_input_.WantsKeyboard() &&
      teleop_key_filter_(event->key(), true, event->isAutoRepeat())) {
    event->accept();
    return;
  }
  if (!imgui_input_.WantsKeyboard() &&
      IsShortcut(StudioCommand::kViewportResetCamera, event->key(), event->modifiers())) {
    camera_.Reset();
    event->accept();
    return;
  }
  // T: follow the selection; A, S: frame everything, the selection
  if (!imgui_input_.WantsKeyboard()) {
    const auto key = [&](StudioCommand command) {
      return IsShortcut(command, event->key(), event->modifiers());
    };
    bool handled = true;
    if (key(StudioCommand::kFollow)) {
      ToggleFollowSelection();
    } else if (key(StudioCommand::kFrameAll)) {
      FrameAll();
    } else if (key(StudioCommand::kFrameSelection)) {
      FrameSelection();
    } else {
      handled = false;
    }
    if (handled) {
      event->accept();
      return;
    }
  }
  // V: shaded -> strain -> contacts -> shaded
  if (!imgui_input_.WantsKeyboard() &&
      IsShortcut(StudioCommand::kCycleView, event->key(), event->modifiers())) {
    render::RenderOptions options = render_options_;
    options.view = static_cast<render::ViewMode>((static_cast<int>(options.view) + 1) %
                                                 render::kViewModeCount);
    SetRenderOptions(options);
    event->accept();
    return;
  }
  QVulkanWindow::keyPressEvent(event);
}


void VulkanViewport::keyReleaseEvent(QKeyEvent* event) {
  imgui_input_.KeyEvent(*event, false);
  if (teleop_mode_ && teleop_key_filter_ &&
      teleop_key_filter_(event->key(), false, event->isAutoRepeat())) {
    event->accept();
    return;
  }
  QVulkanWindow::keyReleaseEvent(event);
}


void VulkanViewport::focusOutEvent(QFocusEvent* event) {
  imgui_input_.FocusOutEvent();
  gizmo_handle_ = render::GizmoHandle::kNone;
  if (teleop_key_filter_) teleop_key_filter_(0, false, false);  // every held key released
  camera_.Cancel();
  EmitPickAction(pick_.Cancel(), QPointF());
  UpdateCursor();
  QVulkanWindow::focusOutEvent(event);
}


bool VulkanViewport::event(QEvent* event) {
  if (event->type() == QEvent::Leave) imgui_input_.LeaveEvent();
  return QVulkanWindow::event(event);
}

}  // namespace sim::ui
