// OffscreenRenderer: a headless Vulkan 1.1 device (no surface extensions, so it runs on Mesa's
// lavapipe without any display) with its own colour (optionally multisampled, resolved) and depth
// targets. Render() draws a VisualFrame with SceneRenderer, copies the resolved image into a
// host-visible buffer and returns it as RGBA8, rows top to bottom.
#include "render/offscreen_renderer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "render/hud.h"
#include "render/overlay_renderer.h"
#include "render/scene_renderer.h"
#include "render/vk/vk_check.h"
#include "render/vk/vk_pipeline.h"
#include "render/vk/vk_resources.h"

namespace sim::render {

namespace {

constexpr char kNoDriverMessage[] =
    "no Vulkan driver found: install mesa-vulkan-drivers (lavapipe) or a GPU driver";
constexpr char kValidationLayer[] = "VK_LAYER_KHRONOS_validation";

// longest wait for one frame; lavapipe renders a 4K MSAA frame in well under this [ns]
constexpr std::uint64_t kFrameTimeoutNs = 120ull * 1000 * 1000 * 1000;

// colour formats in order of preference: sRGB storage lets the hardware encode (and blend in
// linear space); the UNORM ones make the shaders encode instead
constexpr std::array<VkFormat, 4> kColorFormats = {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB,
                                                   VK_FORMAT_R8G8B8A8_UNORM,
                                                   VK_FORMAT_B8G8R8A8_UNORM};
constexpr std::array<VkFormat, 4> kDepthFormats = {
    VK_FORMAT_D32_SFLOAT, VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT,
    VK_FORMAT_D16_UNORM};


bool IsBgra(VkFormat format) {
  return format == VK_FORMAT_B8G8R8A8_SRGB || format == VK_FORMAT_B8G8R8A8_UNORM;
}


bool HasStencil(VkFormat format) {
  return format == VK_FORMAT_D32_SFLOAT_S8_UINT || format == VK_FORMAT_D24_UNORM_S8_UINT;
}


const char* DeviceTypeName(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return "CPU";
    default:
      return "other";
  }
}


// preference among usable devices: hardware first, then virtual, then CPU (lavapipe)
int DeviceTypeRank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 1;
    default:
      return 0;
  }
}


// validation messages go to stderr, prefixed so they stand out in test logs
VKAPI_ATTR VkBool32 VKAPI_CALL PrintValidationMessage(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  const char* level =
      severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT ? "error" : "warning";
  std::fprintf(stderr, "vulkan validation %s: %s\n", level, data->pMessage);
  return VK_FALSE;
}


bool HasInstanceLayer(const char* name) {
  std::uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(count);
  if (vkEnumerateInstanceLayerProperties(&count, layers.data()) != VK_SUCCESS) return false;
  return std::any_of(layers.begin(), layers.end(), [&](const VkLayerProperties& l) {
    return std::strcmp(l.layerName, name) == 0;
  });
}


bool HasInstanceExtension(const char* name) {
  std::uint32_t count = 0;
  if (vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> extensions(count);
  if (vkEnumerateInstanceExtensionProperties(nullptr, &count, extensions.data()) != VK_SUCCESS) {
    return false;
  }
  return std::any_of(extensions.begin(), extensions.end(), [&](const VkExtensionProperties& e) {
    return std::strcmp(e.extensionName, name) == 0;
  });
}


// index of a queue family with graphics, or -1
int FindGraphicsQueueFamily(VkPhysicalDevice device) {
  std::uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  for (std::uint32_t i = 0; i < count; ++i) {
    if (families[i].queueCount > 0 && (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) {
      return static_cast<int>(i);
    }
  }
  return -1;
}


// first format of `candidates` whose optimal-tiling features include `features`
VkFormat FindFormat(VkPhysicalDevice device, const std::array<VkFormat, 4>& candidates,
                    VkFormatFeatureFlags features) {
  for (VkFormat format : candidates) {
    if (format == VK_FORMAT_UNDEFINED) continue;
    VkFormatProperties properties;
    vkGetPhysicalDeviceFormatProperties(device, format, &properties);
    if ((properties.optimalTilingFeatures & features) == features) return format;
  }
  return VK_FORMAT_UNDEFINED;
}


// the largest sample count <= `requested` that colour and depth attachments of these formats
// support (1 always is)
VkSampleCountFlagBits ClampSamples(VkPhysicalDevice device, const VkPhysicalDeviceLimits& limits,
                                   VkFormat color_format, VkFormat depth_format, int requested) {
  VkSampleCountFlags supported =
      limits.framebufferColorSampleCounts & limits.framebufferDepthSampleCounts;
  // the formats themselves may support fewer counts than the framebuffer limits
  const std::array<std::pair<VkFormat, VkImageUsageFlags>, 2> attachments = {{
      {color_format, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT},
      {depth_format, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT},
  }};
  for (const auto& [format, usage] : attachments) {
    VkImageFormatProperties properties;
    if (vkGetPhysicalDeviceImageFormatProperties(device, format, VK_IMAGE_TYPE_2D,
                                                 VK_IMAGE_TILING_OPTIMAL, usage, 0,
                                                 &properties) == VK_SUCCESS) {
      supported &= properties.sampleCounts;
    }
  }
  for (int count = 64; count > 1; count /= 2) {
    if (count <= requested && (supported & static_cast<VkSampleCountFlags>(count))) {
      return static_cast<VkSampleCountFlagBits>(count);
    }
  }
  return VK_SAMPLE_COUNT_1_BIT;
}

}  // namespace


struct OffscreenRenderer::Impl {
  ~Impl();
  void CreateInstance();
  void PickPhysicalDevice();
  void CreateDevice();
  void CreateTargets(int requested_samples, bool shader_srgb_encoding);
  void CreateRenderPass();
  void CreateCommandObjects();
  // the ImGui draw data of the view's legend and the caption (creating the overlay on first use),
  // or null when there is neither
  ImDrawData* BuildLegend(const VisualFrame& frame, const OrbitCamera& camera,
                          const RenderOptions& options);

  VkExtent2D extent{0, 0};
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  std::string device_name;
  std::uint32_t queue_family = 0;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;

  VkFormat color_format = VK_FORMAT_UNDEFINED;
  VkFormat depth_format = VK_FORMAT_UNDEFINED;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  DeviceImage color;       // single-sample image that is read back
  DeviceImage color_msaa;  // multisampled colour, resolved into `color` (samples > 1 only)
  DeviceImage depth;
  VkRenderPass render_pass = VK_NULL_HANDLE;
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  VkCommandPool command_pool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;
  bool frame_pending = false;  // submitted, fence not seen signalled
  Buffer readback;
  std::unique_ptr<SceneRenderer> scene;
  DeviceContext context;
  ImGuiContext* imgui = nullptr;  // own context for the legends, made on first use
  std::unique_ptr<OverlayRenderer> overlay;
  std::string caption;  // SetCaption's text
};


OffscreenRenderer::Impl::~Impl() {
  if (device != VK_NULL_HANDLE) {
    vkDeviceWaitIdle(device);
    overlay.reset();
    if (imgui != nullptr) ImGui::DestroyContext(imgui);
    scene.reset();
    readback.Reset();
    color.Reset();
    color_msaa.Reset();
    depth.Reset();
    if (fence != VK_NULL_HANDLE) vkDestroyFence(device, fence, nullptr);
    if (command_pool != VK_NULL_HANDLE) vkDestroyCommandPool(device, command_pool, nullptr);
    if (framebuffer != VK_NULL_HANDLE) vkDestroyFramebuffer(device, framebuffer, nullptr);
    if (render_pass != VK_NULL_HANDLE) vkDestroyRenderPass(device, render_pass, nullptr);
    vkDestroyDevice(device, nullptr);
  }
  if (messenger != VK_NULL_HANDLE) {
    const auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy != nullptr) destroy(instance, messenger, nullptr);
  }
  if (instance != VK_NULL_HANDLE) vkDestroyInstance(instance, nullptr);
}


void OffscreenRenderer::Impl::CreateInstance() {
  // the shaders are SPIR-V 1.3, so the loader and the device must speak Vulkan 1.1
  const auto enumerate_version = reinterpret_cast<PFN_vkEnumerateInstanceVersion>(
      vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkEnumerateInstanceVersion"));
  std::uint32_t loader_version = VK_API_VERSION_1_0;
  if (enumerate_version != nullptr) enumerate_version(&loader_version);
  if (loader_version < VK_API_VERSION_1_1) {
    throw DeviceError("the Vulkan loader supports only Vulkan 1.0; Vulkan 1.1 is required");
  }

  // optional extras: validation on request, portability devices (MoltenVK) when listed
  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  bool use_debug_utils = false;
  const char* validation_env = std::getenv("SIM_VK_VALIDATION");
  const bool want_validation = validation_env != nullptr && std::string(validation_env) == "1";
  if (want_validation) {
    if (HasInstanceLayer(kValidationLayer)) {
      layers.push_back(kValidationLayer);
      if (HasInstanceExtension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
        use_debug_utils = true;
      }
    } else {
      std::fprintf(stderr,
                   "warning: SIM_VK_VALIDATION=1 but %s is not installed "
                   "(Debian: vulkan-validationlayers); running without validation\n",
                   kValidationLayer);
    }
  }
  VkInstanceCreateFlags flags = 0;
  if (HasInstanceExtension(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
    flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  }

  VkApplicationInfo app{};

  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "Contact Studio offscreen";
  app.pEngineName = "Contact Studio";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.flags = flags;
  info.pApplicationInfo = &app;
  info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  const VkResult result = vkCreateInstance(&info, nullptr, &instance);
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER) throw DeviceError(kNoDriverMessage);
  if (result != VK_SUCCESS) ThrowVkError(result, "vkCreateInstance", __FILE__, __LINE__);

  // route validation output to stderr (warnings and errors only)
  if (use_debug_utils) {
    const auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    VkDebugUtilsMessengerCreateInfoEXT messenger_info{};
    messenger_info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
    messenger_info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                     VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
    messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                                 VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
    messenger_info.pfnUserCallback = PrintValidationMessage;
    if (create != nullptr) SIM_VK_CHECK(create(instance, &messenger_info, nullptr, &messenger));
  }
}


void OffscreenRenderer::Impl::PickPhysicalDevice() {
  // some loaders report a missing driver here rather than at instance creation
  std::uint32_t count = 0;
  const VkResult listed = vkEnumeratePhysicalDevices(instance, &count, nullptr);
  if (listed == VK_ERROR_INITIALIZATION_FAILED || (listed == VK_SUCCESS && count == 0)) {
    throw DeviceError(kNoDriverMessage);
  }
  SIM_VK_CHECK(listed);
  std::vector<VkPhysicalDevice> devices(count);
  SIM_VK_CHECK(vkEnumeratePhysicalDevices(instance, &count, devices.data()));

  // SIM_VK_DEVICE=<name part> picks a device by name (e.g. "llvmpipe" to force the CPU)
  const char* wanted_env = std::getenv("SIM_VK_DEVICE");
  const std::string wanted = wanted_env != nullptr ? wanted_env : "";

  // the best-ranked usable device; every rejection is explained in the error
  std::string rejections;
  int best_rank = -1;
  for (VkPhysicalDevice candidate : devices) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(candidate, &properties);
    const std::string name = properties.deviceName;
    std::string problem;
    const int family = FindGraphicsQueueFamily(candidate);
    if (properties.apiVersion < VK_API_VERSION_1_1) {
      problem = "supports only Vulkan 1.0";
    } else if (family < 0) {
      problem = "has no graphics queue";
    } else if (!wanted.empty() && name.find(wanted) == std::string::npos) {
      problem = "does not match SIM_VK_DEVICE=" + wanted;
    } else if (properties.limits.maxImageDimension2D < extent.width ||
               properties.limits.maxImageDimension2D < extent.height ||
               properties.limits.maxFramebufferWidth < extent.width ||
               properties.limits.maxFramebufferHeight < extent.height) {
      problem = "cannot render " + std::to_string(extent.width) + "x" +
                std::to_string(extent.height) + " (max " +
                std::to_string(properties.limits.maxFramebufferWidth) + "x" +
                std::to_string(properties.limits.maxFramebufferHeight) + ")";
    }
    if (!problem.empty()) {
      rejections += "; " + name + " (" + DeviceTypeName(properties.deviceType) + ") " + problem;
      continue;
    }
    const int rank = DeviceTypeRank(properties.deviceType);
    if (rank > best_rank) {
      best_rank = rank;
      physical_device = candidate;
      device_name = name;
      queue_family = static_cast<std::uint32_t>(family);
    }
  }
  if (physical_device == VK_NULL_HANDLE) {
    throw DeviceError("no suitable Vulkan device" + rejections);
  }
}


void OffscreenRenderer::Impl::CreateDevice() {
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = queue_family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  SIM_VK_CHECK(vkCreateDevice(physical_device, &info, nullptr, &device));
  vkGetDeviceQueue(device, queue_family, 0, &queue);
}


void OffscreenRenderer::Impl::CreateTargets(int requested_samples, bool shader_srgb_encoding) {
  // formats: colour must be renderable and copyable, depth renderable
  // (the UNORM formats only, when the shaders are to encode)
  std::array<VkFormat, 4> candidates = kColorFormats;
  if (shader_srgb_encoding) {
    candidates = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_UNDEFINED,
                  VK_FORMAT_UNDEFINED};
  }
  color_format =
      FindFormat(physical_device, candidates,
                 VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT);
  if (color_format == VK_FORMAT_UNDEFINED) {
    throw DeviceError(device_name + ": no 8-bit RGBA colour format can be rendered and copied");
  }
  depth_format =
      FindFormat(physical_device, kDepthFormats, VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT);
  if (depth_format == VK_FORMAT_UNDEFINED) {
    throw DeviceError(device_name + ": no depth format can be rendered");
  }
  VkPhysicalDeviceProperties properties;
  vkGetPhysicalDeviceProperties(physical_device, &properties);
  samples = ClampSamples(physical_device, properties.limits, color_format, depth_format,
                         requested_samples);

  // images: the read-back target, the multisampled colour (if any) and depth
  color = DeviceImage(physical_device, device, extent, color_format, VK_SAMPLE_COUNT_1_BIT,
                      VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                      VK_IMAGE_ASPECT_COLOR_BIT);
  if (samples != VK_SAMPLE_COUNT_1_BIT) {
    color_msaa =
        DeviceImage(physical_device, device, extent, color_format, samples,
                    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT,
                    VK_IMAGE_ASPECT_COLOR_BIT);
  }
  const VkImageAspectFlags depth_aspect =
      VK_IMAGE_ASPECT_DEPTH_BIT | (HasStencil(depth_format) ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
  depth = DeviceImage(
      physical_device, device, extent, depth_format, samples,
      VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT,
      depth_aspect);

  // host-visible buffer the colour image is copied into, tightly packed rows
  readback =
      Buffer(physical_device, device, static_cast<VkDeviceSize>(extent.width) * extent.height * 4,
             VK_BUFFER_USAGE_TRANSFER_DST_BIT,
             VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
}


void OffscreenRenderer::Impl::CreateRenderPass() {
  const bool msaa = samples != VK_SAMPLE_COUNT_1_BIT;
  // attachment 0: drawn colour (the read-back image itself without MSAA); 1: depth; 2: resolve
  std::vector<VkAttachmentDescription> attachments = {
      MakeAttachment(
          color_format, samples, VK_ATTACHMENT_LOAD_OP_CLEAR,
          msaa ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
          msaa ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL),
      MakeAttachment(
          depth_format, samples, VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE,
          VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL, VK_ATTACHMENT_LOAD_OP_CLEAR)};
  if (msaa) {
    attachments.push_back(
        MakeAttachment(color_format, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                       VK_ATTACHMENT_STORE_OP_STORE, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL));
  }

  const VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  const VkAttachmentReference depth_ref{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  const VkAttachmentReference resolve_ref{2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color_ref;
  subpass.pResolveAttachments = msaa ? &resolve_ref : nullptr;
  subpass.pDepthStencilAttachment = &depth_ref;

  // in: the previous frame's attachment writes and read-back copy finish before this frame
  // writes the same images; out: colour writes (and the resolve) land before the copy reads
  std::array<VkSubpassDependency, 2> dependencies{};
  dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[0].dstSubpass = 0;
  dependencies[0].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                 VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT |
                                 VK_PIPELINE_STAGE_TRANSFER_BIT;
  dependencies[0].srcAccessMask =
      VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  dependencies[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                 VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                 VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  dependencies[0].dstAccessMask =
      VK_ACCESS_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT |
      VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  dependencies[1].srcSubpass = 0;
  dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dependencies[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  dependencies[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
  dependencies[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;

  VkRenderPassCreateInfo info{};

  info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  info.attachmentCount = static_cast<std::uint32_t>(attachments.size());
  info.pAttachments = attachments.data();
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  info.dependencyCount = static_cast<std::uint32_t>(dependencies.size());
  info.pDependencies = dependencies.data();
  SIM_VK_CHECK(vkCreateRenderPass(device, &info, nullptr, &render_pass));

  // framebuffer in attachment order
  std::vector<VkImageView> views = {msaa ? color_msaa.view() : color.view(), depth.view()};
  if (msaa) views.push_back(color.view());
  VkFramebufferCreateInfo framebuffer_info{};
  framebuffer_info.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
  framebuffer_info.renderPass = render_pass;
  framebuffer_info.attachmentCount = static_cast<std::uint32_t>(views.size());
  framebuffer_info.pAttachments = views.data();
  framebuffer_info.width = extent.width;
  framebuffer_info.height = extent.height;
  framebuffer_info.layers = 1;
  SIM_VK_CHECK(vkCreateFramebuffer(device, &framebuffer_info, nullptr, &framebuffer));
}


void OffscreenRenderer::Impl::CreateCommandObjects() {
  VkCommandPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool_info.queueFamilyIndex = queue_family;
  SIM_VK_CHECK(vkCreateCommandPool(device, &pool_info, nullptr, &command_pool));
  VkCommandBufferAllocateInfo allocate_info{};
  allocate_info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  allocate_info.commandPool = command_pool;
  allocate_info.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate_info.commandBufferCount = 1;
  SIM_VK_CHECK(vkAllocateCommandBuffers(device, &allocate_info, &cmd));
  VkFenceCreateInfo fence_info{};
  fence_info.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  SIM_VK_CHECK(vkCreateFence(device, &fence_info, nullptr, &fence));
}


OffscreenRenderer::OffscreenRenderer(int width, int height, int samples, bool shader_srgb_encoding,
                                     RenderQuality quality)
    : impl_(std::make_unique<Impl>()) {
  if (width <= 0 || height <= 0) {
    throw std::invalid_argument("OffscreenRenderer: image size " + std::to_string(width) + "x" +
                                std::to_string(height) + " must be positive");
  }
  // on a throw below, impl_ is destroyed and releases whatever was created
  impl_->extent = {static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height)};
  impl_->CreateInstance();
  impl_->PickPhysicalDevice();
  impl_->CreateDevice();
  impl_->CreateTargets(samples, shader_srgb_encoding);
  impl_->CreateRenderPass();
  impl_->CreateCommandObjects();

  DeviceContext context;
  context.instance = impl_->instance;
  context.physical_device = impl_->physical_device;
  context.device = impl_->device;
  context.queue = impl_->queue;
  context.queue_family = impl_->queue_family;
  context.render_pass = impl_->render_pass;
  context.samples = impl_->samples;
  context.color_format = impl_->color_format;
  context.frames_in_flight = 1;
  context.quality = quality;
  impl_->context = context;
  impl_->scene = std::make_unique<SceneRenderer>(context);
}


ImDrawData* OffscreenRenderer::Impl::BuildLegend(const VisualFrame& frame,
                                                 const OrbitCamera& camera,
                                                 const RenderOptions& options) {
  if ((!options.show_legend || options.view == ViewMode::kShaded) && caption.empty()) {
    return nullptr;
  }
  ImGuiContext* previous = ImGui::GetCurrentContext();
  bool fresh = false;
  if (imgui == nullptr) {
    imgui = ImGui::CreateContext();
    ImGui::SetCurrentContext(imgui);
    ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini next to the caller
    overlay = std::make_unique<OverlayRenderer>(context, imgui);
    fresh = true;
  }
  ImGui::SetCurrentContext(imgui);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(static_cast<float>(extent.width), static_cast<float>(extent.height));
  io.DeltaTime = 1.0f / 60.0f;
  // auto-sized windows learn their size in their first frame, hidden: run that one first (for a
  // caption every time, its text changes)
  for (int pass = fresh || !caption.empty() ? 0 : 1; pass < 2; ++pass) {
    overlay->NewFrame();
    ImGui::NewFrame();
    DrawLegends(frame, options, camera);
    if (!caption.empty()) DrawCaption(caption);
    ImGui::Render();
  }
  ImDrawData* data = ImGui::GetDrawData();
  ImGui::SetCurrentContext(previous);
  return data;
}


OffscreenRenderer::~OffscreenRenderer() = default;


Image OffscreenRenderer::Render(const VisualFrame& frame, const OrbitCamera& camera,
                                const RenderOptions& options) {
  Impl& r = *impl_;
  // a frame that never finished may still own the command buffer: refuse rather than race it
  if (r.frame_pending) {
    throw DeviceError("offscreen renderer on " + r.device_name +
                      " is unusable: an earlier frame did not finish");
  }
  // the previous Render waited for its fence, so slot 0 is free
  r.scene->Prepare(0, frame, camera, r.extent, options);
  ImDrawData* legend = r.BuildLegend(frame, camera, options);

  SIM_VK_CHECK(vkResetCommandPool(r.device, r.command_pool, 0));
  VkCommandBufferBeginInfo begin_info{};
  begin_info.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin_info.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  SIM_VK_CHECK(vkBeginCommandBuffer(r.cmd, &begin_info));
  r.scene->RecordShadowPass(r.cmd, 0);

  // clear to the horizon colour, stored as-is by UNORM targets, hence encoded by hand there
  std::array<VkClearValue, 2> clears{};
  clears[0].color = SkyClearValue(r.color_format);
  clears[1].depthStencil = {1.0f, 0};
  VkRenderPassBeginInfo pass_info{};
  pass_info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
  pass_info.renderPass = r.render_pass;
  pass_info.framebuffer = r.framebuffer;
  pass_info.renderArea = {{0, 0}, r.extent};
  pass_info.clearValueCount = static_cast<std::uint32_t>(clears.size());
  pass_info.pClearValues = clears.data();
  vkCmdBeginRenderPass(r.cmd, &pass_info, VK_SUBPASS_CONTENTS_INLINE);
  r.scene->Record(r.cmd, 0);
  if (legend != nullptr) r.overlay->Record(legend, r.cmd);
  vkCmdEndRenderPass(r.cmd);

  // copy the resolved image (now TRANSFER_SRC_OPTIMAL) into the read-back buffer
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {r.extent.width, r.extent.height, 1};
  vkCmdCopyImageToBuffer(r.cmd, r.color.image(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                         r.readback.handle(), 1, &region);
  // make the copy visible to the host once the fence signals
  VkBufferMemoryBarrier to_host{};
  to_host.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
  to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  to_host.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  to_host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  to_host.buffer = r.readback.handle();
  to_host.size = VK_WHOLE_SIZE;
  vkCmdPipelineBarrier(r.cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                       nullptr, 1, &to_host, 0, nullptr);
  SIM_VK_CHECK(vkEndCommandBuffer(r.cmd));

  // submit and wait
  SIM_VK_CHECK(vkResetFences(r.device, 1, &r.fence));
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &r.cmd;
  SIM_VK_CHECK(vkQueueSubmit(r.queue, 1, &submit, r.fence));
  r.frame_pending = true;
  const VkResult wait = vkWaitForFences(r.device, 1, &r.fence, VK_TRUE, kFrameTimeoutNs);
  if (wait == VK_TIMEOUT) {
    throw DeviceError("offscreen frame did not finish within " +
                      std::to_string(kFrameTimeoutNs / 1000000000ull) + " s on " + r.device_name);
  }
  SIM_VK_CHECK(wait);
  r.frame_pending = false;

  // RGBA8 rows top to bottom, as the buffer holds them; BGRA targets are swizzled
  Image image;
  image.width = static_cast<int>(r.extent.width);
  image.height = static_cast<int>(r.extent.height);
  image.rgba.resize(static_cast<std::size_t>(image.width) * image.height * 4);
  std::memcpy(image.rgba.data(), r.readback.mapped(), image.rgba.size());
  if (IsBgra(r.color_format)) {
    for (std::size_t i = 0; i < image.rgba.size(); i += 4) {
      std::swap(image.rgba[i], image.rgba[i + 2]);
    }
  }
  return image;
}


void OffscreenRenderer::SetCaption(std::string caption) { impl_->caption = std::move(caption); }


std::string OffscreenRenderer::device_name() const { return impl_->device_name; }

}  // namespace sim::render
