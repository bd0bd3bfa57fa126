// The on-disk kernel cache's entries: their format, validation, and atomic writes (no LLVM here).
#pragma once
#ifndef XXH_INLINE_ALL
#define XXH_INLINE_ALL
#endif
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>
#include <string>
#include <string_view>
#include <vector>

namespace fj::backend::llvm_kernel::disk {

// Entry layout (host byte order; an entry is only ever read on the target that wrote it):
//
//   0  magic "FJKCACHE"              8 bytes
//   8  checksum                      u64, XXH3-64 of every byte from offset 16 to the end
//  16  format version                u32
//  20  fusejit version length        u32
//  24  LLVM version length           u32
//  28  target length                 u32
//  32  key                           16 bytes, the XXH3-128 content hash that names the entry
//  48  object size                   u64
//  56  IR text size                  u64
//  64  fusejit version, LLVM version, target (the strings), object bytes, optimized IR text
//
// Magic and checksum stay where they are in every format, so that any entry can be told
// damaged (checksum) from foreign (a valid entry of another format, version or target).
inline constexpr char kMagic[8] = {'F', 'J', 'K', 'C', 'A', 'C', 'H', 'E'};
inline constexpr std::uint32_t kFormat = 1;
inline constexpr std::size_t kHeaderSize = 64;
// Bigger files are not entries (the largest native loop driver is well under a megabyte).
inline constexpr std::uint64_t kMaxEntryBytes = std::uint64_t{1} << 28;

using Key = std::array<unsigned char, 16>;

/// What an entry was made for: a reader compares every field with its own.
struct Meta {
  std::string fusejit_version, llvm_version, target;
  Key key{};
};

struct Entry {
  Meta meta;
  std::uint32_t format = kFormat;
  std::string object, ir;
};

inline std::string hex(const Key& k) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string s;
  for (unsigned char c : k) s += digits[c >> 4], s += digits[c & 15];
  return s;
}

inline Key key_of(std::string_view text) {
  const XXH128_hash_t h = XXH3_128bits(text.data(), text.size());
  Key k;
  for (int i = 0; i < 8; ++i) {
    k[static_cast<std::size_t>(i)] = static_cast<unsigned char>(h.high64 >> (56 - 8 * i));
    k[static_cast<std::size_t>(8 + i)] = static_cast<unsigned char>(h.low64 >> (56 - 8 * i));
  }
  return k;
}

template <class T>
void put(std::string& out, std::size_t at, T v) {
  std::memcpy(out.data() + at, &v, sizeof v);
}
template <class T>
T get(std::string_view in, std::size_t at) {
  T v;
  std::memcpy(&v, in.data() + at, sizeof v);
  return v;
}

/// The bytes of an entry, checksum included.
inline std::string encode(const Entry& e) {
  std::string out(kHeaderSize, '\0');
  std::memcpy(out.data(), kMagic, sizeof kMagic);
  put<std::uint32_t>(out, 16, e.format);
  put<std::uint32_t>(out, 20, static_cast<std::uint32_t>(e.meta.fusejit_version.size()));
  put<std::uint32_t>(out, 24, static_cast<std::uint32_t>(e.meta.llvm_version.size()));
  put<std::uint32_t>(out, 28, static_cast<std::uint32_t>(e.meta.target.size()));
  std::memcpy(out.data() + 32, e.meta.key.data(), e.meta.key.size());
  put<std::uint64_t>(out, 48, e.object.size());
  put<std::uint64_t>(out, 56, e.ir.size());
  out += e.meta.fusejit_version;
  out += e.meta.llvm_version;
  out += e.meta.target;
  out += e.object;
  out += e.ir;
  put<std::uint64_t>(out, 8, XXH3_64bits(out.data() + 16, out.size() - 16));
  return out;
}

enum class Verdict { ok, corrupt, foreign };

struct Decoded {
  Verdict verdict = Verdict::corrupt;
  std::string why;  // for the warning, when not ok
  Entry entry;
};

/// Parses and checks an entry's bytes against what the reader expects (`want`): damage
/// (truncation, a changed byte, another kernel's entry under this name) is `corrupt`; a
/// well-formed entry of another format, fusejit or LLVM version, or target is `foreign`.
inline Decoded decode(std::string_view in, const Meta& want) {
  Decoded d;
  if (in.size() < kHeaderSize) return d.why = "truncated header", d;
  if (std::memcmp(in.data(), kMagic, sizeof kMagic) != 0) return d.why = "not an entry", d;
  if (get<std::uint64_t>(in, 8) != XXH3_64bits(in.data() + 16, in.size() - 16))
    return d.why = "checksum mismatch (truncated or damaged)", d;
  d.entry.format = get<std::uint32_t>(in, 16);
  if (d.entry.format != kFormat)
    return d.verdict = Verdict::foreign, d.why = "format " + std::to_string(d.entry.format), d;
  const std::uint64_t lv = get<std::uint32_t>(in, 20), ll = get<std::uint32_t>(in, 24),
                      lt = get<std::uint32_t>(in, 28), lo = get<std::uint64_t>(in, 48),
                      li = get<std::uint64_t>(in, 56);
  // Sizes are bounded before they are added: a valid checksum over garbage sizes must not wrap.
  if (lo > kMaxEntryBytes || li > kMaxEntryBytes ||
      kHeaderSize + lv + ll + lt + lo + li != in.size())
    return d.why = "sizes do not add up", d;
  std::size_t at = kHeaderSize;
  auto take = [&](std::uint64_t n) {
    std::string s(in.substr(at, static_cast<std::size_t>(n)));
    at += static_cast<std::size_t>(n);
    return s;
  };
  Meta& m = d.entry.meta;
  m.fusejit_version = take(lv);
  m.llvm_version = take(ll);
  m.target = take(lt);
  std::memcpy(m.key.data(), in.data() + 32, m.key.size());
  d.entry.object = take(lo);
  d.entry.ir = take(li);
  d.verdict = Verdict::foreign;
  if (m.fusejit_version != want.fusejit_version)
    return d.why = "fusejit " + m.fusejit_version + ", not " + want.fusejit_version, d;
  if (m.llvm_version != want.llvm_version)
    return d.why = "LLVM " + m.llvm_version + ", not " + want.llvm_version, d;
  if (m.target != want.target) return d.why = "target '" + m.target + "'", d;
  d.verdict = Verdict::corrupt;
  if (m.key != want.key) return d.why = "the entry of another kernel", d;
  if (d.entry.object.empty()) return d.why = "no object code", d;
  d.verdict = Verdict::ok;
  return d;
}

inline std::string entry_path(const std::string& dir, const Key& k) {
  return dir + "/" + hex(k) + ".fjk";
}

/// Reads a whole file; false (and `out` empty) when it cannot be opened, which is a miss.
inline bool read_file(const std::string& path, std::string& out) {
  out.clear();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
            static_cast<std::uint64_t>(st.st_size) <= kMaxEntryBytes;
  if (ok) {
    out.resize(static_cast<std::size_t>(st.st_size));
    std::size_t got = 0;
    while (got < out.size()) {
      const ssize_t n = ::read(fd, out.data() + got, out.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;  // shorter than stat said: the checksum will tell
      got += static_cast<std::size_t>(n);
    }
    out.resize(got);
  }
  ::close(fd);
  return ok;
}

/// Writes `bytes` as `path`, atomically: a private temporary file in the same directory, then
/// rename(), so that a reader (or a second writer of the same entry, in another process) sees the
/// old file or the whole new one, never a mixture. Creates the directory when missing. Returns
/// an empty string, or why it failed; never throws.
inline std::string write_atomic(const std::string& dir, const std::string& path,
                                std::string_view bytes) noexcept {
  try {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);  // an error shows in open() below
    thread_local std::mt19937_64 rng{std::random_device{}() ^
                                     static_cast<std::uint64_t>(::getpid())};
    const std::string tmp =
        path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(rng() & 0xffffffffu);
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return std::string(std::strerror(errno));
    std::size_t done = 0;
    int err = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        err = n < 0 ? errno : ENOSPC;
        break;
      }
      done += static_cast<std::size_t>(n);
    }
    if (::close(fd) != 0 && !err) err = errno;
    if (!err && ::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
    if (err) {
      ::unlink(tmp.c_str());
      return std::string(std::strerror(err));
    }
    return {};
  } catch (...) {  // out of memory building a name
    return "cannot write";
  }
}

/// Temporary files older than this were left by a writer that died between its write and the
/// rename; younger ones may still be in the middle of a write.
inline constexpr std::int64_t kStaleTmpSeconds = 3600;

struct TrimResult {
  std::uint64_t bytes = 0;  // the entries' bytes left
  std::size_t removed = 0;  // files removed (entries and stale temporary files)
};

/// Keeps directory `dir` within `limit` bytes of entries (0: no bound). Removes temporary files
/// older than kStaleTmpSeconds and, when the entries (*.fjk) exceed `limit`, the least recently
/// used (the oldest modification time: a hit refreshes it, touch()) until they fit in 3/4 of it,
/// so that a full directory is not trimmed again at every write. Other files are left alone.
/// Never throws; an entry another process removed first is skipped.
inline TrimResult trim_dir(const std::string& dir, std::uint64_t limit) noexcept {
  TrimResult r;
  try {
    namespace fs = std::filesystem;
    struct Item {
      fs::file_time_type when;
      std::uint64_t size;
      fs::path path;
    };
    std::vector<Item> entries;
    const auto now = fs::file_time_type::clock::now();
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path& p = it->path();
      std::error_code e;
      const auto when = fs::last_write_time(p, e);
      if (e) continue;
      if (p.filename().string().find(".fjk.tmp.") != std::string::npos) {
        if (now - when > std::chrono::seconds(kStaleTmpSeconds) && fs::remove(p, e)) ++r.removed;
        continue;
      }
      if (p.extension() != ".fjk") continue;
      const std::uint64_t size = fs::file_size(p, e);
      if (e) continue;
      entries.push_back({when, size, p});
      r.bytes += size;
    }
    if (limit == 0 || r.bytes <= limit) return r;
    std::sort(entries.begin(), entries.end(),
              [](const Item& a, const Item& b) { return a.when < b.when; });
    const std::uint64_t target = limit / 4 * 3;
    for (const Item& e : entries) {
      if (r.bytes <= target) break;
      std::error_code ignored;
      fs::remove(e.path, ignored);  // already gone (another process): its bytes are gone too
      r.bytes -= e.size;
      ++r.removed;
    }
  } catch (...) {  // out of memory listing the directory: trimming waits for the next write
  }
  return r;
}

/// Marks an entry as just used, for trim_dir's order.
inline void touch(const std::string& path) noexcept {
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);
}

/// Called after this process wrote `written` bytes into `dir`. It keeps the entries' size as last
/// scanned plus what it wrote since: the first write of a process (or into another directory)
/// scans, later ones scan again only when that total passes `limit`. Processes sharing a
/// directory each keep their own total, so the bound holds at each trim, not at every moment.
inline void account_write(const std::string& dir, std::uint64_t written,
                          std::uint64_t limit) noexcept {
  struct Usage {
    std::mutex mu;
    std::string dir;
    std::uint64_t bytes = 0;
  };
  static Usage u;
  try {
    std::lock_guard lock(u.mu);
    if (u.dir != dir) {
      u.dir = dir;
      u.bytes = trim_dir(dir, limit).bytes;
      return;
    }
    u.bytes += written;
    if (limit && u.bytes > limit) u.bytes = trim_dir(dir, limit).bytes;
  } catch (...) {  // out of memory copying the name: the next write tries again
  }
}

}  // namespace fj::backend::llvm_kernel::disk
