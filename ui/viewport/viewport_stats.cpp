// Viewport statistics: the frame-rate meter and the ImGui stats box.
#include "ui/viewport/viewport_stats.h"

#include <optional>
#include <vector>

#include <imgui.h>

namespace sim::ui {

namespace {

// muted label colour: lighter than ImGui's disabled text, which vanishes on a translucent box
void Label(const char* text) { ImGui::TextColored(ImVec4(0.62f, 0.68f, 0.76f, 1.0f), "%s", text); }

}  // namespace


void FrameRateMeter::Tick() {
  if (!clock_.isValid()) clock_.start();
  TickAt(static_cast<double>(clock_.nsecsElapsed()) * 1e-9);
}


void FrameRateMeter::TickAt(double seconds) {
  times_.push_back(seconds);
  // keep the frames of the last window and the one before them, so that the span covers it
  while (times_.size() > 2 && seconds - times_[1] >= kWindowSeconds) times_.pop_front();
  const double span = times_.back() - times_.front();
  fps_ = times_.size() >= 2 && span > 0 ? static_cast<double>(times_.size() - 1) / span : 0.0;
}


void DrawLaneLabels(const std::vector<LaneLabel>& labels, const OrbitCamera& camera) {
  // behind the overlay's windows, on a dark box so the name reads over any scene
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const ImVec2 pad(6.0f, 3.0f);
  std::vector<ImVec4> placed;  // (x0, y0, x1, y1) of the labels drawn so far
  for (const LaneLabel& label : labels) {
    const std::optional<Eigen::Vector2f> pixel = camera.ProjectToPixel(
        label.at_W, static_cast<int>(viewport->Size.x), static_cast<int>(viewport->Size.y));
    if (!pixel) continue;
    const std::string text = label.unsupported ? label.text + "  (unsupported)"
                             : label.stopped   ? label.text + "  (stopped)"
                                               : label.text;
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    ImVec2 at(viewport->Pos.x + pixel->x() - 0.5f * size.x,
              viewport->Pos.y + pixel->y() - size.y - pad.y);
    // labels at one point (lanes overlaid as ghosts) stack upwards instead of covering each other
    const float height = size.y + 2 * pad.y + 2.0f;
    for (bool moved = true; moved;) {
      moved = false;
      for (const ImVec4& box : placed) {
        if (at.x - pad.x < box.z && at.x + size.x + pad.x > box.x && at.y - pad.y < box.w &&
            at.y + size.y + pad.y > box.y) {
          at.y = box.y - height + pad.y;
          moved = true;
        }
      }
    }
    placed.push_back(
        ImVec4(at.x - pad.x, at.y - pad.y, at.x + size.x + pad.x, at.y + size.y + pad.y));
    draw->AddRectFilled(ImVec2(at.x - pad.x, at.y - pad.y),
                        ImVec2(at.x + size.x + pad.x, at.y + size.y + pad.y),
                        IM_COL32(18, 22, 28, 200), 4.0f);
    draw->AddText(at, label.stopped ? IM_COL32(255, 112, 96, 255) : IM_COL32(236, 240, 246, 255),
                  text.c_str());
    // the lane's colour, the one its series have in every chart
    draw->AddRectFilled(
        ImVec2(at.x - pad.x, at.y + size.y + pad.y - 3.0f),
        ImVec2(at.x + size.x + pad.x, at.y + size.y + pad.y),
        IM_COL32((label.color >> 16) & 0xff, (label.color >> 8) & 0xff, label.color & 0xff, 255));
  }
}


void DrawStatsOverlay(const StatsOverlayInfo& info) {
  // anchored at the top-left corner; it only holds text, so it neither moves nor takes focus
  constexpr float kMargin = 10.0f;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + kMargin, viewport->WorkPos.y + kMargin),
                          ImGuiCond_Always);
  // translucent so the scene shows through, opaque enough to read over a light sky
  ImGui::SetNextWindowBgAlpha(0.78f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                                 ImGuiWindowFlags_NoMove;
  if (ImGui::Begin("##stats", nullptr, flags)) {
    ImGui::TextUnformatted(info.scene_name.c_str());
    ImGui::Separator();
    // label column, then values aligned at a fixed offset
    const float value_x = ImGui::GetFontSize() * 5.5f;
    Label("FPS");
    ImGui::SameLine(value_x);
    if (info.fps > 0) {
      ImGui::Text("%.1f  (%.2f ms)", info.fps, info.frame_ms);
    } else {
      ImGui::TextUnformatted("measuring...");
    }
    Label("Sim time");
    ImGui::SameLine(value_x);
    ImGui::Text("%.3f s", info.sim_time);
    Label("Step");
    ImGui::SameLine(value_x);
    ImGui::Text("%llu", static_cast<unsigned long long>(info.sim_step));
    Label("Record");
    ImGui::SameLine(value_x);
    ImGui::Text("%.2f ms", info.render_cpu_ms);
    Label("Shapes");
    ImGui::SameLine(value_x);
    ImGui::Text("%d  meshes %d", info.shape_count, info.mesh_count);
    if (info.soft_body_count > 0) {
      Label("Soft");
      ImGui::SameLine(value_x);
      ImGui::Text("%d", info.soft_body_count);
    }
    Label("Contacts");
    ImGui::SameLine(value_x);
    ImGui::Text("%d", info.contact_count);
    Label("View");
    ImGui::SameLine(value_x);
    ImGui::TextUnformatted(info.view.c_str());
    Label("MSAA");
    ImGui::SameLine(value_x);
    if (info.samples > 1) {
      ImGui::Text("%dx", info.samples);
    } else {
      ImGui::TextUnformatted("off");
    }
  }
  ImGui::End();
}


void DrawNoSceneHint() {
  // centred, no background: a caption on the empty sky
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const ImVec2 centre(viewport->WorkPos.x + viewport->WorkSize.x * 0.5f,
                      viewport->WorkPos.y + viewport->WorkSize.y * 0.5f);
  ImGui::SetNextWindowPos(centre, ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.0f);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoInputs |
                                 ImGuiWindowFlags_AlwaysAutoResize |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoNav;
  if (ImGui::Begin("##no_scene", nullptr, flags)) {
    const ImVec4 ink(0.16f, 0.20f, 0.27f, 1.0f);
    ImGui::TextColored(ink, "No scene loaded");
    ImGui::TextColored(ink, "File > Open Scene... (Ctrl+O)");
  }
  ImGui::End();
}

}  // namespace sim::ui
