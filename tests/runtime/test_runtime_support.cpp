// The support code every generated engine carries (compiler/runtime/engine_support.h),
// compiled here as a plain translation unit with every warning an error, and checked
// against the host's own definitions: the integer semantics of dsl/integers.h, the random
// stream of compiler/runtime/random.h, the state hash of compiler/runtime/engine.h.
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "compiler/runtime/engine.h"
#include "compiler/runtime/engine_support.h"
#include "compiler/runtime/random.h"
#include "dsl/integers.h"

namespace rt = rulebook::engine_support;

namespace {

/// What a checked operation of the engines gives: its value, or its error's message.
template <class F>
std::string engine_outcome(F f) {
  try {
    return std::to_string(f());
  } catch (const rt::RuleError& e) {
    return e.message;
  }
}

/// The same for dsl/integers.h, with its error text located as the engines locate theirs.
std::string host_outcome(const char* error, int64_t value) {
  return error ? std::string("@0:1:2: error: ") + error : std::to_string(value);
}

const std::vector<int64_t> kEdges = {INT64_MIN, INT64_MIN + 1, -7, -3, -2, -1, 0, 1, 2, 3, 7,
                                     INT64_MAX - 1, INT64_MAX};

}  // namespace

TEST_CASE("engine arithmetic is dsl/integers.h's, value for value and error for error", "[runtime]") {
  const char* at = "@0:1:2";
  for (const int64_t a : kEdges) {
    for (const int64_t b : kEdges) {
      INFO(a << " and " << b);
      int64_t out = 0;
      const char* e = rulebook::integers::add(a, b, out);
      CHECK(engine_outcome([&] { return rt::add_chk(a, b, at); }) == host_outcome(e, out));
      CHECK(engine_outcome([&] { return rt::add_chk(rt::Ops{a, b}, at); }) == host_outcome(e, out));
      e = rulebook::integers::sub(a, b, out);
      CHECK(engine_outcome([&] { return rt::sub_chk(a, b, at); }) == host_outcome(e, out));
      e = rulebook::integers::mul(a, b, out);
      CHECK(engine_outcome([&] { return rt::mul_chk(a, b, at); }) == host_outcome(e, out));
      e = rulebook::integers::div(a, b, out);
      CHECK(engine_outcome([&] { return rt::floor_div(a, b, at); }) == host_outcome(e, out));
      e = rulebook::integers::mod(a, b, out);
      CHECK(engine_outcome([&] { return rt::floor_mod(rt::Ops{a, b}, at); }) == host_outcome(e, out));
      e = rulebook::integers::sum_step(a, b, out);
      CHECK(engine_outcome([&] { return rt::sum_chk(a, b, at); }) == host_outcome(e, out));
    }
    int64_t out = 0;
    const char* e = rulebook::integers::neg(a, out);
    CHECK(engine_outcome([&] { return rt::neg_chk(a, at); }) == host_outcome(e, out));
    e = rulebook::integers::abs(a, out);
    CHECK(engine_outcome([&] { return rt::abs_chk(a, at); }) == host_outcome(e, out));
  }
  // Floor, not truncation, on the values people check by hand.
  CHECK(rt::floor_div(-7, 2, at) == -4);
  CHECK(rt::floor_mod(-7, 2, at) == 1);
  CHECK(rt::floor_mod(7, -2, at) == -1);
  CHECK(rt::floor_mod(INT64_MIN, -1, at) == 0);
  CHECK(rt::min_of(-1, 4) == -1);
  CHECK(rt::max_of(-1, 4) == 4);
  CHECK(rt::abs_of(-5) == 5);
}

TEST_CASE("engine error texts put their values into the holes and are cut at 300 bytes", "[runtime]") {
  const auto message = [](auto f) {
    try {
      f();
    } catch (const rt::RuleError& e) {
      return std::string(e.message);
    }
    return std::string("no error");
  };
  CHECK(message([] { rt::fail_value("@0:3:4", "index \001 is outside 0..\002", 9, false, 3); }) ==
        "@0:3:4: error: index 9 is outside 0..3");
  // kNone reads `none` only where the type admits none; elsewhere it is a number.
  CHECK(message([] { rt::fail_value("@1:1:1", "value \001", rt::kNone, true); }) == "@1:1:1: error: value none");
  CHECK(message([] { rt::fail_value("@1:1:1", "value \001", rt::kNone); }) ==
        "@1:1:1: error: value -9223372036854775808");
  CHECK(message([] { rt::at_index(4, 4, "@0:1:1", "index \001 past \002"); }) == "@0:1:1: error: index 4 past 3");
  CHECK(rt::at_index(3, 4, "@0:1:1", "unused") == 3);
  CHECK(message([] { rt::field_index(rt::kNone, 1, 2, "@0:2:2", "none has no field"); }) ==
        "@0:2:2: error: none has no field");
  CHECK(rt::field_index(7, 3, 4, "@0:2:2", "unused") == 2);
  const std::string longer(400, 'x');
  CHECK(message([&] { rt::fail("@0:1:1", longer.c_str()); }) == "@0:1:1: error: " + std::string(300, 'x'));
  CHECK(message([] { rt::fail_capacity(); }) == "internal error: a list outgrew its capacity");
}

TEST_CASE("the engines' random stream and state hash are the host's", "[runtime]") {
  // The first splitmix64 number from seed 0, as published with the generator.
  CHECK(rt::SplitMix64{0}.next() == 0xe220a8397b1dcdafull);
  for (const uint64_t seed : {uint64_t(0), uint64_t(1), uint64_t(42), ~uint64_t(0)}) {
    rt::SplitMix64 engine{seed};
    rulebook::SplitMix64 host(seed);
    for (int i = 0; i < 1000; ++i) REQUIRE(engine.next() == host.next());
  }
  std::vector<uint8_t> bytes;
  for (int n = 0; n < 70; ++n) {
    CHECK(rt::hash_bytes(bytes.data(), bytes.size()) == rulebook::engine::hash_bytes(bytes.data(), bytes.size()));
    bytes.push_back(uint8_t(n * 37 + 11));
  }
}

TEST_CASE("engine bitsets count, pop and index the same on one word and on several", "[runtime]") {
  rt::Bits<3> s{};
  const std::vector<int64_t> members = {0, 5, 63, 64, 100, 127, 128, 191};
  for (const int64_t i : members) s.set(i);
  CHECK(s.count() == int64_t(members.size()));
  CHECK(s.first() == 0);
  CHECK(s.last() == 191);
  CHECK(s.has(100));
  CHECK_FALSE(s.has(101));
  CHECK(rt::in_set(64, s));
  CHECK_FALSE(rt::in_set(-1, s));
  for (size_t k = 0; k < members.size(); ++k) CHECK(s.nth(k) == members[k]);
  rt::Bits<3> t = s;
  for (const int64_t i : members) CHECK(t.pop() == i);
  CHECK(t.empty());
  CHECK(t.first() == -1);
  CHECK(t.last() == -1);

  const rt::Bits<3> low = rt::single<3>(5) | rt::single<3>(64);
  CHECK((s & low) == low);
  CHECK((s - low).count() == int64_t(members.size()) - 2);
  CHECK(disjoint(s - low, low));  // a friend, found by its arguments
  CHECK(rt::single<3>(-1).empty());
  s.reset(5);
  CHECK_FALSE(s.has(5));

  rt::Bits<1> one{};
  one.set(3);
  one.set(60);
  CHECK(one.count() == 2);
  CHECK(rt::popcount(~uint64_t(0)) == 64);
  const rt::Bits<1> planes[2] = {one, rt::Bits<1>{}};
  CHECK(rt::plane_at(planes, 0) == one);
  CHECK(rt::plane_at(planes, -1).empty());

  CHECK(rt::one_of(uint64_t(1) << 9) == 9);
  CHECK(rt::one_of(0b101) == -1);
  CHECK(rt::one_of(0) == -1);
  CHECK(rt::within(0b0111, 3));
  CHECK_FALSE(rt::within(0b1000, 3));
  CHECK(rt::some_below(0b1010, 2));
  CHECK_FALSE(rt::some_below(0b1000, 3));
  CHECK(rt::one_read(0b0110, 0b0100, 2));
  CHECK_FALSE(rt::one_read(0b0110, 0b0100, 1));
}

TEST_CASE("engine planes agree with a byte-by-byte reading, whole chunks and a partial one", "[runtime]") {
  constexpr int K = 37, V = 5;
  uint8_t bytes[K];
  for (int i = 0; i < K; ++i) bytes[i] = uint8_t((i * 7 + i / 5) % (V + 1));  // V is outside
  rt::Bits<1> planes[V];
  rt::build_planes<1, V, K>(planes, bytes);
  for (int v = 0; v < V; ++v) {
    for (int i = 0; i < K; ++i) CHECK(planes[v].has(i) == (bytes[i] == v));
  }
}

TEST_CASE("engine lists keep order as sets of sets and refuse to outgrow their capacity", "[runtime]") {
  using L = rt::List<int64_t, 4>;
  L a{}, b{};
  for (const int64_t x : {3, 1, 2}) a.push(x);
  for (const int64_t x : {2, 5}) b.push(x);
  const L u = rt::list_union(a, b), d = rt::list_diff(a, b), n = rt::list_inter(a, b);
  CHECK(std::vector<int64_t>(u.begin(), u.end()) == std::vector<int64_t>{3, 1, 2, 5});
  CHECK(std::vector<int64_t>(d.begin(), d.end()) == std::vector<int64_t>{3, 1});
  CHECK(std::vector<int64_t>(n.begin(), n.end()) == std::vector<int64_t>{2});
  CHECK(rt::list_at(a, 1, "@0:1:1", "unused") == 1);
  L full = u;
  CHECK_THROWS_AS(full.push(9), rt::RuleError);
  CHECK(full == u);
}

TEST_CASE("engine groups are grown from their lowest cell, in order", "[runtime]") {
  // A 3 x 3 board, cells row by row; each cell's orthogonal neighbours.
  rt::Bits<1> orth[9]{};
  for (int c = 0; c < 9; ++c) {
    if (c % 3 > 0) orth[c].set(c - 1);
    if (c % 3 < 2) orth[c].set(c + 1);
    if (c >= 3) orth[c].set(c - 3);
    if (c < 6) orth[c].set(c + 3);
  }
  rt::Bits<1> s{};
  for (const int c : {0, 1, 4, 8, 6}) s.set(c);  // {0,1,4}, {6}, {8}
  const auto groups = rt::components_of<1, 9, 9>(s, orth);
  REQUIRE(groups.n == 3);
  CHECK(groups.a[0].count() == 3);
  CHECK(groups.a[1] == rt::single<1>(6));
  CHECK(groups.a[2] == rt::single<1>(8));
  CHECK(rt::largest_group_of(s, orth) == 3);
}

TEST_CASE("engine move sinks list, count, test and pick the same moves", "[runtime]") {
  rt::Bits<1> bits{};
  for (const int i : {2, 7, 9}) bits.set(i);
  rb_move out[2];
  rt::Collect collect{out, 2};
  collect.take(1, 4);
  collect.take_bits(0, bits, 1, 6);
  CHECK(collect.n == 4);  // counted past the capacity
  CHECK(out[0].kind == 1);
  CHECK(out[0].args[0] == 4);
  CHECK(out[1].kind == 0);
  CHECK(out[1].args[0] == 6);
  CHECK(out[1].args[1] == 2);

  rt::Count count;
  count.take(1);
  count.take_bits(0, bits, 0);
  CHECK(count.n == 4);
  CHECK(rt::Exists{}.take_bits(0, bits, 0));
  CHECK_FALSE(rt::Exists{}.take_bits(0, rt::Bits<1>{}, 0));

  rt::Pick pick{2};
  CHECK_FALSE(pick.take(1, 4));
  CHECK(pick.take_bits(0, bits, 1, 6));
  CHECK(pick.m.kind == 0);
  CHECK(pick.m.args[0] == 6);
  CHECK(pick.m.args[1] == 7);
}
