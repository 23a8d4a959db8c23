//===- DiskCache.cpp - the on-disk compile cache --------------------------===//
//
// See DiskCache.h for the entry format and why it needs no locks. Everything
// that touches the file system goes through LLVM Support; every failure is an
// error code turned into a miss or a warning, never an exception or an abort.
//
//===----------------------------------------------------------------------===//

#include "DiskCache.h"

#include "lib/Support/Env.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CachePruning.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace llvm;

namespace ktc::cache {

namespace {

constexpr char Magic[8] = {'K', 'T', 'C', 'C', 'A', 'C', 'H', '1'};
constexpr uint32_t FormatVersion = 1;
/// Magic, version and key length precede the key; payload length and
/// checksum follow it.
constexpr size_t PrefixSize = 16, SuffixSize = 16;
constexpr size_t MaxKeyLength = 200;
/// Larger files are not entries (a kernel's binary is at most megabytes).
constexpr uint64_t MaxEntrySize = uint64_t(1) << 30;

bool isValidKey(StringRef key) {
  return key.size() >= 2 && key.size() <= MaxKeyLength &&
         all_of(key, [](char c) { return isAlnum(c) || c == '_' || c == '-'; });
}

/// Appends a field of kind `tag` to `hash`: the tag, the length, the bytes.
void addField(SHA256 &hash, char tag, StringRef bytes) {
  char prefix[9];
  prefix[0] = tag;
  support::endian::write64le(prefix + 1, bytes.size());
  hash.update(StringRef(prefix, sizeof(prefix)));
  hash.update(bytes);
}

/// Why `file` is not a valid entry for `key`, or "" if it is one.
std::string validate(StringRef file, StringRef key) {
  using namespace support::endian;
  if (file.size() < PrefixSize)
    return "truncated (" + std::to_string(file.size()) + " bytes)";
  if (std::memcmp(file.data(), Magic, sizeof(Magic)) != 0)
    return "bad magic";
  if (uint32_t version = read32le(file.data() + 8); version != FormatVersion)
    return "format version " + std::to_string(version) + ", expected " +
           std::to_string(FormatVersion);
  if (read32le(file.data() + 12) != key.size())
    return "written for another key";
  if (file.size() < PrefixSize + key.size() + SuffixSize)
    return "truncated (" + std::to_string(file.size()) + " bytes)";
  if (file.substr(PrefixSize, key.size()) != key)
    return "written for another key";
  const char *suffix = file.data() + PrefixSize + key.size();
  uint64_t length = read64le(suffix);
  uint64_t available = file.size() - PrefixSize - key.size() - SuffixSize;
  if (length != available)
    return "payload length " + std::to_string(length) + ", but " +
           std::to_string(available) + " bytes follow the header";
  if (xxh3_64bits(file.take_back(length)) != read64le(suffix + 8))
    return "checksum mismatch";
  return "";
}

/// Removes `path` if it is still the file `read` (not a valid entry that a
/// writer renamed in since).
void removeIfUnchanged(const std::string &path, sys::fs::UniqueID read) {
  sys::fs::UniqueID now;
  if (!sys::fs::getUniqueID(path, now) && now == read)
    sys::fs::remove(path);
}

/// Whether this process has already reported the entry `path`.
bool alreadyReported(StringRef path) {
  static std::mutex mutex;
  static StringSet<> reported;
  std::lock_guard<std::mutex> lock(mutex);
  return !reported.insert(path).second;
}

void warnToStderr(const std::string &message) { errs() << message << "\n"; }

/// Entries carry this prefix: LLVM's pruneCache counts and removes only
/// files named so.
constexpr StringLiteral EntryPrefix = "llvmcache-";

} // namespace

std::optional<uint64_t> parseSize(StringRef text) {
  text = text.trim();
  for (StringRef none : {"0", "off", "none", "unlimited"})
    if (text.equals_insensitive(none))
      return 0;
  StringRef digits = text.take_while(isDigit);
  std::string lowered = text.drop_front(digits.size()).lower();
  StringRef suffix = lowered;
  unsigned shift = 0;
  if (!suffix.empty() && StringRef("kmg").contains(suffix.front())) {
    shift = 10 * (1 + StringRef("kmg").find(suffix.front()));
    suffix = suffix.drop_front();
  }
  if (suffix == "b" || (shift && suffix == "ib"))
    suffix = "";
  uint64_t value;
  if (digits.empty() || !suffix.empty() || digits.size() > 19 ||
      digits.getAsInteger(10, value) || value > (uint64_t(1) << (63 - shift)))
    return std::nullopt;
  return value << shift;
}

//===----------------------------------------------------------------------===//
// KeyBuilder
//===----------------------------------------------------------------------===//

KeyBuilder &KeyBuilder::add(StringRef field) {
  addField(hash_, 's', field);
  return *this;
}

KeyBuilder &KeyBuilder::add(int64_t value) {
  char bytes[8];
  support::endian::write64le(bytes, static_cast<uint64_t>(value));
  addField(hash_, 'i', StringRef(bytes, sizeof(bytes)));
  return *this;
}

std::string KeyBuilder::hex() const {
  SHA256 hash = hash_; // final() consumes the state; keep ours addable.
  return toHex(hash.final(), /*LowerCase=*/true);
}

//===----------------------------------------------------------------------===//
// DiskCache
//===----------------------------------------------------------------------===//

DiskCache &DiskCache::global() {
  static DiskCache cache = fromEnvironment();
  return cache;
}

DiskCache DiskCache::fromEnvironment(WarningHandler handler) {
  if (!handler)
    handler = warnToStderr;
  auto env = [](StringRef name) {
    return sys::Process::GetEnv(name).value_or("");
  };
  if (!env::flag("KTC_CACHE", true))
    return DiskCache("", false, 0, std::move(handler));

  uint64_t maxSize = DefaultMaxSize;
  if (std::optional<std::string> text = env::raw("KTC_CACHE_MAX_SIZE")) {
    if (std::optional<uint64_t> size = parseSize(*text))
      maxSize = *size;
    else
      handler("ktc: warning: KTC_CACHE_MAX_SIZE='" + *text +
              "' is not a size (bytes, or with a suffix K, M or G: 512M; 0, "
              "off or unlimited for no limit); the cache keeps its default "
              "limit of 256M");
  }

  SmallString<256> dir(env("KTC_CACHE_DIR"));
  if (dir.empty()) {
    // The XDG base directory spec ignores relative paths.
    std::string xdg = env("XDG_CACHE_HOME");
    std::string home = env("HOME");
    if (!xdg.empty() && sys::path::is_absolute(xdg)) {
      sys::path::append(dir, xdg, "ktc");
    } else if (!home.empty()) {
      sys::path::append(dir, home, ".cache", "ktc");
    } else {
      handler("ktc: warning: neither KTC_CACHE_DIR, XDG_CACHE_HOME nor HOME "
              "is set; the kernel cache is off");
      return DiskCache("", false, 0, std::move(handler));
    }
  }
  return DiskCache(dir.str().str(), true, maxSize, std::move(handler));
}

DiskCache::DiskCache(std::string dir, bool enabled, uint64_t maxSize)
    : DiskCache(std::move(dir), enabled, maxSize, warnToStderr) {}

DiskCache::DiskCache(std::string dir, bool enabled, uint64_t maxSize,
                     WarningHandler handler)
    : dir_(std::move(dir)), enabled_(enabled), maxSize_(maxSize),
      handler_(std::move(handler)) {}

std::string DiskCache::pathFor(StringRef key) const {
  SmallString<256> path(dir_);
  sys::path::append(path, EntryPrefix + key + ".bin");
  return path.str().str();
}

std::optional<std::string> DiskCache::get(StringRef key) {
  if (!enabled_)
    return std::nullopt;
  auto miss = [&] {
    ++misses_;
    return std::nullopt;
  };
  if (!isValidKey(key))
    return miss();

  std::string path = pathFor(key);
  // O_NONBLOCK: a FIFO in place of the entry would block open(2) until some
  // writer came (a launch hung for ever); we read regular files only.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    int error = errno;
    if (error != ENOENT && error != ENOTDIR && !alreadyReported(path))
      warn("ktc: warning: cannot read the kernel cache entry " + path + ": " +
           std::strerror(error) + "; the kernel is compiled instead");
    return miss();
  }
  // Read the whole file with read(2), never mmap: a writer truncating or
  // overwriting the file in place could fault us, or change bytes under us
  // after we validated them. (MemoryBuffer maps large files even when told
  // they are volatile, unless it must also NUL-terminate them.)
  sys::fs::file_status status;
  SmallVector<char, 0> bytes;
  bool read = !sys::fs::status(fd, status);
  if (read && !sys::fs::is_regular_file(status)) {
    // A directory, FIFO, socket or device where the entry belongs: not
    // ours to remove; a write replaces it if it can.
    read = false;
    if (!alreadyReported(path))
      warn("ktc: warning: the kernel cache entry " + path +
           " is not a regular file; the kernel is compiled instead");
  } else if (read && status.getSize() > MaxEntrySize) {
    // No entry is that large (a sparse or foreign file): don't read it.
    sys::fs::closeFile(fd);
    ++corrupt_;
    removeIfUnchanged(path, status.getUniqueID());
    if (!alreadyReported(path))
      warn("ktc: warning: removed a corrupt kernel cache entry " + path +
           ": " + std::to_string(status.getSize()) +
           " bytes, more than any entry; rebuilding it");
    return miss();
  }
  if (read) {
    bytes.reserve(status.getSize() + sys::fs::DefaultReadChunkSize);
    if (Error error = sys::fs::readNativeFileToEOF(fd, bytes)) {
      consumeError(std::move(error));
      read = false;
    } else {
      // Pruning removes the least recently used entries first, by access
      // time, which relatime or noatime mounts do not keep: set it (and
      // keep the modification time). Nothing but pruning reads either.
      (void)sys::fs::setLastAccessAndModificationTime(
          fd, std::chrono::system_clock::now(),
          status.getLastModificationTime());
    }
  }
  sys::fs::closeFile(fd);
  if (!read)
    return miss();

  StringRef file(bytes.data(), bytes.size());
  std::string reason = validate(file, key);
  if (reason.empty()) {
    ++hits_;
    return file.take_back(file.size() - PrefixSize - key.size() - SuffixSize)
        .str();
  }

  ++corrupt_;
  removeIfUnchanged(path, status.getUniqueID());
  if (!alreadyReported(path))
    warn("ktc: warning: removed a corrupt kernel cache entry " + path + ": " +
         reason + "; rebuilding it");
  return miss();
}

bool DiskCache::put(StringRef key, StringRef payload) {
  if (!enabled_ || !isValidKey(key))
    return false;

  std::string path = pathFor(key);
  StringRef parent = sys::path::parent_path(path);
  if (std::error_code ec = sys::fs::create_directories(parent))
    return writeFailed(ec.message());
  // Not llvmcache-*: pruning never removes a temporary being written.
  SmallString<256> model(parent), temp;
  sys::path::append(model, key + ".tmp-%%%%%%");
  int fd;
  if (std::error_code ec = sys::fs::createUniqueFile(model, fd, temp))
    return writeFailed(ec.message());

  char prefix[PrefixSize], suffix[SuffixSize];
  std::memcpy(prefix, Magic, sizeof(Magic));
  support::endian::write32le(prefix + 8, FormatVersion);
  support::endian::write32le(prefix + 12, key.size());
  support::endian::write64le(suffix, payload.size());
  support::endian::write64le(suffix + 8, xxh3_64bits(payload));

  std::error_code ec;
  {
    raw_fd_ostream os(fd, /*shouldClose=*/true);
    os.write(prefix, sizeof(prefix)) << key;
    os.write(suffix, sizeof(suffix)) << payload;
    os.close();
    ec = os.error();
    os.clear_error(); // Handled here; the destructor would abort otherwise.
  }
  if (!ec)
    ec = sys::fs::rename(temp, path);
  if (ec) {
    sys::fs::remove(temp);
    return writeFailed(ec.message());
  }
  ++writes_;
  // A prune scans the whole directory (about 8 us an entry: 40 ms for
  // 5000), so it runs on this process's first write and then once this
  // process has written a 32nd of the limit since its last one: the
  // entries exceed the limit by at most that much per process writing.
  uint64_t written = unprunedBytes_ += PrefixSize + key.size() +
                                       SuffixSize + payload.size();
  if (!prunedOnce_.load() || written >= maxSize_ / 32)
    prune();
  return true;
}

bool DiskCache::prune() {
  if (!enabled_ || maxSize_ == 0)
    return false;
  std::unique_lock<std::mutex> lock(pruneMutex_, std::try_to_lock);
  if (!lock.owns_lock())
    return false; // Another thread is at it; its scan sees our entry too.
  // pruneCache aborts (report_fatal_error) when it cannot ask how much
  // space the disk has: ask first, and skip pruning where that fails.
  if (!sys::fs::disk_space(dir_))
    return false;
  CachePruningPolicy policy;
  policy.Interval = std::chrono::seconds(0); // Every time: a strict bound.
  policy.Expiration = std::chrono::seconds(0); // Size alone decides.
  policy.MaxSizePercentageOfAvailableSpace = 0;
  policy.MaxSizeBytes = maxSize_;
  policy.MaxSizeFiles = 0;
  unprunedBytes_ = 0;
  prunedOnce_ = true;
  if (!pruneCache(dir_, policy))
    return false;
  ++prunes_;
  return true;
}

bool DiskCache::writeFailed(const std::string &reason) {
  ++writeFailures_;
  if (!warnedWrite_.exchange(true))
    warn("ktc: warning: cannot write to the kernel cache " + dir_ + ": " +
         reason + "; kernels still run, uncached");
  return false;
}

Stats DiskCache::stats() const {
  return {hits_.load(),   misses_.load(),        corrupt_.load(),
          writes_.load(), writeFailures_.load(), prunes_.load()};
}

void DiskCache::setWarningHandler(WarningHandler handler) {
  std::lock_guard<std::mutex> lock(handlerMutex_);
  handler_ = handler ? std::move(handler) : warnToStderr;
}

void DiskCache::warn(const std::string &message) {
  WarningHandler handler;
  {
    std::lock_guard<std::mutex> lock(handlerMutex_);
    handler = handler_;
  }
  handler(message); // Outside the lock: the handler may call back into us.
}

} // namespace ktc::cache
