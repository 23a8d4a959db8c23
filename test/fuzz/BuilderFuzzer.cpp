//===- BuilderFuzzer.cpp - random kernels through the C++ builder ---------===//
//
// Decodes the fuzz input into a kernel written with ktc's public API (program
// ids, aranges, masked loads and stores, arithmetic, reductions, math, casts,
// Vars, for_range and if_, constexprs), including ill-typed and ill-shaped
// uses, then traces it, compiles it for the host and runs it on the CPU
// device on small buffers (sometimes also lowering it for a GPU target).
//
// The property: every input ends either normally or in a ktc::Error with a
// message. A crash, an abort, a sanitizer report, a hang, any other
// exception, or an Error that says "internal error" (the builder accepted a
// kernel that does not verify) is a bug.
//
// What the decoder never produces, because the kernel would be wrong rather
// than ktc: addresses outside the buffers (every load and store goes through
// base + ((i % N) + N) % N with i an integer not derived from a float-to-int
// conversion, whose out-of-range results are poison), integer division by a
// divisor of 0 or -1 where an operand may be such poison (otherwise they are
// fine: ktc defines the result, docs/builder.md#integer-division), and loops whose trip count
// is not a small constant.
//
// Input layout: 16 header bytes (what to do, grid, constexprs, scalar
// arguments, buffer contents), then the kernel's operations, one opcode byte
// each followed by its operand bytes. test/fuzz/make_corpus.py writes seeds
// in this encoding: keep its opcode table in step with `Op` below.
//
//===----------------------------------------------------------------------===//

#include "ktc/ktc.h"

#include "llvm/Support/ErrorHandling.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ktc;

namespace {

constexpr int64_t kLen = 64;     // elements in every buffer
constexpr unsigned kMaxOps = 64; // operations per kernel
constexpr int kMaxDepth = 2;     // nesting of for_range / if_
constexpr size_t kHeader = 16;

/// The fuzz input as a stream of small decisions (zeros once it runs out).
class Bytes {
public:
  Bytes(const uint8_t *data, size_t size) : data_(data), size_(size) {}
  uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  unsigned pick(unsigned n) { return byte() % n; }
  bool oneIn(unsigned n) { return pick(n) == 0; }
  bool done() const { return at_ >= size_; }
  template <typename T, size_t N> T from(const T (&table)[N]) {
    return table[pick(N)];
  }

private:
  const uint8_t *data_;
  size_t size_;
  size_t at_ = 0;
};

// The opcodes (make_corpus.py has the same table).
enum Op : uint8_t {
  ProgramId, NumPrograms, Arange, Binary, Unary, Extremum, Where, Math,
  Cast, ExpandDims, BroadcastTo, Full, Reduce, Load, Store, ForRange, If,
  DeclareVar, AssignVar, Cdiv, IllTyped, Query, NumOps
};

/// A value of the kernel, its name in the log, and whether it may be poison
/// (it comes from a float-to-int conversion), which keeps it out of
/// addresses.
struct Slot {
  Value value;
  std::string name;
  bool poison = false;
};

/// The kernel's runtime arguments, as handles.
struct Args {
  Value ptrs[6]; // f32, i32, i64, f16, bf16, out (f32)
  Value n, m, s, flag;
  int C;
  bool B;
  float F;
};
const char *kPtrNames[] = {"pf", "pi", "pl", "ph", "pb", "out"};

const int64_t kIntLiterals[] = {0, 1, 2, -1, 3, 7, 64, -100, INT32_MAX,
                                int64_t(1) << 40};
const double kFloatLiterals[] = {0.5, -2.0, 0.0, 1.0, 3.25, 1e30, -1e-3,
                                 INFINITY, NAN};
const int64_t kBlockSizes[] = {1, 2, 4, 8, 16, 32, 64, 8, 16,
                               0, 3, -4, int64_t(1) << 21}; // last 4: bad
// The last five were all bad once; {2, 2, 2} is a rank-3 block since blocks
// may have rank 3 (the host runs it, the GPU targets refuse it for now).
const std::vector<int64_t> kShapes[] = {
    {8}, {16}, {1, 8}, {8, 1}, {4, 8}, {2, 2}, {64}, {16, 4}, {1},
    {3}, {}, {2, 2, 2}, {0}, {int64_t(1) << 21}};
const DType kDTypes[] = {DType::i1, DType::i32, DType::i64,
                         DType::f16, DType::bf16, DType::f32};

bool isInt(const Value &v) { return !v.is_pointer() && is_int(v.dtype()); }

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "{";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "}";
}
std::string dtypeText(DType t) { return std::string("DType::") + name(t); }
std::string floatText(double f) {
  if (std::isnan(f))
    return "NAN";
  if (std::isinf(f))
    return f > 0 ? "INFINITY" : "-INFINITY";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", f);
  return buf;
}

/// The log of the last kernel traced: the decoded operations as C++, for
/// turning a crash into a regression test (printed on a failure, or always
/// with KTC_FUZZ_TRACE=1).
std::string lastLog;

/// Runs the decoded operations inside a kernel being traced.
class Interpreter {
public:
  Interpreter(const uint8_t *data, size_t size, const Args &args)
      : in_(data, size), args_(args) {
    lastLog.clear();
  }

  void run() {
    body(kMaxOps);
    sink();
  }

private:
  void note(const std::string &line) {
    lastLog += std::string(2 * depth_ + 2, ' ') + line + "\n";
  }
  // -- choosing operands ---------------------------------------------------
  Slot &anySlot() {
    if (pool_.empty())
      push("arange(0, 8)", arange(0, 8), false);
    return pool_[pool_.size() - 1 -
                 in_.pick(std::min<size_t>(pool_.size(), 8))];
  }
  /// A Value, a Var, a literal or a constexpr (`text` says which);
  /// `poison` is or-ed in.
  Operand operand(bool &poison, std::string &text) {
    switch (in_.pick(10)) {
    case 0: {
      int64_t i = in_.from(kIntLiterals);
      text = std::to_string(i) + (i > INT32_MAX ? "L" : "");
      return Operand(i);
    }
    case 1: {
      double f = in_.from(kFloatLiterals);
      text = floatText(f);
      return Operand(f);
    }
    case 2: {
      bool b = in_.oneIn(2);
      text = b ? "true" : "false";
      return Operand(b);
    }
    case 3:
      if (in_.oneIn(2)) {
        text = "C";
        return Operand(args_.C);
      }
      text = "F";
      return Operand(args_.F);
    case 4:
      if (!vars_.empty()) {
        size_t k = in_.pick(vars_.size());
        poison |= varPoison_[k];
        text = varNames_[k];
        return Operand(vars_[k]);
      }
      [[fallthrough]];
    default: {
      Slot s = anySlot();
      poison |= s.poison;
      text = s.name;
      return Operand(s.value);
    }
    }
  }
  void push(const std::string &expr, Value v, bool poison) {
    std::string name = "v" + std::to_string(next_++);
    note("Value " + name + " = " + expr + ";");
    pool_.push_back({v, name, poison});
  }

  /// An integer index that can be used in an address (its text in `text`).
  Value index(std::string &text) {
    Slot s = anySlot();
    if (s.poison || !isInt(s.value)) {
      if (in_.oneIn(2)) {
        int64_t n = in_.oneIn(2) ? 16 : 8;
        text = "arange(0, " + std::to_string(n) + ")";
        return arange(0, n);
      }
      text = "program_id(0)";
      return program_id(0);
    }
    text = s.name;
    if (s.value.dtype() == DType::i1) {
      text = "cast(" + text + ", DType::i32)";
      return cast(s.value, DType::i32);
    }
    return s.value;
  }
  /// base + ((i % N) + N) % N: inside the buffer whatever i is.
  Value address(Value base, Value i) {
    return base + ((i % kLen) + kLen) % kLen;
  }
  Value pointer(std::string &text) {
    unsigned k = in_.pick(6);
    std::string i;
    Value p = address(args_.ptrs[k], index(i));
    text = std::string(kPtrNames[k]) + " + ((" + i + " % 64) + 64) % 64";
    return p;
  }

  // -- the operations ------------------------------------------------------
  void body(unsigned count) {
    for (unsigned i = 0; i < count && !in_.done() && ops_ < kMaxOps; ++i) {
      ++ops_;
      step(static_cast<Op>(in_.pick(NumOps)));
    }
  }

  /// Runs `count` operations as a nested body; values and Vars made inside
  /// (from pool index `pool` on) end with it (usually: sometimes one
  /// escapes, and using it later must be an Error).
  void nested(unsigned count, size_t pool) {
    size_t vars = vars_.size();
    ++depth_;
    body(count);
    --depth_;
    bool escape = in_.oneIn(16) && pool_.size() > pool;
    pool_.resize(escape ? pool + 1 : pool);
    while (vars_.size() > vars) {
      vars_.pop_back();
      varPoison_.pop_back();
      varNames_.pop_back();
    }
  }

  void binary() {
    bool poison = false;
    std::string ta, tb;
    Operand a = operand(poison, ta);
    Operand b = operand(poison, tb);
    unsigned op = in_.pick(14);
    // Integer / and % by any divisor have a defined result, 0 and -1
    // included; where an operand may be poison (MIN / -1 and / 0 would be
    // UB in LLVM), the divisor is at least 1.
    auto integer = [](const Operand &o) {
      return o.kind() == Operand::Kind::Int || o.kind() == Operand::Kind::Bool ||
             (o.kind() == Operand::Kind::Value && isInt(o.value()));
    };
    if ((op == 3 || op == 4) && integer(a) && integer(b)) {
      if (b.kind() == Operand::Kind::Value) {
        if (poison) {
          b = Operand(maximum(b, 1));
          tb = "maximum(" + tb + ", 1)";
        }
      } else {
        int64_t d = int64_t(in_.pick(7)) + (poison ? 1 : -1); // -1 to 5
        b = Operand(d);
        tb = std::to_string(d);
      }
    }
    const char *ops[] = {"+", "-", "*", "/", "%", "<", "<=", ">", ">=",
                         "==", "!=", "&", "|", "^"};
    Value r;
    switch (op) {
    case 0: r = a + b; break;
    case 1: r = a - b; break;
    case 2: r = a * b; break;
    case 3: r = a / b; break;
    case 4: r = a % b; break;
    case 5: r = a < b; break;
    case 6: r = a <= b; break;
    case 7: r = a > b; break;
    case 8: r = a >= b; break;
    case 9: r = a == b; break;
    case 10: r = a != b; break;
    case 11: r = a & b; break;
    case 12: r = a | b; break;
    default: r = a ^ b; break;
    }
    auto text = [](const Operand &o, const std::string &t) {
      return o.kind() == Operand::Kind::Value ? t : "Operand(" + t + ")";
    };
    push(text(a, ta) + " " + ops[op] + " " + text(b, tb), r, poison);
  }

  void loop() {
    // Small constant trip counts: literal bounds, or the arguments n and m
    // (at most 8 at run time), or a program id (at most 3).
    auto boundOperand = [&](bool end, std::string &text) -> Operand {
      switch (in_.pick(5)) {
      case 0: text = "n"; return Operand(args_.n);
      case 1: text = "m"; return Operand(args_.m);
      case 2: text = "program_id(0)"; return Operand(program_id(0));
      default: {
        int64_t v = int64_t(in_.pick(8)) - (end ? 1 : 2);
        text = std::to_string(v);
        return Operand(v);
      }
      }
    };
    std::string ts, te;
    Operand start = boundOperand(false, ts), end = boundOperand(true, te);
    const int64_t steps[] = {1, 1, 2, 3, 0, -1}; // a literal 0: an Error
    int64_t step = in_.from(steps);
    unsigned count = 1 + in_.pick(8);
    if (depth_ >= kMaxDepth)
      count = 0;
    size_t mark = pool_.size();
    std::string iv = "v" + std::to_string(next_++);
    note("for_range(" + ts + ", " + te + ", " + std::to_string(step) +
         ", [&](Value " + iv + ") {");
    for_range(start, end, step, [&](Value i) {
      pool_.push_back({i, iv, false});
      nested(count, mark);
    });
    note("});");
  }

  void branch() {
    bool poison = false;
    std::string tc;
    Operand cond = in_.oneIn(3)   ? (tc = "flag", Operand(args_.flag))
                   : in_.oneIn(2) ? (tc = "B", Operand(args_.B))
                                  : operand(poison, tc);
    unsigned thenCount = 1 + in_.pick(6), elseCount = in_.pick(6);
    if (depth_ >= kMaxDepth)
      thenCount = elseCount = 0;
    size_t mark = pool_.size();
    note("if_(" + tc + ", [&] {");
    if (elseCount)
      if_(cond, [&] { nested(thenCount, mark); },
          [&] {
            note("}, [&] {");
            nested(elseCount, mark);
          });
    else
      if_(cond, [&] { nested(thenCount, mark); });
    note("});");
  }

  /// Uses the API wrongly on purpose: each must be a ktc::Error.
  void illTyped() {
    Slot s = anySlot();
    std::string tp;
    switch (in_.pick(8)) {
    case 0: // load through something that is not a pointer
      if (!s.value.is_pointer())
        push("load(" + s.name + ")", load(s.value), false);
      break;
    case 1:
      push("pf + pi", args_.ptrs[0] + args_.ptrs[1], false);
      break;
    case 2:
      push("pf + 0.5f", args_.ptrs[0] + 0.5f, false);
      break;
    case 3: {
      Value p = pointer(tp);
      note("store(" + tp + ", pl);");
      store(p, args_.ptrs[2]);
      break;
    }
    case 4:
      push("Value() + 1", Value() + 1, false);
      break;
    case 5: { // a kernel traced inside this one
      note("Kernel(\"inner\", [](Ptr<float> p) { store(p, 1.0f); }).mlir();");
      auto inner = Kernel("inner", [](Ptr<float> p) { store(p, 1.0f); });
      (void)inner.mlir();
      break;
    }
    case 6: { // 'other' without a mask
      Value p = pointer(tp);
      push("load(" + tp + ", Operand(), 1.0f)", load(p, Operand(), 1.0f),
           false);
      break;
    }
    default:
      push("ph * 2", args_.ptrs[3] * 2, false);
      break;
    }
  }

  void step(Op op) {
    bool poison = false;
    std::string ta, tb, tc;
    switch (op) {
    case ProgramId:
    case NumPrograms: {
      const int axes[] = {0, 0, 1, 2, 3, -1};
      int axis = in_.from(axes);
      std::string call = op == ProgramId ? "program_id" : "num_programs";
      push(call + "(" + std::to_string(axis) + ")",
           op == ProgramId ? program_id(axis) : num_programs(axis), false);
      break;
    }
    case Arange: {
      int64_t start = int64_t(in_.pick(8)) - 2;
      int64_t end = start + in_.from(kBlockSizes);
      push("arange(" + std::to_string(start) + ", " + std::to_string(end) + ")",
           arange(start, end), false);
      break;
    }
    case Binary:
      binary();
      break;
    case Unary: {
      Operand a = operand(poison, ta);
      unsigned k = in_.pick(3);
      const char *ops[] = {"-", "!", "~"};
      push(std::string(ops[k]) + "Operand(" + ta + ")",
           k == 0 ? -a : k == 1 ? !a : ~a, poison);
      break;
    }
    case Extremum: {
      Operand a = operand(poison, ta), b = operand(poison, tb);
      bool isMax = in_.oneIn(2);
      push(std::string(isMax ? "maximum(" : "minimum(") + ta + ", " + tb + ")",
           isMax ? maximum(a, b) : minimum(a, b), poison);
      break;
    }
    case Where: {
      Operand c = operand(poison, tc), a = operand(poison, ta),
              b = operand(poison, tb);
      push("where(" + tc + ", " + ta + ", " + tb + ")", where(c, a, b), poison);
      break;
    }
    case Math: {
      Operand a = operand(poison, ta);
      Value (*fns[])(const Operand &, Loc) = {exp, exp2, log, log2, sqrt, abs};
      const char *names[] = {"exp", "exp2", "log", "log2", "sqrt", "abs"};
      unsigned k = in_.pick(6);
      push(std::string(names[k]) + "(" + ta + ")", fns[k](a, Loc::current()),
           poison);
      break;
    }
    case Cast: {
      Slot s = anySlot();
      DType to = in_.from(kDTypes);
      bool fromFloat = !s.value.is_pointer() && is_float(s.value.dtype());
      bool method = in_.oneIn(2);
      Value v = method ? s.value.to(to) : cast(s.value, to);
      push(method ? s.name + ".to(" + dtypeText(to) + ")"
                  : "cast(" + s.name + ", " + dtypeText(to) + ")",
           v, s.poison || (fromFloat && is_int(to)));
      break;
    }
    case ExpandDims: {
      Operand a = operand(poison, ta);
      const int axes[] = {0, 1, 0, 1, 2, -1};
      int axis = in_.from(axes);
      push("expand_dims(" + ta + ", " + std::to_string(axis) + ")",
           expand_dims(a, axis), poison);
      break;
    }
    case BroadcastTo: {
      Operand a = operand(poison, ta);
      const std::vector<int64_t> &shape = in_.from(kShapes);
      push("broadcast_to(" + ta + ", " + shapeText(shape) + ")",
           broadcast_to(a, shape), poison);
      break;
    }
    case Full: {
      const std::vector<int64_t> &shape = in_.from(kShapes);
      DType dtype = in_.from(kDTypes);
      if (in_.oneIn(3)) {
        push("zeros(" + shapeText(shape) + ", " + dtypeText(dtype) + ")",
             zeros(shape, dtype), false);
      } else {
        Operand v = operand(poison, ta);
        push("full(" + shapeText(shape) + ", " + ta + ", " + dtypeText(dtype) +
                 ")",
             full(shape, v, dtype), poison);
      }
      break;
    }
    case Reduce: {
      Operand a = operand(poison, ta);
      const int axes[] = {0, 0, 1, 2, -1};
      int axis = in_.from(axes);
      unsigned k = in_.pick(3);
      const char *names[] = {"max", "min", "sum"};
      push(std::string(names[k]) + "(" + ta + ", " + std::to_string(axis) + ")",
           k == 0 ? max(a, axis) : k == 1 ? min(a, axis) : sum(a, axis),
           poison);
      break;
    }
    case Load: {
      Value p = pointer(tc);
      unsigned form = in_.pick(3);
      if (form == 0) {
        push("load(" + tc + ")", load(p), false);
        break;
      }
      Operand mask = operand(poison, ta);
      if (form == 1) {
        push("load(" + tc + ", " + ta + ")", load(p, mask), false);
      } else {
        Operand other = operand(poison, tb);
        push("load(" + tc + ", " + ta + ", " + tb + ")", load(p, mask, other),
             false);
      }
      break;
    }
    case Store: {
      Value p = pointer(tc);
      Operand v = operand(poison, ta);
      if (in_.oneIn(2)) {
        note("store(" + tc + ", " + ta + ");");
        store(p, v);
      } else {
        Operand mask = operand(poison, tb);
        note("store(" + tc + ", " + ta + ", " + tb + ");");
        store(p, v, mask);
      }
      break;
    }
    case ForRange:
      loop();
      break;
    case If:
      branch();
      break;
    case DeclareVar: {
      Operand init = operand(poison, ta);
      std::string name = "var" + std::to_string(next_++);
      note("Var " + name + " = " + ta + ";");
      vars_.emplace_back(init);
      varPoison_.push_back(poison);
      varNames_.push_back(name);
      break;
    }
    case AssignVar: {
      if (vars_.empty())
        break;
      size_t k = in_.pick(vars_.size());
      Operand v = operand(poison, ta);
      note(varNames_[k] + " = " + ta + ";");
      if (v.kind() == Operand::Kind::Value)
        vars_[k] = v.value();
      else if (v.kind() == Operand::Kind::Float)
        vars_[k] = v.float_value();
      else
        vars_[k] = v.int_value();
      varPoison_[k] = varPoison_[k] || poison;
      break;
    }
    case Cdiv: {
      Operand a = operand(poison, ta);
      Operand b = operand(poison, tb);
      if (b.kind() == Operand::Kind::Value) {
        if (poison) {
          b = Operand(maximum(b, 1));
          tb = "maximum(" + tb + ", 1)";
        }
      } else {
        int64_t d = int64_t(in_.pick(7)) + (poison ? 1 : -1); // -1 to 5
        b = Operand(d);
        tb = std::to_string(d);
      }
      push("cdiv(" + ta + ", " + tb + ")", cdiv(a, b), poison);
      break;
    }
    case IllTyped:
      illTyped();
      break;
    case Query: {
      Slot s = anySlot();
      note("(void)" + s.name + ".shape(); // and type_str, is_block, dtype");
      (void)s.value.shape();
      (void)s.value.type_str();
      (void)s.value.is_block();
      (void)name(s.value.dtype());
      break;
    }
    case NumOps:
      break;
    }
  }

  /// Stores the last value into `out`, so the kernel computes something.
  void sink() {
    if (pool_.empty())
      return;
    Slot last = pool_.back();
    Value v = last.value;
    if (v.is_pointer())
      return;
    std::string text = last.name;
    if (is_int(v.dtype())) {
      v = cast(v, DType::f32);
      text = "cast(" + text + ", DType::f32)";
    }
    std::vector<int64_t> shape = v.shape();
    if (shape.empty()) {
      note("store(out, " + text + ");");
      store(args_.ptrs[5], v);
      return;
    }
    Value i = arange(0, shape[0]);
    std::string ti = "arange(0, " + std::to_string(shape[0]) + ")";
    // Row-major element numbers of a 2-D or 3-D block: one more dimension
    // at a time.
    for (size_t d = 1; d < shape.size(); ++d) {
      i = expand_dims(i, int(d)) * shape[d] +
          expand_dims(arange(0, shape[d]), 0);
      ti = "expand_dims(" + ti + ", " + std::to_string(d) + ") * " +
           std::to_string(shape[d]) + " + expand_dims(arange(0, " +
           std::to_string(shape[d]) + "), 0)";
    }
    note("store(out + ((" + ti + " % 64) + 64) % 64, " + text + ");");
    store(address(args_.ptrs[5], i), v);
  }

  Bytes in_;
  const Args &args_;
  std::vector<Slot> pool_;
  std::deque<Var> vars_;
  std::vector<bool> varPoison_;
  std::vector<std::string> varNames_;
  int depth_ = 0;
  unsigned ops_ = 0;
  unsigned next_ = 0;
};

std::vector<float> floats(Bytes &seed) {
  std::vector<float> v(kLen);
  uint8_t x = seed.byte();
  for (int64_t i = 0; i < kLen; ++i)
    v[i] = (i * 7 + x) % 19 == 0 ? NAN : float(int(i * 13 + x) % 41 - 20) / 4;
  return v;
}
template <typename T> std::vector<T> ints(Bytes &seed) {
  std::vector<T> v(kLen);
  uint8_t x = seed.byte();
  for (int64_t i = 0; i < kLen; ++i)
    v[i] = T(int64_t(i * 31 + x) % 200 - 100) * (i % 5 == 0 ? 1000003 : 1);
  return v;
}
template <typename T> std::vector<T> halves(Bytes &seed) {
  std::vector<T> v(kLen);
  uint8_t x = seed.byte();
  for (int64_t i = 0; i < kLen; ++i)
    v[i].bits = uint16_t(0x3c00 + (i * 97 + x) % 1024); // 1.0 to 2.0
  return v;
}

/// An Error message that means a ktc bug, not a misuse.
bool internal(const Error &e) {
  std::string what = e.what();
  return what.find("internal error") != std::string::npos;
}

/// How the current input runs its kernel (for the log).
struct Run {
  uint8_t what = 0;
  int64_t gx = 1, gy = 1;
  int C = 0;
  bool B = false;
  float F = 0;
  int32_t n = 0;
  int64_t m = 0;
  float s = 0;
  bool flag = false;
} lastRun;

/// The last kernel traced, as C++, and how it was run.
void printLog(const Run &r) {
  auto [what, gx, gy, C, B, F, n, m, s, flag] = r;
  std::fprintf(stderr,
               "ktc-fuzz-builder: the last kernel traced (an operation that "
               "failed is not listed):\n"
               "[&](Ptr<float> pf, Ptr<int32_t> pi, Ptr<int64_t> pl, "
               "Ptr<half> ph, Ptr<bfloat16> pb, Ptr<float> out, Int n, "
               "Long m, Float s, Bool flag, int C, bool B, float F) {\n%s}\n"
               "action %d, grid {%lld, %lld}, C = %d, B = %d, F = %g, "
               "n = %d, m = %lld, s = %g, flag = %d\n",
               lastLog.c_str(), what % 8, (long long)gx, (long long)gy, C,
               int(B), F, n, (long long)m, s, int(flag));
}

void runOne(const uint8_t *data, size_t size) {
  Bytes header(data, std::min(size, kHeader));
  const uint8_t *program = data + std::min(size, kHeader);
  size_t programSize = size - std::min(size, kHeader);

  uint8_t what = header.byte();
  const int64_t gridX[] = {1, 2, 3, 1, 0, -1}; // 0, -1: an Error
  int64_t gx = header.from(gridX), gy = 1 + header.pick(2);
  const int Cs[] = {1, 2, 4, 8, 16, 64, 0, -1, 3};
  int C = header.from(Cs);
  bool B = header.oneIn(2);
  float F = header.from({0.5f, -1.0f, 2.0f, 0.0f});
  int32_t n = int32_t(header.pick(13)) - 4;   // -4 .. 8
  int64_t m = int64_t(header.pick(13)) - 4;   // -4 .. 8
  float s = header.from({1.0f, -0.5f, 1e-3f, 100.0f});
  bool flag = header.oneIn(2);
  lastRun = {what, gx, gy, C, B, F, n, m, s, flag};

  auto kernel = Kernel(
      "fuzz", {"pf", "pi", "pl", "ph", "pb", "out", "n", "m", "s", "flag",
               "C", "B", "F"},
      [&](Ptr<float> pf, Ptr<int32_t> pi, Ptr<int64_t> pl, Ptr<half> ph,
          Ptr<bfloat16> pb, Ptr<float> out, Int n, Long m, Float s, Bool flag,
          int C, bool B, float F) {
        Args args{{pf, pi, pl, ph, pb, out}, n, m, s, flag, C, B, F};
        Interpreter(program, programSize, args).run();
      });

  Device &cpu = Device::get("cpu");
  Buffer<float> bf(cpu, floats(header)), bout(cpu, floats(header));
  Buffer<int32_t> bi(cpu, ints<int32_t>(header));
  Buffer<int64_t> bl(cpu, ints<int64_t>(header));
  Buffer<half> bh(cpu, halves<half>(header));
  Buffer<bfloat16> bb(cpu, halves<bfloat16>(header));

  try {
    switch (what % 8) {
    case 0: // trace only
      (void)kernel.mlir(C, B, F);
      break;
    case 1: // the wrong buffer type for pf: refused at launch
      kernel.launch({gx, gy}, bi, bi, bl, bh, bb, bout, n, m, s, flag, C, B, F);
      break;
    case 2: // a bad option
      kernel.launch({gx, gy}, bf, bi, bl, bh, bb, bout, n, m, s, flag, C, B, F,
                    Options{.num_warps = 3});
      break;
    case 3: // the host's LLVM IR, then a launch
      (void)kernel.emit("llvm", "host", C, B, F);
      [[fallthrough]];
    default:
      kernel.launch({gx, gy}, bf, bi, bl, bh, bb, bout, n, m, s, flag, C, B, F);
      (void)bout.to_host();
      if (what % 8 == 7) { // and a GPU target, lowered in process
        const char *targets[] = {"sm_90", "gfx942", "gfx1100", "sm_80"};
        std::string target = targets[(what >> 3) % 4];
        (void)kernel.emit("asm", target, C, B, F,
                          Options{.num_warps = 1 << ((what >> 5) % 4)});
      }
      break;
    }
  } catch (const Error &e) {
    if (e.message().empty() || internal(e)) {
      std::fprintf(stderr, "ktc-fuzz-builder: a ktc bug, not a misuse:\n%s\n",
                   e.what());
      printLog(lastRun);
      std::abort();
    }
    if (std::getenv("KTC_FUZZ_VERBOSE"))
      std::fprintf(stderr, "ktc-fuzz-builder: %s\n", e.what());
  }
  if (std::getenv("KTC_FUZZ_TRACE"))
    printLog(lastRun);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  // LLVM's fatal errors end the process with exit(1): say what was being
  // compiled first.
  llvm::install_fatal_error_handler([](void *, const char *reason, bool) {
    std::fprintf(stderr, "ktc-fuzz-builder: LLVM fatal error: %s\n", reason);
    printLog(lastRun);
    std::abort();
  });
  // Nothing on disk: no kernel cache; reproducers of failed compiles in a
  // directory of this process's own.
  setenv("KTC_CACHE", "off", 1);
  if (!std::getenv("KTC_DUMP_DIR")) {
    static std::string dir =
        "/tmp/ktc-fuzz-builder-" + std::to_string(getpid());
    setenv("KTC_DUMP_DIR", dir.c_str(), 1);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096)
    return -1;
  runOne(data, size);
  return 0;
}
