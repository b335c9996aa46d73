// CreateVulkanInstance: QVulkanInstance set-up and the "is there a device" check.
#include "ui/viewport/vulkan_instance.h"

#include <cstdint>

#include <QGuiApplication>
#include <QVersionNumber>
#include <QVulkanFunctions>
#include <QVulkanInstance>

#include "render/vk/vk_check.h"

namespace sim::ui {

bool CreateVulkanInstance(QVulkanInstance* instance, bool validation, QString* error) {
  // ask for 1.1 when the loader has it (the renderer's shaders are SPIR-V 1.3)
  const QVersionNumber wanted(1, 1);
  const QVersionNumber supported = instance->supportedApiVersion();
  if (supported.isNull() || supported >= wanted) instance->setApiVersion(wanted);

  if (validation) {
    const QByteArray layer("VK_LAYER_KHRONOS_validation");
    if (instance->supportedLayers().contains(layer)) {
      instance->setLayers({layer});
    } else {
      qWarning("contact-studio: %s is not installed; running without validation",
               layer.constData());
    }
  }

  if (!instance->create()) {
    // VK_SUCCESS here means Qt's platform plugin itself has no Vulkan support (e.g. "offscreen")
    const VkResult result = instance->errorCode();
    *error = result != VK_SUCCESS
                 ? QStringLiteral("cannot create a Vulkan instance: %1")
                       .arg(QString::fromLatin1(render::VkResultName(result)))
                 : QStringLiteral("the Qt platform '%1' has no Vulkan support; use xcb or wayland")
                       .arg(QGuiApplication::platformName());
    return false;
  }

  // a loader without a driver creates the instance but lists no devices
  std::uint32_t count = 0;
  const VkResult result =
      instance->functions()->vkEnumeratePhysicalDevices(instance->vkInstance(), &count, nullptr);
  if (result != VK_SUCCESS || count == 0) {
    *error = result != VK_SUCCESS ? QStringLiteral("cannot list Vulkan devices (%1)")
                                        .arg(QString::fromLatin1(render::VkResultName(result)))
                                  : QStringLiteral("no Vulkan device found");
    instance->destroy();
    return false;
  }
  return true;
}

}  // namespace sim::ui
