//===- CachePruneTest.cpp - the disk cache's size limit -------------------===//
//
// KTC_CACHE_MAX_SIZE: how sizes are spelled, what a bad one does, and that
// a cache written far past its limit stays under it, keeps what was used
// last, and leaves alone what is not its own (temporaries, other files).
//
//===----------------------------------------------------------------------===//

#include "lib/Cache/DiskCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace ktc::cache;
namespace fs = llvm::sys::fs;

namespace {

struct TempDir {
  llvm::SmallString<128> path;
  TempDir() { EXPECT_FALSE(fs::createUniqueDirectory("ktc-prune-test", path)); }
  ~TempDir() { fs::remove_directories(path); }
  std::string sub(llvm::StringRef name) const {
    llvm::SmallString<128> p(path);
    llvm::sys::path::append(p, name);
    return p.str().str();
  }
};

/// Sets (nullptr: unsets) one variable for a scope.
class ScopedEnv {
public:
  ScopedEnv(const char *name, const char *value) : name_(name) {
    if (const char *old = std::getenv(name))
      saved_ = old;
    value ? setenv(name, value, 1) : unsetenv(name);
  }
  ~ScopedEnv() {
    saved_ ? setenv(name_, saved_->c_str(), 1) : unsetenv(name_);
  }

private:
  const char *name_;
  std::optional<std::string> saved_;
};

/// The bytes the cache's entries (llvmcache-*.bin) hold in `dir`.
uint64_t entryBytes(llvm::StringRef dir, size_t *count = nullptr) {
  uint64_t total = 0;
  size_t n = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (!name.starts_with("llvmcache-") || !name.ends_with(".bin"))
      continue;
    uint64_t size = 0;
    EXPECT_FALSE(fs::file_size(it->path(), size));
    total += size;
    ++n;
  }
  if (count)
    *count = n;
  return total;
}

/// Random bytes (NULs included) of 1 to `maxLength` bytes, never zeros.
std::string randomPayload(std::mt19937_64 &rng, size_t maxLength) {
  std::string payload(1 + rng() % maxLength, '\0');
  for (char &c : payload)
    c = static_cast<char>(rng());
  return payload;
}

std::string keyOf(int n) { return KeyBuilder().add("prune").add(n).hex(); }

TEST(CacheSize, Spellings) {
  struct {
    const char *text;
    uint64_t bytes;
  } good[] = {
      {"0", 0},           {"off", 0},          {"OFF", 0},
      {"unlimited", 0},   {"none", 0},         {"1", 1},
      {"4096", 4096},     {"4k", 4096},        {"4K", 4096},
      {"4KiB", 4096},     {"4kb", 4096},       {"3M", 3u << 20},
      {" 512M ", 512u << 20}, {"2G", uint64_t(2) << 30}, {"1000B", 1000},
      {"8589934592G", uint64_t(1) << 63},
  };
  for (auto &g : good) {
    std::optional<uint64_t> got = parseSize(g.text);
    ASSERT_TRUE(got) << g.text;
    EXPECT_EQ(*got, g.bytes) << g.text;
  }
  for (const char *bad : {"", "  ", "-1", "1.5G", "12X", "M", "1MM", "1 M",
                          "1T", "0x10", "1iB", "99999999999999999999",
                          "8589934593G", "yes"})
    EXPECT_FALSE(parseSize(bad)) << "'" << bad << "'";
}

TEST(CacheSize, FromTheEnvironment) {
  TempDir tmp;
  ScopedEnv dir("KTC_CACHE_DIR", tmp.sub("c").c_str());
  ScopedEnv on("KTC_CACHE", nullptr);
  std::vector<std::string> warnings;
  auto handler = [&](const std::string &line) { warnings.push_back(line); };
  {
    ScopedEnv size("KTC_CACHE_MAX_SIZE", nullptr);
    EXPECT_EQ(DiskCache::fromEnvironment(handler).maxSize(), DefaultMaxSize);
  }
  {
    ScopedEnv size("KTC_CACHE_MAX_SIZE", "64M");
    EXPECT_EQ(DiskCache::fromEnvironment(handler).maxSize(), 64u << 20);
  }
  {
    ScopedEnv size("KTC_CACHE_MAX_SIZE", "off");
    EXPECT_EQ(DiskCache::fromEnvironment(handler).maxSize(), 0u);
  }
  EXPECT_TRUE(warnings.empty());
  {
    // Not a size: one warning naming the variable and the value; the
    // default limit holds (nothing about the cache fails a launch).
    ScopedEnv size("KTC_CACHE_MAX_SIZE", "12X");
    DiskCache cache = DiskCache::fromEnvironment(handler);
    EXPECT_TRUE(cache.enabled());
    EXPECT_EQ(cache.maxSize(), DefaultMaxSize);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0],
              "ktc: warning: KTC_CACHE_MAX_SIZE='12X' is not a size (bytes, or "
              "with a suffix K, M or G: 512M; 0, off or unlimited for no "
              "limit); the cache keeps its default limit of 256M");
  }
}

TEST(CachePrune, StaysUnderTheLimitAndKeepsWhatIsUsed) {
  TempDir tmp;
  constexpr uint64_t Limit = 64 << 10;
  DiskCache cache(tmp.sub("c"), true, Limit);
  std::mt19937_64 rng(7);
  // Not the cache's: a temporary being written, and a file of the user's.
  ASSERT_FALSE(fs::create_directories(tmp.sub("c")));
  for (const char *name : {"abc.tmp-123456", "notes.txt"}) {
    std::error_code ec;
    llvm::raw_fd_ostream os(tmp.sub("c/") + name, ec);
    ASSERT_FALSE(ec);
    os << std::string(Limit, 'x');
  }
  std::string kept = randomPayload(rng, 4096);
  ASSERT_TRUE(cache.put(keyOf(-1), kept));
  uint64_t written = kept.size();
  for (int i = 0; i < 300; ++i) {
    std::string payload = randomPayload(rng, 4096);
    written += payload.size();
    ASSERT_TRUE(cache.put(keyOf(i), payload));
    // Pruned once this process wrote a 32nd of the limit since the last
    // prune: over it by at most that and the entry that crossed it.
    ASSERT_LE(entryBytes(tmp.sub("c")), Limit + Limit / 32 + 4096 + 96)
        << "after entry " << i;
    // The newest entry is whole, and the one read after every write stays.
    std::optional<std::string> newest = cache.get(keyOf(i));
    ASSERT_TRUE(newest) << i;
    EXPECT_EQ(*newest, payload);
    std::optional<std::string> again = cache.get(keyOf(-1));
    ASSERT_TRUE(again) << "the entry used last was pruned after " << i;
    EXPECT_EQ(*again, kept);
  }
  EXPECT_GT(written, 8 * Limit);
  size_t count = 0;
  EXPECT_GT(entryBytes(tmp.sub("c"), &count), Limit / 2);
  EXPECT_LT(count, 100u);
  // The oldest entries went first.
  EXPECT_FALSE(cache.get(keyOf(0)));
  EXPECT_TRUE(fs::exists(tmp.sub("c/abc.tmp-123456")));
  EXPECT_TRUE(fs::exists(tmp.sub("c/notes.txt")));
  // A prune brings the entries under the limit itself.
  ASSERT_TRUE(cache.prune());
  EXPECT_LE(entryBytes(tmp.sub("c")), Limit);
  Stats stats = cache.stats();
  EXPECT_EQ(stats.writes, 301u);
  // Not after every write: about once per 2 KiB written (entries average
  // 2 KiB here), plus the first and the one above.
  EXPECT_GT(stats.prunes, 100u);
  EXPECT_LT(stats.prunes, 302u);
  EXPECT_EQ(stats.corrupt + stats.write_failures, 0u);
}

TEST(CachePrune, UnlimitedKeepsEverything) {
  TempDir tmp;
  DiskCache cache(tmp.sub("c"), true, /*maxSize=*/0);
  std::mt19937_64 rng(8);
  uint64_t written = 0;
  for (int i = 0; i < 50; ++i) {
    std::string payload = randomPayload(rng, 4096);
    written += payload.size();
    ASSERT_TRUE(cache.put(keyOf(i), payload));
  }
  size_t count = 0;
  EXPECT_EQ(entryBytes(tmp.sub("c"), &count), written + 50 * (32 + 64));
  EXPECT_EQ(count, 50u);
  EXPECT_FALSE(cache.prune());
  EXPECT_EQ(cache.stats().prunes, 0u);
}

} // namespace
