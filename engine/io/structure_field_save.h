// Saving a painted structure field (issue 18, structure_field.h): its texels as a PNG beside the
// scene, and the scene's reference to that PNG.
//
// The image is 8-bit RGBA in the encoding of structure_field.h (R, G = cos 2θ, sin 2θ; B = w;
// A = 255, ignored on reading). Loading it back quantizes each of cos 2θ, sin 2θ to within half
// a step, 1/255, of the painted value: the doubled-angle vector moves by at most √2/255, so 2θ by
// at most asin(√2/255) ≈ 0.0055 rad and the axis θ by at most 0.0028 rad (0.16°); w is within
// 1/510.
//
// The scene is rewritten as text: only the field's value (at StructureField::scene_pointer)
// changes, to
//   {"image": "<file>", "projection": <as written before>, "tile_size": [u, v]}
// with the projection's own text (left out where it was left out, so the shape's default applies
// again) and the field's tile (exact: shortest round-trip decimals), so loading the scene again
// reproduces the field. Its other keys go: the procedural parameters are in the texels now, and
// so is "strength" (an image's strength scales its B channel on loading, and the saved texels
// already carry it). A value written over several lines keeps its indentation; every other byte of
// the file, comments included, stays as it was. Both files are written to a temporary file in
// their folder and renamed over the old one, so a failure leaves the previous file whole.
#pragma once

#include <string>

#include "engine/core/diagnostics.h"
#include "engine/model/structure_field.h"

namespace sim::io {

/// Writes `field`'s texels to `path` as an 8-bit RGBA PNG (the encoding above), through a
/// temporary file renamed over `path`. False and `error` (naming the file) on failure.
bool WriteStructureFieldPng(const StructureField& field, const std::string& path,
                            std::string* error);

/// Where `field` is saved when the caller names no file, relative to the folder of scene
/// `scene_path`: the image it was read from when that lies in or below the scene's folder, else
/// "<scene stem>_<scene_pointer's tokens joined by '_'>.png" (field /objects/1/structure_field
/// of sliding_boxes.json: "sliding_boxes_objects_1_structure_field.png").
std::string DefaultStructureFieldImage(const std::string& scene_path, const StructureField& field);

/// Saves `field` (which must have texels: painted, or baked) as `image` (a path relative to the
/// folder of scene `scene_path`, inside it; empty: DefaultStructureFieldImage) and points the
/// field's value in the scene at it. Call it where the field is painted (the simulation worker,
/// between steps) or on a copy of the field. Returns the image's path, or errors
/// (`scene.json:12: error: ...`, `image.png: error: ...`) with the scene file as it was.
Expected<std::string> SaveStructureField(const StructureField& field, const std::string& scene_path,
                                         const std::string& image = "");

}  // namespace sim::io
