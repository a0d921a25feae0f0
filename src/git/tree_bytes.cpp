// A git tree object's bytes (tree_bytes.hpp).
#include "tree_bytes.hpp"

#include <cstring>

#include "ledgergate/git/object_id.hpp"

namespace lg::git {

void append_tree_entry(std::string& out, unsigned mode, std::string_view name, const unsigned char* id) {
  char digits[12];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + (mode & 7));
    mode >>= 3;
  } while (mode != 0);
  while (n > 0) out.push_back(digits[--n]);
  out.push_back(' ');
  out.append(name);
  out.push_back('\0');
  out.append(reinterpret_cast<const char*>(id), ObjectId::k_raw_size);
}

}  // namespace lg::git
