// The header's inline functions are the whole target; SwiftPM builds a C target from at least one file.
#include "CHotPath.h"
