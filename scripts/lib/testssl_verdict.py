#!/usr/bin/env python3
"""Judges a testssl.sh JSON report (--jsonfile) of `courtside serve` with TLS (scripts/ci.d/45-testssl.sh).

Fails (exit 1, every reason printed) on: anything testssl rates MEDIUM, HIGH or CRITICAL outside the throwaway
certificate's own findings (self-signed, short-lived, no revocation URL: facts of the test certificate, not of the
server); any finding that says "vulnerable" without "not"; any offered cipher that is not AEAD (CBC, RC4, 3DES,
NULL) or has no ephemeral key exchange (static RSA); any cipher category other than the strong one offered; a missing or short Strict-Transport-Security.
It also fails when the report lacks what it must judge (no per-cipher lines, no LUCKY13 verdict, no HSTS line),
so a testssl run that tested nothing cannot pass.
"""
import json
import re
import sys

AEAD = {"AESGCM", "ChaCha20", "AESCCM", "AESCCM8"}
CERTIFICATE_FACTS = re.compile(r"^(cert_|intermediate_cert|DNS_CAArecord|engine_problem)")


def verdict(findings):
    problems = []
    ids = {f["id"]: f for f in findings}
    for f in findings:
        ident, severity, text = f["id"], f.get("severity", ""), f.get("finding", "")
        if CERTIFICATE_FACTS.match(ident):
            continue
        if severity in ("MEDIUM", "HIGH", "CRITICAL"):
            problems.append(f"{ident}: {severity}: {text}")
        if re.search(r"\bvulnerable\b", text, re.I) and not re.search(r"\bnot vulnerable\b", text, re.I):
            problems.append(f"{ident}: {text}")
        if ident.startswith("cipherlist_") and ident != "cipherlist_STRONG" and "not offered" not in text:
            problems.append(f"{ident}: offered ({text})")
        if re.match(r"^cipher_x[0-9a-f]+$", ident):
            columns = text.split()
            # "xc02f ECDHE-RSA-AES128-GCM-SHA256 ECDH 253 AESGCM 128 TLS_ECDHE_...": the 3rd column is the key
            # exchange, the 5th the cipher.
            if len(columns) < 5 or columns[4] not in AEAD or "CBC" in text:
                problems.append(f"{ident}: not an AEAD suite: {text}")
            elif columns[2] not in ("ECDH", "DH"):
                problems.append(f"{ident}: no forward secrecy (key exchange {columns[2]}): {text}")
    if not any(re.match(r"^cipher_x[0-9a-f]+$", i) for i in ids):
        problems.append("no per-cipher findings: testssl did not enumerate the ciphers")
    if ids.get("LUCKY13", {}).get("finding", "").lower() != "not vulnerable":
        problems.append(f"LUCKY13: {ids.get('LUCKY13', {}).get('finding', 'not tested')}")
    hsts = ids.get("HSTS_time")
    if hsts is None or hsts.get("severity") != "OK":
        reason = ids.get("HSTS", hsts or {}).get("finding", "no Strict-Transport-Security finding")
        problems.append(f"HSTS: {reason}")
    return problems


def main(path):
    with open(path) as report:
        findings = json.load(report)
    problems = verdict(findings)
    for problem in problems:
        print(f"testssl: {problem}", file=sys.stderr)
    if problems:
        return 1
    ciphers = sum(1 for f in findings if re.match(r"^cipher_x[0-9a-f]+$", f["id"]))
    print(f"testssl: {len(findings)} findings, {ciphers} ciphers offered, all AEAD with ephemeral keys; HSTS present;"
          " nothing vulnerable")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
