#ifndef COURTSIDE_COPENSSL_SHIM_H
#define COURTSIDE_COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/bio.h>
#include <openssl/x509.h>
#include <openssl/evp.h>
#endif
