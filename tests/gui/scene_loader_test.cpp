// The studio's SceneLoader on Qt's offscreen platform (no display, no Vulkan): a slow load shows
// its stage, bar and Cancel button after a moment, and a click on Cancel (or Esc) ends it as
// cancelled with the widgets hidden and the background task stopped; a newer load supersedes a
// running one, whose result is dropped and whose task stops; a quick load never shows them.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QMainWindow>
#include <QProgressBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QThreadPool>
#include <QToolButton>
#include <QtTest/QTest>

#include <gtest/gtest.h>

#include "tests/support/slow_scene.h"
#include "ui/scene_loader.h"

namespace sim::ui {
namespace {

namespace fs = std::filesystem;

// how long a load may take to end once cancelled or superseded [ms]: generous for a loaded
// 2-core machine; the SDF build checks for a cancel every slab (milliseconds)
constexpr int kStopMs = 5000;

class SceneLoaderTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    static int argc = 1;
    static char name[] = "scene_loader_test";
    static char* argv[] = {name, nullptr};
    if (QApplication::instance() == nullptr) new QApplication(argc, argv);
  }

  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("cs_scene_loader_" +
            std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_);
    window_.show();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // a scene whose load takes seconds (`slow`), or a plane and a box
  QString WriteScene(const std::string& name, bool slow) const {
    fs::path path = dir_ / name;
    if (slow) {
      path = test_support::WriteCubeScene(dir_, name);
    } else {
      std::ofstream(path) << R"({"objects": [{"name": "ground", "type": "plane"},
          {"name": "box", "type": "box", "size": [1, 1, 1], "position": [0, 0, 1]}]})";
    }
    return QString::fromStdString(path.string());
  }

  fs::path dir_;
  QMainWindow window_;
};


TEST_F(SceneLoaderTest, CancelEndsASlowLoadAndHidesItsWidgets) {
  SceneLoader loader(window_.statusBar());
  QSignalSpy finished(&loader, &SceneLoader::Finished);
  QSignalSpy cancelled(&loader, &SceneLoader::Cancelled);
  const QString slow = WriteScene("slow.json", true);
  loader.Load(slow);
  EXPECT_TRUE(loader.loading());
  EXPECT_TRUE(loader.cancel_action()->isEnabled());
  EXPECT_EQ(loader.cancel_action()->shortcut(), QKeySequence(Qt::Key_Escape));
  // the widgets appear once the load has run a moment and has progress to show
  EXPECT_FALSE(loader.progress_widget()->isVisible());
  EXPECT_TRUE(QTest::qWaitFor(
      [&] { return loader.progress_widget()->isVisible() && loader.progress_bar()->value() > 0; },
      60000));
  EXPECT_TRUE(loader.stage_label()->text().startsWith(QStringLiteral("slow.json: ")))
      << loader.stage_label()->text().toStdString();

  QElapsedTimer clock;
  clock.start();
  QTest::mouseClick(loader.cancel_button(), Qt::LeftButton);
  ASSERT_TRUE(cancelled.wait(kStopMs));
  std::cout << "cancelled after " << clock.elapsed() << " ms" << std::endl;
  EXPECT_EQ(cancelled.front().front().toString(), slow);
  EXPECT_TRUE(finished.isEmpty());
  EXPECT_FALSE(loader.loading());
  EXPECT_FALSE(loader.progress_widget()->isVisible());
  EXPECT_FALSE(loader.cancel_action()->isEnabled());
  EXPECT_TRUE(loader.cancel_action()->shortcut().isEmpty());
  EXPECT_TRUE(QThreadPool::globalInstance()->waitForDone(kStopMs));
}


TEST_F(SceneLoaderTest, EscCancelsWhileALoadRuns) {
  SceneLoader loader(window_.statusBar());
  // as the studio's window does, so that Esc works anywhere in it
  window_.addAction(loader.cancel_action());
  QApplication::setActiveWindow(&window_);
  QSignalSpy cancelled(&loader, &SceneLoader::Cancelled);
  loader.Load(WriteScene("slow.json", true));
  QTest::qWait(50);
  QTest::keyClick(&window_, Qt::Key_Escape);
  ASSERT_TRUE(cancelled.wait(kStopMs));
  EXPECT_FALSE(loader.loading());
  EXPECT_TRUE(QThreadPool::globalInstance()->waitForDone(kStopMs));
}


TEST_F(SceneLoaderTest, ANewerLoadSupersedesTheRunningOne) {
  SceneLoader loader(window_.statusBar());
  QSignalSpy finished(&loader, &SceneLoader::Finished);
  QSignalSpy cancelled(&loader, &SceneLoader::Cancelled);
  loader.Load(WriteScene("slow.json", true));
  QTest::qWait(100);
  const QString fast = WriteScene("fast.json", false);
  loader.Load(fast);
  ASSERT_TRUE(finished.wait(60000));
  // only the newer load reports, with its scene; the older one was dropped without a word
  ASSERT_EQ(finished.size(), 1);
  EXPECT_EQ(finished.front().front().toString(), fast);
  const auto result = finished.front().at(1).value<SceneLoader::Result>();
  ASSERT_TRUE(result && result->ok());
  EXPECT_EQ(result->value().model->shape_count(), 2);
  EXPECT_TRUE(cancelled.isEmpty());
  EXPECT_FALSE(loader.loading());
  // and its task has stopped, long before its SDF would be done
  EXPECT_TRUE(QThreadPool::globalInstance()->waitForDone(kStopMs));
  QTest::qWait(50);
  EXPECT_EQ(finished.size(), 1);
}


TEST_F(SceneLoaderTest, AQuickLoadShowsNoProgress) {
  SceneLoader loader(window_.statusBar());
  QSignalSpy finished(&loader, &SceneLoader::Finished);
  bool shown = false;
  QTimer watch;
  QObject::connect(&watch, &QTimer::timeout,
                   [&] { shown |= loader.progress_widget()->isVisible(); });
  watch.start(10);
  loader.Load(WriteScene("fast.json", false));
  ASSERT_TRUE(finished.wait(60000));
  EXPECT_FALSE(shown);
  EXPECT_FALSE(loader.progress_widget()->isVisible());
}

}  // namespace
}  // namespace sim::ui
