// Worker threads over seeds, the known-bug switches as flags, and a line-based reducer.
#include "tests/random/batch.h"

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

namespace rulebook::testing {

void run_batch(uint64_t first, int count, const GenOptions& gen, const DiffOptions& diff, int jobs,
               const std::function<void(const BatchItem&)>& done) {
  std::mutex mutex;
  std::condition_variable ready;
  std::map<uint64_t, BatchItem> finished;
  std::atomic<int> next{0};
  auto worker = [&] {
    for (int i; (i = next++) < count;) {
      BatchItem item;
      item.seed = first + uint64_t(i);
      item.program = generate_program(item.seed, gen);
      item.diff = run_differential("random-" + std::to_string(item.seed) + ".rules", item.program.text, diff);
      std::lock_guard<std::mutex> lock(mutex);
      finished.emplace(item.seed, std::move(item));
      ready.notify_all();
    }
  };
  std::vector<std::thread> threads;
  // One job runs here; more run on as many threads, this one collecting their reports.
  if (jobs > 1)
    for (int j = 0; j < jobs; ++j) threads.emplace_back(worker);
  else
    worker();
  // Reports come back in seed order, whichever thread finished first.
  for (int i = 0; i < count; ++i) {
    std::unique_lock<std::mutex> lock(mutex);
    ready.wait(lock, [&] { return finished.count(first + uint64_t(i)) > 0; });
    BatchItem item = std::move(finished[first + uint64_t(i)]);
    finished.erase(first + uint64_t(i));
    lock.unlock();
    done(item);
  }
  for (std::thread& t : threads) t.join();
}

std::vector<std::pair<std::string, bool GenOptions::*>> gen_features() {
  return {{"numeric-suffix-locals", &GenOptions::numeric_suffix_locals},
          {"system-names", &GenOptions::system_names},
          {"checked-suffix-moves", &GenOptions::checked_suffix_moves},
          {"compute-suffix-defines", &GenOptions::compute_suffix_defines},
          {"move-in-two-phases", &GenOptions::move_in_two_phases},
          {"int64-min-division", &GenOptions::int64_min_division},
          {"filter-in-binder-domain", &GenOptions::filter_in_binder_domain},
          {"negative-constant-modulo", &GenOptions::negative_constant_modulo},
          {"can-through-board-rules", &GenOptions::can_through_board_rules},
          {"two-initialized-seq-states", &GenOptions::two_initialized_seq_states},
          {"key-errors", &GenOptions::key_errors}};
}

std::string gen_flags(const GenOptions& o) {
  std::string s;
  for (const auto& [name, member] : gen_features())
    if (o.*member) s += " --enable " + name;
  const GenOptions d;
  if (o.risk_percent != d.risk_percent) s += " --risk " + std::to_string(o.risk_percent);
  if (o.max_depth != d.max_depth) s += " --depth " + std::to_string(o.max_depth);
  return s;
}

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines) s += l + "\n";
  return s;
}

/// The last line of the block that line `i` opens (itself when it opens none).
size_t block_end(const std::vector<std::string>& lines, size_t i) {
  int open = 0;
  for (size_t j = i; j < lines.size(); ++j) {
    for (char ch : lines[j]) {
      if (ch == '{') ++open;
      if (ch == '}') --open;
    }
    if (open <= 0) return j;
  }
  return i;
}

}  // namespace

std::string reduce_program(const std::string& text, const std::function<bool(const std::string&)>& still_fails) {
  std::vector<std::string> lines = lines_of(text);
  // Passes until nothing more can go: each tries to drop a whole block (or a line), from
  // the end so that later declarations, which may use earlier ones, go first.
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = lines.size(); i-- > 1;) {
      if (i >= lines.size()) continue;
      const size_t end = block_end(lines, i);
      std::vector<std::string> shorter(lines.begin(), lines.begin() + ptrdiff_t(i));
      shorter.insert(shorter.end(), lines.begin() + ptrdiff_t(end) + 1, lines.end());
      if (still_fails(join(shorter))) {
        lines = std::move(shorter);
        progress = true;
      }
    }
  }
  return join(lines);
}

}  // namespace rulebook::testing
