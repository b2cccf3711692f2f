// The whole C <-> Swift contract of the TPM layer (tpm2-tss ESAPI).
//
// Why C at all: ESAPI takes nested unions (TPM2B_PUBLIC, TPM2B_NV_PUBLIC, TPMS_CAPABILITY_DATA) and
// returns Esys_Free'd pointers; building and freeing those is plain C and awkward from Swift. Each
// function here is one TPM conversation; what it means (which result is "wrong", which handle to use,
// how the auth value is derived) is decided in Swift (Sources/PatternTPM).
//
// Linked only into the setuid helper and its test driver, never into pam_pattern.so.
#ifndef PATTERN_TPM_H
#define PATTERN_TPM_H

#include <stddef.h>
#include <stdint.h>

/// An open ESAPI context over one TCTI. Opaque.
typedef struct pattern_tpm pattern_tpm;

/// Sizes fixed by the layer: SHA-256 auth values, a SHA-256 NV Name (2-byte algorithm id + digest).
enum {
    PATTERN_TPM_AUTH_SIZE = 32,
    PATTERN_TPM_NAME_SIZE = 34,
    PATTERN_TPM_MAX_LISTED = 256,
};

/// The layer's own results (TSS2 results are returned as they are). Outside every TSS2 layer
/// (TSS2 layers are multiples of 0x10000 up to 0xFF0000).
enum {
    PATTERN_TPM_RC_BAD_ARGUMENT = 0x7E000001u,  // a TCTI string the layer does not accept, a bad size
    PATTERN_TPM_RC_NAME_MISMATCH = 0x7E000002u, // the index at the handle is not the recorded one
    PATTERN_TPM_RC_NO_MEMORY = 0x7E000003u,
    PATTERN_TPM_RC_NO_SESSION = 0x7E000004u,    // a check's salted session could not be started
};

/// Opens a TPM. `tcti` must be "device:<path>" or "swtpm:path=<path>" (the only TCTIs the layer
/// loads; never taken from the environment). Silences tpm2-tss logging (TSS2_LOG/TSS2_LOGFILE are
/// read by the library: a caller's TSS2_LOGFILE must never make a setuid process append to a file).
uint32_t pattern_tpm_open(const char *tcti, pattern_tpm **out);
void pattern_tpm_close(pattern_tpm *tpm);

/// The NV indexes defined in [first, last] (at most PATTERN_TPM_MAX_LISTED), ascending.
uint32_t pattern_tpm_list_indexes(pattern_tpm *tpm, uint32_t first, uint32_t last,
                                  uint32_t *handles, size_t *count);

/// Defines a PIN Fail index at `handle` (authread|ownerread|no_da|policywrite, SHA-256) with auth
/// `auth` and write policy PolicyOR(PolicyCommandCode(NV_Write) + PolicyNvWritten(NO), `tag`), then
/// writes its only write: pinCount 0, pinLimit `pin_limit`. `tag` is a branch nobody can satisfy
/// (a hash, not a policy's digest): it only makes this index's Name differ from any other index
/// defined at the same handle, since the Name covers the policy but not the auth. The auth travels in a salted session with parameter
/// encryption. Writes the index's Name (after the write) to `name`. On a failed write the index
/// is undefined again.
uint32_t pattern_tpm_define_pin_index(pattern_tpm *tpm, uint32_t handle,
                                      const uint8_t auth[PATTERN_TPM_AUTH_SIZE],
                                      const uint8_t tag[PATTERN_TPM_AUTH_SIZE], uint32_t pin_limit,
                                      uint8_t name[PATTERN_TPM_NAME_SIZE]);

/// Checks `auth` against the index at `handle` whose Name must be `name` (else NAME_MISMATCH,
/// the TPM's counter untouched): a read of the index in a salted HMAC session (only an HMAC over
/// the auth crosses the bus). 0 = right (the TPM reset its count); a TPM error otherwise.
uint32_t pattern_tpm_check_pin(pattern_tpm *tpm, uint32_t handle,
                               const uint8_t name[PATTERN_TPM_NAME_SIZE],
                               const uint8_t auth[PATTERN_TPM_AUTH_SIZE]);

/// Reads pinCount and pinLimit with owner authorization (does not count as a try).
uint32_t pattern_tpm_read_counter(pattern_tpm *tpm, uint32_t handle,
                                  const uint8_t name[PATTERN_TPM_NAME_SIZE],
                                  uint32_t *pin_count, uint32_t *pin_limit);

/// Deletes the index at `handle` if its Name is `name` (owner authorization).
uint32_t pattern_tpm_undefine(pattern_tpm *tpm, uint32_t handle,
                              const uint8_t name[PATTERN_TPM_NAME_SIZE]);

/// The Name of the index at `handle`, as the TPM reports it (for deleting an index no record names).
uint32_t pattern_tpm_index_name(pattern_tpm *tpm, uint32_t handle, uint8_t name[PATTERN_TPM_NAME_SIZE]);

/// A short static description of a result (tpm2-tss's decoder; the layer's own codes named).
const char *pattern_tpm_describe(uint32_t rc);

#endif
