// fmt's compiled part, built into ledgergate instead of loading libfmt.so
// (cmake/runtime.cmake, LEDGERGATE_STATIC_RUNTIME). Debian's libfmt-dev ships
// the shared library and the headers but no archive; the headers hold the
// whole implementation (format-inl.h), which is what libfmt.so is compiled
// from. This file compiles it once, and instantiates the two templates
// format.h declares for `char` and leaves to the library (the locale's
// decimal point and thousands separator). Every other translation unit
// includes <fmt/format.h> as it would with the shared library.
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {
template auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template auto decimal_point_impl<char>(locale_ref) -> char;
}  // namespace detail
FMT_END_NAMESPACE
