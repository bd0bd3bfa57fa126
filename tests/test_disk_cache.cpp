// The on-disk kernel cache (fj::set_cache_dir, FUSEJIT_CACHE_DIR): a hit gives the same code as a
// compile, and each fault (truncated entry, changed byte, entry of another version or target,
// unwritable directory, processes writing one entry at once) is detected, warned once, and
// recompiled, with correct results.
#include <doctest/doctest.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <fusejit/backend/llvm/disk_cache.hpp>
#include <fusejit/fusejit.hpp>
#include <string>
#include <vector>

#include "backend_compare.hpp"
#include "cpu_widths.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
namespace disk = fj::backend::llvm_kernel::disk;

// A fresh directory, removed with everything in it at the end of the scope.
struct TempDir {
  std::string path;
  TempDir() {
    char tmpl[] = "/tmp/fusejit_disk_XXXXXX";
    REQUIRE(::mkdtemp(tmpl) != nullptr);
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
  }
};

// The disk cache at `dir` and a handler that records warnings, for the scope; both restored.
struct DiskScope {
  std::string saved_dir = fj::cache_dir();
  fj::WarningHandler saved_handler;
  std::vector<std::string> warnings;
  explicit DiskScope(const std::string& dir) {
    fj::set_cache_dir(dir);
    saved_handler =
        fj::set_warning_handler([this](std::string_view w) { warnings.emplace_back(w); });
  }
  ~DiskScope() {
    fj::set_cache_dir(saved_dir);
    fj::set_warning_handler(saved_handler);
  }
  std::size_t count(const std::string& word) const {
    std::size_t n = 0;
    for (auto& w : warnings) n += w.find(word) != std::string::npos;
    return n;
  }
};

fj::Array input() { return fj::array({-2.5f, -1.0f, -0.25f, 0.0f, 0.5f, 1.0f, 3.0f, 7.5f}); }

// One fused kernel with enough in it (transcendentals, a select) to be more than a few bytes, and
// a float remainder, which calls the host's fmodf: a loaded object must resolve it too.
fj::Tracer kernel_fn(fj::Tracer x) {
  return fj::Tracer(fj::where(x > 0, fj::exp(x) * 1.5f, fj::sin(x) * x) + x % 1.75f);
}

// As in a new process: the in-memory caches forget the kernel, so the disk cache is asked.
fj::Array run_kernel() {
  fj::clear_caches();
  return fj::jit(kernel_fn)(input());
}

fj::Array reference() {
  fusejit_test::BackendScope ref("reference");
  return run_kernel();
}

// llvm's result against the reference (within the transcendentals' bounds) and, bit for bit,
// against `exact` when given.
void check_result(const fj::Array& got, const fj::Array* exact = nullptr) {
  fusejit_test::check_close(got, reference(), 8, "disk cache kernel");
  if (exact) {
    REQUIRE(got.size() == exact->size());
    for (std::int64_t i = 0; i < got.size(); ++i)
      CHECK(std::memcmp(got.data<float>() + i, exact->data<float>() + i, sizeof(float)) == 0);
  }
}

std::vector<std::string> entries(const std::string& dir, const std::string& suffix = ".fjk") {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto& e : fs::directory_iterator(dir, ec)) {
    const std::string p = e.path().string();
    if (p.size() >= suffix.size() &&
        p.compare(p.size() - suffix.size(), suffix.size(), suffix) == 0)
      out.push_back(p);
  }
  return out;
}

std::string read_bytes(const std::string& path) {
  std::string s;
  REQUIRE(disk::read_file(path, s));
  return s;
}
void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  REQUIRE(f.good());
}

// The entry as this build would want it: fusejit, LLVM and target as written by this process.
disk::Meta own_meta(const std::string& path) {
  const std::string bytes = read_bytes(path);
  disk::Meta any;
  disk::Decoded d = disk::decode(bytes, any);
  REQUIRE(d.entry.meta.fusejit_version == FUSEJIT_VERSION);
  return d.entry.meta;
}
void check_valid(const std::string& path, const disk::Meta& want) {
  const disk::Decoded d = disk::decode(read_bytes(path), want);
  INFO("entry " << path << ": " << d.why);
  CHECK(d.verdict == disk::Verdict::ok);
}

// The one entry of `dir`, written by a first run; returns its path and the first run's result.
std::string first_run(const std::string& dir, fj::Array& result) {
  result = run_kernel();
  const auto es = entries(dir);
  REQUIRE(es.size() == 1);
  return es[0];
}

// Damages the entry with `damage`, runs again: a correct result, one reject more, and the entry
// written again, valid.
template <class Damage>
void run_damaged(const std::string& path, const disk::Meta& meta, const fj::Array& exact,
                 Damage damage) {
  std::string bytes = read_bytes(path);
  damage(bytes);
  write_bytes(path, bytes);
  const auto before = fj::cache_stats();
  check_result(run_kernel(), &exact);
  const auto after = fj::cache_stats();
  CHECK(after.disk_rejects - before.disk_rejects == 1);
  CHECK(after.disk_hits == before.disk_hits);
  CHECK(after.disk_writes - before.disk_writes == 1);
  check_valid(path, meta);
}

bool llvm_available() { return fusejit_test::has_backend("llvm"); }

// Kernel n of the processes' test (one kernel per n), on llvm against the reference.
void check_pow_kernel(int n) {
  auto g = [n](fj::Tracer x) { return fj::Tracer(fj::integer_pow(x, n) + fj::exp(x)); };
  fj::clear_caches();
  const fj::Array got = fj::jit(g)(input());
  fusejit_test::BackendScope ref("reference");
  CAPTURE(n);
  fusejit_test::check_close(got, fj::jit(g)(input()), 8, "integer_pow kernel");
}

}  // namespace

TEST_CASE("disk cache: a miss writes an entry, a later run loads the same code from it") {
  if (!llvm_available()) return;
  fusejit_test::BackendScope llvm("llvm");
  TempDir dir;
  DiskScope scope(dir.path);
  auto s0 = fj::cache_stats();
  fj::Array first;
  const std::string path = first_run(dir.path, first);
  auto s1 = fj::cache_stats();
  CHECK(s1.disk_writes - s0.disk_writes == 1);
  CHECK(s1.disk_hits == s0.disk_hits);
  CHECK(s1.compiles - s0.compiles == 1);
  check_result(first);
  check_valid(path, own_meta(path));
  CHECK(path.size() == dir.path.size() + 1 + 32 + 4);  // <dir>/<32 hex digits>.fjk
  CHECK(entries(dir.path, "").size() == 1);            // no temporary file left behind

  // As a new process: the in-memory caches are empty, the entry is loaded, not compiled by LLVM
  // (`compiles` counts kernels the in-memory caches had to produce, disk hits included).
  s1 = fj::cache_stats();
  const fj::Array second = run_kernel();
  auto s2 = fj::cache_stats();
  check_result(second, &first);
  CHECK(s2.disk_hits - s1.disk_hits == 1);
  CHECK(s2.disk_writes == s1.disk_writes);
  CHECK(s2.disk_rejects == s1.disk_rejects);
  CHECK(s2.compiles - s1.compiles == 1);
  CHECK(scope.warnings.empty());

  // The optimized IR shown by lower() is the same whether compiled or loaded.
  fj::clear_caches();
  const std::string loaded = fj::jit(kernel_fn).lower(input()).as_text();
  fj::set_cache_dir("");
  fj::clear_caches();
  const std::string compiled = fj::jit(kernel_fn).lower(input()).as_text();
  CHECK(loaded == compiled);
  CHECK(loaded.find("define void @fj_k_") != std::string::npos);
  CHECK(loaded.find("frem") != std::string::npos);
}

TEST_CASE("disk cache: a truncated entry is recompiled and rewritten, warned once") {
  if (!llvm_available()) return;
  fusejit_test::BackendScope llvm("llvm");
  TempDir dir;
  DiskScope scope(dir.path);
  fj::Array first;
  const std::string path = first_run(dir.path, first);
  const disk::Meta meta = own_meta(path);
  run_damaged(path, meta, first, [](std::string& b) { b.resize(b.size() / 2); });
  run_damaged(path, meta, first, [](std::string& b) { b.resize(20); });  // inside the header
  run_damaged(path, meta, first, [](std::string& b) { b.clear(); });
  CHECK(scope.warnings.size() == 1);
  CHECK(scope.count("corrupt") == 1);
}

TEST_CASE("disk cache: a changed byte in the payload or the header is detected") {
  if (!llvm_available()) return;
  fusejit_test::BackendScope llvm("llvm");
  TempDir dir;
  DiskScope scope(dir.path);
  fj::Array first;
  const std::string path = first_run(dir.path, first);
  const disk::Meta meta = own_meta(path);
  // A byte of the object code, then one of the IR text, then of the header (the key, a size).
  const std::size_t object_at = disk::kHeaderSize + meta.fusejit_version.size() +
                                meta.llvm_version.size() + meta.target.size();
  run_damaged(path, meta, first, [&](std::string& b) { b[object_at + 200] ^= 0x10; });
  run_damaged(path, meta, first, [](std::string& b) { b[b.size() - 10] ^= 0x01; });
  run_damaged(path, meta, first, [](std::string& b) { b[40] ^= 0x80; });
  run_damaged(path, meta, first, [](std::string& b) { b[50] ^= 0x01; });
  run_damaged(path, meta, first, [](std::string& b) { b[2] ^= 0x01; });  // the magic
  CHECK(scope.warnings.size() == 1);
  CHECK(scope.count("corrupt") == 1);
}

TEST_CASE("disk cache: an entry of another version or target is not used") {
  if (!llvm_available()) return;
  fusejit_test::BackendScope llvm("llvm");
  TempDir dir;
  DiskScope scope(dir.path);
  fj::Array first;
  const std::string path = first_run(dir.path, first);
  const disk::Meta meta = own_meta(path);
  // Well-formed entries (their checksums right) that another build would have written.
  auto rewrite = [&](auto change) {
    return [&, change](std::string& b) {
      disk::Entry e = disk::decode(b, meta).entry;
      change(e);
      b = disk::encode(e);
    };
  };
  run_damaged(path, meta, first, rewrite([](disk::Entry& e) { e.meta.fusejit_version = "9.9.9"; }));
  run_damaged(path, meta, first, rewrite([](disk::Entry& e) { e.meta.llvm_version = "18.1.8"; }));
  run_damaged(path, meta, first,
              rewrite([](disk::Entry& e) { e.meta.target = "x86_64-pc-linux-gnu znver9 +avx"; }));
  run_damaged(path, meta, first, rewrite([](disk::Entry& e) { e.format = disk::kFormat + 1; }));
  CHECK(scope.warnings.size() == 1);
  CHECK(scope.count("another version or CPU") == 1);

  // Valid for this build but not an object file: it fails to load, and is compiled instead.
  run_damaged(path, meta, first,
              rewrite([](disk::Entry& e) { e.object = std::string(300, '\x7f') + "ELF junk"; }));
  CHECK(scope.warnings.size() == 2);
  CHECK(scope.count("corrupt") == 1);
}

TEST_CASE("disk cache: an unwritable directory is skipped with one warning") {
  if (!llvm_available()) return;
  fusejit_test::BackendScope llvm("llvm");
  TempDir dir;
  // Under a regular file: no one can create it, root included.
  write_bytes(dir.path + "/file", "x");
  std::vector<std::string> unwritable{dir.path + "/file/sub"};
  // A read-only directory: unwritable unless the tests run as root.
  if (::geteuid() != 0) {
    fs::create_directory(dir.path + "/ro");
    ::chmod((dir.path + "/ro").c_str(), 0500);
    unwritable.push_back(dir.path + "/ro");
  }
  const fj::Array want = [] {
    DiskScope off("");
    return run_kernel();
  }();
  for (const std::string& d : unwritable) {
    CAPTURE(d);
    DiskScope scope(d);
    const auto before = fj::cache_stats();
    check_result(run_kernel(), &want);
    check_result(run_kernel(), &want);  // twice: still one warning
    const auto after = fj::cache_stats();
    CHECK(after.disk_writes == before.disk_writes);
    CHECK(after.disk_hits == before.disk_hits);
    CHECK(scope.warnings.size() == 1);
    CHECK(scope.count("not writable") == 1);
  }
  CHECK(entries(dir.path + "/ro").empty());
}

TEST_CASE("disk cache: a missing directory is created") {
  if (!llvm_available()) return;
  fusejit_test::BackendScope llvm("llvm");
  TempDir dir;
  DiskScope scope(dir.path + "/a/b");
  check_result(run_kernel());
  CHECK(entries(dir.path + "/a/b").size() == 1);
  CHECK(scope.warnings.empty());
}

// A file of `size` bytes whose modification time is `age` in the past.
void make_file(const std::string& path, std::size_t size, std::chrono::seconds age) {
  std::ofstream(path) << std::string(size, 'x');
  fs::last_write_time(path, fs::file_time_type::clock::now() - age);
}

TEST_CASE("disk cache: trimming removes the least recently used entries and stale temporaries") {
  TempDir dir;
  const std::string d = dir.path + "/";
  using std::chrono::seconds;
  for (int i = 0; i < 5; ++i)  // a.fjk the oldest ... e.fjk the newest
    make_file(d + std::string(1, static_cast<char>('a' + i)) + ".fjk", 1000, seconds(50 - 10 * i));
  make_file(d + "dead.fjk.tmp.1.2", 10, seconds(2 * 3600));  // its writer died
  make_file(d + "live.fjk.tmp.1.3", 10, seconds(1));         // a write in progress
  make_file(d + "notes.txt", 5000, seconds(100));            // not the cache's
  // Within the limit: only the stale temporary file goes.
  disk::TrimResult r = disk::trim_dir(dir.path, 5000);
  CHECK(r.bytes == 5000);
  CHECK(r.removed == 1);
  CHECK(!fs::exists(d + "dead.fjk.tmp.1.2"));
  // Past it: the oldest go until the rest fit in 3/4 of the limit (2 625 of 3 500 bytes).
  r = disk::trim_dir(dir.path, 3500);
  CHECK(r.bytes == 2000);
  CHECK(r.removed == 3);
  for (const char* gone : {"a.fjk", "b.fjk", "c.fjk"}) CHECK(!fs::exists(d + gone));
  for (const char* kept : {"d.fjk", "e.fjk", "live.fjk.tmp.1.3", "notes.txt"})
    CHECK(fs::exists(d + kept));
  // A hit refreshes an entry: d, older than e, is now the more recently used.
  disk::touch(d + "d.fjk");
  r = disk::trim_dir(dir.path, 1500);
  CHECK(r.bytes == 1000);
  CHECK(fs::exists(d + "d.fjk"));
  CHECK(!fs::exists(d + "e.fjk"));
  // No bound: nothing goes.
  CHECK(disk::trim_dir(dir.path, 0).bytes == 1000);
}

TEST_CASE(
    "disk cache: the directory stays within fj::set_cache_dir_limit, evicted kernels recompile") {
  if (!llvm_available()) return;
  fusejit_test::BackendScope llvm("llvm");
  TempDir dir;
  DiskScope scope(dir.path);
  struct RestoreLimit {
    std::uint64_t saved = fj::cache_dir_limit();
    ~RestoreLimit() { fj::set_cache_dir_limit(saved); }
  } restore;
  check_pow_kernel(2);
  REQUIRE(entries(dir.path).size() == 1);
  const std::uint64_t entry = fs::file_size(entries(dir.path)[0]);
  const std::uint64_t limit = 3 * entry + entry / 2;  // room for three entries
  fj::set_cache_dir_limit(limit);
  auto total = [&] {
    std::uint64_t bytes = 0;
    for (const std::string& e : entries(dir.path)) bytes += fs::file_size(e);
    return bytes;
  };
  const auto before = fj::cache_stats();
  for (int n = 3; n < 12; ++n) {
    check_pow_kernel(n);
    CAPTURE(n);
    CHECK(total() <= limit);
  }
  CHECK(fj::cache_stats().disk_writes - before.disk_writes == 9);
  CHECK(entries(dir.path).size() <= 3);
  // Kernel 2's entry was trimmed long ago: it compiles and is written again, correct.
  check_pow_kernel(2);
  CHECK(fj::cache_stats().disk_writes - before.disk_writes == 10);
  CHECK(scope.warnings.empty());
}

namespace {

// Starts this test executable on one test case, with the environment changed by `set` (NAME=value)
// and `unset` (NAME), and returns its pid.
pid_t spawn_case(const std::string& test_case, const std::vector<std::string>& set,
                 const std::vector<std::string>& unset = {}) {
  auto named = [](std::string_view var, std::string_view name) {
    return var.substr(0, var.find('=')) == name;
  };
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e) {
    bool keep = true;
    for (const auto& v : set) keep = keep && !named(*e, v.substr(0, v.find('=')));
    for (const auto& v : unset) keep = keep && !named(*e, v);
    if (keep) env_strings.push_back(*e);
  }
  env_strings.insert(env_strings.end(), set.begin(), set.end());
  std::vector<char*> envp;
  for (auto& v : env_strings) envp.push_back(v.data());
  envp.push_back(nullptr);
  std::string exe = "/proc/self/exe", filter = "--test-case=" + test_case;
  std::string minimal = "--minimal";  // a child prints only its failures
  char* argv[] = {exe.data(), filter.data(), minimal.data(), nullptr};
  pid_t pid = 0;
  REQUIRE(::posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv, envp.data()) == 0);
  return pid;
}
// Waits for a spawned child: it must exit with status 0.
void check_exit(pid_t pid) {
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

}  // namespace

// Run by the next test case as a separate process (FUSEJIT_DISK_TEST_CHILD names the directory);
// does nothing in a normal run.
TEST_CASE("disk cache: child process writing entries") {
  const char* dir = std::getenv("FUSEJIT_DISK_TEST_CHILD");
  if (!dir || !llvm_available()) return;
  fusejit_test::BackendScope llvm("llvm");
  DiskScope scope(dir);
  // Several kernels, so that the processes' writes of each entry overlap.
  for (int n = 2; n < 12; ++n) check_pow_kernel(n);
  CHECK(scope.warnings.empty());
}

TEST_CASE("disk cache: processes writing the same entries at once") {
  if (!llvm_available()) return;
  TempDir dir;
  constexpr int kChildren = 4;
  std::vector<pid_t> pids;
  for (int i = 0; i < kChildren; ++i)
    pids.push_back(spawn_case("disk cache: child process writing entries",
                              {"FUSEJIT_DISK_TEST_CHILD=" + dir.path}));
  for (pid_t pid : pids) check_exit(pid);
  // Every entry is whole and valid, and no temporary file is left.
  const auto es = entries(dir.path);
  CHECK(es.size() == 10);
  CHECK(entries(dir.path, "").size() == es.size());
  for (const auto& p : es) check_valid(p, own_meta(p));

  // This process then loads all of them.
  fusejit_test::BackendScope llvm("llvm");
  DiskScope scope(dir.path);
  const auto before = fj::cache_stats();
  for (int n = 2; n < 12; ++n) check_pow_kernel(n);
  CHECK(fj::cache_stats().disk_hits - before.disk_hits == 10);
  CHECK(scope.warnings.empty());
}

TEST_CASE("disk cache: each CPU target has entries of its own (FUSEJIT_CPU, set_cpu_target)") {
  if (!llvm_available()) return;
  const auto widths = fusejit_test::widths_here();
  if (widths.size() < 2) return;  // one level: nothing to tell apart
  fusejit_test::BackendScope llvm("llvm");
  TempDir dir;
  DiskScope scope(dir.path);
  const auto s0 = fj::cache_stats();
  for (const auto& [name, lanes] : widths) {
    fusejit_test::CpuTargetScope target(name);
    check_result(run_kernel());
  }
  // Every level missed and wrote its own entry: none loaded another's object.
  const auto s1 = fj::cache_stats();
  CHECK(s1.disk_writes - s0.disk_writes == widths.size());
  CHECK(s1.disk_hits == s0.disk_hits);
  CHECK(entries(dir.path, ".fjk").size() == widths.size());
  // Back at the first level, with the in-memory caches empty: its own entry is loaded.
  {
    fusejit_test::CpuTargetScope target(widths.front().first);
    fj::clear_caches();
    check_result(run_kernel());
  }
  CHECK(fj::cache_stats().disk_hits - s1.disk_hits == 1);
  CHECK(scope.warnings.empty());
}

// The default directory: FUSEJIT_CACHE_DIR when set (set and empty: off), else XDG_CACHE_HOME's
// fusejit (an absolute path only, as the XDG specification says), else HOME's .cache/fusejit.
TEST_CASE("disk cache: the default directory follows FUSEJIT_CACHE_DIR, XDG_CACHE_HOME, HOME") {
  using fj::detail::default_cache_dir;
  CHECK(default_cache_dir("/x/cache", "/home/u") == "/x/cache/fusejit");
  CHECK(default_cache_dir(nullptr, "/home/u") == "/home/u/.cache/fusejit");
  CHECK(default_cache_dir("", "/home/u") == "/home/u/.cache/fusejit");
  CHECK(default_cache_dir("relative/cache", "/home/u") == "/home/u/.cache/fusejit");
  CHECK(default_cache_dir(nullptr, nullptr).empty());
  CHECK(default_cache_dir(nullptr, "").empty());
  CHECK(default_cache_dir("/x/cache", nullptr) == "/x/cache/fusejit");

  // cache_dir_from_env() reads the variables now (the process's own directory was read once).
  struct SavedEnv {
    std::vector<std::pair<std::string, std::optional<std::string>>> vars;
    SavedEnv() {
      for (const char* n : {"FUSEJIT_CACHE_DIR", "XDG_CACHE_HOME", "HOME"}) {
        const char* v = std::getenv(n);
        vars.emplace_back(n, v ? std::optional<std::string>(v) : std::nullopt);
      }
    }
    ~SavedEnv() {
      for (auto& [n, v] : vars) v ? ::setenv(n.c_str(), v->c_str(), 1) : ::unsetenv(n.c_str());
    }
  } saved;
  ::unsetenv("FUSEJIT_CACHE_DIR");
  ::setenv("XDG_CACHE_HOME", "/xdg", 1);
  ::setenv("HOME", "/home/someone", 1);
  CHECK(fj::detail::cache_dir_from_env() == "/xdg/fusejit");
  ::unsetenv("XDG_CACHE_HOME");
  CHECK(fj::detail::cache_dir_from_env() == "/home/someone/.cache/fusejit");
  ::setenv("FUSEJIT_CACHE_DIR", "/mine", 1);
  CHECK(fj::detail::cache_dir_from_env() == "/mine");
  ::setenv("FUSEJIT_CACHE_DIR", "", 1);
  CHECK(fj::detail::cache_dir_from_env().empty());
}

// Run by the next test cases as a separate process, with the environment they choose; does
// nothing in a normal run. It runs kernel_fn once and writes to FUSEJIT_DISK_TEST_REPORT: the
// disk hits, disk writes, compiles (kernels the in-memory caches produced), warnings, the cache
// directory after the call ("-" for none), then the result's bits.
TEST_CASE("disk cache: child process running one kernel") {
  const char* report = std::getenv("FUSEJIT_DISK_TEST_REPORT");
  if (!report || !llvm_available()) return;
  fusejit_test::BackendScope llvm("llvm");
  std::size_t warnings = 0;
  fj::set_warning_handler([&](std::string_view) { ++warnings; });
  const auto before = fj::cache_stats();
  const fj::Array y = fj::jit(kernel_fn)(input());
  const auto after = fj::cache_stats();
  std::ofstream out(report);
  const std::string dir = fj::cache_dir();
  out << after.disk_hits - before.disk_hits << " " << after.disk_writes - before.disk_writes << " "
      << after.compiles - before.compiles << " " << warnings << " " << (dir.empty() ? "-" : dir);
  for (std::int64_t i = 0; i < y.size(); ++i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, y.data<float>() + i, sizeof bits);
    out << " " << bits;
  }
  out << "\n";
  REQUIRE(out.good());
}

namespace {

// What a child process of the case above reported.
struct ChildReport {
  std::uint64_t disk_hits = 0, disk_writes = 0, compiles = 0, warnings = 0;
  std::string dir;
  std::vector<std::uint32_t> bits;
};

// Runs kernel_fn in a new process of this executable with the environment changed as
// spawn_case() does, and returns its report.
ChildReport run_child(const TempDir& tmp, const std::vector<std::string>& set,
                      const std::vector<std::string>& unset = {}) {
  const std::string report = tmp.path + "/report.txt";
  std::vector<std::string> env = set;
  env.push_back("FUSEJIT_DISK_TEST_REPORT=" + report);
  check_exit(spawn_case("disk cache: child process running one kernel", env, unset));
  std::ifstream in(report);
  ChildReport r;
  in >> r.disk_hits >> r.disk_writes >> r.compiles >> r.warnings >> r.dir;
  for (std::uint32_t b; in >> b;) r.bits.push_back(b);
  REQUIRE(r.bits.size() == static_cast<std::size_t>(input().size()));
  fs::remove(report);
  return r;
}

// Every regular file under `dir`, recursively.
std::vector<std::string> files_under(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec))
    if (it->is_regular_file()) out.push_back(it->path().string());
  return out;
}

}  // namespace

TEST_CASE("disk cache: a second process loads the kernel from disk, compiling nothing") {
  if (!llvm_available()) return;
  TempDir tmp;
  const std::string dir = tmp.path + "/kernels";
  const ChildReport first = run_child(tmp, {"FUSEJIT_CACHE_DIR=" + dir});
  CHECK(first.disk_writes == 1);
  CHECK(first.disk_hits == 0);
  CHECK(first.compiles == 1);
  CHECK(entries(dir).size() == 1);
  const ChildReport second = run_child(tmp, {"FUSEJIT_CACHE_DIR=" + dir});
  CHECK(second.disk_hits == 1);
  CHECK(second.compiles - second.disk_hits == 0);  // no kernel compiled by LLVM
  CHECK(second.disk_writes == 0);
  CHECK(second.warnings == 0);
  CHECK(second.bits == first.bits);
  // And both are what this process computes, against the reference.
  fusejit_test::BackendScope llvm("llvm");
  DiskScope off("");
  const fj::Array here = run_kernel();
  check_result(here);
  for (std::size_t i = 0; i < first.bits.size(); ++i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, here.data<float>() + i, sizeof bits);
    CHECK(bits == first.bits[i]);
  }
}

TEST_CASE(
    "disk cache: on by default in XDG_CACHE_HOME, else HOME, and FUSEJIT_CACHE_DIR= turns it off") {
  if (!llvm_available()) return;
  TempDir tmp;
  const std::string xdg = tmp.path + "/xdg", home = tmp.path + "/home";
  // tests/main.cpp gives every run a directory of its own unless told to keep the environment.
  const std::string keep = "FUSEJIT_TEST_KEEP_CACHE_ENV=1";
  const ChildReport in_xdg =
      run_child(tmp, {keep, "XDG_CACHE_HOME=" + xdg, "HOME=" + home}, {"FUSEJIT_CACHE_DIR"});
  CHECK(in_xdg.disk_writes == 1);
  CHECK(in_xdg.dir == xdg + "/fusejit");
  CHECK(entries(xdg + "/fusejit").size() == 1);
  const ChildReport in_home =
      run_child(tmp, {keep, "HOME=" + home}, {"FUSEJIT_CACHE_DIR", "XDG_CACHE_HOME"});
  CHECK(in_home.disk_writes == 1);
  CHECK(in_home.dir == home + "/.cache/fusejit");
  CHECK(entries(home + "/.cache/fusejit").size() == 1);
  CHECK(in_home.bits == in_xdg.bits);

  // Set and empty: off, although the default directories would be writable.
  TempDir clean;
  const std::string xdg2 = clean.path + "/xdg", home2 = clean.path + "/home";
  const ChildReport off =
      run_child(tmp, {keep, "FUSEJIT_CACHE_DIR=", "XDG_CACHE_HOME=" + xdg2, "HOME=" + home2});
  CHECK(off.disk_writes == 0);
  CHECK(off.disk_hits == 0);
  CHECK(off.dir == "-");
  CHECK(files_under(clean.path).empty());
  CHECK(off.bits == in_xdg.bits);
}

TEST_CASE("disk cache: a default directory that cannot be created turns the cache off quietly") {
  if (!llvm_available()) return;
  TempDir tmp;
  write_bytes(tmp.path + "/file", "x");  // nobody can create a directory under a regular file
  const ChildReport r =
      run_child(tmp, {"FUSEJIT_TEST_KEEP_CACHE_ENV=1", "XDG_CACHE_HOME=" + tmp.path + "/file"},
                {"FUSEJIT_CACHE_DIR"});
  CHECK(r.warnings == 0);  // not asked for: no warning
  CHECK(r.disk_writes == 0);
  CHECK(r.dir == "-");  // and off for the rest of the process
  // Named by FUSEJIT_CACHE_DIR, the same directory warns.
  const ChildReport named = run_child(tmp, {"FUSEJIT_CACHE_DIR=" + tmp.path + "/file/fusejit"});
  CHECK(named.warnings == 1);
  CHECK(named.dir == tmp.path + "/file/fusejit");
  CHECK(named.bits == r.bits);
}
