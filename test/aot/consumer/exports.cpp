// What test/aot compiles ahead of time: the kernels of kernels.h, each for
// the constexpr values given (ktc_add_kernels in CMakeLists.txt lists the
// targets).
#include "kernels.h"

#include "ktc/Aot.h"

// [exports]
KTC_AOT_EXPORTS(exports) {
  exports.add("vector_add_1024", kernels::vector_add, 1024);   // BLOCK
  exports.add("softmax_256", kernels::softmax, 256,
              ktc::Options{.num_warps = 4});
}
// [end exports]
