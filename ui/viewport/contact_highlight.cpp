// The inspected contact's ring.
#include "ui/viewport/contact_highlight.h"

#include <optional>

#include <imgui.h>

namespace sim::ui {

void DrawContactHighlight(const Vec3& point_W, const OrbitCamera& camera) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const std::optional<Eigen::Vector2f> pixel = camera.ProjectToPixel(
      point_W, static_cast<int>(viewport->Size.x), static_cast<int>(viewport->Size.y));
  if (!pixel) return;
  const ImVec2 centre(viewport->Pos.x + pixel->x(), viewport->Pos.y + pixel->y());
  // a dark ring under a bright one reads over light and dark surfaces alike
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->AddCircle(centre, kContactHighlightRadius + 1.5f, IM_COL32(18, 22, 28, 220), 32, 3.5f);
  draw->AddCircle(centre, kContactHighlightRadius, IM_COL32(255, 214, 0, 255), 32, 2.0f);
}

}  // namespace sim::ui
