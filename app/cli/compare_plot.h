// `contact-sim compare --plot FILE.svg`: the divergence of compared runs over time, drawn
// headless as one SVG: five charts (distance to the reference run, max penetration, joint error,
// mechanical energy, step time) over simulated time, one polyline per run in its lane colour
// (engine/visual/lane_colors.h), and one legend for all of them.
#pragma once

#include <string>
#include <vector>

#include "engine/io/run_report.h"

namespace sim::cli {

/// The SVG document of `runs`' divergence series; `reference` names the run distances are to.
std::string ComparePlotSvg(const std::string& title, const std::vector<io::RunResult>& runs,
                           int reference);

}  // namespace sim::cli
