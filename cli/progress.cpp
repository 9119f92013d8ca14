#include "cli/progress.h"

#include <fstream>

namespace rulebook::cli {

uint64_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  uint64_t pages = 0, resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  return resident * 4096;
}

}  // namespace rulebook::cli
