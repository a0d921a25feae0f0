// Start-up: the network layers libgit2 links and initialises, not linked or
// not initialised. ledgergate never opens a network connection (fetch and
// push go through the git CLI: docs/ci.md), so it needs neither libgit2's SSH
// transport (libssh2, and OpenSSL's libcrypto under it) nor its TLS stream
// (mbedTLS). Debian's libgit2 sets both up inside its library init, with no
// option to skip them: mbedTLS parses the whole system CA bundle
// (/etc/ssl/certs/ca-certificates.crt) and seeds a random generator, and
// libssh2_init initialises OpenSSL. That was most of the process start of
// every command that opens a repository (docs/performance.md, "Start-up").
//
// How libgit2's calls reach the stand-ins here (cmake/libgit2.cmake):
// - libgit2.a linked in (LEDGERGATE_STATIC_LIBGIT2): the link editor's --wrap
//   sends the calls libgit2's other objects make into its SSH transport
//   (ssh.c) and its mbedTLS stream (streams/mbedtls.c) to the __wrap_ names
//   below. Nothing then refers to those two objects, so neither they nor
//   libssh2, libcrypto and mbedTLS are linked at all. Their initialisations
//   succeed doing nothing; every entry point that would open, wrap or
//   configure a connection fails with libgit2's error set (an SSH or TLS
//   remote: "ledgergate opens no network connection"). The GSSAPI functions
//   libgit2's HTTP Negotiate authentication calls are defined here too,
//   failing, so that GSSAPI's six Kerberos libraries are not linked either.
// - libgit2.so: the executable defines the plain names of the three
//   functions the initialisation calls into the network libraries (mbedTLS's
//   CA loaders, libssh2_init), and the dynamic linker binds libgit2's calls
//   to them (an executable's definitions come first in the lookup scope);
//   they do nothing and succeed. A TLS connection would then fail its
//   certificate check (no trusted root loaded) rather than trust anything;
//   OpenSSL 3 initialises itself on first use.
// tests/startup/no-git-init checks that the CA bundle is never opened and,
// linked static, that none of these libraries is in the binary.

#ifdef LEDGERGATE_STATIC_LIBGIT2
#define LG_STAND_IN(name) __wrap_##name
#else
#define LG_STAND_IN(name) name
#endif

#ifdef LEDGERGATE_STATIC_LIBGIT2
#include <git2/errors.h>
#else
struct mbedtls_x509_crt;
#endif

extern "C" {

#ifdef LEDGERGATE_STATIC_LIBGIT2
// libgit2's own internal signatures (src/libgit2/transports/ssh.c,
// src/libgit2/streams/mbedtls.h; the streams and transports are passed as
// opaque pointers): 0 = success, -1 = an error, its message set first.
static int no_connection(int error_class) {
  git_error_set_str(error_class, "ledgergate opens no network connection");
  return -1;
}

int LG_STAND_IN(git_transport_ssh_global_init)() { return 0; }
int LG_STAND_IN(git_smart_subtransport_ssh)(void** /*out*/, void* /*owner*/, void* /*param*/) {
  return no_connection(GIT_ERROR_SSH);
}
int LG_STAND_IN(git_mbedtls_stream_global_init)() { return 0; }
int LG_STAND_IN(git_mbedtls_stream_new)(void** /*out*/, const char* /*host*/, const char* /*port*/) {
  return no_connection(GIT_ERROR_SSL);
}
int LG_STAND_IN(git_mbedtls_stream_wrap)(void** /*out*/, void* /*in*/, const char* /*host*/) {
  return no_connection(GIT_ERROR_SSL);
}
int LG_STAND_IN(git_mbedtls__set_cert_location)(const char* /*file*/, const char* /*path*/) {
  return no_connection(GIT_ERROR_SSL);
}

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
#else
// mbedtls/x509_crt.h's signatures: 0 = success (nothing loaded).
int mbedtls_x509_crt_parse_file(mbedtls_x509_crt* /*chain*/, const char* /*path*/) { return 0; }
int mbedtls_x509_crt_parse_path(mbedtls_x509_crt* /*chain*/, const char* /*path*/) { return 0; }

// libssh2.h's signature: 0 = success. libssh2_exit, which libgit2's shutdown
// calls, does nothing when libssh2_init has not run.
int libssh2_init(int /*flags*/) { return 0; }
#endif

}  // extern "C"
