// A tree source that is another source with some files replaced or added:
// the tree an edit would leave, checked before anything is written.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "ledgergate/git/tree_source.hpp"
#include "ledgergate/write/edit.hpp"

namespace lg::write {

// `base` with `edits` laid over it (a later edit of a path wins). Overlaid
// files, and the directories holding them, have no content id, so a cache
// keyed by blob or tree id never confuses them with the base's; a directory
// an edit needs and the base lacks appears as a directory. A path the base
// holds as a directory or symlink is replaced by the file. `base` must
// outlive the overlay.
class OverlaySource final : public git::TreeSource {
 public:
  OverlaySource(git::TreeSource& base, const std::vector<FileEdit>& edits);

  const std::string& rev() const override { return m_base.rev(); }
  Result<std::optional<std::vector<git::Entry>>> list(std::string_view dir) override;
  Result<std::optional<std::vector<git::Entry>>> list_entry(std::string_view dir, const git::Entry& entry) override;
  git::Entry root_entry() const override;
  Result<bool> for_each_child(std::string_view dir, const git::Entry& entry, const ChildFn& fn) override;
  Result<std::optional<git::Entry>> stat(std::string_view path) override;
  Result<std::string> read(std::string_view path, const git::Entry& entry) override;
  // No thread reader: the base's would read the base's bytes for an
  // overlaid entry, and entries carry no path to tell them apart.

 private:
  // Whether some overlaid file lies below directory `dir` ("" is the root).
  bool touches(std::string_view dir) const;
  Result<std::optional<git::Entry>> overlaid_entry(std::string_view path);

  git::TreeSource& m_base;
  std::map<std::string, std::string, std::less<>> m_files;  // path → bytes
};

}  // namespace lg::write
