// `rulebook explore --list`: the states of a depth with what the rules' defines say of them.
#include "cli/explore_list.h"

#include <algorithm>
#include <chrono>

#include <nlohmann/json.hpp>

#include "cli/json_out.h"
#include "compiler/interp/interpret.h"

namespace rulebook::cli {
namespace {

/// The most values of one observed define per state (a parameter's type this large is
/// rather a number than a place: define the few to observe).
constexpr uint32_t kMostObservedValues = 4096;

/// A value of type `t` as JSON: a number (an int or a range), true/false, a member's text
/// (`r2c3`, `light`), an array for a set or a list.
nlohmann::json value_json(const ir::Program& p, const ir::Type& t, const compiler::interp::Value& v) {
  if (t.kind == ir::Type::Kind::List) {
    nlohmann::json a = nlohmann::json::array();
    for (const compiler::interp::Value& x : v.list) a.push_back(value_json(p, *t.elem, x));
    return a;
  }
  if (t.kind == ir::Type::Kind::Set) {
    nlohmann::json a = nlohmann::json::array();
    const uint32_t n = p.domains[size_t(t.domain)].size;
    ir::Type elem;
    elem.domain = t.domain;
    for (uint32_t i = 0; i < n; ++i)
      if (i / 64 < v.set.size() && (v.set.data()[i / 64] >> (i % 64) & 1)) {
        compiler::interp::Value x;
        x.scalar = ir::domain_value(p.domains, t.domain, i);
        a.push_back(value_json(p, elem, x));
      }
    return a;
  }
  if (t.domain < 0 || p.domains[size_t(t.domain)].kind == ir::Domain::Kind::Range) return v.scalar;
  if (p.domains[size_t(t.domain)].kind == ir::Domain::Kind::Bool) return v.scalar != 0;
  return ir::value_text(p.domains, t.domain, v.scalar);
}

}  // namespace

std::string observed_defines(const ir::Program& p, const std::vector<std::string>& names,
                             std::vector<int>& defines) {
  for (const std::string& name : names) {
    int found = -1;
    for (size_t f = 0; f < p.functions.size(); ++f)
      if (p.functions[f].name == name) found = int(f);
    if (found < 0) return "--observe " + name + ": no define of that name";
    const ir::Function& fn = p.functions[size_t(found)];
    if (fn.params.size() > 1)
      return "--observe " + name + ": a define of " + std::to_string(fn.params.size()) +
             " parameters (observe one of none or one, and define it from this one)";
    if (fn.params.size() == 1) {
      const ir::Type& t = *fn.params[0];
      if (t.kind != ir::Type::Kind::Scalar || t.domain < 0)
        return "--observe " + name + ": its parameter must be of a finite type (a cell, a point, a range, "
               "an enum, a player), not " + (t.kind == ir::Type::Kind::Scalar ? "int" : "a set or a list");
      if (p.domains[size_t(t.domain)].size > kMostObservedValues)
        return "--observe " + name + ": its parameter has " + std::to_string(p.domains[size_t(t.domain)].size) +
               " values; at most " + std::to_string(kMostObservedValues) + " are observed per state";
    }
    if (std::find(defines.begin(), defines.end(), found) == defines.end()) defines.push_back(found);
  }
  return "";
}

std::string StateList::json(const std::string& file, int depth, const std::atomic<bool>* interrupt,
                            const std::function<void(size_t, size_t)>& progress) {
  const ir::Program& p = program_;
  const size_t n = size(), sb = p.state_bytes;
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::memcmp(states_.data() + a * sb, states_.data() + b * sb, sb) < 0;
  });
  nlohmann::ordered_json doc;
  doc["file"] = file;
  doc["depth"] = depth;
  doc["states"] = n;
  nlohmann::ordered_json observe = nlohmann::ordered_json::array();
  std::vector<uint64_t> failures(defines_.size(), 0);
  for (int f : defines_) {
    const ir::Function& fn = p.functions[size_t(f)];
    nlohmann::ordered_json o;
    o["name"] = fn.name;
    if (!fn.params.empty()) {
      o["parameter"] = fn.param_names.at(0);
      nlohmann::ordered_json vals = nlohmann::ordered_json::array();
      const int d = fn.params[0]->domain;
      for (uint32_t i = 0; i < p.domains[size_t(d)].size; ++i)
        vals.push_back(ir::value_text(p.domains, d, ir::domain_value(p.domains, d, i)));
      o["values"] = vals;
    }
    observe.push_back(o);
  }
  compiler::Interpreter interp(p, sources_);
  compiler::Evaluator ev(interp);
  ev.remember_defines(true);  // one state read many ways: its defines of no parameter once
  std::string list;  // one state a line
  std::vector<uint8_t> work;
  auto last = std::chrono::steady_clock::now();
  for (size_t done = 0; done < n; ++done) {
    if (interrupt && interrupt->load()) return "";
    if (progress && std::chrono::steady_clock::now() - last > std::chrono::seconds(1)) {
      progress(done, n);
      last = std::chrono::steady_clock::now();
    }
    const size_t i = order[done];
    const std::vector<uint8_t> s(states_.data() + i * sb, states_.data() + (i + 1) * sb);
    nlohmann::ordered_json item;
    item["state"] = state_hex(s);
    nlohmann::ordered_json values;
    work.assign(s.begin(), s.end());
    work.resize(p.state_bytes + 8, 0);
    ev.start(work.data());  // a call does not write the state: one start per state
    for (size_t k = 0; k < defines_.size(); ++k) {
      const ir::Function& fn = p.functions[size_t(defines_[k])];
      auto one = [&](const std::vector<compiler::interp::Value>& args) -> nlohmann::json {
        compiler::interp::Value out;
        if (!ev.call(defines_[k], args, out).ok) {
          ++failures[k];
          return nullptr;
        }
        return value_json(p, *fn.result, out);
      };
      if (fn.params.empty()) {
        values[fn.name] = one({});
      } else {
        nlohmann::json a = nlohmann::json::array();
        const int d = fn.params[0]->domain;
        for (uint32_t i = 0; i < p.domains[size_t(d)].size; ++i) {
          compiler::interp::Value arg;
          arg.scalar = ir::domain_value(p.domains, d, i);
          a.push_back(one({arg}));
        }
        values[fn.name] = a;
      }
    }
    item["values"] = values;
    list += (list.empty() ? "\n  " : ",\n  ") + item.dump();
  }
  for (size_t k = 0; k < defines_.size(); ++k) observe[k]["failures"] = failures[k];
  doc["observe"] = observe;
  doc["list"] = nlohmann::ordered_json::array();
  std::string text = doc.dump(1);
  // The list last, each state on a line of its own.
  const std::string tail = "\"list\": []\n}";
  text.replace(text.size() - tail.size(), tail.size(), "\"list\": [" + list + (list.empty() ? "]" : "\n ]") + "\n}");
  return text + "\n";
}

}  // namespace rulebook::cli
