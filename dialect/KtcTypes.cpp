//===- KtcTypes.cpp - ktc types and type predicates -----------------------===//

#include "dialect/KtcDialect.h"
#include "dialect/MmaLayouts.h"
#include "dialect/LinearLayout.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::ktc;

#define GET_TYPEDEF_CLASSES
#include "dialect/KtcTypes.cpp.inc"

#include "dialect/KtcEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialect/KtcAttrs.cpp.inc"

void KtcDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialect/KtcTypes.cpp.inc"
      >();
}

void KtcDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialect/KtcAttrs.cpp.inc"
      >();
}

LogicalResult PtrType::verify(function_ref<InFlightDiagnostic()> emitError,
                              Type pointeeType) {
  if (!isPointeeType(pointeeType))
    return emitError() << "!ktc.ptr must point to i8, i16, i32, i64, f16, bf16, f32, "
                          "f64, f8E4M3FN or f8E5M2, "
                          "not "
                       << pointeeType;
  return success();
}

LogicalResult
SharedBufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                         ArrayRef<int64_t> shape, Type elementType) {
  if (shape.size() < 2 || shape.size() > 4)
    return emitError() << "!ktc.shared needs slots of a 1-D to 3-D block "
                          "(rank 2 to 4), not rank "
                       << shape.size();
  for (int64_t d : shape)
    if (d <= 0 || d > (int64_t(1) << 20))
      return emitError() << "!ktc.shared dimensions must be in [1, 2^20], "
                            "not "
                         << d;
  if (!isPointeeType(elementType))
    return emitError() << "!ktc.shared holds i8, i16, i32, i64, f16, bf16, f32, f64, "
                          "f8E4M3FN or f8E5M2, "
                          "not "
                       << elementType;
  return success();
}

Type SharedBufferType::parse(AsmParser &p) {
  SmallVector<int64_t> shape;
  Type element;
  if (p.parseLess() ||
      p.parseDimensionList(shape, /*allowDynamic=*/false,
                           /*withTrailingX=*/true) ||
      p.parseType(element) || p.parseGreater())
    return {};
  return getChecked([&] { return p.emitError(p.getNameLoc()); },
                    p.getContext(), shape, element);
}

void SharedBufferType::print(AsmPrinter &p) const {
  p << '<';
  for (int64_t d : getShape())
    p << d << 'x';
  p << getElementType() << '>';
}

bool mlir::ktc::isPointeeType(Type type) {
  return type.isInteger(8) || type.isInteger(16) || type.isInteger(32) ||
         type.isInteger(64) || type.isF16() || type.isBF16() ||
         type.isF32() || type.isF64() ||
         isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

bool mlir::ktc::isScalarType(Type type) {
  return type.isInteger(1) || isPointeeType(type) || isa<PtrType>(type);
}

std::string mlir::ktc::whyNotBlock(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return "not a ranked tensor";
  if (!isScalarType(tensor.getElementType()))
    return "element type is not i1, i8, i16, i32, i64, f16, bf16, f32, "
           "f64, f8E4M3FN, f8E5M2 or !ktc.ptr";
  if (tensor.getRank() < 1 || tensor.getRank() > kMaxBlockRank)
    return "rank must be 1, 2 or 3";
  for (int64_t dim : tensor.getShape())
    if (ShapedType::isDynamic(dim) || dim <= 0 || !llvm::isPowerOf2_64(dim))
      return "every dimension must be a static power of two";
  if (Attribute encoding = tensor.getEncoding()) {
    if (!isLayout(encoding))
      return "the encoding must be a #ktc.blocked or #ktc.slice layout";
    if (getLayoutRank(encoding) != tensor.getRank())
      return "the layout's rank must be the tensor's";
  }
  return "";
}

bool mlir::ktc::isBlockType(Type type) { return whyNotBlock(type).empty(); }

bool mlir::ktc::isScalarOrBlock(Type type) {
  return isScalarType(type) || isBlockType(type);
}

static bool isScalarOrBlockOf(Type type, function_ref<bool(Type)> pred) {
  if (isScalarType(type))
    return pred(type);
  return isBlockType(type) &&
         pred(cast<RankedTensorType>(type).getElementType());
}

bool mlir::ktc::isPtrLike(Type type) {
  return isScalarOrBlockOf(type, [](Type t) { return isa<PtrType>(t); });
}

bool mlir::ktc::isIntLike(Type type) {
  return isScalarOrBlockOf(
      type, [](Type t) { return t.isInteger(32) || t.isInteger(64); });
}

bool mlir::ktc::isBoolLike(Type type) {
  return isScalarOrBlockOf(type, [](Type t) { return t.isInteger(1); });
}

ArrayRef<int64_t> mlir::ktc::getShapeOrScalar(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}

Type mlir::ktc::getSameShape(Type like, Type elementType) {
  if (auto tensor = dyn_cast<RankedTensorType>(like))
    return RankedTensorType::get(tensor.getShape(), elementType,
                                 tensor.getEncoding());
  return elementType;
}

Type mlir::ktc::getPointeeLike(Type ptrLike) {
  auto ptr = cast<PtrType>(getElementTypeOrSelf(ptrLike));
  return getSameShape(ptrLike, ptr.getPointeeType());
}

//===----------------------------------------------------------------------===//
// #ktc.blocked
//===----------------------------------------------------------------------===//

LogicalResult
BlockedEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                            ArrayRef<unsigned> sizePerThread,
                            ArrayRef<unsigned> threads,
                            ArrayRef<unsigned> warps, ArrayRef<unsigned> order) {
  size_t rank = sizePerThread.size();
  if (rank < 1 || rank > kMaxBlockRank || threads.size() != rank ||
      warps.size() != rank || order.size() != rank)
    return emitError() << "#ktc.blocked needs sizePerThread, threadsPerWarp, "
                          "warpsPerCTA and order of one rank, from 1 to "
                       << kMaxBlockRank;
  for (ArrayRef<unsigned> list : {sizePerThread, threads, warps})
    for (unsigned v : list)
      if (v == 0 || !llvm::isPowerOf2_32(v))
        return emitError() << "#ktc.blocked sizes must be powers of two, "
                              "got "
                           << v;
  SmallVector<unsigned> sorted(order);
  llvm::sort(sorted);
  for (unsigned i = 0; i < rank; ++i)
    if (sorted[i] != i)
      return emitError() << "#ktc.blocked order must be a permutation of the "
                            "dimensions";
  unsigned wave = 1;
  for (unsigned t : threads)
    wave *= t;
  if (wave != 32 && wave != 64)
    return emitError() << "#ktc.blocked threadsPerWarp must multiply to a "
                          "wave size of 32 or 64, got "
                       << wave;
  return success();
}

unsigned BlockedEncodingAttr::getWaveSize() const {
  unsigned n = 1;
  for (unsigned t : getThreadsPerWarp())
    n *= t;
  return n;
}

unsigned BlockedEncodingAttr::getNumWarps() const {
  unsigned n = 1;
  for (unsigned w : getWarpsPerCTA())
    n *= w;
  return n;
}

int64_t BlockedEncodingAttr::getElementsPerThread(ArrayRef<int64_t> shape) const {
  return toLinearLayout(*this, shape).numRegisters();
}

static void printList(AsmPrinter &p, ArrayRef<unsigned> list) {
  p << '[';
  llvm::interleaveComma(list, p);
  p << ']';
}

void BlockedEncodingAttr::print(AsmPrinter &p) const {
  p << "<{sizePerThread = ";
  printList(p, getSizePerThread());
  p << ", threadsPerWarp = ";
  printList(p, getThreadsPerWarp());
  p << ", warpsPerCTA = ";
  printList(p, getWarpsPerCTA());
  p << ", order = ";
  printList(p, getOrder());
  p << "}>";
}

Attribute BlockedEncodingAttr::parse(AsmParser &p, Type) {
  SmallVector<unsigned> lists[4];
  const char *names[] = {"sizePerThread", "threadsPerWarp", "warpsPerCTA",
                         "order"};
  if (p.parseLess() || p.parseLBrace())
    return {};
  for (int i = 0; i < 4; ++i) {
    if ((i && p.parseComma()) || p.parseKeyword(names[i]) || p.parseEqual() ||
        p.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
          unsigned v;
          if (p.parseInteger(v))
            return failure();
          lists[i].push_back(v);
          return success();
        }))
      return {};
  }
  if (p.parseRBrace() || p.parseGreater())
    return {};
  return p.getChecked<BlockedEncodingAttr>(p.getContext(), lists[0], lists[1],
                                           lists[2], lists[3]);
}

//===----------------------------------------------------------------------===//
// #ktc.slice
//===----------------------------------------------------------------------===//

LogicalResult
SliceEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned dim, Attribute parent) {
  if (!isLayout(parent))
    return emitError() << "#ktc.slice's parent must be a layout (#ktc.blocked, "
                          "#ktc.slice, #ktc.mma or #ktc.dot_operand), got "
                       << parent;
  unsigned rank = getLayoutRank(parent);
  if (rank < 2)
    return emitError() << "#ktc.slice's parent must have rank 2 or more";
  if (dim >= rank)
    return emitError() << "#ktc.slice dim " << dim
                       << " is out of range for its rank-" << rank
                       << " parent";
  return success();
}

unsigned SliceEncodingAttr::getRank() const {
  return getLayoutRank(getParent()) - 1;
}

//===----------------------------------------------------------------------===//
// #ktc.mma and #ktc.dot_operand
//===----------------------------------------------------------------------===//

LogicalResult
MmaEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        StringRef instr, ArrayRef<unsigned> warpsPerCTA) {
  if (!lookupMmaInstr(instr)) {
    auto diag = emitError() << "#ktc.mma: unknown instruction \"" << instr
                            << "\"; known: ";
    llvm::interleaveComma(allMmaInstrs(), diag,
                          [&](const MmaInstr &i) { diag << i.name; });
    return diag;
  }
  if (warpsPerCTA.size() != 2 ||
      !isValidNumWarps(int64_t(warpsPerCTA[0]) * warpsPerCTA[1]) ||
      !llvm::isPowerOf2_32(warpsPerCTA[0]) ||
      !llvm::isPowerOf2_32(warpsPerCTA[1]))
    return emitError() << "#ktc.mma warpsPerCTA must be two powers of two "
                          "whose product is at most "
                       << kMaxNumWarps;
  if (unsigned waves = lookupMmaInstr(instr)->waves;
      warpsPerCTA[0] % waves)
    return emitError() << "#ktc.mma \"" << instr << "\" is issued by "
                       << waves << " warps together: warpsPerCTA[0] must be "
                       << "a multiple of " << waves << ", not "
                       << warpsPerCTA[0];
  return success();
}

LogicalResult
DotOperandEncodingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               unsigned opIdx, Attribute parent) {
  if (opIdx > 1)
    return emitError() << "#ktc.dot_operand opIdx must be 0 (A) or 1 (B), got "
                       << opIdx;
  auto blocked = dyn_cast<BlockedEncodingAttr>(parent);
  if (!isa<MmaEncodingAttr>(parent) && !(blocked && blocked.getRank() == 2))
    return emitError() << "#ktc.dot_operand's parent must be a #ktc.mma or a "
                          "rank-2 #ktc.blocked layout, got "
                       << parent;
  return success();
}

//===----------------------------------------------------------------------===//
// Layouts as linear maps
//===----------------------------------------------------------------------===//

bool mlir::ktc::isLayout(Attribute attr) {
  return isa_and_nonnull<BlockedEncodingAttr, SliceEncodingAttr,
                         MmaEncodingAttr, DotOperandEncodingAttr>(attr);
}

unsigned mlir::ktc::getLayoutRank(Attribute layout) {
  if (auto b = dyn_cast<BlockedEncodingAttr>(layout))
    return b.getRank();
  if (auto s = dyn_cast<SliceEncodingAttr>(layout))
    return s.getRank();
  if (isa<MmaEncodingAttr, DotOperandEncodingAttr>(layout))
    return 2;
  return 0;
}

unsigned mlir::ktc::getLayoutWaveSize(Attribute layout) {
  if (auto s = dyn_cast<SliceEncodingAttr>(layout))
    return getLayoutWaveSize(s.getParent());
  if (auto d = dyn_cast<DotOperandEncodingAttr>(layout))
    return getLayoutWaveSize(d.getParent());
  if (auto m = dyn_cast<MmaEncodingAttr>(layout))
    return lookupMmaInstr(m.getInstr())->waveSize;
  return cast<BlockedEncodingAttr>(layout).getWaveSize();
}

unsigned mlir::ktc::getLayoutNumWarps(Attribute layout) {
  if (auto s = dyn_cast<SliceEncodingAttr>(layout))
    return getLayoutNumWarps(s.getParent());
  if (auto d = dyn_cast<DotOperandEncodingAttr>(layout))
    return getLayoutNumWarps(d.getParent());
  if (auto m = dyn_cast<MmaEncodingAttr>(layout))
    return m.getWarpsPerCTA()[0] * m.getWarpsPerCTA()[1];
  return cast<BlockedEncodingAttr>(layout).getNumWarps();
}

LinearLayout mlir::ktc::toLinearLayout(Attribute layout,
                                       ArrayRef<int64_t> shape) {
  if (auto b = dyn_cast<BlockedEncodingAttr>(layout))
    return LinearLayout::blocked(shape, b.getSizePerThread(),
                                 b.getThreadsPerWarp(), b.getWarpsPerCTA(),
                                 b.getOrder());
  if (auto m = dyn_cast<MmaEncodingAttr>(layout))
    return mmaLayout(*lookupMmaInstr(m.getInstr()), m.getWarpsPerCTA(), -1,
                     shape);
  if (auto d = dyn_cast<DotOperandEncodingAttr>(layout)) {
    if (auto m = dyn_cast<MmaEncodingAttr>(d.getParent()))
      return mmaLayout(*lookupMmaInstr(m.getInstr()), m.getWarpsPerCTA(),
                       d.getOpIdx(), shape);
    // The FMA path: the result's layout over A's rows or B's columns.
    SmallVector<int64_t> resultShape{1, 1};
    resultShape[d.getOpIdx()] = shape[d.getOpIdx()];
    return fmaOperandLayout(toLinearLayout(d.getParent(), resultShape),
                            d.getOpIdx(), shape);
  }
  // The parent over the shape with a unit `dim`, that dimension dropped.
  auto slice = cast<SliceEncodingAttr>(layout);
  SmallVector<int64_t> parentShape(shape);
  parentShape.insert(parentShape.begin() + slice.getDim(), 1);
  return toLinearLayout(slice.getParent(), parentShape)
      .dropDim(slice.getDim())
      .canonical();
}

LinearLayout mlir::ktc::toLinearLayout(RankedTensorType type) {
  return toLinearLayout(type.getEncoding(), type.getShape());
}
