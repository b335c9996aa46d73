#version 450
// Ground plane fragment shader: lit plane with a procedural anti-aliased grid. Minor lines every
// cell, major lines every 10 cells, red/green lines on the local x/y axes. Line coverage is
// measured in pixels with fwidth, and each line family fades out where its lines get closer than
// a few pixels, so the grid never aliases into moire patterns in the distance. The derivatives
// are taken once per pixel and shared by every line family, and the floor is matte (no specular
// or camera fill): the ground covers most of the screen, and a software rasterizer pays for each
// operation on each of its pixels.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(constant_id = 0) const bool kEncodeSrgb = false;

layout(location = 0) in vec3 in_world;
layout(location = 1) in vec2 in_local;
layout(location = 2) flat in vec3 in_normal;
layout(location = 3) flat in vec4 in_color;
layout(location = 4) flat in vec2 in_grid;  // x: cell size [m], y: half size [m]
layout(location = 5) flat in vec2 in_centre;  // the drawn square's centre, local [m]

layout(location = 0) out vec4 out_color;

// coverage in [0, 1] of lines `width_px` pixels wide at the integers of `coord` (`cells_per_px`:
// fwidth(coord)); each axis fades out as its line spacing drops from 6 to 2.5 pixels (cells per
// pixel 1/6 .. 0.4)
float LineCoverage(vec2 coord, vec2 cells_per_px, float width_px) {
  vec2 distance_px = abs(fract(coord - 0.5) - 0.5) / cells_per_px;
  vec2 coverage = clamp(0.5 * width_px + 0.5 - distance_px, 0.0, 1.0);
  coverage *= 1.0 - smoothstep(1.0 / 6.0, 0.4, cells_per_px);
  return max(coverage.x, coverage.y);
}

// coverage of a single line at coord == 0, `width_px` wide (`per_px`: fwidth(coord)), fading when
// it gets thinner than the pixel footprint of 1/20 of a cell would be (far away)
float AxisCoverage(float coord, float per_px, float width_px, float cell) {
  float coverage = clamp(0.5 * width_px + 0.5 - abs(coord) / per_px, 0.0, 1.0);
  return coverage * (1.0 - smoothstep(0.25 * cell, cell, per_px));
}

void main() {
  float cell = max(in_grid.x, 1e-4);
  vec2 coord = in_local / cell;
  // metres per pixel along the plane's axes, shared by all lines
  vec2 local_per_px = max(fwidth(in_local), vec2(1e-6 * cell));
  vec2 cells_per_px = local_per_px / cell;

  // albedo: base colour, darkened under minor and major lines, tinted on the axes
  vec3 base = in_color.rgb;
  vec3 albedo = mix(base, base * 0.74, LineCoverage(coord, cells_per_px, 1.0));
  albedo = mix(albedo, base * 0.52, LineCoverage(0.1 * coord, 0.1 * cells_per_px, 1.5));
  albedo = mix(albedo, vec3(0.62, 0.08, 0.06),
               AxisCoverage(in_local.y, local_per_px.y, 2.0, cell));
  albedo = mix(albedo, vec3(0.10, 0.42, 0.08),
               AxisCoverage(in_local.x, local_per_px.x, 2.0, cell));

  // lit from the side the camera sees (the plane is drawn without culling), matte
  vec3 n = gl_FrontFacing ? in_normal : -in_normal;
  vec3 color = ShadeMatte(albedo, n, in_world);

  // haze with distance, and fade the square's rim into the horizon so its edge never shows
  color = ApplyHaze(color, in_world);
  float half_size_sq = in_grid.y * in_grid.y;
  vec2 from_centre = in_local - in_centre;
  float rim =
      smoothstep(0.3025 * half_size_sq, 0.9604 * half_size_sq, dot(from_centre, from_centre));
  color = mix(color, kSkyHorizon, rim);
  out_color = vec4(kEncodeSrgb ? EncodeSrgb(color) : color, 1.0);
}
