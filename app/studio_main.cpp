// contact-studio: the desktop studio. Wiring only: command line, display and Vulkan checks, the
// main window, and the unattended mode the smoke tests use:
//   contact-studio [SCENE] [--compare A,B] [--frames N] [--screenshot FILE.png] [--exit]
//                  [--drag X0,Y0,X1,Y1] [--keys LIST] [--open-after FILE]
//                  [--cancel-load FILE.png] [--panels LIST]
//                  [--size WxH] [--view shaded|strain|contacts|structure] [--keys-every N]
//                  [--pause-after N] [--memory-log N] [--paint X0,Y0,X1,Y1 [--save-paint]]
//                  [--paint-tool NAME] [--paint-radius M] [--paint-angle DEG]
//                  [--follow BODY] [--screenshot-every N]
//                  [--drag-joint NAME=VALUE] [--record FILE.mp4 [--record-fps N]]
//                  [--import PRESETS] [--drop FILE]
// Exit codes: 0 ok; 1 Vulkan unavailable, scene failed to load (with --exit), screenshot failed or
// --record's file cannot be written; 2 usage error or no display.
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <vector>

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QKeySequence>
#include <QPointF>
#include <QSize>
#include <QVulkanInstance>

#include "engine/io/import_scene.h"
#include "engine/io/overrides.h"
#include "engine/io/scene_catalog.h"
#include "render/render_options.h"
#include "ui/main_window.h"
#include "ui/panels/paint_panel.h"
#include "ui/scripted_run.h"
#include "ui/video_menu.h"
#include "ui/viewport/vulkan_instance.h"
#include "ui/viewport/vulkan_viewport.h"

#ifndef SIM_VERSION
#define SIM_VERSION "0.0.0"
#endif

namespace {

// frames rendered before the screenshot/exit when --frames is not given
constexpr int kDefaultScriptFrames = 30;

struct StudioOptions {
  QString scene;
  std::vector<sim::io::SolverConfig> compare;
  bool lanes_overlaid = false;  ///< --lanes ghost
  QStringList panels;
  sim::ui::ScriptedRunOptions script;
  bool scripted = false;
  bool validation = false;
  QSize size;  ///< window size from --size; empty: the window's default
  std::optional<sim::render::ViewMode> view;         ///< --view; unset: the viewport's default
  QString paint_tool;                                ///< --paint-tool; empty: the panel's default
  double paint_radius = 0;                           ///< --paint-radius [m]; 0: the panel's default
  std::optional<double> paint_angle;                 ///< --paint-angle [deg]
  QString record;                                    ///< --record: MP4 to record; empty: none
  int record_fps = sim::ui::VideoMenu::kDefaultFps;  ///< --record-fps
  std::optional<QString> import_presets;             ///< --import: SCENE through the import dialog
};


// X0,Y0,X1,Y1 of --drag or --paint into `from` and `to`, or false after printing an error
bool ParseSegment(const QString& name, const QString& text, QPointF* from, QPointF* to) {
  const QStringList parts = text.split(QLatin1Char(','));
  std::vector<double> values;
  for (const QString& part : parts) {
    bool ok = false;
    const double value = part.trimmed().toDouble(&ok);
    if (!ok) break;
    values.push_back(value);
  }
  if (parts.size() != 4 || values.size() != 4) {
    std::cerr << "contact-studio: error: --" << name.toStdString()
              << " expects X0,Y0,X1,Y1 (four numbers), got '" << text.toStdString() << "'"
              << std::endl;
    return false;
  }
  *from = QPointF(values[0], values[1]);
  *to = QPointF(values[2], values[3]);
  return true;
}


// a positive integer option value, or nullopt after printing an error
std::optional<int> PositiveValue(const QCommandLineParser& parser, const QString& name) {
  bool ok = false;
  const int value = parser.value(name).toInt(&ok);
  if (!ok || value < 1) {
    std::cerr << "contact-studio: error: --" << name.toStdString()
              << " expects a positive integer, got '" << parser.value(name).toStdString() << "'"
              << std::endl;
    return std::nullopt;
  }
  return value;
}


// Parses the command line; prints help/version and exits for --help/--version. Returns nullopt
// after printing an error for bad usage.
std::optional<StudioOptions> ParseCommandLine(const QCoreApplication& app) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      "Contact Studio: interactive simulator for contact-rich robotics.\n"
      "Without SCENE it opens the shipped default scene (scenes/default.json). SCENE may also be\n"
      "a URDF robot or a mesh, which gets a default scene around it.");
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument("SCENE", "Scene (JSON), URDF or mesh to open.", "[SCENE]");
  const QCommandLineOption compare_option(
      "compare",
      "Run the scene once per solver configuration, side by side in lockstep "
      "(NAME or NAME:KEY=VALUE;KEY=VALUE, comma-separated, as contact-sim compare --solvers).",
      "A,B");
  const QCommandLineOption lanes_option(
      "lanes",
      "With --compare: 'side' (default) draws the lanes side by side, 'ghost' overlays them on "
      "the first lane, see-through in their colours (Simulation > Lanes).",
      "side|ghost");
  const QCommandLineOption drag_option(
      "drag",
      "With --frames: ctrl+drag on the viewport from (X0, Y0) to (X1, Y1), logical pixels "
      "(QTest mouse events; pressed at 10 % of the frames, released 5 frames before the end).",
      "X0,Y0,X1,Y1");
  const QCommandLineOption panels_option(
      "panels",
      "Show these panels at start: scene, solver, convergence, divergence, statistics, paint, "
      "diagnostics (comma-separated).",
      "LIST");
  const QCommandLineOption keys_option(
      "keys",
      "With --frames: press these keys on the window at a quarter of the frames "
      "(comma-separated QKeySequence names, e.g. Space,Right,Backspace).",
      "LIST");
  const QCommandLineOption open_after_option(
      "open-after", "With --frames: open FILE when half of the frames are rendered.", "FILE");
  const QCommandLineOption cancel_load_option(
      "cancel-load",
      "With --open-after: once that load shows its progress bar, save the window as a PNG and "
      "click Cancel (QTest mouse events); the run ends only after the load has ended.",
      "FILE.png");
  const QCommandLineOption frames_option(
      "frames", "Render N frames after the scene loads, then take the screenshot and/or exit.",
      "N");
  const QCommandLineOption screenshot_option(
      "screenshot",
      "After the frames, save the window as a PNG (the viewport rectangle is stored "
      "in the PNG text chunk \"viewport\" as \"x y width height\").",
      "FILE.png");
  const QCommandLineOption screenshot_every_option(
      "screenshot-every",
      "With --screenshot: also save FILE-NNNN.png every N frames (NNNN the frame).", "N");
  const QCommandLineOption follow_option(
      "follow", "The camera follows this body from the first frame (as T with it selected).",
      "BODY");
  const QCommandLineOption steps_option(
      "steps",
      "With --frames: at the first frame, pause and take N steps (as the Right key N times); "
      "later frames draw that state.",
      "N");
  const QCommandLineOption click_world_option(
      "click-world",
      "With --frames: a left click (QTest mouse events) at the pixel where world point X,Y,Z "
      "[m] is seen, once the --steps are taken (else at half of the frames).",
      "X,Y,Z");
  const QCommandLineOption exit_option(
      "exit", "Quit after the frames (exit code 1 when the scene failed to load).");
  const QCommandLineOption validation_option(
      "vulkan-validation", "Enable the Khronos validation layer (when installed).");
  const QCommandLineOption size_option(
      "size", "Window size in logical pixels (default 1280x800, shrunk to the screen).", "WxH");
  const QCommandLineOption view_option(
      "view", "Start in this view: shaded, strain, contacts or structure.", "NAME");
  const QCommandLineOption keys_every_option(
      "keys-every", "With --keys: press them every N frames instead of once (V cycles the views).",
      "N");
  const QCommandLineOption pause_after_option(
      "pause-after", "With --frames: pause the simulation after N frames (as Space does).", "N");
  const QCommandLineOption memory_log_option(
      "memory-log",
      "With --frames: print the resident memory (VmRSS) after the load and every N frames.", "N");
  const QCommandLineOption paint_option(
      "paint",
      "With --frames: a paint stroke (paint mode, left drag) on the viewport from (X0, Y0) to "
      "(X1, Y1), logical pixels, with the paint panel's brush (pressed at 10 % of the frames, "
      "moved over the next 10 %).",
      "X0,Y0,X1,Y1");
  const QCommandLineOption paint_tool_option(
      "paint-tool", "The brush's tool: comb, set angle, smooth, erase or strength.", "NAME");
  const QCommandLineOption paint_radius_option("paint-radius",
                                               "The brush's radius on the surface [m].", "M");
  const QCommandLineOption paint_angle_option(
      "paint-angle", "The set-angle tool's grain axis [deg], from the field's +u toward +v.",
      "DEG");
  const QCommandLineOption teleop_option(
      "teleop", "Start in teleop mode (the teleop panel's first end effector active).");
  const QCommandLineOption teleop_drag_option(
      "teleop-drag",
      "With --frames: in teleop mode, a left drag on the viewport from (X0, Y0) to (X1, Y1), "
      "logical pixels, that grabs the gizmo's handle under (X0, Y0) (pressed at 10 % of the "
      "frames, moved over the next 10 %, released two frames later).",
      "X0,Y0,X1,Y1");
  const QCommandLineOption teleop_body_option(
      "teleop-body",
      "Make this body (a robot link, e.g. fetch/wrist_roll_link) an end effector and teleoperate "
      "it (implies --teleop).",
      "NAME");
  const QCommandLineOption record_teleop_option(
      "record-teleop",
      "With --frames: record the teleop session from the first frame (the scene reset to its "
      "initial state) and write it to FILE at the end (docs/teleop-recording.md).",
      "FILE");
  const QCommandLineOption replay_option(
      "replay",
      "Replay a teleop recording: opens its scene and runs it to the end, where the final "
      "state hash is compared; with --frames the run ends once the replay has.",
      "FILE");
  const QCommandLineOption drag_joint_option(
      "drag-joint",
      "With --frames: at the first frame, drag joint NAME's drive target slider in the scene "
      "panel to VALUE (rad or m), as a user would.",
      "NAME=VALUE");
  const QCommandLineOption record_option(
      "record",
      "Record the viewport to this MP4 from when the scene has loaded, one frame per 1/fps s of "
      "simulated time (as File > Record Video); the file is finished when the studio quits.",
      "FILE.mp4");
  const QCommandLineOption record_fps_option(
      "record-fps", "With --record: video frames per second of simulated time (default 30).", "N");
  const QCommandLineOption import_option(
      "import",
      "Open a lone SCENE robot or mesh, and every one dropped or chosen in File > Open, through "
      "the import dialog with these fields preset: material, friction, youngs_modulus, "
      "poisson_ratio, density, mass, up (z, y, x, -z, -y, -x), scale, x, y, z, yaw, base (fixed, "
      "free), save (a scene file Save as Scene writes). With --frames the dialog's Import (or "
      "Save as Scene, with save) is clicked once it shows.",
      "KEY=VALUE,...");
  const QCommandLineOption drop_option(
      "drop", "With --frames: drop FILE on the 3D view when half of the frames are rendered.",
      "FILE");
  const QCommandLineOption save_paint_option(
      "save-paint", "With --paint: save the painted fields beside the scene after the stroke.");
  parser.addOption(lanes_option);
  parser.addOptions({compare_option,     panels_option,        frames_option,
                     screenshot_option,  exit_option,          drag_option,
                     keys_option,        open_after_option,    cancel_load_option,
                     validation_option,  size_option,          view_option,
                     keys_every_option,  pause_after_option,   memory_log_option,
                     paint_option,       paint_tool_option,    paint_radius_option,
                     paint_angle_option, save_paint_option,    teleop_option,
                     teleop_drag_option, record_teleop_option, replay_option,
                     teleop_body_option, drag_joint_option,    screenshot_every_option,
                     follow_option,      steps_option,         click_world_option,
                     record_option,      record_fps_option,    import_option,
                     drop_option});

  if (!parser.parse(app.arguments())) {
    std::cerr << "contact-studio: error: " << parser.errorText().toStdString() << "\n"
              << "Try 'contact-studio --help'." << std::endl;
    return std::nullopt;
  }
  if (parser.isSet("help")) parser.showHelp(0);
  if (parser.isSet("version")) parser.showVersion();

  StudioOptions options;
  const QStringList positional = parser.positionalArguments();
  if (positional.size() > 1) {
    std::cerr << "contact-studio: error: expected at most one SCENE, got " << positional.size()
              << std::endl;
    return std::nullopt;
  }
  if (!positional.isEmpty()) options.scene = positional.front();
  if (parser.isSet(frames_option)) {
    const std::optional<int> frames = PositiveValue(parser, frames_option.names().front());
    if (!frames) return std::nullopt;
    options.script.frames = *frames;
  }
  if (parser.isSet(compare_option)) {
    const sim::Expected<std::vector<sim::io::SolverConfig>> configs =
        sim::io::ParseSolverConfigs(parser.value(compare_option).toStdString());
    if (!configs.ok()) {
      std::cerr << configs.diagnostics().Format();
      return std::nullopt;
    }
    options.compare = configs.value();
  }
  if (parser.isSet(lanes_option)) {
    const QString lanes = parser.value(lanes_option);
    if (lanes != "side" && lanes != "ghost") {
      std::cerr << "contact-studio: error: --lanes: '" << lanes.toStdString()
                << "' is not side or ghost" << std::endl;
      return std::nullopt;
    }
    options.lanes_overlaid = lanes == "ghost";
  }
  if (parser.isSet(drag_option) + parser.isSet(paint_option) + parser.isSet(teleop_drag_option) >
      1) {
    std::cerr << "contact-studio: error: give one of --drag, --paint and --teleop-drag"
              << std::endl;
    return std::nullopt;
  }
  for (const QCommandLineOption* option : {&drag_option, &paint_option, &teleop_drag_option}) {
    if (!parser.isSet(*option)) continue;
    if (!ParseSegment(option->names().front(), parser.value(*option), &options.script.drag_from,
                      &options.script.drag_to)) {
      return std::nullopt;
    }
    options.script.drag = true;
    options.script.paint = option == &paint_option;
    options.script.gizmo = option == &teleop_drag_option;
  }
  options.script.teleop_body = parser.value(teleop_body_option);
  options.script.teleop =
      parser.isSet(teleop_option) || options.script.gizmo || !options.script.teleop_body.isEmpty();
  options.script.record_teleop = parser.value(record_teleop_option);
  options.script.replay = parser.value(replay_option);
  options.script.save_paint = parser.isSet(save_paint_option);
  if (options.script.save_paint && !options.script.paint) {
    std::cerr << "contact-studio: error: --save-paint needs --paint" << std::endl;
    return std::nullopt;
  }
  options.paint_tool = parser.value(paint_tool_option);
  if (parser.isSet(paint_radius_option)) {
    bool ok = false;
    options.paint_radius = parser.value(paint_radius_option).toDouble(&ok);
    if (!ok || !(options.paint_radius >= 0.001 && options.paint_radius <= 10)) {
      std::cerr << "contact-studio: error: --paint-radius expects metres in [0.001, 10], got '"
                << parser.value(paint_radius_option).toStdString() << "'" << std::endl;
      return std::nullopt;
    }
  }
  if (parser.isSet(paint_angle_option)) {
    bool ok = false;
    const double degrees = parser.value(paint_angle_option).toDouble(&ok);
    if (!ok || !(std::abs(degrees) <= 180)) {
      std::cerr << "contact-studio: error: --paint-angle expects degrees in [-180, 180], got '"
                << parser.value(paint_angle_option).toStdString() << "'" << std::endl;
      return std::nullopt;
    }
    options.paint_angle = degrees;
  }
  options.script.open_after = parser.value(open_after_option);
  options.script.drop = parser.value(drop_option);
  if (parser.isSet(import_option)) {
    // the presets checked now, so a typo is a usage error rather than a dialog's warning
    const QString presets = parser.value(import_option);
    sim::io::ImportSettings settings;
    std::vector<std::pair<std::string, std::string>> other;
    sim::Diagnostics errors = sim::io::ApplyImportPresets(presets.toStdString(), &settings, &other);
    for (const auto& [key, value] : other) {
      if (key != "save") errors.Error("--import", 0, "", "'" + key + "': unknown key");
    }
    if (errors.has_errors()) {
      for (const sim::Diagnostic& d : errors.items()) {
        std::cerr << "contact-studio: error: --import: " << d.message << "\n";
      }
      return std::nullopt;
    }
    options.import_presets = presets;
  }
  options.script.cancel_load_screenshot = parser.value(cancel_load_option);
  if (!options.script.cancel_load_screenshot.isEmpty() && options.script.open_after.isEmpty()) {
    std::cerr << "contact-studio: error: --cancel-load needs --open-after" << std::endl;
    return std::nullopt;
  }
  if (parser.isSet(keys_option)) {
    options.script.keys = parser.value(keys_option).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString& key : options.script.keys) {
      if (QKeySequence::fromString(key).isEmpty()) {
        std::cerr << "contact-studio: error: --keys: unknown key '" << key.toStdString() << "'"
                  << std::endl;
        return std::nullopt;
      }
    }
  }
  if (parser.isSet(drag_joint_option)) {
    const QString value = parser.value(drag_joint_option);
    const qsizetype equals = value.lastIndexOf(QLatin1Char('='));
    bool ok = false;
    const double target = equals > 0 ? value.mid(equals + 1).toDouble(&ok) : 0.0;
    if (!ok || !std::isfinite(target)) {
      std::cerr << "contact-studio: error: --drag-joint expects NAME=VALUE, got '"
                << value.toStdString() << "'" << std::endl;
      return std::nullopt;
    }
    options.script.drag_joint = value.left(equals);
    options.script.drag_joint_target = target;
  }
  if (parser.isSet(keys_every_option)) {
    const std::optional<int> every = PositiveValue(parser, keys_every_option.names().front());
    if (!every) return std::nullopt;
    options.script.keys_every = *every;
  }
  if (parser.isSet(pause_after_option)) {
    const std::optional<int> frames = PositiveValue(parser, pause_after_option.names().front());
    if (!frames) return std::nullopt;
    options.script.pause_after = *frames;
  }
  if (parser.isSet(memory_log_option)) {
    const std::optional<int> every = PositiveValue(parser, memory_log_option.names().front());
    if (!every) return std::nullopt;
    options.script.memory_log_every = *every;
  }
  if (parser.isSet(view_option)) {
    options.view = sim::render::ParseViewMode(parser.value(view_option).toStdString());
    if (!options.view) {
      std::cerr << "contact-studio: error: --view expects shaded, strain, contacts or structure, "
                   "got '"
                << parser.value(view_option).toStdString() << "'" << std::endl;
      return std::nullopt;
    }
  }
  if (parser.isSet(panels_option)) {
    options.panels = parser.value(panels_option).split(QLatin1Char(','), Qt::SkipEmptyParts);
  }
  options.script.screenshot = parser.value(screenshot_option);
  if (parser.isSet(screenshot_every_option)) {
    const std::optional<int> every = PositiveValue(parser, screenshot_every_option.names().front());
    if (!every) return std::nullopt;
    if (options.script.screenshot.isEmpty()) {
      std::cerr << "contact-studio: error: --screenshot-every needs --screenshot" << std::endl;
      return std::nullopt;
    }
    options.script.screenshot_every = *every;
  }
  options.record = parser.value(record_option);
  if (parser.isSet(record_fps_option)) {
    const std::optional<int> fps = PositiveValue(parser, record_fps_option.names().front());
    if (!fps) return std::nullopt;
    if (*fps > 240) {
      std::cerr << "contact-studio: error: --record-fps expects at most 240, got " << *fps
                << std::endl;
      return std::nullopt;
    }
    if (options.record.isEmpty()) {
      std::cerr << "contact-studio: error: --record-fps needs --record" << std::endl;
      return std::nullopt;
    }
    options.record_fps = *fps;
  }
  options.script.follow = parser.value(follow_option);
  if (parser.isSet(steps_option)) {
    const std::optional<int> steps = PositiveValue(parser, steps_option.names().front());
    if (!steps) return std::nullopt;
    options.script.steps = *steps;
  }
  if (parser.isSet(click_world_option)) {
    const QStringList parts = parser.value(click_world_option).split(QLatin1Char(','));
    bool ok = parts.size() == 3;
    for (int i = 0; ok && i < 3; ++i) options.script.click_world[i] = parts[i].toDouble(&ok);
    if (!ok) {
      std::cerr << "contact-studio: error: --click-world expects X,Y,Z (three numbers), got '"
                << parser.value(click_world_option).toStdString() << "'" << std::endl;
      return std::nullopt;
    }
    options.script.click = true;
  }
  options.script.exit = parser.isSet(exit_option);
  options.scripted = parser.isSet(frames_option) || parser.isSet(screenshot_option) ||
                     options.script.exit || options.script.drag ||
                     !options.script.open_after.isEmpty() || !options.script.keys.isEmpty() ||
                     !options.script.drop.isEmpty() || options.script.pause_after > 0 ||
                     options.script.memory_log_every > 0 ||
                     !options.script.record_teleop.isEmpty() || !options.script.replay.isEmpty() ||
                     options.script.teleop || !options.script.follow.isEmpty() ||
                     options.script.steps > 0 || options.script.click;
  if (options.scripted && options.script.frames == 0) options.script.frames = kDefaultScriptFrames;
  options.validation = parser.isSet(validation_option);
  if (parser.isSet(size_option)) {
    const QStringList parts = parser.value(size_option).split(QLatin1Char('x'));
    bool ok_width = false, ok_height = false;
    const int width = parts.size() == 2 ? parts[0].toInt(&ok_width) : 0;
    const int height = parts.size() == 2 ? parts[1].toInt(&ok_height) : 0;
    if (!ok_width || !ok_height || width < 320 || height < 240 || width > 16384 || height > 16384) {
      std::cerr << "contact-studio: error: --size expects WxH with W in [320, 16384] and H in "
                   "[240, 16384], got '"
                << parser.value(size_option).toStdString() << "'" << std::endl;
      return std::nullopt;
    }
    options.size = QSize(width, height);
  }
  return options;
}


// Qt's xcb plugin aborts the process when it cannot connect; tell the user before that happens
bool HasDisplay() {
  auto set = [](const char* name) {
    const char* value = std::getenv(name);
    return value != nullptr && *value != '\0';
  };
  return set("DISPLAY") || set("WAYLAND_DISPLAY") || set("QT_QPA_PLATFORM");
}


void SetApplicationInfo() {
  QCoreApplication::setApplicationName("contact-studio");
  QCoreApplication::setApplicationVersion(SIM_VERSION);
  QCoreApplication::setOrganizationName("Contact Studio");
}

}  // namespace


int main(int argc, char** argv) {
  // without a display: still answer --help and usage errors, then explain
  if (!HasDisplay()) {
    QCoreApplication app(argc, argv);
    SetApplicationInfo();
    if (!ParseCommandLine(app)) return 2;
    std::cerr << "contact-studio: error: no display: run under a desktop session or use "
                 "`contact-sim render SCENE --out FILE.png` for a headless image"
              << std::endl;
    return 2;
  }

  QApplication app(argc, argv);
  SetApplicationInfo();
  const std::optional<StudioOptions> options = ParseCommandLine(app);
  if (!options) return 2;

  QVulkanInstance instance;
  QString vulkan_error;
  if (!sim::ui::CreateVulkanInstance(&instance, options->validation, &vulkan_error)) {
    std::cerr << "contact-studio: error: Vulkan is not available (" << vulkan_error.toStdString()
              << "): install mesa-vulkan-drivers for software rendering" << std::endl;
    return 1;
  }

  // scene: the argument as given (relative to the working directory), else the default scene
  QString scene = options->scene;
  if (scene.isEmpty()) {
    scene = QString::fromStdString(sim::io::DefaultScenePath(argv[0]));
  }

  sim::ui::MainWindow window(&instance);
  window.SetCompareConfigs(options->compare);
  if (options->lanes_overlaid) window.SetLanesOverlaid(true);
  QStringList unknown_panels;
  if (!window.ShowPanels(options->panels, &unknown_panels)) {
    std::cerr << "contact-studio: error: --panels: unknown panel(s) "
              << unknown_panels.join(", ").toStdString()
              << " (choices: scene, solver, convergence, statistics, paint, diagnostics)"
              << std::endl;
    return 2;
  }
  std::optional<sim::ui::ScriptedRun> script;
  if (options->scripted) {
    script.emplace(&window, options->script);
    QObject::connect(&*script, &sim::ui::ScriptedRun::Finished, &app,
                     [&app, exit = options->script.exit](int code) {
                       if (exit) app.exit(code);
                     });
  }
  if (options->view) {
    sim::render::RenderOptions render_options = window.viewport()->render_options();
    render_options.view = *options->view;
    window.viewport()->SetRenderOptions(render_options);
  }
  if (!options->paint_tool.isEmpty() && !window.paint_panel()->SetTool(options->paint_tool)) {
    std::cerr << "contact-studio: error: --paint-tool: unknown tool '"
              << options->paint_tool.toStdString()
              << "' (choices: comb, set angle, smooth, erase, strength)" << std::endl;
    return 2;
  }
  if (options->paint_radius > 0) window.paint_panel()->SetRadius(options->paint_radius);
  if (options->paint_angle) window.paint_panel()->SetAngleDegrees(*options->paint_angle);
  if (!options->record.isEmpty()) {
    QString error;
    if (!window.video_menu()->RecordNextScene(options->record, options->record_fps, &error)) {
      std::cerr << "contact-studio: error: --record: " << error.toStdString() << std::endl;
      return 1;
    }
  }
  if (options->size.isValid()) window.resize(options->size);
  window.show();
  // a lone robot or mesh with --import goes through the import dialog
  if (options->import_presets) window.SetImportPresets(*options->import_presets);
  if (options->import_presets && sim::io::ImportKindOf(scene.toStdString())) {
    window.ImportFile(scene);
  } else {
    window.OpenScene(scene);
  }
  return app.exec();
}
