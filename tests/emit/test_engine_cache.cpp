// The engine cache as a trust boundary: a private directory, objects checked against the
// digest recorded when they were built before anything of them runs, no temporary files
// left behind, and I/O failures named as such.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "compiler/codegen/emit_cpp.h"
#include "compiler/load/load_engine.h"
#include "compiler/lower/lower.h"
#include "compiler/load/sha256.h"

namespace fs = std::filesystem;
using namespace rulebook;

namespace {

const char* kTiny = R"(game "tiny cache";
board 2 x 2;
players 1;
state n: 0..3;
phase play {
    move bump { n += 1; }
}
end when n == 2;
)";

struct Tiny {
  dsl::SourceSet sources;
  std::shared_ptr<const ir::Program> program;
  compiler::EmittedCpp emitted;
  Tiny() {
    dsl::Diagnostics diags;
    auto p = compiler::load_program_text("tiny.rules", kTiny, sources, diags);
    REQUIRE(p);
    program = std::make_shared<const ir::Program>(std::move(*p));
    emitted = compiler::emit_cpp(*program, sources);
    REQUIRE(emitted.error.empty());
  }
};

/// A scratch folder; `cache` inside it does not exist until a compile creates it.
struct Scratch {
  fs::path root;
  fs::path cache;
  Scratch() {
    static int n = 0;
    root = fs::temp_directory_path() /
           ("rulebook-cache-test-" + std::to_string(getpid()) + "-" + std::to_string(n++));
    fs::remove_all(root);
    fs::create_directories(root);
    cache = root / "cache";
  }
  ~Scratch() {
    std::error_code ec;
    fs::permissions(cache, fs::perms::owner_all, ec);
    fs::remove_all(root, ec);
  }
  compiler::CompileOptions options() const {
    compiler::CompileOptions o;
    o.cache_dir = cache.string();
    o.flags = {"-std=c++20", "-O0", "-fPIC", "-shared"};  // quick: these tests run no games
    return o;
  }
};

unsigned mode_of(const fs::path& p) {
  struct stat st;
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::vector<std::string> leftovers(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& f : fs::directory_iterator(dir)) {
    const std::string name = f.path().filename().string();
    if (has(name, ".tmp.")) out.push_back(name);
  }
  return out;
}

/// Sets or clears an environment variable for the life of the object.
struct EnvVar {
  std::string name;
  std::optional<std::string> old;
  EnvVar(std::string n, const char* value) : name(std::move(n)) {
    if (const char* v = std::getenv(name.c_str())) old = v;
    if (value) ::setenv(name.c_str(), value, 1);
    else ::unsetenv(name.c_str());
  }
  ~EnvVar() {
    if (old) ::setenv(name.c_str(), old->c_str(), 1);
    else ::unsetenv(name.c_str());
  }
};

}  // namespace

TEST_CASE("sha256 gives the FIPS 180-4 digests", "[cache]") {
  CHECK(compiler::sha256_hex("") ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(compiler::sha256_hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(compiler::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(compiler::sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("the cache directory is created private and records a digest per object", "[cache]") {
  Tiny t;
  Scratch s;
  compiler::SharedObject so;
  const engine::Status st = compiler::compile_to_shared_object(t.emitted.source, "tiny.rules", s.options(), so);
  INFO(st.message);
  REQUIRE(st.ok);
  CHECK(mode_of(s.cache) == 0700);
  const fs::path record = fs::path(so.path).replace_extension(".sum");
  REQUIRE(fs::exists(record));
  std::string digest;
  std::string error;
  REQUIRE(compiler::sha256_file(so.path, digest, error));
  std::ifstream in(record);
  std::string recorded;
  in >> recorded;
  CHECK(recorded == digest);
  CHECK(compiler::verify_shared_object(so.path).ok);
  CHECK(leftovers(s.cache).empty());
}

TEST_CASE("an altered or planted object is refused before it loads, and rebuilt", "[cache]") {
  Tiny t;
  Scratch s;
  compiler::SharedObject so;
  REQUIRE(compiler::compile_to_shared_object(t.emitted.source, "tiny.rules", s.options(), so).ok);
  const std::string good = so.path;

  // A planted object whose constructor leaves a mark if it ever runs.
  const fs::path mark = s.root / "INJECTED";
  const fs::path evil_source = s.root / "evil.cpp";
  std::ofstream(evil_source) << "#include <cstdio>\n__attribute__((constructor)) static void planted() "
                                "{ std::FILE* f = std::fopen(\"" << mark.string() << "\", \"w\"); "
                                "if (f) std::fclose(f); }\n";
  const fs::path evil = s.root / "evil.so";
  const std::string build = "c++ -shared -fPIC -o " + evil.string() + " " + evil_source.string();
  REQUIRE(std::system(build.c_str()) == 0);
  fs::copy_file(evil, good, fs::copy_options::overwrite_existing);

  // open_shared_engine checks the bytes before dlopen runs any constructor.
  const rb_engine* table = nullptr;
  const engine::Status opened = compiler::open_shared_engine(good, t.emitted.hash, table);
  CHECK_FALSE(opened.ok);
  CHECK(has(opened.message, "does not match the digest recorded when it was built"));
  CHECK(table == nullptr);
  CHECK_FALSE(fs::exists(mark));

  // The cache refuses it too, says so in one line, and builds a good one in its place.
  compiler::SharedObject again;
  const engine::Status rebuilt = compiler::compile_to_shared_object(t.emitted.source, "tiny.rules", s.options(), again);
  REQUIRE(rebuilt.ok);
  CHECK_FALSE(again.reused);
  CHECK(has(again.note, "refused the cached engine"));
  CHECK(again.note.find('\n') == std::string::npos);
  CHECK(compiler::verify_shared_object(good).ok);
  CHECK_FALSE(fs::exists(mark));

  // An object with no record at all (copied in by hand) is refused the same way.
  fs::remove(fs::path(good).replace_extension(".sum"));
  const engine::Status unrecorded = compiler::verify_shared_object(good);
  CHECK_FALSE(unrecorded.ok);
  CHECK(has(unrecorded.message, "no recorded digest"));
  compiler::SharedObject third;
  REQUIRE(compiler::compile_to_shared_object(t.emitted.source, "tiny.rules", s.options(), third).ok);
  CHECK_FALSE(third.reused);
  CHECK_FALSE(third.note.empty());

  // And the engine it loads is the good one.
  REQUIRE(compiler::open_shared_engine(good, t.emitted.hash, table).ok);
  CHECK(table->state_bytes == t.program->state_bytes);
  CHECK_FALSE(fs::exists(mark));
  CHECK(leftovers(s.cache).empty());
}

TEST_CASE("a cache directory others can write, or read-only, or missing is refused", "[cache]") {
  Tiny t;
  compiler::SharedObject so;
  {
    Scratch s;
    fs::create_directories(s.cache);
    ::chmod(s.cache.c_str(), 0777);
    const engine::Status st = compiler::compile_to_shared_object(t.emitted.source, "tiny.rules", s.options(), so);
    CHECK_FALSE(st.ok);
    CHECK(so.cache_error);
    CHECK(has(st.message, s.cache.string() + " is writable by other users (mode 0777)"));
    CHECK(has(st.message, "RULEBOOK_CACHE"));
    CHECK(fs::is_empty(s.cache));
  }
  {
    Scratch s;
    fs::create_directories(s.cache);
    ::chmod(s.cache.c_str(), 0500);
    const engine::Status st = compiler::compile_to_shared_object(t.emitted.source, "tiny.rules", s.options(), so);
    CHECK_FALSE(st.ok);
    CHECK(so.cache_error);
    CHECK(has(st.message, s.cache.string() + " is read-only (mode 0500)"));
    CHECK_FALSE(has(st.message, "does not compile"));
  }
  {
    // Readable by others but writable only by its owner: no one else could have put
    // anything in it, so it is made private and used.
    Scratch s;
    fs::create_directories(s.cache);
    ::chmod(s.cache.c_str(), 0755);
    const engine::Status st = compiler::compile_to_shared_object(t.emitted.source, "tiny.rules", s.options(), so);
    INFO(st.message);
    CHECK(st.ok);
    CHECK(mode_of(s.cache) == 0700);
  }
  {
    Scratch s;
    std::ofstream(s.cache.string()) << "a file, not a folder";
    const engine::Status st = compiler::compile_to_shared_object(t.emitted.source, "tiny.rules", s.options(), so);
    CHECK_FALSE(st.ok);
    CHECK(has(st.message, "is not a directory"));
  }
  if (::geteuid() == 0) {
    Scratch s;
    fs::create_directories(s.cache);
    ::chmod(s.cache.c_str(), 0700);
    REQUIRE(::chown(s.cache.c_str(), 65534, 65534) == 0);
    const engine::Status st = compiler::compile_to_shared_object(t.emitted.source, "tiny.rules", s.options(), so);
    CHECK_FALSE(st.ok);
    CHECK(has(st.message, "belongs to user id 65534"));
  }
}

TEST_CASE("with no HOME, XDG_CACHE_HOME or RULEBOOK_CACHE there is no cache", "[cache]") {
  EnvVar home("HOME", nullptr), xdg("XDG_CACHE_HOME", nullptr), rb("RULEBOOK_CACHE", nullptr);
  CHECK(compiler::cache_directory({}) == "");
  Tiny t;
  compiler::SharedObject so;
  const engine::Status st = compiler::compile_to_shared_object(t.emitted.source, "tiny.rules", {}, so);
  CHECK_FALSE(st.ok);
  CHECK(so.cache_error);
  CHECK(has(st.message, "set RULEBOOK_CACHE"));
  {
    EnvVar x("XDG_CACHE_HOME", "/somewhere");
    CHECK(compiler::cache_directory({}) == "/somewhere/rulebook");
  }
  {
    EnvVar h("HOME", "/home/someone");
    CHECK(compiler::cache_directory({}) == "/home/someone/.cache/rulebook");
    EnvVar r("RULEBOOK_CACHE", "/mine");
    CHECK(compiler::cache_directory({}) == "/mine");
  }
}

TEST_CASE("another compiler is another cache entry, and a failure leaves no temporary file",
          "[cache]") {
  Tiny t;
  Scratch s;
  compiler::SharedObject a, b;
  REQUIRE(compiler::compile_to_shared_object(t.emitted.source, "tiny.rules", s.options(), a).ok);
  // A compiler replaced in place (same command, another program and --version) is
  // another key: an upgrade never reuses objects of the old one.
  const fs::path wrapper = s.root / "cxx";
  auto write_wrapper = [&](const char* version) {
    std::ofstream(wrapper) << "#!/bin/sh\nif [ \"$1\" = --version ]; then echo " << version
                           << "; exit 0; fi\nexec c++ \"$@\"\n";
    fs::permissions(wrapper, fs::perms::owner_all);
  };
  write_wrapper("one");
  compiler::CompileOptions other = s.options();
  other.compiler = wrapper.string();
  REQUIRE(compiler::compile_to_shared_object(t.emitted.source, "tiny.rules", other, b).ok);
  CHECK(a.path != b.path);
  write_wrapper("two, a longer version line");
  compiler::SharedObject c;
  REQUIRE(compiler::compile_to_shared_object(t.emitted.source, "tiny.rules", other, c).ok);
  CHECK_FALSE(c.reused);
  CHECK(c.path != b.path);

  compiler::SharedObject broken;
  const engine::Status st = compiler::compile_to_shared_object("not C++\n", "broken.rules", s.options(), broken);
  CHECK_FALSE(st.ok);
  CHECK_FALSE(broken.cache_error);
  CHECK(has(st.message, "does not compile"));
  CHECK(leftovers(s.cache).empty());
  CHECK_FALSE(fs::exists(broken.path));
  CHECK_FALSE(fs::exists(fs::path(broken.path).replace_extension(".sum")));
}
