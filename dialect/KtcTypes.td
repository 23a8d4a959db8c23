//===- KtcTypes.td - ktc types and attributes ----------------*- tablegen -*-===//

#ifndef KTC_TYPES_TD
#define KTC_TYPES_TD

include "KtcBase.td"

class Ktc_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Ktc_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Ktc_PtrType : Ktc_Type<"Ptr", "ptr"> {
  let summary = "pointer to a scalar in global memory";
  let description = [{
    A pointer into global memory to one element of type `T`, one of i32,
    i64, f16, bf16 or f32. Pointer arithmetic (`ktc.addptr`) counts in
    elements of `T`. A block of pointers is a block tensor of this type.

    ```mlir
    !ktc.ptr<f32>
    tensor<1024x!ktc.ptr<f16>>
    ```
  }];
  let parameters = (ins "::mlir::Type":$pointeeType);
  let assemblyFormat = "`<` $pointeeType `>`";
  let genVerifyDecl = 1;
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$pointeeType), [{
      return $_get(pointeeType.getContext(), pointeeType);
    }]>
  ];
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def Ktc_ReduceKindEnum : I32EnumAttr<"ReduceKind", "reduction kind", [
    I32EnumAttrCase<"Sum", 0, "sum">,
    I32EnumAttrCase<"Max", 1, "max">,
    I32EnumAttrCase<"Min", 2, "min">]> {
  let cppNamespace = "::mlir::ktc";
  let genSpecializedAttr = 0;
}

def Ktc_ReduceKindAttr : EnumAttr<Ktc_Dialect, Ktc_ReduceKindEnum, "reduce_kind"> {
  let assemblyFormat = "$value";
}

#endif // KTC_TYPES_TD
