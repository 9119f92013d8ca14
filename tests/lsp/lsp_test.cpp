// Unit tests of the language server: framing, UTF-16 positions, URIs, lifecycle, features.
#include <cctype>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <set>
#include <sstream>

#include <unistd.h>

#include <catch2/catch.hpp>

#include "dsl/builtins.h"
#include "dsl/lexer.h"
#include "lsp/features.h"
#include "lsp/jsonrpc.h"
#include "lsp/server.h"
#include "lsp/text.h"

using rulebook::lsp::LineTable;
using rulebook::lsp::LspPosition;
using rulebook::lsp::Server;
using nlohmann::json;

namespace {

namespace fs = std::filesystem;

const char* kBase = R"(game "Base";
board 3 x 3;
players 2;
/// How many stones are down.
state placed: 0..9;
define full = placed == 9;
phase play {
  move put(c: Cell) requires not full; { placed += 1; }
}
end when full;
)";

const char* kVariant = R"(variant "Variant" extends "base.rules";
metric stones = placed at end;
override end when ful;
)";

/// A directory with base.rules and variant.rules, removed afterwards.
struct Workspace {
  fs::path dir;
  Workspace() {
    dir = fs::temp_directory_path() / ("rulebook-lsp-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "base.rules") << kBase;
  }
  ~Workspace() { fs::remove_all(dir); }
  std::string uri(const char* name) const { return rulebook::lsp::path_to_uri((dir / name).string()); }
};

json request(int id, const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

json note(const std::string& method, json params) {
  return {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}};
}

json at(const std::string& uri, int line, int character) {
  return {{"textDocument", {{"uri", uri}}}, {"position", {{"line", line}, {"character", character}}}};
}

json range(int line, int from, int to) {
  return {{"start", {{"line", line}, {"character", from}}}, {"end", {{"line", line}, {"character", to}}}};
}

/// A server past `initialize` with the variant open; `opened` gets what didOpen sent.
Server open_variant(const Workspace& w, std::vector<json>* opened = nullptr) {
  Server s;
  s.handle(request(1, "initialize", json::object()));
  auto out = s.handle(note("textDocument/didOpen",
                           {{"textDocument", {{"uri", w.uri("variant.rules")}, {"version", 1}, {"text", kVariant}}}}));
  if (opened) *opened = out;
  return s;
}

}  // namespace

TEST_CASE("LineTable counts characters in UTF-16 code units", "[lsp]") {
  // "é" is 2 bytes and 1 unit; the emoji is 4 bytes and 2 units (a surrogate pair).
  const std::string text = "ab\n\xC3\xA9x\xF0\x9F\x98\x80y\n";
  LineTable lines(text);
  CHECK(lines.position(0).line == 0);
  CHECK(lines.position(5).character == 1);  // x, after é
  CHECK(lines.position(6).character == 2);  // the emoji
  CHECK(lines.position(10).character == 4);  // y
  CHECK(lines.offset({1, 4}) == 10);
  CHECK(lines.offset({1, 99}) == 11);  // past the end of a line: its end
  CHECK(lines.offset({9, 0}) == text.size());
}

TEST_CASE("file URIs are decoded and encoded", "[lsp]") {
  CHECK(rulebook::lsp::uri_to_path("file:///tmp/a%20b.rules") == "/tmp/a b.rules");
  CHECK(rulebook::lsp::uri_to_path("file://localhost/x") == "/x");
  CHECK(rulebook::lsp::uri_to_path("untitled:1").empty());
  CHECK(rulebook::lsp::path_to_uri("/tmp/a b#.rules") == "file:///tmp/a%20b%23.rules");
}

TEST_CASE("messages are framed by Content-Length", "[lsp]") {
  std::istringstream in("Content-Length: 2\r\n\r\n{}content-length:  3\r\nX-Other: y\r\n\r\n[1]"
                        "Bogus: 1\r\n\r\n");
  std::string body, error;
  CHECK(rulebook::lsp::read_message(in, body, error) == rulebook::lsp::ReadResult::Message);
  CHECK(body == "{}");
  CHECK(rulebook::lsp::read_message(in, body, error) == rulebook::lsp::ReadResult::Message);
  CHECK(body == "[1]");
  CHECK(rulebook::lsp::read_message(in, body, error) == rulebook::lsp::ReadResult::BadFrame);
  CHECK(rulebook::lsp::read_message(in, body, error) == rulebook::lsp::ReadResult::EndOfStream);
  std::ostringstream out;
  rulebook::lsp::write_message(out, json{{"a", 1}});
  CHECK(out.str() == "Content-Length: 7\r\n\r\n{\"a\":1}");
}

TEST_CASE("the lifecycle: errors for bad input, shutdown then exit", "[lsp]") {
  Server s;
  CHECK(s.handle_text("{oops")[0]["error"]["code"] == -32700);
  CHECK(s.handle_text("[1, 2]")[0]["error"]["code"] == -32600);
  CHECK(s.handle(request(1, "textDocument/hover", json::object()))[0]["error"]["code"] == -32002);
  CHECK(s.handle(request(2, "initialize", json::object()))[0]["result"]["capabilities"]["hoverProvider"] == true);
  CHECK(s.handle(request(3, "no/such/method", json::object()))[0]["error"]["code"] == -32601);
  CHECK(s.handle(note("no/such/notification", json::object())).empty());
  CHECK(s.handle(request(4, "textDocument/hover", json{{"textDocument", 5}}))[0]["error"]["code"] == -32602);
  CHECK(s.handle(note("textDocument/didOpen", json::array())).empty());  // malformed: dropped
  CHECK(s.handle(request(5, "shutdown", nullptr))[0]["result"].is_null());
  CHECK(s.handle(request(6, "textDocument/hover", json::object()))[0]["error"]["code"] == -32600);
  CHECK_FALSE(s.exited());
  s.handle(note("exit", nullptr));
  CHECK(s.exited());
  CHECK(s.exit_code() == 0);

  Server abrupt;
  abrupt.handle(note("exit", nullptr));
  CHECK(abrupt.exit_code() == 1);
}

TEST_CASE("run() answers framed requests until exit", "[lsp]") {
  auto frame = [](const std::string& body) {
    return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  };
  std::istringstream in(frame(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})") +
                        frame("not json") + frame(R"({"jsonrpc":"2.0","id":2,"method":"shutdown"})") +
                        frame(R"({"jsonrpc":"2.0","method":"exit"})"));
  std::ostringstream out;
  Server s;
  CHECK(s.run(in, out) == 0);
  CHECK(out.str().find("\"code\":-32700") != std::string::npos);
  CHECK(out.str().find("{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":null}") != std::string::npos);
}

TEST_CASE("diagnostics on open and change, with a quick fix", "[lsp]") {
  Workspace w;
  std::vector<json> opened;
  Server s = open_variant(w, &opened);
  REQUIRE(opened.size() == 1);
  const json& params = opened[0]["params"];
  CHECK(params["version"] == 1);
  REQUIRE(params["diagnostics"].size() == 1);
  const json& d = params["diagnostics"][0];
  CHECK(d["range"] == range(2, 18, 21));
  CHECK(d["message"] == "unknown name 'ful'\nhelp: did you mean 'full'?");
  auto actions = s.handle(request(2, "textDocument/codeAction",
                                  {{"textDocument", {{"uri", w.uri("variant.rules")}}}, {"range", range(2, 19, 19)},
                                   {"context", {{"diagnostics", json::array()}}}}))[0]["result"];
  REQUIRE(actions.size() == 1);
  CHECK(actions[0]["edit"]["changes"][w.uri("variant.rules")][0]["newText"] == "full");

  std::string fixed = kVariant;
  fixed.replace(fixed.find("ful;"), 3, "full");
  auto out = s.handle(note("textDocument/didChange", {{"textDocument", {{"uri", w.uri("variant.rules")}, {"version", 2}}},
                                                       {"contentChanges", {{{"text", fixed}}}}}));
  REQUIRE(out.size() == 1);
  CHECK(out[0]["params"]["diagnostics"].empty());
  // An incremental change (a range replaced) works too: the typo back.
  out = s.handle(note("textDocument/didChange", {{"textDocument", {{"uri", w.uri("variant.rules")}, {"version", 3}}},
                                                  {"contentChanges", {{{"range", range(2, 18, 22)}, {"text", "ful"}}}}}));
  CHECK(out[0]["params"]["diagnostics"].size() == 1);
}

TEST_CASE("a checker warning is published with severity warning and its code", "[lsp]") {
  Workspace w;
  Server s;
  s.handle(request(1, "initialize", json::object()));
  const std::string text = "variant \"V\" extends \"base.rules\";\ndefine spare = 1;\n";
  auto out = s.handle(note("textDocument/didOpen",
                           {{"textDocument", {{"uri", w.uri("variant.rules")}, {"version", 1}, {"text", text}}}}));
  REQUIRE(out.size() == 1);
  const json& diags = out[0]["params"]["diagnostics"];
  REQUIRE(diags.size() == 1);
  CHECK(diags[0]["severity"] == 2);
  CHECK(diags[0]["code"] == "unused");
  CHECK(diags[0]["range"] == range(1, 7, 12));
  CHECK(diags[0]["message"] ==
        "define 'spare' is never used\nhelp: remove it, or acknowledge with 'allow unused spare \"reason\";'");
}

TEST_CASE("hover, definition and references across extends", "[lsp]") {
  Workspace w;
  Server s = open_variant(w);
  const std::string v = w.uri("variant.rules");
  json hover = s.handle(request(2, "textDocument/hover", at(v, 1, 17)))[0]["result"];
  CHECK(hover["range"] == range(1, 16, 22));
  CHECK(hover["contents"]["value"] ==
        "```rules\nstate placed: 0..9\n```\n\ndeclared in `base.rules` line 5\n\nHow many stones are down.\n");
  json def = s.handle(request(3, "textDocument/definition", at(v, 1, 16)))[0]["result"];
  CHECK(def == json::array({{{"uri", w.uri("base.rules")}, {"range", range(4, 6, 12)}}}));
  json refs = s.handle(request(4, "textDocument/references", at(v, 1, 20)))[0]["result"];
  CHECK(refs.size() == 4);  // declared, used in `put`, in `full`, in the variant's metric
  // A built-in has no declaration to go to.
  CHECK(s.handle(request(5, "textDocument/definition", at(v, 0, 0)))[0]["result"].is_null());
}

TEST_CASE("rename, completion and formatting", "[lsp]") {
  Workspace w;
  Server s = open_variant(w);
  const std::string v = w.uri("variant.rules");
  json params = at(v, 1, 18);
  params["newName"] = "stones_down";
  json edit = s.handle(request(2, "textDocument/rename", params))[0]["result"]["changes"];
  CHECK(edit[v].size() == 1);
  CHECK(edit[w.uri("base.rules")].size() == 3);
  params["newName"] = "rows";
  CHECK(s.handle(request(3, "textDocument/rename", params))[0]["error"]["code"] == -32602);

  json items = s.handle(request(4, "textDocument/completion", at(v, 1, 18)))[0]["result"]["items"];
  std::vector<std::string> labels;
  for (const json& i : items) labels.push_back(i["label"]);
  std::sort(labels.begin(), labels.end());
  CHECK(labels == std::vector<std::string>{"placed", "play", "players"});

  json formatted = rulebook::lsp::formatting("/x.rules", "game \"G\";\nboard   3 x 3;\n");
  REQUIRE(formatted.size() == 1);
  CHECK(formatted[0]["newText"] == "game \"G\";\n\nboard 3 x 3;\n");
  CHECK(rulebook::lsp::formatting("/x.rules", "game \"G\" board").empty());
}

TEST_CASE("a phase named by single-move edits is renamed and formatted with them", "[lsp]") {
  Workspace w;
  Server s;
  s.handle(request(1, "initialize", json::object()));
  const std::string text =
      "variant \"V\" extends \"base.rules\";\nmove pass in play { }\nremove move put from play;\n";
  const std::string v = w.uri("variant.rules");
  auto out = s.handle(note("textDocument/didOpen", {{"textDocument", {{"uri", v}, {"version", 1}, {"text", text}}}}));
  REQUIRE(out.size() == 1);
  CHECK(out[0]["params"]["diagnostics"].empty());
  json params = at(v, 1, 14);
  params["newName"] = "main";
  json edit = s.handle(request(2, "textDocument/rename", params))[0]["result"]["changes"];
  CHECK(edit[v].size() == 2);
  CHECK(edit[w.uri("base.rules")].size() == 1);
  json formatted = rulebook::lsp::formatting("/x.rules", text);
  REQUIRE(formatted.size() == 1);
  CHECK(formatted[0]["newText"] ==
        "variant \"V\" extends \"base.rules\";\n\nmove pass in play {}\n\nremove move put from play;\n");
}

TEST_CASE("the editor grammar colours every keyword and built-in", "[lsp][editors]") {
  const fs::path vscode = fs::path(RULEBOOK_SOURCE_DIR) / "editors" / "vscode";
  json package = json::parse(std::ifstream(vscode / "package.json"));
  const std::string grammar_path = package["contributes"]["grammars"][0]["path"];
  REQUIRE(fs::exists(vscode / grammar_path));
  REQUIRE(fs::exists(vscode / package["main"].get<std::string>()));
  CHECK_FALSE(json::parse(std::ifstream(vscode / "language-configuration.json"), nullptr, false).is_discarded());
  json grammar = json::parse(std::ifstream(vscode / grammar_path));
  CHECK(grammar["scopeName"] == package["contributes"]["grammars"][0]["scopeName"]);
  // Every word alternative of every `match`, e.g. `\b(if|then)\b` gives if, then.
  std::set<std::string> words;
  std::function<void(const json&)> walk = [&](const json& j) {
    if (j.is_object()) {
      if (j.contains("match")) {
        std::string m = j["match"];
        std::string word;
        for (char c : m + "|") {
          if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
            word += c;
          } else {
            if (c == '|' || c == ')') words.insert(word);
            word.clear();
          }
        }
      }
      for (const auto& item : j.items()) walk(item.value());
    } else if (j.is_array()) {
      for (const json& e : j) walk(e);
    }
  };
  walk(grammar);
  using rulebook::dsl::TokenKind;
  for (int k = static_cast<int>(TokenKind::KwGame); k <= static_cast<int>(TokenKind::KwProperty); ++k) {
    const std::string word(rulebook::dsl::token_spelling(static_cast<TokenKind>(k)));
    INFO(word);
    CHECK(words.count(word) == 1);
  }
  for (const rulebook::dsl::Builtin& b : rulebook::dsl::builtins()) {
    const std::string word(b.name);
    INFO(word);
    CHECK(words.count(word) == 1);
  }
}

TEST_CASE("random edits and requests at random places never break the server", "[lsp]") {
  Workspace w;
  Server s = open_variant(w);
  const std::string v = w.uri("variant.rules");
  std::mt19937 rng(20261126);
  const std::string alphabet = "abcdefilnoprstuvw_ :;=(){}.,\"\n/0123456789\xC3\xA9";
  const char* methods[] = {"textDocument/hover",      "textDocument/definition", "textDocument/references",
                           "textDocument/completion", "textDocument/rename",     "textDocument/codeAction",
                           "textDocument/formatting"};
  int id = 100;
  for (int round = 0; round < 300; ++round) {
    // An edit: a random range (possibly past the end) replaced by random text.
    std::string text;
    for (int i = std::uniform_int_distribution<int>(0, 6)(rng); i > 0; --i)
      text += alphabet[std::uniform_int_distribution<size_t>(0, alphabet.size() - 1)(rng)];
    const int line = std::uniform_int_distribution<int>(0, 5)(rng);
    const int from = std::uniform_int_distribution<int>(0, 40)(rng);
    json change = {{"range", range(line, from, from + std::uniform_int_distribution<int>(0, 3)(rng))},
                   {"text", text}};
    auto out = s.handle(note("textDocument/didChange",
                             {{"textDocument", {{"uri", v}, {"version", round + 2}}}, {"contentChanges", {change}}}));
    REQUIRE(out.size() == 1);
    CHECK(out[0]["method"] == "textDocument/publishDiagnostics");
    // A request at a random position: answered with a result or an error, never thrown.
    json params = at(v, std::uniform_int_distribution<int>(0, 6)(rng), std::uniform_int_distribution<int>(0, 60)(rng));
    params["newName"] = "renamed";
    params["range"] = range(params["position"]["line"], 0, params["position"]["character"]);
    params["context"] = {{"includeDeclaration", true}, {"diagnostics", json::array()}};
    const char* method = methods[std::uniform_int_distribution<size_t>(0, std::size(methods) - 1)(rng)];
    auto answer = s.handle(request(++id, method, params));
    REQUIRE(answer.size() == 1);
    CHECK((answer[0].contains("result") || answer[0].contains("error")));
  }
  // Messages that are JSON but not requests, or requests with parameters of the wrong types.
  for (const char* body : {"null", "1", "\"x\"", "{}", "{\"id\":{}}", "{\"method\":1}",
                           "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"textDocument/hover\",\"params\":[]}",
                           "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"textDocument/hover\","
                           "\"params\":{\"textDocument\":{\"uri\":7},\"position\":{\"line\":-1}}}"}) {
    INFO(body);
    CHECK_NOTHROW(s.handle_text(body));
  }
}

TEST_CASE("a problem in the base file is shown on the extends clause", "[lsp]") {
  Workspace w;
  std::ofstream(w.dir / "broken.rules") << "game \"B\";\nboard 3 x 3;\nplayers 1;\nstate s: 0..3 = widt;\n";
  Server s;
  s.handle(request(1, "initialize", json::object()));
  const std::string text = "variant \"V\" extends \"broken.rules\";\n";
  auto out = s.handle(note("textDocument/didOpen",
                           {{"textDocument", {{"uri", w.uri("v.rules")}, {"version", 1}, {"text", text}}}}));
  REQUIRE(out.size() == 1);
  const json& diags = out[0]["params"]["diagnostics"];
  REQUIRE(diags.size() == 1);
  CHECK(diags[0]["range"] == range(0, 20, 34));  // "broken.rules" with its quotes
  CHECK(diags[0]["message"] == "broken.rules:4:17: unknown name 'widt'\nhelp: did you mean 'width'?");
  // Its quick fix edits the base file.
  json actions = s.handle(request(2, "textDocument/codeAction",
                                  {{"textDocument", {{"uri", w.uri("v.rules")}}}, {"range", range(0, 25, 25)},
                                   {"context", {{"diagnostics", json::array()}}}}))[0]["result"];
  REQUIRE(actions.size() == 1);
  json edit = {{"range", range(3, 16, 20)}, {"newText", "width"}};
  CHECK(actions[0]["edit"]["changes"] == json{{w.uri("broken.rules"), json::array({edit})}});
}

TEST_CASE("an unsaved document is answered under its own URI", "[lsp]") {
  Server s;
  s.handle(request(1, "initialize", json::object()));
  const std::string uri = "untitled:Untitled-1";
  const std::string text = "game \"G\";\nboard 3 x 3;\nplayers 1;\nstate s: 0..3 = 1;\nend when s == 2;\n";
  auto out = s.handle(note("textDocument/didOpen", {{"textDocument", {{"uri", uri}, {"version", 1}, {"text", text}}}}));
  CHECK(out[0]["params"]["uri"] == uri);
  CHECK(out[0]["params"]["diagnostics"].empty());
  json refs = s.handle(request(2, "textDocument/references", at(uri, 4, 9)))[0]["result"];
  REQUIRE(refs.size() == 2);
  CHECK(refs[0]["uri"] == uri);
  CHECK(refs[0]["range"] == range(3, 6, 7));
}
