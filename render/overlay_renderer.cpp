// OverlayRenderer: Dear ImGui's Vulkan backend, with the descriptor pool, font upload and sRGB
// handling it leaves to the application.
#include "render/overlay_renderer.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <string>

#include <backends/imgui_impl_vulkan.h>
#include <imgui.h>

#include "render/vk/color_format.h"
#include "render/vk/vk_resources.h"

namespace sim::render {

namespace {

// descriptor budget: the backend takes one combined image sampler (the font atlas); the rest is
// headroom for images the overlay may show later (plots, structure-field textures)
constexpr std::uint32_t kDescriptorSets = 16;

// the backend reports failures through this hook; errors become DeviceError (positive codes such
// as VK_SUBOPTIMAL_KHR are not failures)
void CheckBackendResult(VkResult result) {
  if (result < 0) ThrowVkError(result, "Dear ImGui Vulkan backend", __FILE__, __LINE__);
}


// 8-bit sRGB -> 8-bit linear, for vertex colours drawn into an sRGB target
std::array<std::uint8_t, 256> MakeSrgbToLinearTable() {
  std::array<std::uint8_t, 256> table{};
  for (int i = 0; i < 256; ++i) {
    const double c = i / 255.0;
    // IEC 61966-2-1 decoding curve
    const double linear = c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    table[i] = static_cast<std::uint8_t>(std::lround(linear * 255.0));
  }
  return table;
}


void LinearizeVertexColors(ImDrawData* draw_data) {
  static const std::array<std::uint8_t, 256> kTable = MakeSrgbToLinearTable();
  for (int n = 0; n < draw_data->CmdListsCount; ++n) {
    ImDrawList* list = draw_data->CmdLists[n];
    for (ImDrawVert& vertex : list->VtxBuffer) {
      // ImU32 is packed A B G R (IM_COL32); alpha is coverage/opacity and stays linear
      const ImU32 c = vertex.col;
      const ImU32 r = kTable[(c >> IM_COL32_R_SHIFT) & 0xFF];
      const ImU32 g = kTable[(c >> IM_COL32_G_SHIFT) & 0xFF];
      const ImU32 b = kTable[(c >> IM_COL32_B_SHIFT) & 0xFF];
      vertex.col = (c & IM_COL32_A_MASK) | (r << IM_COL32_R_SHIFT) | (g << IM_COL32_G_SHIFT) |
                   (b << IM_COL32_B_SHIFT);
    }
  }
}

}  // namespace


struct OverlayRenderer::Impl {
  DeviceContext context;
  ImGuiContext* imgui = nullptr;
  VkDescriptorPool descriptor_pool = VK_NULL_HANDLE;
  bool backend_initialized = false;
  bool linearize_colors =
      false;  // target stores linear colour: ImGui's sRGB colours must be decoded

  void UploadFonts();
  void Destroy();
};


void OverlayRenderer::Impl::UploadFonts() {
  // record the atlas upload, submit, and wait so the staging buffer can go right away
  RunOneTimeCommands(context.device, context.queue, context.queue_family, [](VkCommandBuffer cmd) {
    if (!ImGui_ImplVulkan_CreateFontsTexture(cmd)) {
      throw DeviceError("Dear ImGui: could not create the font texture");
    }
  });
  ImGui_ImplVulkan_DestroyFontUploadObjects();
}


void OverlayRenderer::Impl::Destroy() {
  ImGuiContext* previous = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(imgui);
  if (backend_initialized) ImGui_ImplVulkan_Shutdown();
  backend_initialized = false;
  ImGui::SetCurrentContext(previous);
  if (descriptor_pool != VK_NULL_HANDLE) {
    vkDestroyDescriptorPool(context.device, descriptor_pool, nullptr);
    descriptor_pool = VK_NULL_HANDLE;
  }
}


OverlayRenderer::OverlayRenderer(const DeviceContext& context, ImGuiContext* imgui)
    : impl_(std::make_unique<Impl>()) {
  if (imgui == nullptr) throw DeviceError("OverlayRenderer: no ImGui context given");
  impl_->context = context;
  impl_->imgui = imgui;
  impl_->linearize_colors = !NeedsShaderSrgbEncoding(context.color_format);
  ImGui::SetCurrentContext(imgui);
  try {
    // descriptor pool owned by us, used by the backend for the font atlas
    const VkDescriptorPoolSize pool_size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                                         kDescriptorSets};
    VkDescriptorPoolCreateInfo pool_info{};
    pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pool_info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
    pool_info.maxSets = kDescriptorSets;
    pool_info.poolSizeCount = 1;
    pool_info.pPoolSizes = &pool_size;
    SIM_VK_CHECK(
        vkCreateDescriptorPool(context.device, &pool_info, nullptr, &impl_->descriptor_pool));

    // backend: pipeline for the host's render pass, one vertex buffer slot per frame in flight
    ImGui_ImplVulkan_InitInfo info{};
    info.Instance = context.instance;
    info.PhysicalDevice = context.physical_device;
    info.Device = context.device;
    info.QueueFamily = context.queue_family;
    info.Queue = context.queue;
    info.DescriptorPool = impl_->descriptor_pool;
    info.Subpass = 0;
    // the backend demands at least two slots (it asserts MinImageCount >= 2)
    info.MinImageCount = 2;
    info.ImageCount = context.frames_in_flight < 2 ? 2 : context.frames_in_flight;
    info.MSAASamples = context.samples;
    info.CheckVkResultFn = &CheckBackendResult;
    if (!ImGui_ImplVulkan_Init(&info, context.render_pass)) {
      throw DeviceError("Dear ImGui: ImGui_ImplVulkan_Init failed");
    }
    impl_->backend_initialized = true;
    impl_->UploadFonts();
  } catch (...) {
    impl_->Destroy();
    throw;
  }
}


OverlayRenderer::~OverlayRenderer() { impl_->Destroy(); }


void OverlayRenderer::NewFrame() {
  ImGui::SetCurrentContext(impl_->imgui);
  ImGui_ImplVulkan_NewFrame();
}


void OverlayRenderer::Record(ImDrawData* draw_data, VkCommandBuffer cmd) {
  if (draw_data == nullptr || !draw_data->Valid) return;
  ImGui::SetCurrentContext(impl_->imgui);
  if (impl_->linearize_colors) LinearizeVertexColors(draw_data);
  ImGui_ImplVulkan_RenderDrawData(draw_data, cmd);
}

}  // namespace sim::render
