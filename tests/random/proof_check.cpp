// The verifier against brute force on one program: verdicts, values, and each board read
// again by the interpreter; a batch of seeds on worker threads.
#include "tests/random/proof_check.h"

#include <fmt/core.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

#include "compiler/lower/lower.h"
#include "verifier/verify.h"

namespace rulebook::testing {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string verdict_text(const std::string& verdict, const std::optional<int64_t>& value) {
  return value && (verdict == "bound" || verdict == "derived") ? fmt::format("{} {}", verdict, *value) : verdict;
}

/// "" when the verifier's board backs its verdict, else what is wrong with it.
std::string check_board(BruteForce& brute, const ir::Property& prop, const verifier::Result& r) {
  const std::string v = verifier::verdict_name(r.verdict);
  const bool needs_board = v == "refuted" || v == "found" || v == "bound" || v == "not-constant" || v == "error" ||
                           v == "consistent" || v == "not-redundant";
  if (!needs_board) return "";
  if (!r.board) return "no board is shown";
  const std::optional<Element> el = brute.element(prop, r.board->state, r.board->move);
  if (!el) return "the board's move '" + r.board->move + "' is no instance of the property's moves";
  if (!el->in_set) return "the board is not in the set (a board rule, the phase, the move's legality or where fails)";
  const int64_t x = el->value.scalar;
  const std::string got = el->err ? "an error (" + el->error + ")" : std::to_string(x);
  if (v == "refuted" && !el->err && x != 0) return "the counterexample satisfies the property";
  if (v == "found" && (el->err || x == 0)) return "the witness gives " + got;
  if (v == "bound" && (el->err || x != *r.value)) return "the board reaching the bound gives " + got;
  if (v == "not-constant" && r.value && !el->err && x == *r.value) return "the board gives the derived value itself";
  if (v == "error" && !el->err) return "the value does not err on the board (it is " + got + ")";
  if (v == "not-redundant" && x != 0) return "the rule holds on the board";
  return "";
}

PropertyCheck compare(BruteForce& brute, const ir::Property& prop, const verifier::Result& r, const BruteVerdict& b) {
  PropertyCheck c;
  c.name = r.name;
  c.kind = ir::kind_name(r.kind);
  c.verifier = verdict_text(verifier::verdict_name(r.verdict), r.value);
  c.brute = verdict_text(b.verdict, b.value);
  c.detail = r.detail;
  c.elements = b.elements;
  const bool unshown = r.verdict == verifier::Verdict::Proved && r.detail.find("not shown to have an element") != std::string::npos;
  if (b.verdict == "unsupported") c.outcome = PropertyCheck::Unchecked;
  else if (!r.definite() || (unshown && b.verdict == "vacuous")) c.outcome = PropertyCheck::Unknown;
  else if (b.verdict == "too large") c.outcome = PropertyCheck::TooLarge;
  else if (verifier::verdict_name(r.verdict) != b.verdict) c.outcome = PropertyCheck::Disagree, c.message = "the verdicts differ";
  else if ((r.verdict == verifier::Verdict::Bound || (r.verdict == verifier::Verdict::Derived && b.value)) && r.value != b.value)
    c.outcome = PropertyCheck::Disagree, c.message = "the values differ";
  else if (std::string why = check_board(brute, prop, r); !why.empty())
    c.outcome = PropertyCheck::Disagree, c.message = why;
  if (c.outcome == PropertyCheck::Disagree) {
    c.message = fmt::format("{} {}: {}: verifier says {}, brute force says {} ({} elements in the set, {} states)\n{}",
                            ir::kind_name(r.kind), r.name, c.message, c.verifier, c.brute, b.elements, b.states,
                            verifier::result_text(r, false));
  }
  return c;
}

/// `depends S`: with only the needed rules S holds, without any one of them it does not
/// (the set is minimal), and each rule dropped from all gives the verdict shown.
PropertyCheck compare_depends(BruteForce& brute, const ir::Program& p, const ir::Property& prop,
                              const verifier::Result& r) {
  PropertyCheck c;
  c.name = r.name;
  c.kind = ir::kind_name(r.kind);
  c.detail = r.detail;
  c.verifier = verifier::verdict_name(r.verdict);
  for (const std::string& n : r.needs) c.verifier += " " + n;
  const ir::Property* subject = nullptr;
  for (const ir::Property& q : p.properties)
    if (q.name == prop.subject && q.kind != ir::PropertyKind::Depends) subject = &q;
  if (!r.definite() || !subject) {
    c.outcome = PropertyCheck::Unknown;
    return c;
  }
  std::set<std::string> all;
  for (const ir::Rule& rule : p.rules) all.insert(rule.name);
  auto verdict_without = [&](const std::set<std::string>& off) {
    brute.drop_rules(off);
    BruteVerdict v = brute.verdict(*subject);
    brute.drop_rules({});
    return v;
  };
  auto only = [&](const std::set<std::string>& on) {
    std::set<std::string> off;
    for (const std::string& n : all)
      if (!on.count(n)) off.insert(n);
    return off;
  };
  std::string why;
  bool too_large = false;
  auto refuted = [&](const std::set<std::string>& off) {
    const BruteVerdict v = verdict_without(off);
    too_large = too_large || v.verdict == "too large";
    return v.verdict == "refuted";
  };
  if (r.verdict == verifier::Verdict::Refuted) {
    if (!refuted({})) why = "the subject is not refuted with every rule";
  } else if (r.verdict == verifier::Verdict::Depends) {
    const std::set<std::string> need(r.needs.begin(), r.needs.end());
    if (refuted(only(need))) why = "with only the needed rules the subject is refuted";
    for (const std::string& n : need) {
      std::set<std::string> fewer = need;
      fewer.erase(n);
      if (!refuted(only(fewer))) why = "not minimal: the subject holds without " + n;
    }
    for (const verifier::RuleDrop& d : r.drops) {
      if ((d.verdict == verifier::Verdict::Refuted) != refuted({d.rule}) && d.verdict != verifier::Verdict::Unknown)
        why = "without " + d.rule + " the verifier says " + std::string(verifier::verdict_name(d.verdict)) + ", brute force the opposite";
      if (d.verdict == verifier::Verdict::Refuted && d.board) {
        brute.drop_rules({d.rule});
        const std::optional<Element> el = brute.element(*subject, d.board->state, d.board->move);
        brute.drop_rules({});
        if (!el || !el->in_set || (!el->err && el->value.scalar != 0))
          why = "the board shown without " + d.rule + " is not a counterexample in that set";
      }
    }
  } else {
    why = "an unexpected verdict";
  }
  c.brute = why.empty() ? std::string(verifier::verdict_name(r.verdict)) : "no";
  if (too_large) c.outcome = PropertyCheck::TooLarge;
  else if (!why.empty()) {
    c.outcome = PropertyCheck::Disagree;
    c.message = fmt::format("depends {}: {}: verifier says {}\n{}", prop.subject, why, c.verifier,
                            verifier::result_text(r, false));
  }
  return c;
}

}  // namespace

ProofResult run_proof_check(const std::string& name, const std::string& text, const ProofOptions& options) {
  ProofResult out;
  try {
    dsl::SourceSet sources;
    dsl::Diagnostics diags;
    auto program = compiler::load_program_text(name, text, sources, diags);
    if (!program) {
      out.kind = ProofResult::CheckFailed;
      out.message = diags.render(sources);
      return out;
    }
    verifier::Options vo;
    vo.rlimit = options.rlimit;
    vo.timeout_seconds = options.timeout_seconds;
    auto t0 = Clock::now();
    const std::vector<verifier::Result> results = verifier::verify(*program, sources, vo);
    out.verify_seconds = since(t0);
    t0 = Clock::now();
    BruteForce brute(*program, sources, options.brute);
    for (const ir::Property& prop : program->properties) {
      const std::string shown = prop.kind == ir::PropertyKind::Depends && prop.name.empty() ? prop.subject : prop.name;
      const verifier::Result* r = nullptr;
      for (const verifier::Result& x : results)
        if (x.name == shown && x.kind == prop.kind) r = &x;
      if (!r) {
        out.kind = ProofResult::Disagree;
        out.message += fmt::format("{} {}: the verifier gave no result\n", ir::kind_name(prop.kind), shown);
        ++out.disagreed;
        continue;
      }
      PropertyCheck c = prop.kind == ir::PropertyKind::Depends ? compare_depends(brute, *program, prop, *r)
                                               : compare(brute, prop, *r, brute.verdict(prop));
      switch (c.outcome) {
        case PropertyCheck::Agree: ++out.agreed; break;
        case PropertyCheck::Unknown: ++out.unknown; break;
        case PropertyCheck::TooLarge: ++out.too_large; break;
        case PropertyCheck::Unchecked: ++out.unchecked; break;
        case PropertyCheck::Disagree:
          ++out.disagreed;
          out.kind = ProofResult::Disagree;
          out.message += c.message;
          break;
      }
      out.properties.push_back(std::move(c));
    }
    out.brute_seconds = since(t0);
  } catch (const std::exception& e) {
    out.kind = ProofResult::Disagree;
    out.message += std::string("an exception escaped: ") + e.what() + "\n";
    ++out.disagreed;
  }
  return out;
}

void run_proof_batch(uint64_t first, int count, const GenOptions& gen, const ProofOptions& options, int jobs,
                     const std::function<void(const ProofItem&)>& done) {
  std::mutex mutex;
  std::condition_variable ready;
  std::map<uint64_t, ProofItem> finished;
  std::atomic<int> next{0};
  auto worker = [&] {
    for (int i; (i = next++) < count;) {
      ProofItem item;
      item.seed = first + uint64_t(i);
      item.program = generate_program(item.seed, gen);
      item.result = run_proof_check("random-" + std::to_string(item.seed) + ".rules", item.program.text, options);
      std::lock_guard<std::mutex> lock(mutex);
      finished.emplace(item.seed, std::move(item));
      ready.notify_all();
    }
  };
  // `jobs` workers; this thread only reports.
  std::vector<std::thread> threads;
  for (int j = 0; j < std::max(1, jobs); ++j) threads.emplace_back(worker);
  for (int i = 0; i < count; ++i) {
    std::unique_lock<std::mutex> lock(mutex);
    ready.wait(lock, [&] { return finished.count(first + uint64_t(i)) > 0; });
    ProofItem item = std::move(finished[first + uint64_t(i)]);
    finished.erase(first + uint64_t(i));
    lock.unlock();
    done(item);
  }
  for (std::thread& t : threads) t.join();
}

}  // namespace rulebook::testing
