# -*- Python -*-
# lit configuration for ktc's FileCheck tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "ktc"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "lit.site.cfg.py",
                   "Inputs", "unit"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ktc_obj_root, "test")

config.substitutions.append(("%ktc_src", config.ktc_src_root))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

tool_dirs = [config.ktc_tools_dir, config.llvm_tools_dir]
tools = ["ktc-opt", "ktc-compile", "vector_add", "softmax", "autotune",
         "ktc-replay-parse"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The examples' compiled kernels go to a cache of the test tree's own (lit
# passes neither HOME nor XDG_CACHE_HOME through).
config.environment["KTC_CACHE_DIR"] = os.path.join(config.test_exec_root,
                                                   "ktc-cache")

# ptxas (CUDA toolkit) assembles the PTX tests' output where it is installed
# (`REQUIRES: ptxas`; a machine without it skips them).
import shutil
_ptxas = shutil.which("ptxas") or next(
    (p for p in ["/usr/local/cuda/bin/ptxas"] if os.path.exists(p)), None)
if _ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", _ptxas))
    llvm_config.with_environment("PATH", os.path.dirname(_ptxas),
                                 append_path=True)
