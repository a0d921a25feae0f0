// Replays inputs through the fuzz targets' entry functions without a fuzzing
// engine: `ledgergate_fuzz_replay DIR` feeds every file under DIR/<target>/
// to <target> (a sanitizer build reports what the fuzzer found; an ordinary
// build still catches crashes, assertions and exceptions). Exit 0 when every
// input ran, 1 on a usage error or an unknown target folder.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "targets.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s REGRESSIONS_DIR\n", argv[0]);
    return 1;
  }
  const fs::path root = argv[1];
  int inputs = 0;
  std::vector<fs::path> dirs;
  for (const auto& d : fs::directory_iterator(root)) {
    if (d.is_directory()) dirs.push_back(d.path());
  }
  std::sort(dirs.begin(), dirs.end());
  for (const fs::path& dir : dirs) {
    const lg::fuzz::Target* target = lg::fuzz::find_target(dir.filename().string());
    if (target == nullptr) {
      std::fprintf(stderr, "%s: no fuzz target of that name\n", dir.c_str());
      return 1;
    }
    std::vector<fs::path> files;
    for (const auto& f : fs::recursive_directory_iterator(dir)) {
      if (f.is_regular_file()) files.push_back(f.path());
    }
    std::sort(files.begin(), files.end());
    for (const fs::path& file : files) {
      std::ifstream in(file, std::ios::binary);
      const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      std::fprintf(stderr, "%s\n", file.c_str());
      target->run(data);
      ++inputs;
    }
  }
  std::printf("%d inputs replayed\n", inputs);
  return 0;
}
