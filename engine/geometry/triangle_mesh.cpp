#include "engine/geometry/triangle_mesh.h"
