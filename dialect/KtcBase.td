//===- KtcBase.td - the ktc dialect, its types and constraints -*- tablegen -*-===//
//
// The ktc dialect: Triton-like block-level kernels. A kernel is one program
// instance; its values are scalars or small statically shaped "block" tensors
// that the compiler later spreads over the threads of a workgroup.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_BASE_TD
#define KTC_BASE_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/OpBase.td"

def Ktc_Dialect : Dialect {
  let name = "ktc";
  let cppNamespace = "::mlir::ktc";
  let summary = "Block-level GPU kernels in the style of Triton";
  let description = [{
    `ktc` adds to the upstream dialects only what is specific to block-level
    kernels: global pointers (`!ktc.ptr<T>`), program ids, `arange`, shape
    manipulation of block tensors, pointer arithmetic, masked loads and
    stores, and reductions. Elementwise arithmetic, comparisons, `select`,
    casts and `exp`/`exp2` come from `arith` and `math` on tensors; loops and
    branches from `scf`.

    A block value is a ranked tensor of static power-of-two shape (1-D, 2-D
    or 3-D) over i1, i32, i64, f16, bf16, f32 or `!ktc.ptr<T>`.

    A kernel is a `func.func` carrying the unit attribute `ktc.kernel`. Its
    compile-time constants (block sizes and the like), already folded into the
    body, are recorded in the dictionary attribute `ktc.constexpr`. An
    argument may carry `ktc.divisibility = N` (N a power of two): a pointer
    argument is N-byte aligned, an integer argument is a multiple of N.

    ```mlir
    func.func @add(%x: !ktc.ptr<f32> {ktc.divisibility = 16 : i32},
                   %n: i32) attributes {ktc.kernel,
                                        ktc.constexpr = {BLOCK = 1024 : i64}} {
      ...
    }
    ```
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let dependentDialects = ["::mlir::arith::ArithDialect"];
  let extraClassDeclaration = [{
    /// `ktc.kernel`: marks a func.func as a kernel entry point.
    static constexpr ::llvm::StringLiteral getKernelAttrName() {
      return ::llvm::StringLiteral("ktc.kernel");
    }
    /// `ktc.constexpr`: the kernel's constexpr parameters, name -> value.
    static constexpr ::llvm::StringLiteral getConstexprAttrName() {
      return ::llvm::StringLiteral("ktc.constexpr");
    }
    /// `ktc.divisibility`: argument alignment (pointers, bytes) or
    /// divisibility (integers).
    static constexpr ::llvm::StringLiteral getDivisibilityAttrName() {
      return ::llvm::StringLiteral("ktc.divisibility");
    }
    /// `ktc.num_warps`: the waves per program a kernel was traced for
    /// (a launch option); the GPU lowering's default when present.
    static constexpr ::llvm::StringLiteral getNumWarpsAttrName() {
      return ::llvm::StringLiteral("ktc.num_warps");
    }
    /// A kernel's ktc.num_warps, if it has one.
    static std::optional<unsigned> getNumWarps(::mlir::Operation *kernel) {
      if (auto n = kernel->getAttrOfType<::mlir::IntegerAttr>(
              getNumWarpsAttrName()))
        return unsigned(n.getInt());
      return std::nullopt;
    }
    /// `ktc.num_stages`: the launch option num_stages when it is not 1;
    /// ktc-pipeline-loads issues loop loads num_stages - 1 iterations ahead.
    static constexpr ::llvm::StringLiteral getNumStagesAttrName() {
      return ::llvm::StringLiteral("ktc.num_stages");
    }
    /// A kernel's ktc.num_stages, if it has one.
    static std::optional<unsigned> getNumStages(::mlir::Operation *kernel) {
      if (auto n = kernel->getAttrOfType<::mlir::IntegerAttr>(
              getNumStagesAttrName()))
        return unsigned(n.getInt());
      return std::nullopt;
    }
    /// `ktc.check_bounds`: a kernel compiled for the host in checked mode
    /// (Options::check_bounds, KTC_CHECK_BOUNDS): convert-ktc-to-host checks
    /// every load and store against the launch's buffers.
    static constexpr ::llvm::StringLiteral getCheckBoundsAttrName() {
      return ::llvm::StringLiteral("ktc.check_bounds");
    }
    /// `ktc.multiple_of`, `ktc.max_contiguous`: the user's hints on an
    /// op's integer or pointer result (Triton's tl.multiple_of and
    /// tl.max_contiguous), one power of two per dimension; the axis
    /// analysis takes them as divisibility and contiguity.
    static constexpr ::llvm::StringLiteral getMultipleOfAttrName() {
      return ::llvm::StringLiteral("ktc.multiple_of");
    }
    static constexpr ::llvm::StringLiteral getMaxContiguousAttrName() {
      return ::llvm::StringLiteral("ktc.max_contiguous");
    }
  private:
    void registerTypes();
    void registerAttributes();
  public:
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints. The predicates live in C++ (KtcTypes.h) so that the
// verifiers, the builder and the passes share one definition.
//===----------------------------------------------------------------------===//

def Ktc_Scalar : Type<CPred<"::mlir::ktc::isScalarType($_self)">,
    "scalar of type i1, i8, i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN, "
    "f8E5M2 or !ktc.ptr",
    "::mlir::Type">;

def Ktc_Block : Type<CPred<"::mlir::ktc::isBlockType($_self)">,
    "block tensor (static power-of-two 1-D, 2-D or 3-D shape over i1, i8, "
    "i16, i32, i64, f16, bf16, f32, f64, f8E4M3FN, f8E5M2 or !ktc.ptr)",
    "::mlir::RankedTensorType">;

def Ktc_Value : Type<CPred<"::mlir::ktc::isScalarOrBlock($_self)">,
    "ktc scalar or block tensor", "::mlir::Type">;

def Ktc_PtrLike : Type<CPred<"::mlir::ktc::isPtrLike($_self)">,
    "!ktc.ptr or block tensor of !ktc.ptr", "::mlir::Type">;

def Ktc_IntLike : Type<CPred<"::mlir::ktc::isIntLike($_self)">,
    "i32 or i64 scalar or block tensor", "::mlir::Type">;

def Ktc_BoolLike : Type<CPred<"::mlir::ktc::isBoolLike($_self)">,
    "i1 scalar or block tensor", "::mlir::Type">;


/// A signless i32 attribute read as a signed int32_t (upstream's I32Attr
/// reads uint32_t, which turns a negative axis into a huge one).
def Ktc_I32Attr : TypedSignlessIntegerAttrBase<I32, "int32_t",
    "32-bit signless integer attribute"> {
  let convertFromStorage =
      "static_cast<int32_t>($_self.getValue().getSExtValue())";
}

#endif // KTC_BASE_TD
