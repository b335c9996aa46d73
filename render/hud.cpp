#include "render/hud.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

namespace sim::render {

namespace {

constexpr float kMargin = 10.0f;  // from the viewport's edges [px]
// colour bar size in font heights
constexpr float kBarWidth = 1.2f;
constexpr float kBarHeight = 12.0f;
// gradient segments of the bar (the colour map is piecewise linear in 8 pieces)
constexpr int kBarSegments = 32;

// the overlays' background opacity: the scene shows through, the text reads over a light sky
constexpr float kOverlayAlpha = 0.78f;
// a viewport narrower than this [px] starts with the View controls collapsed
constexpr float kNarrowViewportWidth = 720.0f;

const ImGuiWindowFlags kLegendFlags =
    ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
    ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoInputs;


// ImGui colours are sRGB-encoded 8-bit
ImU32 ToImColor(const std::array<float, 3>& linear, float alpha = 1.0f) {
  const auto encode = [](float c) {
    c = std::clamp(c, 0.0f, 1.0f);
    return c <= 0.0031308f ? 12.92f * c : 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f;
  };
  return ImGui::ColorConvertFloat4ToU32(
      ImVec4(encode(linear[0]), encode(linear[1]), encode(linear[2]), alpha));
}


// next window anchored at a corner of the viewport (pivot (1, 1): bottom-right), translucent
void BeginCornerWindow(const char* id, float corner_x, float corner_y,
                       ImGuiWindowFlags flags = kLegendFlags) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const ImVec2 position(
      viewport->WorkPos.x + (corner_x > 0 ? viewport->WorkSize.x - kMargin : kMargin),
      viewport->WorkPos.y + (corner_y > 0 ? viewport->WorkSize.y - kMargin : kMargin));
  ImGui::SetNextWindowPos(position, ImGuiCond_Always, ImVec2(corner_x, corner_y));
  ImGui::SetNextWindowBgAlpha(kOverlayAlpha);
  ImGui::Begin(id, nullptr, flags);
}


// a filled square of the marker colour, then the label on the same line
void Swatch(const std::array<float, 3>& color, const char* label) {
  const float size = ImGui::GetTextLineHeight();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::GetWindowDrawList()->AddRectFilled(p, ImVec2(p.x + size, p.y + size), ToImColor(color));
  ImGui::Dummy(ImVec2(size, size));
  ImGui::SameLine();
  ImGui::TextUnformatted(label);
}

}  // namespace


void DrawStrainColorBar(const StrainLegend& legend) {
  BeginCornerWindow("##strain_legend", 1.0f, 1.0f);
  ImGui::TextUnformatted(legend.title.c_str());
  const float font = ImGui::GetFontSize();
  const ImVec2 bar_min = ImGui::GetCursorScreenPos();
  const ImVec2 bar_size(kBarWidth * font, kBarHeight * font);
  // the map from the top (max) to the bottom (min) in short linear pieces
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (int i = 0; i < kBarSegments; ++i) {
    const float t0 = static_cast<float>(i) / kBarSegments;
    const float t1 = static_cast<float>(i + 1) / kBarSegments;
    const float v0 = legend.max + t0 * (legend.min - legend.max);
    const float v1 = legend.max + t1 * (legend.min - legend.max);
    const ImU32 top = ToImColor(StrainColor(v0, legend));
    const ImU32 bottom = ToImColor(StrainColor(v1, legend));
    draw->AddRectFilledMultiColor(ImVec2(bar_min.x, bar_min.y + t0 * bar_size.y),
                                  ImVec2(bar_min.x + bar_size.x, bar_min.y + t1 * bar_size.y), top,
                                  top, bottom, bottom);
  }
  draw->AddRect(bar_min, ImVec2(bar_min.x + bar_size.x, bar_min.y + bar_size.y),
                IM_COL32(40, 40, 40, 255));
  // tick labels at the ends and the middle
  const float label_x = bar_min.x + bar_size.x + 0.4f * font;
  const float middle = 0.5f * (legend.min + legend.max);
  const std::array<std::pair<float, float>, 3> ticks = {
      {{0.0f, legend.max}, {0.5f, middle}, {1.0f, legend.min}}};
  for (const auto& [t, value] : ticks) {
    const std::string text = FormatStrainValue(value, legend);
    const float y = bar_min.y + t * bar_size.y - 0.5f * ImGui::GetTextLineHeight();
    draw->AddText(ImVec2(label_x, std::clamp(y, bar_min.y - 0.5f * font, bar_min.y + bar_size.y)),
                  ImGui::GetColorU32(ImGuiCol_Text), text.c_str());
    draw->AddLine(ImVec2(bar_min.x + bar_size.x, bar_min.y + t * bar_size.y),
                  ImVec2(label_x - 0.1f * font, bar_min.y + t * bar_size.y),
                  IM_COL32(40, 40, 40, 255));
  }
  ImGui::Dummy(ImVec2(bar_size.x + 6.5f * font, bar_size.y));
  // the data's own extremes, which a fixed range may clip
  const std::string low = FormatStrainValue(legend.data_min, legend);
  const std::string high = FormatStrainValue(legend.data_max, legend);
  ImGui::Text("frame: %s .. %s", low.c_str(), high.c_str());
  ImGui::End();
}


void DrawContactLegend(const ForceScale& scale) {
  BeginCornerWindow("##contact_legend", 1.0f, 1.0f);
  ImGui::TextUnformatted("contact forces on body A");
  Swatch(kNormalForceColor, "normal force");
  Swatch(kStickColor, "friction, sticking");
  Swatch(kSlipColor, "friction, sliding");
  Swatch(kInactiveContactColor, "no force");
  Swatch(kFrictionEllipseColor, "friction limit (mu_t, mu_b)");
  if (scale.max_force > 0) {
    ImGui::Text("%s arrow: %.3g N", scale.log ? "log scale," : "linear,", scale.max_force);
    ImGui::Text("fitted to %s", ForceScaleReferenceName(scale.reference));
    if (scale.log) {
      ImGui::Text("length ~ log(1 + f / %.3g N)", kLogForceFloor * scale.max_force);
    }
    if (scale.clipped > 0) {
      ImGui::Text("%d clipped at %.0fx", scale.clipped, static_cast<double>(kMaxArrowFactor));
    }
  } else {
    ImGui::TextUnformatted("no contact forces");
  }
  ImGui::End();
}


void DrawStructureLegend() {
  BeginCornerWindow("##structure_legend", 1.0f, 1.0f);
  ImGui::TextUnformatted("structure: grain axis");
  Swatch(GrainColor(1.0f), "strength 1");
  Swatch(GrainColor(0.5f), "strength 0.5");
  Swatch(GrainColor(0.0f), "no grain (isotropic)");
  ImGui::End();
}


void DrawLegends(const VisualFrame& frame, const RenderOptions& options,
                 const OrbitCamera& camera) {
  if (!options.show_legend) return;
  switch (options.view) {
    case ViewMode::kStrain:
      DrawStrainColorBar(ComputeStrainLegend(frame, options));
      break;
    case ViewMode::kContacts: {
      const ImVec2 display = ImGui::GetIO().DisplaySize;
      const float aspect = display.y > 0 ? display.x / display.y : 1.0f;
      const Eigen::Matrix4f view_projection = camera.ProjectionMatrix(aspect) * camera.ViewMatrix();
      DrawContactLegend(
          ComputeForceScale(frame, options, ViewHeightAtTarget(camera), &view_projection));
    } break;
    case ViewMode::kStructure:
      DrawStructureLegend();
      break;
    case ViewMode::kShaded:
      break;
  }
}


void DrawCaption(const std::string& text) {
  BeginCornerWindow("##caption", 0.0f, 0.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::End();
}


bool DrawViewControls(RenderOptions* options) {
  // takes input, unlike the legends, and collapses to its title bar (collapsed from the start in
  // a narrow viewport, where it would cover the overlay beside it)
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowCollapsed(viewport->WorkSize.x < kNarrowViewportWidth,
                                ImGuiCond_FirstUseEver);
  // wide enough for its title when it starts collapsed (auto-resize has not measured it yet)
  ImGui::SetNextWindowSizeConstraints(ImVec2(6.0f * ImGui::GetFontSize(), 0),
                                      ImVec2(viewport->WorkSize.x, viewport->WorkSize.y));
  // its title bar as translucent as the other overlays, not a solid band over the sky
  ImVec4 title = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
  title.w = kOverlayAlpha;
  for (ImGuiCol slot : {ImGuiCol_TitleBg, ImGuiCol_TitleBgActive, ImGuiCol_TitleBgCollapsed}) {
    ImGui::PushStyleColor(slot, title);
  }
  BeginCornerWindow("View##view_controls", 1.0f, 0.0f,
                    ImGuiWindowFlags_NoResize | ImGuiWindowFlags_AlwaysAutoResize |
                        ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
                        ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoMove);
  ImGui::PopStyleColor(3);
  bool changed = false;
  if (ImGui::IsWindowCollapsed()) {
    ImGui::End();
    return false;
  }
  int mode = static_cast<int>(options->view);
  changed |= ImGui::RadioButton("shaded", &mode, static_cast<int>(ViewMode::kShaded));
  ImGui::SameLine();
  changed |= ImGui::RadioButton("strain", &mode, static_cast<int>(ViewMode::kStrain));
  ImGui::SameLine();
  changed |= ImGui::RadioButton("contacts", &mode, static_cast<int>(ViewMode::kContacts));
  ImGui::SameLine();
  changed |= ImGui::RadioButton("structure", &mode, static_cast<int>(ViewMode::kStructure));
  options->view = static_cast<ViewMode>(mode);
  if (options->view == ViewMode::kStrain) {
    int field = static_cast<int>(options->strain_field);
    changed |= ImGui::RadioButton("J - 1", &field, static_cast<int>(StrainField::kVolumetric));
    ImGui::SameLine();
    changed |= ImGui::RadioButton("von Mises", &field, static_cast<int>(StrainField::kVonMises));
    options->strain_field = static_cast<StrainField>(field);
  }
  ImGui::Separator();
  changed |= ImGui::Checkbox("collision geometry", &options->show_collision);
  changed |= ImGui::Checkbox("joint frames", &options->show_joint_frames);
  changed |= ImGui::Checkbox("centres of mass", &options->show_com);
  changed |= ImGui::Checkbox("anchors and attachments", &options->show_constraints);
  changed |= ImGui::Checkbox("drive targets (ghost)", &options->show_drive_targets);
  changed |= ImGui::Checkbox("shadows", &options->shadows);
  if (options->view == ViewMode::kContacts) {
    changed |= ImGui::Checkbox("log force scale", &options->contact_force_log);
    changed |= ImGui::Checkbox("split normal / friction", &options->contact_force_split);
  }
  ImGui::End();
  return changed;
}

}  // namespace sim::render
