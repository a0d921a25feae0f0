// Result<T>: a value or an operational Error, with std::expected's names so a
// later switch to C++23 is a one-line alias. Findings are never Errors.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace lg {

enum class ErrorKind { usage, io, git, not_found, invalid_input, internal };

struct Error {
  ErrorKind kind = ErrorKind::internal;
  std::string message;

  // Prefixes one layer of context: "loading HEAD:projects.yaml: <message>".
  [[nodiscard]] Error with_context(std::string_view context) const {
    return Error{kind, std::string(context) + ": " + message};
  }
};

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : m_v(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(Error error) : m_v(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool has_value() const { return m_v.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() & { return std::get<0>(m_v); }
  const T& value() const& { return std::get<0>(m_v); }
  T&& value() && { return std::get<0>(std::move(m_v)); }
  const Error& error() const { return std::get<1>(m_v); }
  // The value, or `fallback` on an error (std::expected's value_or).
  T value_or(T fallback) const& { return has_value() ? value() : std::move(fallback); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

 private:
  std::variant<T, Error> m_v;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : m_error(std::move(error)), m_failed(true) {}  // NOLINT(google-explicit-constructor)
  bool has_value() const { return !m_failed; }
  explicit operator bool() const { return has_value(); }
  const Error& error() const { return m_error; }

 private:
  Error m_error;
  bool m_failed = false;
};

inline Error make_error(ErrorKind kind, std::string message) {
  return Error{kind, std::move(message)};
}

}  // namespace lg

// Propagates an error: `LG_TRY(auto x, expr);` binds the value or returns the error.
#define LG_CONCAT_INNER(a, b) a##b
#define LG_CONCAT(a, b) LG_CONCAT_INNER(a, b)
#define LG_TRY(decl, expr)                                         \
  auto LG_CONCAT(lg_try_, __LINE__) = (expr);                      \
  if (!LG_CONCAT(lg_try_, __LINE__)) return LG_CONCAT(lg_try_, __LINE__).error(); \
  decl = std::move(LG_CONCAT(lg_try_, __LINE__)).value()
