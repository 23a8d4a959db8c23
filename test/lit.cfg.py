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

# NVIDIA's PTX assembler, where installed (`REQUIRES: ptxas`): the PTX ktc
# writes for new GPUs is checked with it.
import shutil
if shutil.which("ptxas", path=os.environ.get("PATH", "") + ":/usr/local/cuda/bin"):
    config.available_features.add("ptxas")
    llvm_config.with_environment("PATH", "/usr/local/cuda/bin", append_path=True)
