// The MPI world as fusejit's process group: collectives exchange every device's operand with
// MPI_Iallgather, waited for with a bound so that a failed process surfaces as fj::Error rather
// than a hang (implementation unit only; compiled with FUSEJIT_WITH_MPI).
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "fusejit/core/error.hpp"
#include "fusejit/distributed/process_group.hpp"

namespace fj::distributed::detail {

namespace {

// FUSEJIT_MPI_TIMEOUT seconds (default 300): how long a collective waits for the other ranks.
double timeout_seconds() {
  if (const char* v = std::getenv("FUSEJIT_MPI_TIMEOUT"); v && *v) {
    const double s = std::atof(v);
    if (s > 0) return s;
  }
  return 300.0;
}

class MpiGroup final : public ProcessGroup {
 public:
  MpiGroup(bool owns, const char* who) : owns_(owns), timeout_(timeout_seconds()) {
    // Errors come back as codes (raised as fj::Error), not as an abort of every rank.
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    check(MPI_Comm_rank(comm_, &rank_), who, "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size_), who, "MPI_Comm_size");
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }

  void finalize() override {
    MPI_Comm_free(&comm_);
    if (owns_) MPI_Finalize();
  }

  std::vector<const std::byte*> gather(const std::vector<const std::byte*>& local,
                                       std::size_t bytes, std::vector<std::byte>& storage,
                                       const std::string& who) override {
    const std::string at = "rank " + std::to_string(rank_) + ": " + who;
    agree(local.size() * bytes, at);
    const std::size_t per = local.size() * bytes;
    if (per > static_cast<std::size_t>(INT32_MAX))
      throw NotImplementedError(at + ": " + std::to_string(per) +
                                " bytes per process exceed one MPI message (2 GiB)");
    std::vector<std::byte> mine(per);
    for (std::size_t d = 0; d < local.size(); ++d)
      std::memcpy(mine.data() + d * bytes, local[d], bytes);
    storage.resize(per * static_cast<std::size_t>(size_));
    MPI_Request req;
    check(MPI_Iallgather(mine.data(), static_cast<int>(per), MPI_BYTE, storage.data(),
                         static_cast<int>(per), MPI_BYTE, comm_, &req),
          at, "MPI_Iallgather");
    wait(req, at);
    std::vector<const std::byte*> all;
    for (int p = 0; p < size_; ++p)
      for (std::size_t d = 0; d < local.size(); ++d)
        all.push_back(storage.data() + static_cast<std::size_t>(p) * per + d * bytes);
    return all;
  }

 private:
  static void check(int rc, const std::string& at, const char* call) {
    if (rc == MPI_SUCCESS) return;
    char text[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, text, &len);
    throw Error(at + ": " + call + " failed: " + std::string(text, static_cast<std::size_t>(len)));
  }

  // Waits for req, polling, at most timeout_ seconds.
  void wait(MPI_Request& req, const std::string& at) {
    const auto start = std::chrono::steady_clock::now();
    for (int spins = 0;; ++spins) {
      int done = 0;
      check(MPI_Test(&req, &done, MPI_STATUS_IGNORE), at, "MPI_Test");
      if (done) return;
      const double waited =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (waited > timeout_)
        throw Error(at + ": the other processes did not join within " + std::to_string(timeout_) +
                    " s (FUSEJIT_MPI_TIMEOUT): a process failed, exited, or ran another "
                    "collective");
      if (spins > 1000) std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }

  // Every rank checks that all run the same collective on the same number of bytes: a
  // mismatch is an error naming both, where MPI would truncate or hang.
  void agree(std::size_t bytes, const std::string& at) {
    const std::string what = at.substr(at.find(": ") + 2);
    const std::uint64_t mine[2] = {static_cast<std::uint64_t>(bytes),
                                   std::hash<std::string>{}(what)};
    std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(size_));
    MPI_Request req;
    check(MPI_Iallgather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, comm_, &req), at,
          "MPI_Iallgather");
    wait(req, at);
    for (int p = 0; p < size_; ++p)
      if (all[2 * static_cast<std::size_t>(p)] != mine[0] ||
          all[2 * static_cast<std::size_t>(p) + 1] != mine[1])
        throw Error(at + " (" + std::to_string(bytes) + " bytes) does not match rank " +
                    std::to_string(p) + "'s collective (" +
                    std::to_string(all[2 * static_cast<std::size_t>(p)]) +
                    " bytes): every process must run the same pmap");
  }

  bool owns_;
  double timeout_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
};

}  // namespace

std::unique_ptr<ProcessGroup> join_mpi_world(const char* who) {
  int started = 0;
  MPI_Initialized(&started);
  if (!started) {
    int provided = 0;
    // Collectives call MPI from whichever device thread arrives last, one call at a time.
    if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
      throw Error(std::string(who) + ": MPI_Init_thread failed");
    if (provided < MPI_THREAD_SERIALIZED)
      throw Error(std::string(who) + ": this MPI gives thread level " + std::to_string(provided) +
                  "; fusejit needs MPI_THREAD_SERIALIZED");
  }
  return std::make_unique<MpiGroup>(!started, who);
}

}  // namespace fj::distributed::detail
