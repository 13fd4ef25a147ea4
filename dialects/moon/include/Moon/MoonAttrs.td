//===- MoonAttrs.td - moon dialect attributes --------------*- tablegen -*-===//
//
// The activity of an argument or result of a differentiated function.
//
//===----------------------------------------------------------------------===//

#ifndef MOON_ATTRS_TD
#define MOON_ATTRS_TD

include "Moon/MoonDialect.td"
include "mlir/IR/EnumAttr.td"

def Moon_ActivityConst : I32EnumAttrCase<"Const", 0, "const">;
def Moon_ActivityActive : I32EnumAttrCase<"Active", 1, "active">;
def Moon_ActivityActiveNoNeed
    : I32EnumAttrCase<"ActiveNoNeed", 2, "active_noneed">;
def Moon_ActivityDup : I32EnumAttrCase<"Dup", 3, "dup">;
def Moon_ActivityDupNoNeed : I32EnumAttrCase<"DupNoNeed", 4, "dup_noneed">;

def Moon_Activity
    : I32EnumAttr<"Activity",
                  "how an argument or result takes part in differentiation",
                  [Moon_ActivityConst, Moon_ActivityActive,
                   Moon_ActivityActiveNoNeed, Moon_ActivityDup,
                   Moon_ActivityDupNoNeed]> {
  let cppNamespace = "::mlir::moon";
  let genSpecializedAttr = 0;
}

def Moon_ActivityAttr : EnumAttr<Moon_Dialect, Moon_Activity, "activity"> {
  let assemblyFormat = "`<` $value `>`";
}

def Moon_ActivityArrayAttr
    : TypedArrayAttrBase<Moon_ActivityAttr, "array of activities">;

#endif // MOON_ATTRS_TD
