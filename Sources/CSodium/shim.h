// libsodium (Debian: libsodium-dev): authenticated encryption of store files
// (XChaCha20-Poly1305), Argon2id passphrase derivation, guarded key memory, secretstream dumps.
#include <sodium.h>
