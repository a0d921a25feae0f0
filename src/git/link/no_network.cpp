// Start-up: the network layers libgit2's initialisation sets up, not set up.
// Debian's libgit2 initialises its transports inside its library init, with
// no option to skip them: mbedTLS parses the whole system CA bundle
// (/etc/ssl/certs/ca-certificates.crt; the location is compiled in, and the
// option that changes it works only after the initialisation) and
// libssh2_init initialises OpenSSL (its configuration, its error tables).
// Together that was most of the process start of every command that opens a
// repository (docs/performance.md has the figures). ledgergate never opens a
// network connection, so it needs neither: the three functions libgit2 calls
// for them are stood in for here. They do nothing and succeed. Were a
// connection ever made, a TLS one would fail its certificate check (no
// trusted root loaded) rather than trust anything. Linked static, the HAVEGE
// entropy source mbedTLS fills at the same initialisation is stood in for
// too (below).
//
// How libgit2's calls reach these (cmake/libgit2.cmake):
// - libgit2.a linked in (LEDGERGATE_STATIC_LIBGIT2): the link editor's --wrap
//   sends libgit2's calls to the __wrap_ names below, and the GSSAPI
//   functions libgit2's HTTP Negotiate authentication calls are defined here
//   too, failing, so that GSSAPI's six Kerberos libraries are not linked;
// - libgit2.so: the executable defines the plain names, and the dynamic
//   linker binds libgit2's calls to them (an executable's definitions come
//   first in the lookup scope); OpenSSL 3 initialises itself on first use.
// tests/startup/no-git-init checks that the CA bundle is never opened.

#ifdef LEDGERGATE_STATIC_LIBGIT2
#define LG_STAND_IN(name) __wrap_##name
#else
#define LG_STAND_IN(name) name
#endif

#include <sys/random.h>
#include <sys/types.h>

#include <cerrno>
#include <cstddef>

struct mbedtls_x509_crt;

extern "C" {

// mbedtls/x509_crt.h's signatures: 0 = success (nothing loaded).
int LG_STAND_IN(mbedtls_x509_crt_parse_file)(mbedtls_x509_crt* /*chain*/, const char* /*path*/) { return 0; }
int LG_STAND_IN(mbedtls_x509_crt_parse_path)(mbedtls_x509_crt* /*chain*/, const char* /*path*/) { return 0; }

// libssh2.h's signature: 0 = success. libssh2_exit, which libgit2's shutdown
// calls, does nothing when libssh2_init has not run.
int LG_STAND_IN(libssh2_init)(int /*flags*/) { return 0; }

#ifdef LEDGERGATE_STATIC_LIBGIT2
// mbedtls/havege.h and entropy_poll.h's signatures. mbedTLS's entropy set-up,
// which libgit2's initialisation runs, fills a HAVEGE state (a timing loop
// of about 1.1 M instructions: a sixth of a `merge-file` process) to use as
// one of the entropy sources the random generator is seeded from. The state
// is not filled here, and the source gives bytes of the kernel's random
// generator (getrandom) instead: the generator is seeded no worse, and
// HAVEGE's state is never read. mbedtls_havege_free, left as it is, clears
// the state's memory.
int LG_STAND_IN(mbedtls_havege_poll)(void* /*data*/, unsigned char* output, std::size_t len, std::size_t* olen) {
  std::size_t got = 0;
  while (got < len) {
    const ssize_t n = ::getrandom(output + got, len - got, 0);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -0x003C;  // MBEDTLS_ERR_ENTROPY_SOURCE_FAILED
    }
    got += static_cast<std::size_t>(n);
  }
  *olen = got;
  return 0;
}
void LG_STAND_IN(mbedtls_havege_init)(void* /*state*/) {}

// gssapi/gssapi.h's signatures, for the calls libgit2.a makes (its HTTP
// Negotiate authentication, src/libgit2/transports/auth_negotiate.c). Every
// context and name operation fails with GSS_S_FAILURE: a server asking for
// Negotiate gets libgit2's "could not initialize GSSAPI" error. The release
// functions have nothing to release. A new call in a future libgit2.a is a
// link error, not a silent gap.
using OM_uint32 = unsigned int;
constexpr OM_uint32 k_gss_s_complete = 0;
constexpr OM_uint32 k_gss_s_failure = 13u << 16;  // GSS_S_FAILURE: routine error 13

static OM_uint32 gss_fails(OM_uint32* minor) {
  if (minor) *minor = 0;
  return k_gss_s_failure;
}
static OM_uint32 gss_releases(OM_uint32* minor) {
  if (minor) *minor = 0;
  return k_gss_s_complete;
}

void* GSS_C_NT_HOSTBASED_SERVICE = nullptr;  // gss_OID: the name type libgit2 passes to gss_import_name

OM_uint32 gss_indicate_mechs(OM_uint32* minor, void* /*mech_set*/) { return gss_fails(minor); }
OM_uint32 gss_import_name(OM_uint32* minor, void* /*input*/, void* /*type*/, void* /*output*/) {
  return gss_fails(minor);
}
OM_uint32 gss_init_sec_context(OM_uint32* minor, void* /*cred*/, void* /*context*/, void* /*target*/,
                               void* /*mech*/, OM_uint32 /*flags*/, OM_uint32 /*time*/, void* /*bindings*/,
                               void* /*input*/, void* /*actual_mech*/, void* /*output*/, OM_uint32* /*ret_flags*/,
                               OM_uint32* /*time_rec*/) {
  return gss_fails(minor);
}
OM_uint32 gss_display_status(OM_uint32* minor, OM_uint32 /*status*/, int /*type*/, void* /*mech*/,
                             OM_uint32* /*context*/, void* /*string*/) {
  return gss_fails(minor);
}
OM_uint32 gss_delete_sec_context(OM_uint32* minor, void* /*context*/, void* /*output*/) {
  return gss_releases(minor);
}
OM_uint32 gss_release_buffer(OM_uint32* minor, void* /*buffer*/) { return gss_releases(minor); }
OM_uint32 gss_release_name(OM_uint32* minor, void* /*name*/) { return gss_releases(minor); }
OM_uint32 gss_release_oid_set(OM_uint32* minor, void* /*set*/) { return gss_releases(minor); }
#endif

}  // extern "C"
