// `-o/--output FILE` (cli/output_file.hpp): stdout goes to an unnamed
// temporary file while the command runs, then its bytes to FILE atomically.
#include "output_file.hpp"

#include <unistd.h>

#include <cstdio>
#include <string>

#include "errors.hpp"
#include "file_io.hpp"

namespace lg::cli {
namespace {

struct Kept {
  std::FILE* file = nullptr;  // where stdout's descriptor points meanwhile
  int saved = -1;             // stdout's own descriptor
};

Kept& kept() {
  static Kept k;
  return k;
}

void keep_stdout() {
  Kept& k = kept();
  if (k.file != nullptr) return;
  std::fflush(stdout);
  k.file = std::tmpfile();
  if (k.file == nullptr) throw std::runtime_error("-o: cannot create a temporary file");
  k.saved = dup(STDOUT_FILENO);
  if (k.saved < 0 || dup2(fileno(k.file), STDOUT_FILENO) < 0) throw std::runtime_error("-o: cannot redirect stdout");
}

// stdout back where it was; the bytes printed meanwhile.
std::string give_back() {
  Kept& k = kept();
  std::fflush(stdout);
  dup2(k.saved, STDOUT_FILENO);
  close(k.saved);
  std::string bytes;
  std::rewind(k.file);
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, k.file)) > 0;) bytes.append(buffer, n);
  std::fclose(k.file);
  k = Kept{};
  return bytes;
}

}  // namespace

void add_output_option(CLI::App* command, Globals& globals) {
  command->add_option("-o,--output", globals.output, "Write the report (what stdout would show) to FILE, atomically")
      ->type_name("FILE")
      ->each([](const std::string&) { keep_stdout(); });
}

ExitCode finish_output(const Globals& globals, ExitCode code) {
  if (kept().file == nullptr) return code;
  const std::string bytes = give_back();
  if (bytes.empty() && code == ExitCode::error) return code;
  if (!write_atomically(globals.output, bytes)) return ExitCode::error;
  return code;
}

}  // namespace lg::cli
