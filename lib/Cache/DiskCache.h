//===- DiskCache.h - the on-disk compile cache -------------------*- C++ -*-===//
//
// Compiled kernels are expensive to rebuild and cheap to store, so ktc keeps
// them in a directory shared by every thread and process of every user run:
//
//   KTC_CACHE=off (or 0, false, no)   no cache at all
//   KTC_CACHE_DIR=DIR                 where (default $XDG_CACHE_HOME/ktc,
//                                     else $HOME/.cache/ktc)
//   KTC_CACHE_MAX_SIZE=SIZE           the most bytes its entries may hold
//                                     (default 256M; K, M, G suffixes, powers
//                                     of 1024; 0, off or unlimited: no limit)
//
// An entry lives at <dir>/llvmcache-<key>.bin (one flat directory, named so
// that LLVM's cache pruning, llvm/Support/CachePruning.h, manages it) and
// holds
//
//   offset  size  field
//   0       8     magic "KTCCACH1"
//   8       4     format version (u32 little-endian, currently 1)
//   12      4     key length K (u32 little-endian)
//   16      K     the key itself
//   16+K    8     payload length N (u64 little-endian)
//   24+K    8     xxh3_64 of the payload (u64 little-endian)
//   32+K    N     the payload; the file ends exactly here
//
// There are no locks. A writer fills a uniquely named temporary file
// (<key>.tmp-XXXXXX) next to the entry and renames it over the entry, so a
// reader opens either the old file or the new one, never a half-written one.
// A reader reads the whole file into memory and validates every field before
// trusting a byte of it; whatever fails (a torn write after a power loss, a
// truncated or scribbled file, a file copied to another key's name) is
// removed and reported as a miss, and the caller rebuilds the entry. Stale
// temporaries of crashed writers are harmless.
//
// The size limit: the directory is pruned with LLVM's pruneCache, which
// removes the least recently used entries (by access time; a hit sets it)
// until the entries fit: on a process's first write, then whenever it has
// written a 32nd of the limit since its last prune (a prune scans the whole
// directory, about 8 us an entry), so the entries exceed the limit by at
// most a 32nd of it per process writing. Only files named llvmcache-* are
// counted or removed: temporaries being written, and anything else in the
// directory, are never touched. A reader that opened an entry before it was
// removed still reads it whole (POSIX unlink). One thread of a process
// prunes at a time; processes prune independently (each removal is one
// unlink).
//
// Nothing here throws and nothing here fails a launch: a cache that cannot be
// read misses, a cache that cannot be written warns once and is skipped.
//
//===----------------------------------------------------------------------===//

#ifndef KTC_LIB_CACHE_DISKCACHE_H
#define KTC_LIB_CACHE_DISKCACHE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SHA256.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

namespace ktc::cache {

/// Builds a cache key from fields. Each field is tagged with its kind and
/// length-prefixed, so ("ab", "c") and ("a", "bc") differ, and so do the
/// integer 0 and the string of eight NUL bytes.
class KeyBuilder {
public:
  KeyBuilder &add(llvm::StringRef field);
  /// A fixed 8-byte little-endian field.
  KeyBuilder &add(int64_t value);
  /// The SHA-256 of all fields so far, as 64 lowercase hex digits.
  std::string hex() const;

private:
  llvm::SHA256 hash_;
};

/// What a DiskCache has done so far. A corrupt entry counts both as corrupt
/// and as a miss; a disabled cache counts nothing.
struct Stats {
  uint64_t hits = 0, misses = 0, corrupt = 0, writes = 0, write_failures = 0;
  /// Times the directory was pruned to the size limit.
  uint64_t prunes = 0;
};

/// KTC_CACHE_MAX_SIZE when unset: 256 MiB, thousands of kernels.
constexpr uint64_t DefaultMaxSize = uint64_t(256) << 20;

/// Parses a cache size: decimal digits with an optional suffix K, M or G (any
/// case, powers of 1024, an optional B or iB after it: 512M, 512MiB, 1g),
/// blanks around ignored; 0, off, none and unlimited are 0 (no limit).
/// nullopt for anything else, or a size past 2^63 bytes.
std::optional<uint64_t> parseSize(llvm::StringRef text);

class DiskCache {
public:
  using WarningHandler = std::function<void(const std::string &)>;

  /// The process-wide cache, made by fromEnvironment() on first use.
  static DiskCache &global();
  /// A cache configured from KTC_CACHE, KTC_CACHE_DIR, KTC_CACHE_MAX_SIZE,
  /// XDG_CACHE_HOME and HOME (see the file comment). When no directory can
  /// be found, the cache is disabled and `handler` (default: stderr) gets one
  /// warning saying so; a KTC_CACHE_MAX_SIZE that is not a size gets one
  /// warning naming it and the default limit holds. The cache keeps
  /// `handler` for its own warnings.
  static DiskCache fromEnvironment(WarningHandler handler = {});

  /// `maxSize`: the most bytes the entries may hold; 0 is no limit.
  explicit DiskCache(std::string dir, bool enabled = true,
                     uint64_t maxSize = DefaultMaxSize);

  bool enabled() const { return enabled_; }
  const std::string &dir() const { return dir_; }
  uint64_t maxSize() const { return maxSize_; }

  /// Removes the least recently used entries until the rest hold at most
  /// maxSize() bytes (put() calls it after its first write, then after
  /// every maxSize() / 32 bytes it wrote). Returns whether it
  /// pruned: not for a disabled or unlimited cache, a directory that cannot
  /// be read, or while another thread of this process is pruning.
  bool prune();

  /// The payload stored under `key`, or nullopt on a miss. An entry that
  /// fails validation counts as corrupt: it is removed (unless another writer
  /// has replaced it meanwhile), reported through the warning handler once
  /// per entry path per process, and nullopt is returned.
  std::optional<std::string> get(llvm::StringRef key);
  /// Stores `payload` under `key` atomically (temporary file + rename). On
  /// failure returns false, leaves no temporary behind, and warns once per
  /// DiskCache. A disabled cache stores nothing and returns false.
  bool put(llvm::StringRef key, llvm::StringRef payload);

  Stats stats() const;
  /// Where warnings go; default (and when `handler` is empty): one line to
  /// stderr. Thread safe.
  void setWarningHandler(WarningHandler handler);

  /// The path of the entry for `key`. Keys are what KeyBuilder::hex() makes:
  /// get() and put() refuse (miss, return false) anything but 2 to 200
  /// characters of [0-9A-Za-z_-], which cannot escape the directory.
  std::string pathFor(llvm::StringRef key) const;

private:
  DiskCache(std::string dir, bool enabled, uint64_t maxSize,
            WarningHandler handler);

  void warn(const std::string &message);
  bool writeFailed(const std::string &reason);

  const std::string dir_;
  const bool enabled_;
  const uint64_t maxSize_;
  std::mutex handlerMutex_, pruneMutex_;
  WarningHandler handler_;
  std::atomic<bool> warnedWrite_{false};
  std::atomic<uint64_t> hits_{0}, misses_{0}, corrupt_{0}, writes_{0},
      writeFailures_{0}, prunes_{0}, unprunedBytes_{0};
  std::atomic<bool> prunedOnce_{false};
};

} // namespace ktc::cache

#endif // KTC_LIB_CACHE_DISKCACHE_H
