//===- Symbols.cpp - entry points of a dlopen'ed library ------------------===//

#include "Symbols.h"

#include <dlfcn.h>

#include <cstring>

void ktc::drivers::Symbols::get(void *slot, const char *name) {
  void *fn = dlsym(library, name);
  std::memcpy(slot, &fn, sizeof(fn)); // into a function pointer
  if (!fn && !missing)
    missing = name;
}
