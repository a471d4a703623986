#ifndef COURTSIDE_COPENSSL_SHIM_H
#define COURTSIDE_COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/bio.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/buffer.h>
#include <stdint.h>

/* Function-like macros over SSL_CTX_ctrl/SSL_ctrl/BIO_ctrl do not import into Swift, and every SSL_OP_* is a cast
   macro (SSL_OP_BIT(n) is (uint64_t)1 << n), so each one CourtsideTLS uses is wrapped here.
   See /work/shared/research/swift-feasibility.md section 1. Owner: the tls module. */

/* SSL_CTX settings */
static inline int cossl_ctx_set_min_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_min_proto_version(ctx, version);
}
static inline int cossl_ctx_set_max_proto_version(SSL_CTX *ctx, int version) {
    return (int)SSL_CTX_set_max_proto_version(ctx, version);
}
static inline long cossl_ctx_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
static inline long cossl_ctx_set_session_cache_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_session_cache_mode(ctx, mode);
}
static inline long cossl_ctx_sess_set_cache_size(SSL_CTX *ctx, long size) {
    return SSL_CTX_sess_set_cache_size(ctx, size);
}

/* SSL_OP_* options (uint64_t in OpenSSL 3) */
static inline uint64_t cossl_op_no_compression(void) { return SSL_OP_NO_COMPRESSION; }
static inline uint64_t cossl_op_no_renegotiation(void) { return SSL_OP_NO_RENEGOTIATION; }
static inline uint64_t cossl_op_ignore_unexpected_eof(void) { return SSL_OP_IGNORE_UNEXPECTED_EOF; }
static inline uint64_t cossl_op_cipher_server_preference(void) { return SSL_OP_CIPHER_SERVER_PREFERENCE; }

/* Per-connection */
static inline int cossl_set_tlsext_host_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

/* BIOs */
static inline long cossl_bio_pending(BIO *bio) { return (long)BIO_pending(bio); }
static inline long cossl_bio_set_mem_eof_return(BIO *bio, long value) { return BIO_set_mem_eof_return(bio, value); }
/* Capacity of a memory BIO's buffer (grown, never shrunk by OpenSSL): lets the connection drop oversized BIOs. */
static inline size_t cossl_bio_mem_capacity(BIO *bio) {
    BUF_MEM *mem = NULL;
    if (BIO_get_mem_ptr(bio, &mem) <= 0 || mem == NULL) return 0;
    return mem->max;
}

#endif
