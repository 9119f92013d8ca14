// Ctrl-C for every verb: one SIGINT handler that only sets a flag, installed for the span
// of a long run; the libraries poll the flag (or a thread does, for Z3) and stop cleanly.
#pragma once

#include <atomic>

namespace rulebook::cli {

/// While alive, the first SIGINT sets the stop flag (the run then finishes what it can,
/// prints it and exits 130); a second SIGINT kills the process at once, as if no handler
/// were there. The previous handler comes back on destruction. One at a time. A process
/// started with SIGINT ignored (`cmd &` in a script without job control) keeps ignoring it.
class StopOnInterrupt {
 public:
  StopOnInterrupt();
  ~StopOnInterrupt();
  StopOnInterrupt(const StopOnInterrupt&) = delete;
  StopOnInterrupt& operator=(const StopOnInterrupt&) = delete;

  /// The flag to hand to the libraries (explorer, verifier, report): true once stopped.
  const std::atomic<bool>* flag() const;
  /// Whether a SIGINT came since this guard was made.
  bool stopped() const;
};

}  // namespace rulebook::cli
