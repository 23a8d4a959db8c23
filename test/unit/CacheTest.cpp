//===- CacheTest.cpp - the on-disk compile cache --------------------------===//
//
// Keys, the entry format and its validation, failure modes (disabled,
// unwritable, corrupt entries) and the lock-free sharing of one directory by
// many threads and many processes, one of which scribbles over entries. Each
// test works in its own fresh temporary directory.
//
//===----------------------------------------------------------------------===//

#include "lib/Cache/DiskCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <future>
#include <sys/stat.h>
#include <cstdlib>
#include <fcntl.h>
#include <random>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace ktc::cache;
using namespace std::string_literals;
namespace fs = llvm::sys::fs;
using Clock = std::chrono::steady_clock;

namespace {

/// A fresh directory, removed with everything in it at the end of the test.
struct TempDir {
  llvm::SmallString<128> path;
  TempDir() {
    EXPECT_FALSE(fs::createUniqueDirectory("ktc-cache-test", path));
  }
  ~TempDir() { fs::remove_directories(path); }
  std::string sub(llvm::StringRef name) const {
    llvm::SmallString<128> p(path);
    llvm::sys::path::append(p, name);
    return p.str().str();
  }
};

/// Collects what a cache warns.
struct Warnings {
  std::vector<std::string> lines;
  void attach(DiskCache &cache) {
    cache.setWarningHandler(
        [this](const std::string &line) { lines.push_back(line); });
  }
};

std::string keyOf(llvm::StringRef name, int64_t n = 0) {
  return KeyBuilder().add(name).add(n).hex();
}

std::string readFile(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  EXPECT_TRUE(bool(buffer)) << path;
  return buffer ? (*buffer)->getBuffer().str() : "";
}

void writeFile(const std::string &path, llvm::StringRef bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  ASSERT_FALSE(ec) << path;
  os << bytes;
}

/// Every regular file under `dir`, recursively, but for the timestamp LLVM's
/// cache pruning keeps.
std::vector<std::string> filesUnder(llvm::StringRef dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; it != end && !ec;
       it.increment(ec))
    if (it->type() == fs::file_type::regular_file &&
        llvm::sys::path::filename(it->path()) != "llvmcache.timestamp")
      files.push_back(it->path());
  return files;
}

/// A deterministic payload for `key`: binary, NUL bytes included, of a
/// length between 1 byte and about `maxLength`.
std::string payloadFor(llvm::StringRef key, size_t maxLength = 4096) {
  std::mt19937_64 rng(std::hash<std::string>()(key.str()));
  std::string payload(1 + rng() % maxLength, '\0');
  for (char &c : payload)
    c = static_cast<char>(rng() % 4 == 0 ? 0 : rng());
  return payload;
}

//===----------------------------------------------------------------------===//
// Keys
//===----------------------------------------------------------------------===//

TEST(CacheKey, FieldsAreLengthPrefixed) {
  EXPECT_NE(KeyBuilder().add("ab").add("c").hex(),
            KeyBuilder().add("a").add("bc").hex());
  EXPECT_NE(KeyBuilder().add("abc").hex(),
            KeyBuilder().add("ab").add("c").hex());
  EXPECT_NE(KeyBuilder().add("").add("x").hex(),
            KeyBuilder().add("x").add("").hex());
  EXPECT_NE(KeyBuilder().add("").hex(), KeyBuilder().hex());
}

TEST(CacheKey, OrderSensitiveAndDeterministic) {
  std::string ab = KeyBuilder().add("a").add("b").hex();
  EXPECT_NE(ab, KeyBuilder().add("b").add("a").hex());
  EXPECT_EQ(ab, KeyBuilder().add("a").add("b").hex());
  EXPECT_EQ(ab.size(), 64u);
  EXPECT_EQ(ab.find_first_not_of("0123456789abcdef"), std::string::npos);
  // hex() does not consume the builder.
  KeyBuilder builder;
  builder.add("a");
  std::string first = builder.hex();
  EXPECT_EQ(first, builder.hex());
  EXPECT_EQ(builder.add("b").hex(), ab);
}

TEST(CacheKey, IntFields) {
  EXPECT_NE(KeyBuilder().add(int64_t(1)).hex(),
            KeyBuilder().add(int64_t(2)).hex());
  EXPECT_NE(KeyBuilder().add(int64_t(1)).hex(),
            KeyBuilder().add(int64_t(1) << 32).hex());
  EXPECT_NE(KeyBuilder().add(int64_t(-1)).hex(),
            KeyBuilder().add(INT64_MAX).hex());
  EXPECT_EQ(KeyBuilder().add(int64_t(42)).add("x").hex(),
            KeyBuilder().add(int64_t(42)).add("x").hex());
  // An integer is not the string of its eight bytes, nor its decimal text.
  EXPECT_NE(KeyBuilder().add(int64_t(0)).hex(),
            KeyBuilder().add(llvm::StringRef("\0\0\0\0\0\0\0\0", 8)).hex());
  EXPECT_NE(KeyBuilder().add(int64_t(7)).hex(), KeyBuilder().add("7").hex());
}

//===----------------------------------------------------------------------===//
// Storing and loading
//===----------------------------------------------------------------------===//

TEST(DiskCache, RoundTripsBinaryPayloads) {
  TempDir tmp;
  DiskCache cache(tmp.sub("cache"));
  Warnings warnings;
  warnings.attach(cache);
  std::mt19937_64 rng(1);
  std::string big(5 << 20, '\0');
  for (char &c : big)
    c = static_cast<char>(rng());
  std::vector<std::pair<std::string, std::string>> entries = {
      {keyOf("nul"), "a\0b\0\0c"s},
      {keyOf("empty"), ""},
      {keyOf("big"), big},
  };
  for (auto &[key, payload] : entries)
    ASSERT_TRUE(cache.put(key, payload));
  for (auto &[key, payload] : entries) {
    std::optional<std::string> got = cache.get(key);
    ASSERT_TRUE(got);
    EXPECT_EQ(*got, payload);
    // <dir>/llvmcache-<key>.bin, exactly header + payload long.
    std::string path = cache.pathFor(key);
    EXPECT_EQ(path, tmp.sub("cache/llvmcache-" + key + ".bin"));
    std::string file = readFile(path);
    EXPECT_EQ(file.size(), 32 + key.size() + payload.size());
    EXPECT_EQ(file.substr(0, 8), "KTCCACH1");
  }
  Stats stats = cache.stats();
  EXPECT_EQ(stats.hits, 3u);
  EXPECT_EQ(stats.writes, 3u);
  EXPECT_EQ(stats.misses + stats.corrupt + stats.write_failures, 0u);
  EXPECT_EQ(filesUnder(tmp.path).size(), 3u) << "temporary files left";
  EXPECT_TRUE(warnings.lines.empty());
}

TEST(DiskCache, MissesAnAbsentKey) {
  TempDir tmp;
  DiskCache cache(tmp.path.str().str());
  Warnings warnings;
  warnings.attach(cache);
  EXPECT_FALSE(cache.get(keyOf("absent")));
  ASSERT_TRUE(cache.put(keyOf("present"), "x"));
  EXPECT_FALSE(cache.get(keyOf("absent")));
  Stats stats = cache.stats();
  EXPECT_EQ(stats.misses, 2u);
  EXPECT_EQ(stats.hits + stats.corrupt, 0u);
  EXPECT_TRUE(warnings.lines.empty());
}

TEST(DiskCache, RefusesKeysThatAreNotPlainNames) {
  TempDir tmp;
  DiskCache cache(tmp.sub("cache"));
  for (llvm::StringRef key : {"", "a", "../../escape", "a/b", "a b", "x.bin"}) {
    EXPECT_FALSE(cache.put(key, "payload")) << key.str();
    EXPECT_FALSE(cache.get(key)) << key.str();
  }
  EXPECT_FALSE(cache.put(std::string(201, 'a'), "payload"));
  EXPECT_TRUE(filesUnder(tmp.path).empty());
  EXPECT_EQ(cache.stats().write_failures, 0u);
}

//===----------------------------------------------------------------------===//
// Corrupt entries
//===----------------------------------------------------------------------===//

/// Stores an entry, damages it with `damage(cache, key)`, and checks that
/// get() detects it (one warning containing `reason`), removes it, and that
/// the entry can be rebuilt; then damages it again: still detected, but not
/// reported a second time.
void expectCorruptionDetected(
    const std::function<void(DiskCache &, const std::string &)> &damage,
    llvm::StringRef reason) {
  TempDir tmp;
  DiskCache cache(tmp.path.str().str());
  Warnings warnings;
  warnings.attach(cache);
  std::string key = keyOf("victim"), payload = "pay\0load"s + payloadFor(key);
  std::string path = cache.pathFor(key);

  ASSERT_TRUE(cache.put(key, payload));
  damage(cache, key);
  EXPECT_FALSE(cache.get(key));
  ASSERT_EQ(warnings.lines.size(), 1u);
  EXPECT_NE(warnings.lines[0].find(path), std::string::npos);
  EXPECT_NE(warnings.lines[0].find(reason), std::string::npos)
      << warnings.lines[0];
  EXPECT_FALSE(fs::exists(path)) << "corrupt entry not removed";
  EXPECT_EQ(cache.stats().corrupt, 1u);

  ASSERT_TRUE(cache.put(key, payload));
  EXPECT_EQ(cache.get(key), payload);

  damage(cache, key);
  EXPECT_FALSE(cache.get(key));
  EXPECT_EQ(warnings.lines.size(), 1u) << "reported twice";
  EXPECT_EQ(cache.stats().corrupt, 2u);
  EXPECT_EQ(cache.stats().hits, 1u);
}

/// A damage that rewrites the entry's bytes with `edit`.
std::function<void(DiskCache &, const std::string &)>
editing(std::function<void(std::string &)> edit) {
  return [edit](DiskCache &cache, const std::string &key) {
    std::string path = cache.pathFor(key);
    std::string file = readFile(path);
    edit(file);
    writeFile(path, file);
  };
}

TEST(DiskCacheCorrupt, Truncated) {
  expectCorruptionDetected(editing([](std::string &f) { f.pop_back(); }),
                           "payload length");
  expectCorruptionDetected(editing([](std::string &f) { f.resize(60); }),
                           "truncated");
  expectCorruptionDetected(editing([](std::string &f) { f.resize(10); }),
                           "truncated");
  expectCorruptionDetected(editing([](std::string &f) { f.clear(); }),
                           "truncated");
}

TEST(DiskCacheCorrupt, TrailingBytes) {
  expectCorruptionDetected(editing([](std::string &f) { f += "x"; }),
                           "payload length");
}

TEST(DiskCacheCorrupt, FlippedPayloadByte) {
  expectCorruptionDetected(
      editing([](std::string &f) { f[32 + 64 + 3] ^= 0x20; }),
      "checksum mismatch");
  expectCorruptionDetected(editing([](std::string &f) { f.back() ^= 1; }),
                           "checksum mismatch");
}

TEST(DiskCacheCorrupt, FlippedHeaderByte) {
  expectCorruptionDetected(editing([](std::string &f) { f[0] ^= 1; }),
                           "bad magic");
  expectCorruptionDetected(editing([](std::string &f) { f[8] ^= 1; }),
                           "format version");
  // Every byte of the header, one entry each: magic, version, key length,
  // key, payload length, checksum.
  constexpr size_t HeaderSize = 32 + 64;
  for (size_t offset = 0; offset < HeaderSize; ++offset) {
    SCOPED_TRACE("offset " + std::to_string(offset));
    expectCorruptionDetected(
        editing([offset](std::string &f) { f[offset] ^= 0x80; }), "");
  }
}

TEST(DiskCacheCorrupt, RenamedToAnotherKeysPath) {
  expectCorruptionDetected(
      [](DiskCache &cache, const std::string &key) {
        std::string other = keyOf("other");
        ASSERT_TRUE(cache.put(other, payloadFor(key)));
        ASSERT_FALSE(fs::rename(cache.pathFor(other), cache.pathFor(key)));
      },
      "written for another key");
}

//===----------------------------------------------------------------------===//
// Disabled and unwritable caches
//===----------------------------------------------------------------------===//

TEST(DiskCache, DisabledDoesNothing) {
  TempDir tmp;
  DiskCache cache(tmp.sub("cache"), /*enabled=*/false);
  Warnings warnings;
  warnings.attach(cache);
  EXPECT_FALSE(cache.enabled());
  EXPECT_FALSE(cache.put(keyOf("k"), "payload"));
  EXPECT_FALSE(cache.get(keyOf("k")));
  EXPECT_FALSE(fs::exists(tmp.sub("cache")));
  Stats stats = cache.stats();
  EXPECT_EQ(stats.hits + stats.misses + stats.corrupt + stats.writes +
                stats.write_failures,
            0u);
  EXPECT_TRUE(warnings.lines.empty());
}

TEST(DiskCache, UncreatableDirectoryWarnsOnce) {
  // Root ignores permission bits; nothing can create a directory under a
  // regular file.
  TempDir tmp;
  writeFile(tmp.sub("afile"), "not a directory");
  std::string dir = tmp.sub("afile/cache");
  DiskCache cache(dir);
  Warnings warnings;
  warnings.attach(cache);
  for (int i = 0; i < 100; ++i)
    EXPECT_FALSE(cache.put(keyOf("k", i), "payload"));
  for (int i = 0; i < 3; ++i)
    EXPECT_FALSE(cache.get(keyOf("k", i)));
  ASSERT_EQ(warnings.lines.size(), 1u);
  EXPECT_EQ(warnings.lines[0].rfind("ktc: warning: cannot write to the kernel "
                                    "cache " + dir + ": ",
                                    0),
            0u)
      << warnings.lines[0];
  EXPECT_NE(warnings.lines[0].find("; kernels still run, uncached"),
            std::string::npos);
  Stats stats = cache.stats();
  EXPECT_EQ(stats.write_failures, 100u);
  EXPECT_EQ(stats.writes, 0u);
  EXPECT_EQ(stats.misses, 3u);
}

TEST(DiskCache, FailedRenameRemovesItsTemporary) {
  // A non-empty directory where the entry should be: the temporary is
  // written, the rename over the entry fails.
  TempDir tmp;
  DiskCache cache(tmp.path.str().str());
  Warnings warnings;
  warnings.attach(cache);
  std::string key = keyOf("k");
  std::string path = cache.pathFor(key);
  ASSERT_FALSE(fs::create_directories(path + "/blocker"));
  EXPECT_FALSE(cache.put(key, "payload"));
  EXPECT_EQ(warnings.lines.size(), 1u);
  EXPECT_TRUE(filesUnder(tmp.path).empty()) << "temporary left behind";
  // Not an entry, and not ours to remove: a plain miss.
  EXPECT_FALSE(cache.get(key));
  EXPECT_EQ(cache.stats().corrupt, 0u);
  EXPECT_TRUE(fs::is_directory(path));
}

//===----------------------------------------------------------------------===//
// Configuration from the environment
//===----------------------------------------------------------------------===//

/// Sets (nullptr: unsets) KTC_CACHE, KTC_CACHE_DIR, XDG_CACHE_HOME and HOME
/// for one scope.
class Environment {
public:
  Environment(const char *cache, const char *dir, const char *xdg,
              const char *home) {
    const char *values[] = {cache, dir, xdg, home};
    for (int i = 0; i < 4; ++i) {
      if (const char *old = getenv(Names[i]))
        saved_[i] = old;
      set(i, values[i]);
    }
  }
  ~Environment() {
    for (int i = 0; i < 4; ++i)
      set(i, saved_[i] ? saved_[i]->c_str() : nullptr);
  }

private:
  static void set(int i, const char *value) {
    value ? setenv(Names[i], value, 1) : unsetenv(Names[i]);
  }
  static constexpr const char *Names[] = {"KTC_CACHE", "KTC_CACHE_DIR",
                                          "XDG_CACHE_HOME", "HOME"};
  std::optional<std::string> saved_[4];
};

TEST(DiskCacheEnvironment, Switches) {
  std::vector<std::string> warnings;
  auto handler = [&](const std::string &line) { warnings.push_back(line); };
  for (const char *off : {"off", "OFF", "0", "false", "no"}) {
    Environment env(off, "/tmp/ktc-unused", "/xdg", "/home/u");
    EXPECT_FALSE(DiskCache::fromEnvironment(handler).enabled()) << off;
  }
  for (const char *on : {"on", "1", ""}) {
    Environment env(on, nullptr, "/xdg", "/home/u");
    EXPECT_TRUE(DiskCache::fromEnvironment(handler).enabled()) << on;
  }
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(&DiskCache::global(), &DiskCache::global());
}

TEST(DiskCacheEnvironment, Directories) {
  TempDir tmp;
  std::vector<std::string> warnings;
  auto handler = [&](const std::string &line) { warnings.push_back(line); };
  {
    Environment env(nullptr, tmp.sub("mine").c_str(), "/xdg", "/home/u");
    DiskCache cache = DiskCache::fromEnvironment(handler);
    EXPECT_TRUE(cache.enabled());
    EXPECT_EQ(cache.dir(), tmp.sub("mine"));
    ASSERT_TRUE(cache.put(keyOf("k"), "payload"));
    EXPECT_TRUE(fs::exists(cache.pathFor(keyOf("k"))));
    EXPECT_EQ(cache.pathFor(keyOf("k")).rfind(tmp.sub("mine"), 0), 0u);
  }
  struct {
    const char *dir, *xdg, *home, *expected;
  } cases[] = {
      {nullptr, "/xdg", "/home/u", "/xdg/ktc"},
      {"", "/xdg", "/home/u", "/xdg/ktc"},
      {nullptr, "relative/xdg", "/home/u", "/home/u/.cache/ktc"},
      {nullptr, nullptr, "/home/u", "/home/u/.cache/ktc"},
  };
  for (auto &c : cases) {
    Environment env(nullptr, c.dir, c.xdg, c.home);
    EXPECT_EQ(DiskCache::fromEnvironment(handler).dir(), c.expected);
  }
  EXPECT_TRUE(warnings.empty());
  {
    Environment env(nullptr, nullptr, nullptr, nullptr);
    EXPECT_FALSE(DiskCache::fromEnvironment(handler).enabled());
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("HOME"), std::string::npos);
  }
  {
    // The handler stays with the cache for its own warnings.
    writeFile(tmp.sub("afile"), "");
    Environment env(nullptr, tmp.sub("afile/cache").c_str(), nullptr, nullptr);
    DiskCache cache = DiskCache::fromEnvironment(handler);
    EXPECT_FALSE(cache.put(keyOf("k"), "payload"));
    ASSERT_EQ(warnings.size(), 2u);
    EXPECT_NE(warnings[1].find("cannot write"), std::string::npos);
  }
}

//===----------------------------------------------------------------------===//
// Sharing one directory
//===----------------------------------------------------------------------===//

TEST(DiskCacheConcurrency, Threads) {
  constexpr int Threads = 8, Iterations = 200, SharedKeys = 8;
  TempDir tmp;
  DiskCache cache(tmp.path.str().str());
  Warnings warnings;
  warnings.attach(cache); // Never called: nothing here may warn.
  std::vector<std::string> shared;
  for (int i = 0; i < SharedKeys; ++i)
    shared.push_back(keyOf("shared", i));

  // Bounded in time: a thread stops early rather than let the test drag.
  auto deadline = Clock::now() + std::chrono::seconds(5);
  std::atomic<int> wrong{0}, sharedHits{0}, ownMisses{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < Threads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < Iterations && Clock::now() < deadline; ++i) {
        const std::string &key = shared[(t + i) % SharedKeys];
        wrong += !cache.put(key, payloadFor(key));
        const std::string &other = shared[(t * 3 + i) % SharedKeys];
        if (std::optional<std::string> got = cache.get(other)) {
          ++sharedHits;
          wrong += *got != payloadFor(other);
        }
        // A key of this thread alone: always there once stored.
        std::string own = keyOf("thread" + std::to_string(t), i % 16);
        wrong += !cache.put(own, payloadFor(own));
        std::optional<std::string> got = cache.get(own);
        ownMisses += !got;
        wrong += got && *got != payloadFor(own);
      }
    });
  for (std::thread &thread : threads)
    thread.join();

  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(ownMisses, 0);
  EXPECT_GT(sharedHits, 0);
  Stats stats = cache.stats();
  EXPECT_EQ(stats.corrupt + stats.write_failures, 0u);
  EXPECT_GE(stats.writes, 2u * Threads * 16);
  EXPECT_TRUE(warnings.lines.empty());
  // Entries only: every temporary was renamed.
  std::vector<std::string> files = filesUnder(tmp.path);
  EXPECT_EQ(files.size(), size_t(SharedKeys + Threads * 16));
  for (const std::string &file : files)
    EXPECT_TRUE(llvm::StringRef(file).ends_with(".bin")) << file;
}

/// What one forked process saw, in memory shared with the parent. Failures
/// are wrong payloads, failed puts and failed system calls.
struct ChildReport {
  uint64_t hits, corrupt, failures;
};

/// Child `child` puts and gets 16 shared keys until `deadline`; child 0 also
/// truncates or overwrites entries in place, then reads them back.
void hammer(const std::string &dir, int child, Clock::time_point deadline,
            ChildReport &report) {
  constexpr int Keys = 16;
  DiskCache cache(dir);
  cache.setWarningHandler([](const std::string &) {});
  std::vector<std::string> keys, payloads;
  for (int i = 0; i < Keys; ++i) {
    keys.push_back(keyOf("process-shared", i));
    payloads.push_back(payloadFor(keys.back(), 64 << 10));
  }
  std::mt19937 rng(child);
  while (Clock::now() < deadline) {
    int k = rng() % Keys;
    report.failures += !cache.put(keys[k], payloads[k]);
    k = rng() % Keys;
    int fd = child == 0 ? open(cache.pathFor(keys[k]).c_str(), O_RDWR) : -1;
    if (fd >= 0) {
      off_t size = lseek(fd, 0, SEEK_END);
      const char garbage[4] = {'\xde', '\xad', '\xbe', '\xef'};
      if (rng() % 3 == 0)
        report.failures += ftruncate(fd, size ? rng() % size : 0) != 0;
      else if (size > 0)
        report.failures += pwrite(fd, garbage, 1 + rng() % 4, rng() % size) < 0;
      close(fd);
    }
    if (std::optional<std::string> got = cache.get(keys[k])) {
      ++report.hits;
      report.failures += *got != payloads[k];
    }
  }
  report.corrupt = cache.stats().corrupt;
}

TEST(DiskCacheConcurrency, ForkedProcessesWithACorrupter) {
  constexpr int Children = 8;
  TempDir tmp;
  std::string dir = tmp.sub("cache");
  auto *reports = static_cast<ChildReport *>(
      mmap(nullptr, sizeof(ChildReport) * Children, PROT_READ | PROT_WRITE,
           MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(reports, MAP_FAILED);
  std::fill(reports, reports + Children, ChildReport{});

  auto deadline = Clock::now() + std::chrono::milliseconds(1500);
  std::vector<pid_t> pids;
  for (int child = 0; child < Children; ++child) {
    pid_t pid = fork();
    if (pid == 0) {
      hammer(dir, child, deadline, reports[child]);
      _exit(reports[child].failures ? 1 : 0);
    }
    ASSERT_GT(pid, 0);
    pids.push_back(pid);
  }
  // Reap, killing whatever still runs well after the deadline.
  auto killAt = deadline + std::chrono::seconds(5);
  for (pid_t pid : pids) {
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
      if (Clock::now() > killAt) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0)
        << "child " << pid << " status " << status;
  }

  ChildReport total{};
  for (int child = 0; child < Children; ++child) {
    total.hits += reports[child].hits;
    total.corrupt += reports[child].corrupt;
    total.failures += reports[child].failures;
  }
  munmap(reports, sizeof(ChildReport) * Children);
  EXPECT_EQ(total.failures, 0u);
  EXPECT_GT(total.hits, 0u);
  EXPECT_GT(total.corrupt, 0u) << "the corrupter never hit a reader";

  // What is left is still a working cache.
  DiskCache cache(dir);
  cache.setWarningHandler([](const std::string &) {});
  for (int i = 0; i < 16; ++i) {
    std::string key = keyOf("process-shared", i);
    std::string payload = payloadFor(key, 64 << 10);
    if (std::optional<std::string> got = cache.get(key)) {
      EXPECT_EQ(*got, payload);
    }
    ASSERT_TRUE(cache.put(key, payload));
    EXPECT_EQ(cache.get(key), payload);
  }
}

//===----------------------------------------------------------------------===//
// Odd entries and directories (issue 15, item 11): a warning once, a miss,
// never a hang or a crash
//===----------------------------------------------------------------------===//

/// Runs `f` with a deadline: a hang ends the test binary with a failure.
void withinSeconds(int seconds, const std::function<void()> &f) {
  std::promise<void> done;
  std::thread worker([&] {
    f();
    done.set_value();
  });
  if (done.get_future().wait_for(std::chrono::seconds(seconds)) !=
      std::future_status::ready) {
    std::fprintf(stderr, "FAILED: hung for %d s\n", seconds);
    std::_Exit(1);
  }
  worker.join();
}

/// `make` puts something odd at the entry's path; get() must miss (within
/// seconds) and warn once, mentioning `warning`.
void expectOddEntryMisses(const std::function<void(const std::string &)> &make,
                          const std::string &warning) {
  TempDir tmp;
  DiskCache cache(tmp.sub("cache"));
  Warnings warnings;
  warnings.attach(cache);
  std::string key = keyOf("odd");
  std::string path = cache.pathFor(key);
  ASSERT_FALSE(fs::create_directories(llvm::sys::path::parent_path(path)));
  make(path);
  withinSeconds(20, [&] {
    EXPECT_FALSE(cache.get(key));
    EXPECT_FALSE(cache.get(key));
  });
  ASSERT_EQ(warnings.lines.size(), 1u) << "warned more than once";
  EXPECT_NE(warnings.lines[0].find(warning), std::string::npos)
      << warnings.lines[0];
  EXPECT_NE(warnings.lines[0].find(path), std::string::npos);
  EXPECT_EQ(cache.stats().hits, 0u);
}

TEST(DiskCacheOdd, FifoInPlaceOfAnEntry) {
  expectOddEntryMisses(
      [](const std::string &path) { ASSERT_EQ(mkfifo(path.c_str(), 0600), 0); },
      "is not a regular file");
  // A write replaces it.
  TempDir tmp;
  DiskCache cache(tmp.path.str().str());
  std::string key = keyOf("fifo");
  ASSERT_FALSE(fs::create_directories(
      llvm::sys::path::parent_path(cache.pathFor(key))));
  ASSERT_EQ(mkfifo(cache.pathFor(key).c_str(), 0600), 0);
  Warnings warnings;
  warnings.attach(cache);
  withinSeconds(20, [&] { EXPECT_FALSE(cache.get(key)); });
  ASSERT_TRUE(cache.put(key, "payload"));
  EXPECT_EQ(cache.get(key).value_or(""), "payload");
}

TEST(DiskCacheOdd, DirectoryInPlaceOfAnEntry) {
  expectOddEntryMisses(
      [](const std::string &path) { ASSERT_FALSE(fs::create_directory(path)); },
      "is not a regular file");
}

TEST(DiskCacheOdd, DeviceInPlaceOfAnEntry) {
  // /dev/zero never ends: reading it whole would never finish.
  expectOddEntryMisses(
      [](const std::string &path) {
        ASSERT_FALSE(fs::create_link("/dev/zero", path));
      },
      "is not a regular file");
}

TEST(DiskCacheOdd, SymlinkLoop) {
  expectOddEntryMisses(
      [](const std::string &path) { ASSERT_FALSE(fs::create_link(path, path)); },
      "cannot read the kernel cache entry");
}

TEST(DiskCacheOdd, HugeSparseEntryIsNotRead) {
  // 4 GiB of nothing, made in no time; reading it would take seconds and
  // 4 GiB of memory.
  expectOddEntryMisses(
      [](const std::string &path) {
        int fd = ::open(path.c_str(), O_CREAT | O_WRONLY, 0600);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(ftruncate(fd, off_t(4) << 30), 0);
        ::close(fd);
      },
      "more than any entry");
}

TEST(DiskCacheOdd, UnreadableEntry) {
  if (geteuid() == 0)
    GTEST_SKIP() << "root reads files whatever their permission bits";
  expectOddEntryMisses(
      [](const std::string &path) {
        writeFile(path, "x");
        ASSERT_EQ(chmod(path.c_str(), 0), 0);
      },
      "cannot read the kernel cache entry");
}

TEST(DiskCacheOdd, ReadOnlyDirectory) {
  // /proc takes no new directories, even from root.
  DiskCache cache("/proc/ktc-cache-test");
  Warnings warnings;
  warnings.attach(cache);
  EXPECT_FALSE(cache.get(keyOf("k")));
  EXPECT_FALSE(cache.put(keyOf("k"), "payload"));
  EXPECT_FALSE(cache.put(keyOf("k2"), "payload"));
  ASSERT_EQ(warnings.lines.size(), 1u);
  EXPECT_NE(warnings.lines[0].find("cannot write to the kernel cache "
                                   "/proc/ktc-cache-test"),
            std::string::npos)
      << warnings.lines[0];
}

TEST(DiskCacheOdd, DirectoryNamedWithBlanksAndANewline) {
  TempDir tmp;
  std::string dir = tmp.sub("a b\nc\td");
  Environment env(nullptr, dir.c_str(), nullptr, nullptr);
  std::vector<std::string> warnings;
  DiskCache cache = DiskCache::fromEnvironment(
      [&](const std::string &line) { warnings.push_back(line); });
  EXPECT_EQ(cache.dir(), dir); // verbatim: a name may hold blanks
  ASSERT_TRUE(cache.put(keyOf("k"), "payload"));
  EXPECT_EQ(cache.get(keyOf("k")).value_or(""), "payload");
  EXPECT_TRUE(warnings.empty());
}

} // namespace
