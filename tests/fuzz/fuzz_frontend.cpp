// libFuzzer target: any bytes through the front end must give diagnostics, never a crash,
// and any file that parses must format to text that parses to the same tree, idempotently.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "dsl/check.h"
#include "dsl/load.h"
#include "dsl/parser.h"
#include "dsl/printer.h"

using namespace rulebook::dsl;

namespace {

void fail(const char* what, const std::string& text) {
  std::fprintf(stderr, "fuzz_frontend: %s\n--- formatted ---\n%s\n", what, text.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  SourceSet sources;
  uint32_t id = sources.add("fuzz.rules", std::string(reinterpret_cast<const char*>(data), size));
  Diagnostics diags;
  std::unique_ptr<File> file = parse(sources, id, diags);
  if (!file) fail("parse returned no tree", "");
  if (diags.has_errors()) {
    if (diags.render(sources).empty()) fail("errors rendered as nothing", "");
    return 0;
  }
  std::string once = format_file(*file);
  uint32_t id2 = sources.add("formatted.rules", once);
  Diagnostics diags2;
  std::unique_ptr<File> again = parse(sources, id2, diags2);
  if (diags2.has_errors()) fail(("formatted text does not parse:\n" + diags2.render(sources)).c_str(), once);
  if (!same_tree(*file, *again)) fail("formatted text parses to another tree", once);
  if (format_file(*again) != once) fail("formatting is not idempotent", once);

  // The checker must cope with any tree the parser accepts.
  Diagnostics diags3;
  check_game(load_game_source(id, sources, diags3), sources, diags3);
  return 0;
}
