// The studio's QVulkanInstance: created once at start-up, with a clear answer when the machine
// has no usable Vulkan (no loader, no driver, no device) instead of a crash later in the window.
#pragma once

#include <QString>

class QVulkanInstance;

namespace sim::ui {

/// Creates `instance` (Vulkan 1.1 where the loader offers it, which the renderer's SPIR-V targets;
/// with VK_LAYER_KHRONOS_validation when `validation` is set and the layer is installed) and checks
/// that at least one physical device exists. Returns false and a one-line reason in `error`
/// otherwise. GUI thread, after QGuiApplication exists.
bool CreateVulkanInstance(QVulkanInstance* instance, bool validation, QString* error);

}  // namespace sim::ui
