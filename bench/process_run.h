// Runs a benchmarked program as its own process: wall time, CPU time and peak resident
// memory (from wait4), its standard output kept.
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <spawn.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/core.h>

extern char** environ;

namespace bench {

struct Run {
  double seconds = 0;      ///< wall clock
  double cpu_seconds = 0;  ///< user + system time of the process and its threads
  uint64_t max_rss = 0;    ///< bytes
  int status = -1;
  std::string out;
};

/// Runs argv in `dir` with stdout and stderr into files; times it and reads its peak RSS.
inline Run run(const std::vector<std::string>& argv, const std::string& dir) {
  Run r;
  const std::string out = dir + "/bench.out", err = dir + "/bench.err";
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_addchdir_np(&fa, dir.c_str());
  const auto t0 = std::chrono::steady_clock::now();
  pid_t pid = 0;
  if (posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ) != 0) {
    posix_spawn_file_actions_destroy(&fa);
    return r;
  }
  int status = 0;
  struct rusage usage {};
  wait4(pid, &status, 0, &usage);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.cpu_seconds = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                  double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  posix_spawn_file_actions_destroy(&fa);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.max_rss = uint64_t(usage.ru_maxrss) * 1024;
  std::ifstream in(out);
  std::stringstream ss;
  ss << in.rdbuf();
  r.out = ss.str();
  if (r.status != 0) {
    std::ifstream e(err);
    std::stringstream es;
    es << e.rdbuf();
    fmt::print(stderr, "{} failed ({}):\n{}\n{}\n", argv[0], r.status, r.out, es.str());
  }
  return r;
}

}  // namespace bench
