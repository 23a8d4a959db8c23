//===- Backend.cpp - compile options and stages, validated here -----------===//

#include "Backend.h"

#include "dialect/KtcTypes.h"

namespace ktc::target {

Backend::~Backend() = default;
char PipelineError::ID = 0;

llvm::Expected<CompileOptions>
CompileOptions::make(int64_t numWarps, int64_t numStages, bool checkBounds,
                     llvm::StringRef warpsName, llvm::StringRef stagesName) {
  if (!mlir::ktc::isValidNumWarps(numWarps))
    return llvm::createStringError(
        warpsName.str() + " must be a power of two from 1 to " +
        std::to_string(mlir::ktc::kMaxNumWarps) + ", got " +
        std::to_string(numWarps));
  if (numStages < 1 || numStages > mlir::ktc::kMaxNumStages)
    return llvm::createStringError(
        stagesName.str() + " must be from 1 to " +
        std::to_string(mlir::ktc::kMaxNumStages) + ", got " +
        std::to_string(numStages));
  CompileOptions options;
  options.numWarps = unsigned(numWarps);
  options.numStages = unsigned(numStages);
  options.checkBounds = checkBounds;
  return options;
}

static constexpr llvm::StringLiteral kStageNames[] = {"mlir", "llvm", "asm",
                                                      "bin"};

llvm::Expected<Stage> parseStage(llvm::StringRef name) {
  for (auto [i, known] : llvm::enumerate(kStageNames))
    if (name == known)
      return Stage(i);
  return llvm::createStringError("unknown stage '" + name.str() +
                                 "' to emit (mlir, llvm, asm or bin)");
}

llvm::StringRef stageName(Stage stage) { return kStageNames[int(stage)]; }

} // namespace ktc::target
