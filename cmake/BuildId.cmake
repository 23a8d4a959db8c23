# Writes OUTPUT: a C string literal, the SHA-256 over the compiler's sources
# (their paths relative to ROOT and contents). The disk cache keys compiled
# kernels by it, so a rebuilt compiler never loads a stale kernel. Run by
# lib/Runtime/CMakeLists.txt whenever a source changes; OUTPUT is rewritten
# only when the id changes, so unchanged sources rebuild nothing.
#   cmake -DROOT=<repo> -DOUTPUT=<file> -DLIST=<file listing the sources> -P BuildId.cmake
file(STRINGS "${LIST}" sources)
list(SORT sources)
set(all "")
foreach(source IN LISTS sources)
  file(SHA256 "${source}" hash)
  file(RELATIVE_PATH rel "${ROOT}" "${source}")
  string(APPEND all "${rel} ${hash}\n")
endforeach()
string(SHA256 id "${all}")
set(text "\"${id}\"\n")
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL text)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${text}")
