// The SIGINT handler shared by the verbs: a lock-free atomic flag, nothing else, so the
// handler is async-signal-safe; everything that reacts to it runs outside the handler.
#include "cli/interrupt.h"

#include <csignal>

namespace rulebook::cli {
namespace {

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the handler may only touch a lock-free flag");
struct sigaction g_previous;

extern "C" void on_sigint(int) {
  if (g_stop.exchange(true)) {
    // The second Ctrl-C: the user does not want to wait for the clean stop.
    std::signal(SIGINT, SIG_DFL);
    std::raise(SIGINT);
  }
}

}  // namespace

StopOnInterrupt::StopOnInterrupt() {
  g_stop = false;
  sigaction(SIGINT, nullptr, &g_previous);
  // Started with SIGINT ignored (a background job of a shell without job control, nohup
  // and the like): it stays ignored, as the one who started us asked.
  if (g_previous.sa_handler == SIG_IGN && !(g_previous.sa_flags & SA_SIGINFO)) return;
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  // Restarted system calls: a read or write in progress is not cut short by Ctrl-C; the
  // run notices the flag at its next check.
  sa.sa_flags = SA_RESTART;
  sigaction(SIGINT, &sa, &g_previous);
}

StopOnInterrupt::~StopOnInterrupt() { sigaction(SIGINT, &g_previous, nullptr); }

const std::atomic<bool>* StopOnInterrupt::flag() const { return &g_stop; }

bool StopOnInterrupt::stopped() const { return g_stop.load(); }

}  // namespace rulebook::cli
