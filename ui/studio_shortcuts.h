// The studio's keys and mouse gestures in one table: the main window's actions and the viewport
// bind their keys from it, and the help overlay (F1) lists it, so what is listed is what works.
#pragma once

#include <vector>

#include <QKeySequence>
#include <QList>
#include <QString>

namespace sim::ui {

enum class StudioCommand {
  kOpen,
  kReload,
  kScreenshot,
  kRecordVideo,
  kQuit,
  kPlay,
  kStep,
  kReset,
  kRealTime,
  kSlower,
  kFaster,
  kSaveKeyFrame,
  kRestoreKeyFrame,
  kResetCamera,
  kOverlay,
  kUndoPaint,
  kRedoPaint,
  kSavePaint,
  kHelp,
  kViewportResetCamera,  ///< viewport only (a bare letter as a window shortcut steals typing)
  kCycleView,            ///< viewport only
  kFollow,               ///< viewport only
  kFrameAll,             ///< viewport only
  kFrameSelection,       ///< viewport only
};

struct StudioShortcut {
  StudioCommand command;
  QList<QKeySequence> keys;
  const char* what;   ///< what it does, for the help
  const char* group;  ///< "File", "Simulation", "View", "Paint", "Help"
};

/// Every key the studio binds, in menu order.
const std::vector<StudioShortcut>& StudioShortcuts();

/// The keys of `command` (the first is the one menus show).
QList<QKeySequence> ShortcutKeys(StudioCommand command);

/// Whether the key `key` with `modifiers` is one of `command`'s keys.
bool IsShortcut(StudioCommand command, int key, Qt::KeyboardModifiers modifiers);

/// The viewport's mouse gestures: the gesture and what it does.
struct MouseGesture {
  const char* gesture;
  const char* what;
};
const std::vector<MouseGesture>& StudioMouseGestures();

}  // namespace sim::ui
