// The one JSON writer behind every machine-readable output: a streaming
// writer of objects, arrays, strings, numbers, booleans and null, with
// RFC 8259 escaping. Renderers nest their parts into one writer (a command
// that embeds findings calls the findings writer); no JSON is ever built by
// cutting or pasting another JSON string.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace lg::util {

// `s` as a JSON string literal; invalid UTF-8 (raw path bytes) becomes U+FFFD.
std::string json_string(std::string_view s);

// How a container lays out its items. The documented outputs put list
// items on lines of their own (`[\n  {...},\n  {...}\n]`), everything else
// inline (`{"a": 1, "b": [2, 3]}`); an empty container is always `[]`/`{}`.
struct JsonLayout {
  int indent = -1;              // < 0: inline; else each item on a line indented this much
  bool bracket_on_line = true;  // on lines: the closing bracket on a line of its own, indented `indent - 2`
                                // (else right after the last item, as `classify --format json` has it)
  static JsonLayout lines(int indent, bool bracket_on_line = true) { return JsonLayout{indent, bracket_on_line}; }
};

class JsonWriter {
 public:
  JsonWriter& begin_object(JsonLayout layout = {});
  JsonWriter& end_object();
  JsonWriter& begin_array(JsonLayout layout = {});
  JsonWriter& end_array();
  // An object member's name; the value written next is its value.
  JsonWriter& key(std::string_view name);

  JsonWriter& string(std::string_view s);
  JsonWriter& boolean(bool b);
  JsonWriter& null();
  template <typename T, typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>>
  JsonWriter& number(T n) {
    if constexpr (std::is_signed_v<T>) {
      return signed_number(n);
    } else {
      return unsigned_number(n);
    }
  }
  // A string, or null when it is empty.
  JsonWriter& string_or_null(std::string_view s) { return s.empty() ? null() : string(s); }

  // The document so far (complete once every container is closed).
  const std::string& str() const { return m_out; }

 private:
  struct Open {
    JsonLayout layout;
    bool object = false;
    std::size_t items = 0;
    bool after_key = false;
  };
  void separate();
  void before_value();
  void open(char bracket, JsonLayout layout, bool object);
  void close(char bracket, bool object);
  JsonWriter& signed_number(std::int64_t n);
  JsonWriter& unsigned_number(std::uint64_t n);

  std::string m_out;
  std::vector<Open> m_open;
};

}  // namespace lg::util
