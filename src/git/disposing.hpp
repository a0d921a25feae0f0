// A libgit2 value struct that owns memory (git_buf, git_oidarray,
// git_merge_file_result), disposed of when the scope ends. Private to src/git/.
#pragma once

namespace lg::git {

template <class T, auto DisposeFn>
class Disposing {
 public:
  Disposing() = default;
  ~Disposing() { DisposeFn(&m_value); }
  Disposing(const Disposing&) = delete;
  Disposing& operator=(const Disposing&) = delete;

  T* out() { return &m_value; }
  const T& operator*() const { return m_value; }
  const T* operator->() const { return &m_value; }

 private:
  T m_value{};
};

}  // namespace lg::git
