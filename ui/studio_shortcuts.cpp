#include "ui/studio_shortcuts.h"

namespace sim::ui {

const std::vector<StudioShortcut>& StudioShortcuts() {
  using C = StudioCommand;
  static const std::vector<StudioShortcut> kTable = {
      {C::kOpen, {QKeySequence(QKeySequence::Open)}, "Open a scene, URDF or mesh", "File"},
      {C::kReload,
       {QKeySequence(Qt::CTRL | Qt::Key_R), QKeySequence(Qt::Key_F5)},
       "Load the current file again",
       "File"},
      {C::kScreenshot, {QKeySequence(Qt::Key_F12)}, "Save the window as a PNG", "File"},
      {C::kRecordVideo,
       {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R)},
       "Record the viewport to an MP4, or stop recording",
       "File"},
      {C::kQuit, {QKeySequence(QKeySequence::Quit)}, "Quit", "File"},
      {C::kPlay, {QKeySequence(Qt::Key_Space)}, "Run or pause the simulation", "Simulation"},
      {C::kStep, {QKeySequence(Qt::Key_Right)}, "Pause and take one step", "Simulation"},
      {C::kReset,
       {QKeySequence(Qt::Key_Backspace)},
       "Back to the initial state and the scene's drive targets",
       "Simulation"},
      {C::kRealTime,
       {QKeySequence(Qt::CTRL | Qt::Key_T)},
       "Real time, or as fast as possible",
       "Simulation"},
      {C::kSlower, {QKeySequence(Qt::Key_Minus)}, "Half the speed (slow motion)", "Simulation"},
      {C::kFaster, {QKeySequence(Qt::Key_Equal)}, "Double the speed", "Simulation"},
      {C::kSaveKeyFrame,
       {QKeySequence(Qt::CTRL | Qt::Key_K)},
       "Save a key frame: the state and the drive targets",
       "Simulation"},
      {C::kRestoreKeyFrame,
       {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K)},
       "Restore the last key frame (others: Simulation > Restore Key Frame)",
       "Simulation"},
      {C::kResetCamera, {QKeySequence(Qt::Key_Home)}, "Back to the scene's camera", "View"},
      {C::kViewportResetCamera,
       {QKeySequence(Qt::Key_F)},
       "Back to the scene's camera (in the viewport)",
       "View"},
      {C::kCycleView,
       {QKeySequence(Qt::Key_V)},
       "Next view: shaded, strain, contacts, structure (in the viewport)",
       "View"},
      {C::kFollow,
       {QKeySequence(Qt::Key_T)},
       "Follow the selected body, or stop following (in the viewport)",
       "View"},
      {C::kFrameAll,
       {QKeySequence(Qt::Key_A)},
       "Frame everything in view (in the viewport)",
       "View"},
      {C::kFrameSelection,
       {QKeySequence(Qt::Key_S)},
       "Frame the selected body (in the viewport)",
       "View"},
      {C::kOverlay, {QKeySequence(Qt::Key_F2)}, "Show or hide the viewport overlay", "View"},
      {C::kUndoPaint, {QKeySequence(QKeySequence::Undo)}, "Undo a paint stroke", "Paint"},
      {C::kRedoPaint,
       {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)},
       "Redo a paint stroke",
       "Paint"},
      {C::kSavePaint,
       {QKeySequence(QKeySequence::Save)},
       "Save the painted structure fields",
       "Paint"},
      {C::kHelp, {QKeySequence(Qt::Key_F1)}, "Show or hide this help", "Help"},
  };
  return kTable;
}


QList<QKeySequence> ShortcutKeys(StudioCommand command) {
  for (const StudioShortcut& shortcut : StudioShortcuts()) {
    if (shortcut.command == command) return shortcut.keys;
  }
  return {};
}


bool IsShortcut(StudioCommand command, int key, Qt::KeyboardModifiers modifiers) {
  const QKeySequence pressed(QKeyCombination(modifiers, static_cast<Qt::Key>(key)));
  for (const QKeySequence& sequence : ShortcutKeys(command)) {
    if (sequence.matches(pressed) == QKeySequence::ExactMatch) return true;
  }
  return false;
}


const std::vector<MouseGesture>& StudioMouseGestures() {
  static const std::vector<MouseGesture> kGestures = {
      {"Left drag", "Orbit the camera"},
      {"Right or middle drag, Shift+left drag", "Pan"},
      {"Wheel", "Zoom"},
      {"Click, double click", "Select the body under the cursor (nothing: clear)"},
      {"Click a contact point in the contacts view",
       "Inspect that contact (View > Panels > Inspector: gap, forces, cone, stick or slip)"},
      {"Ctrl+left drag", "Pull the body or FEM node under the cursor with a spring"},
      {"Left drag in paint mode (Alt+drag orbits)", "Paint a structure field"},
      {"Left drag on the gizmo in teleop mode", "Move (arrows) or turn (rings) the target"},
  };
  return kGestures;
}

}  // namespace sim::ui
