// The compile cache of generated engines: a private directory, keys that name the compiler,
// and objects checked against the digest recorded when they were built.
#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>

#include <fmt/core.h>

#include "compiler/codegen/emit_cpp.h"
#include "compiler/load/load_engine.h"
#include "compiler/runtime/plugin_abi.h"
#include "compiler/load/sha256.h"

#ifndef RULEBOOK_VERSION
#define RULEBOOK_VERSION "unknown"
#endif

extern char** environ;

namespace rulebook::compiler {
namespace fs = std::filesystem;

namespace {

// ---------------------------------------------------------------- files

std::vector<std::string> split_words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

/// Runs argv[0] (searched in PATH) with stdout and stderr going to `log`. Returns the exit
/// status, or -1 when the program could not be started.
int run_process(const std::vector<std::string>& args, const std::string& log) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string read_text(const std::string& path) {
  std::string out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return out;
  char buffer[1 << 14];
  for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) != 0;) {
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) break;
    out.append(buffer, static_cast<size_t>(got));
  }
  ::close(fd);
  return out;
}

/// Creates `path` (which must not exist) holding `text`; on failure removes what it wrote
/// and leaves the reason, strerror and path, in `error`.
bool write_new_file(const std::string& path, const std::string& text, std::string& error) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    error = fmt::format("cannot write {}: {}", path, std::strerror(errno));
    return false;
  }
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t put = ::write(fd, text.data() + done, text.size() - done);
    if (put < 0 && errno == EINTR) continue;
    if (put < 0) break;
    done += static_cast<size_t>(put);
  }
  const int saved = errno;
  const bool closed = ::close(fd) == 0;
  if (done < text.size() || !closed) {
    error = fmt::format("cannot write {}: {}", path, std::strerror(done < text.size() ? saved : errno));
    ::unlink(path.c_str());
    return false;
  }
  return true;
}

/// A name no other thread or process uses at the same time.
std::string temp_name(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  return fmt::format("{}.tmp.{}.{}", path, static_cast<long>(getpid()), counter++);
}

/// Removes the temporary files of one compile however it ends.
struct TempFiles {
  std::vector<std::string> paths;
  ~TempFiles() {
    for (const std::string& p : paths) ::unlink(p.c_str());
  }
  std::string add(std::string p) {
    paths.push_back(p);
    return p;
  }
};

// ---------------------------------------------------------------- the key

/// The absolute path `word` runs as (PATH searched like posix_spawnp), or "" if none.
std::string resolve_program(const std::string& word) {
  auto real = [](const fs::path& p) {
    std::error_code ec;
    const fs::path r = fs::canonical(p, ec);
    return ec ? std::string() : r.string();
  };
  if (word.find('/') != std::string::npos) return ::access(word.c_str(), X_OK) == 0 ? real(word) : "";
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/bin:/bin");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + word;
    if (::access(candidate.c_str(), X_OK) == 0) return real(candidate);
  }
  return "";
}

/// What names the compiler: the programs it runs as (absolute, links resolved, with their
/// size and modification time, so that an upgrade in place is another compiler) and all of
/// `--version`. `--version` runs once per process and set of programs.
std::string compiler_identity(const std::vector<std::string>& cxx, const std::string& dir) {
  std::string programs;
  for (const std::string& w : cxx) {
    const std::string path = resolve_program(w);
    struct stat st;
    if (!path.empty() && ::stat(path.c_str(), &st) == 0) {
      programs += fmt::format("{} {} {}.{:09}\n", path, static_cast<long long>(st.st_size),
                              static_cast<long long>(st.st_mtim.tv_sec),
                              static_cast<long>(st.st_mtim.tv_nsec));
    } else {
      programs += w + '\n';
    }
  }
  static std::mutex mutex;
  static std::map<std::string, std::string> known;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = known.find(programs);
  if (it != known.end()) return it->second;
  std::string id = programs;
  std::vector<std::string> args = cxx;
  args.push_back("--version");
  TempFiles temps;
  const std::string log = temps.add(temp_name(dir + "/version"));
  if (run_process(args, log) == 0) id += read_text(log);
  known[programs] = id;
  return id;
}

std::string hex16(uint64_t v) { return fmt::format("{:016x}", v); }

/// The rules file's name without folders and extension, safe as part of a file name.
std::string stem_of(const std::string& rules_file) {
  std::string stem = fs::path(rules_file).stem().string();
  for (char& c : stem) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  }
  return stem.empty() ? std::string("engine") : stem;
}

std::string record_path(const std::string& object) {
  return fs::path(object).replace_extension(".sum").string();
}

// ---------------------------------------------------------------- the directory

/// Creates `dir` (mode 0700) if missing and checks that only this user can write into it:
/// owned by the effective user, not writable by group or others (such a directory is
/// refused, never repaired: someone else may already have put files in it). Read or
/// search bits for others are cleared, since no one else could have written anything.
engine::Status prepare_directory(const std::string& dir) {
  auto refuse = [&](const std::string& why) {
    return engine::Status::Error(fmt::format(
        "the engine cache {} {}; set RULEBOOK_CACHE to a directory of your own (created with "
        "mode 0700 if missing)",
        dir, why));
  };
  if (dir.empty()) {
    return engine::Status::Error(
        "no engine cache: HOME, XDG_CACHE_HOME and RULEBOOK_CACHE are all unset; set "
        "RULEBOOK_CACHE to a directory of your own (created with mode 0700 if missing)");
  }
  struct stat st;
  if (::stat(dir.c_str(), &st) != 0) {
    if (errno != ENOENT) return refuse(fmt::format("cannot be used: {}", std::strerror(errno)));
    const fs::path parent = fs::path(dir).parent_path();
    std::error_code ec;
    if (!parent.empty()) fs::create_directories(parent, ec);
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
      return refuse(fmt::format("cannot be created: {}", std::strerror(errno)));
    }
    if (::stat(dir.c_str(), &st) != 0) {
      return refuse(fmt::format("cannot be used: {}", std::strerror(errno)));
    }
  }
  if (!S_ISDIR(st.st_mode)) return refuse("is not a directory");
  if (st.st_uid != ::geteuid()) {
    return refuse(fmt::format("belongs to user id {}, not to you (user id {})",
                              static_cast<long>(st.st_uid), static_cast<long>(::geteuid())));
  }
  const unsigned mode = st.st_mode & 07777;
  if (mode & 0022) {
    return refuse(fmt::format("is writable by other users (mode {:04o}), so anyone could plant "
                              "an engine in it; it must have mode 0700",
                              mode));
  }
  if (!(mode & 0200)) return refuse(fmt::format("is read-only (mode {:04o})", mode));
  if ((mode & 0777) != 0700 && ::chmod(dir.c_str(), 0700) != 0) {
    return refuse(fmt::format("cannot be made private (mode {:04o}): {}", mode, std::strerror(errno)));
  }
  if (::access(dir.c_str(), W_OK) != 0) {
    return refuse(fmt::format("cannot be written: {}", std::strerror(errno)));
  }
  return engine::Status::Ok();
}

/// The reason an I/O failure shows in the compiler's output, or "": a full disk or a
/// read-only cache makes the compiler fail too, and that must not read as a code bug.
std::string io_failure_in(const std::string& output) {
  for (int e : {ENOSPC, EDQUOT, EROFS, EACCES, EIO}) {
    const std::string why = std::strerror(e);
    if (output.find(why) != std::string::npos) return why;
  }
  return "";
}

}  // namespace

// ---------------------------------------------------------------- the cache

std::string cache_directory(const CompileOptions& options) {
  if (!options.cache_dir.empty()) return options.cache_dir;
  if (const char* d = std::getenv("RULEBOOK_CACHE"); d && *d) return d;
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return std::string(d) + "/rulebook";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/rulebook";
  return "";  // no shared fallback: a folder in /tmp is anyone's
}

engine::Status verify_shared_object(const std::string& path) {
  const std::string record = record_path(path);
  const std::string recorded = read_text(record);
  if (recorded.empty()) {
    return engine::Status::Error(fmt::format("{} has no recorded digest ({} is missing)", path, record));
  }
  std::string actual, error;
  if (!sha256_file(path, actual, error)) return engine::Status::Error(error);
  if (recorded.substr(0, recorded.find('\n')) != actual) {
    return engine::Status::Error(
        fmt::format("{} does not match the digest recorded when it was built", path));
  }
  return engine::Status::Ok();
}

std::vector<std::string> compiler_words(const CompileOptions& options) {
  std::vector<std::string> cxx = split_words(options.compiler);
  if (cxx.empty()) {
    const char* env = std::getenv("CXX");
    cxx = split_words(env && *env ? env : "c++");
  }
  return cxx;
}

namespace {

/// The processor running rulebook counts bits in one instruction. An engine is loaded by
/// the process that builds it, so it may use what this processor has; the flag is part of
/// the cache key, so a processor without it never loads an engine built with it.
bool host_has_popcnt() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("popcnt");
#else
  return false;
#endif
}

}  // namespace

std::vector<std::string> compiler_flags(const CompileOptions& options) {
  if (!options.flags.empty()) return options.flags;
  std::vector<std::string> flags{"-std=c++20", "-O2", "-fPIC", "-shared"};
  // Set sizes are bit counts: without the instruction each is a dozen (SMYOZ's puzzle
  // enumeration: 1.8 times the time).
  if (host_has_popcnt()) flags.push_back("-mpopcnt");
  return flags;
}

engine::Status compile_to_shared_object(const std::string& source, const std::string& rules_file,
                                        const CompileOptions& options, SharedObject& out) {
  out = SharedObject{};
  const std::string dir = cache_directory(options);
  if (engine::Status s = prepare_directory(dir); !s.ok) {
    out.cache_error = true;
    return s;
  }
  const std::vector<std::string> cxx = compiler_words(options);
  const std::vector<std::string> flags = compiler_flags(options);

  // Everything the object's bytes depend on, so that another compiler, an upgraded one or
  // another rulebook never reuses an object built for something else.
  std::string key_text = source;
  key_text += '\0';
  for (const std::string& w : cxx) key_text += w + ' ';
  key_text += '\0';
  key_text += compiler_identity(cxx, dir);
  key_text += '\0';
  for (const std::string& f : flags) key_text += f + ' ';
  key_text += '\0';
  key_text += fmt::format("rulebook {} abi {}", RULEBOOK_VERSION, RULEBOOK_ABI_VERSION);
  // Only a build with passes off adds to the key: keys with every pass on stay as they were.
  if (!options.passes.key().empty()) key_text += fmt::format("{}passes off {}", '\0', options.passes.key());
  const std::string base = fmt::format("{}/{}-{}", dir, stem_of(rules_file),
                                       hex16(source_hash(key_text)));
  out.path = base + ".so";
  const std::string record = base + ".sum";
  std::error_code ec;
  if (fs::exists(fs::symlink_status(out.path, ec))) {
    const engine::Status v = verify_shared_object(out.path);
    if (v.ok) {
      out.reused = true;
      return v;
    }
    out.note = fmt::format("note: refused the cached engine: {}; rebuilding it", v.message);
    fs::remove(out.path, ec);
  }

  // Each caller compiles under its own names; the renames publish the result whole, the
  // digest first, so that an object is never seen without its record.
  TempFiles temps;
  const std::string tmp_source = temps.add(temp_name(base) + ".cpp");
  const std::string tmp_object = temps.add(temp_name(base) + ".so");
  const std::string tmp_record = temps.add(temp_name(base) + ".sum");
  const std::string log = temps.add(temp_name(base) + ".log");
  std::string error;
  if (!write_new_file(tmp_source, source, error)) {
    out.cache_error = true;
    return engine::Status::Error(error);
  }
  std::vector<std::string> args = cxx;
  args.insert(args.end(), flags.begin(), flags.end());
  args.insert(args.end(), {"-o", tmp_object, tmp_source});
  const int rc = run_process(args, log);
  out.compiler_output = read_text(log);
  if (rc != 0) {
    if (const std::string why = io_failure_in(out.compiler_output); !why.empty() && rc > 0) {
      out.cache_error = true;
      return engine::Status::Error(fmt::format(
          "cannot write the engine of {} into {}: {} (the compiler said:\n{})", rules_file, dir,
          why, out.compiler_output.substr(0, 2000)));
    }
    const std::string kept = base + ".failed.cpp";
    fs::rename(tmp_source, kept, ec);
    std::string first = out.compiler_output.substr(0, 2000);
    return engine::Status::Error(fmt::format(
        "internal error: the engine generated for {} does not compile ({} exited with {}; "
        "source kept as {}):\n{}",
        rules_file, cxx.front(), rc, ec ? std::string("nowhere") : kept,
        rc < 0 ? "the compiler could not be run" : first));
  }
  std::string digest;
  if (!sha256_file(tmp_object, digest, error) || !write_new_file(tmp_record, digest + "\n", error)) {
    out.cache_error = true;
    return engine::Status::Error(error);
  }
  if (::rename(tmp_record.c_str(), record.c_str()) != 0 ||
      ::rename(tmp_object.c_str(), out.path.c_str()) != 0) {
    out.cache_error = true;
    return engine::Status::Error(fmt::format("cannot move the engine of {} into {}: {}",
                                             rules_file, out.path, std::strerror(errno)));
  }
  // The source stays beside the object for whoever reads a backtrace; losing it is harmless.
  fs::rename(tmp_source, base + ".cpp", ec);
  return engine::Status::Ok();
}

}  // namespace rulebook::compiler
