//! The one cryptographic step of authorization: does a JWS signature
//! verify under a key, for an algorithm the configuration allows (`RS256`:
//! RSASSA-PKCS1-v1_5 with SHA-256; `ES256`: ECDSA P-256 with SHA-256, the
//! 64-byte `r || s` form). Every rule about which key and which algorithm
//! may be used is in [`super::auth`]; this module only computes.
//!
//! The arithmetic is RustCrypto's pure-Rust `rsa` and `p256`, behind the
//! `jwt` feature that the binary turns on. Without the feature nothing
//! verifies, so a binding with authorization on accepts no token.
//!
//! Spec: RFC 7518 sections 3.3 and 3.4; RFC 7515 section 5.2.

/// The public key itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Material {
    /// RSA: modulus and exponent, big-endian.
    Rsa { n: Vec<u8>, e: Vec<u8> },
    /// EC P-256: the uncompressed SEC1 point `04 || x || y`.
    P256(Vec<u8>),
}

/// Whether `signature` is `alg`'s signature of `message` under `key`.
/// An algorithm that does not fit the key never verifies.
#[cfg(feature = "jwt")]
pub(crate) fn verify(alg: &str, key: &Material, message: &[u8], signature: &[u8]) -> bool {
    match (alg, key) {
        ("RS256", Material::Rsa { n, e }) => {
            use rsa::signature::Verifier as _;
            let n = rsa::BoxedUint::from_be_slice_vartime(n);
            let e = rsa::BoxedUint::from_be_slice_vartime(e);
            let Ok(public) = rsa::PublicKey::new(n, e) else {
                return false;
            };
            let Ok(signature) = rsa::pkcs1v15::Signature::try_from(signature) else {
                return false;
            };
            rsa::pkcs1v15::VerifyingKey::<rsa::sha2::Sha256>::new(public)
                .verify(message, &signature)
                .is_ok()
        }
        ("ES256", Material::P256(point)) => {
            use p256::ecdsa::signature::Verifier as _;
            let Ok(public) = p256::ecdsa::VerifyingKey::from_sec1_bytes(point) else {
                return false;
            };
            let Ok(signature) = p256::ecdsa::Signature::from_slice(signature) else {
                return false;
            };
            public.verify(message, &signature).is_ok()
        }
        _ => false,
    }
}

/// Without the `jwt` feature no signature verifies.
#[cfg(not(feature = "jwt"))]
pub(crate) fn verify(_alg: &str, _key: &Material, _message: &[u8], _signature: &[u8]) -> bool {
    false
}
