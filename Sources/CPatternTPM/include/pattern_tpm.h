// The whole C <-> Swift contract of the TPM layer (tpm2-tss ESAPI).
//
// Why C at all: ESAPI takes nested unions (TPM2B_PUBLIC, TPM2B_NV_PUBLIC, TPMS_CAPABILITY_DATA) and
// returns Esys_Free'd pointers; building and freeing those is plain C and awkward from Swift. Each
// function here is one TPM conversation; what it means (which result is "wrong", which handle to use,
// how the auth value is derived) is decided in Swift (Sources/PatternTPM).
//
// Linked only into the setuid helper and its test driver, never into pam_pattern.so; tpm2-tss itself is
// loaded with dlopen by the first conversation (pattern_tss.c), so a helper that checks a hash never maps it.
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
    PATTERN_TPM_RC_BUSY = 0x7E000005u,          // another conversation held the TPM past the wait
    PATTERN_TPM_RC_LOCK_UNUSABLE = 0x7E000006u, // the conversation lock's file could not be used
    PATTERN_TPM_RC_NO_LIBRARY = 0x7E000007u,    // tpm2-tss could not be loaded (dlopen)
    PATTERN_TPM_RC_UNANSWERED = 0x7E000008u,    // a check's read went out and its answer never came back
    PATTERN_TPM_RC_TOO_SLOW = 0x7E000009u,      // the conversation's deadline passed before the TPM answered
};

/// Whether tpm2-tss (and with it libcrypto) is loaded in this process: only a conversation loads it.
int pattern_tpm_library_loaded(void);

/// Opens a TPM. `tcti` must be "device:<path>" or "swtpm:path=<path>" (the layer's own TCTI,
/// pattern_tcti.c; never taken from the environment). Every wait of the conversation, this open
/// included, ends `deadline_ms` from now: then the call in progress and every later one fail with
/// TSS2_TCTI_RC_IO_ERROR. Without a resource manager (anything but /dev/tpmrm*) it first flushes every
/// transient object and session loaded in the TPM: the caller holds the lock every pam_pattern
/// conversation takes, so they are what a killed conversation left. Silences tpm2-tss logging
/// (TSS2_LOG/TSS2_LOGFILE are read by the library: a caller's TSS2_LOGFILE must never make a setuid
/// process append to a file).
uint32_t pattern_tpm_open(const char *tcti, uint32_t deadline_ms, pattern_tpm **out);
void pattern_tpm_close(pattern_tpm *tpm);
/// TPM commands sent on this connection so far.
uint32_t pattern_tpm_commands(pattern_tpm *tpm);
/// Whether the conversation's deadline passed while it waited for the TPM (every later call then fails, and
/// every function below answers PATTERN_TPM_RC_TOO_SLOW for it, except a check's unanswered read).
uint32_t pattern_tpm_timed_out(pattern_tpm *tpm);

/// Arms (or re-arms) this process's watchdog: SIGKILL in `milliseconds`, stopped or not. 0 on success.
int pattern_tpm_watchdog_arm(uint32_t milliseconds);
/// Disarms it.
void pattern_tpm_watchdog_disarm(void);
/// The same watchdog over a longer hold (the TPM index lock's) that conversations run inside: SIGKILL in
/// `milliseconds` unless disarmed, whatever conversation deadline is armed meanwhile. 0 on success.
int pattern_tpm_hold_watchdog_arm(uint32_t milliseconds);
/// Disarms the hold's deadline (a conversation's stays).
void pattern_tpm_hold_watchdog_disarm(void);

/// The NV indexes defined in [first, last] (at most PATTERN_TPM_MAX_LISTED), ascending.
uint32_t pattern_tpm_list_indexes(pattern_tpm *tpm, uint32_t first, uint32_t last,
                                  uint32_t *handles, size_t *count);

/// The write policy of a PIN Fail index, from trial sessions: `branch` = PolicyCommandCode(NV_Write) +
/// PolicyNvWritten(NO), `digest` = PolicyOR(`branch`, `tag`). `tag` is a branch nobody can satisfy (a hash,
/// not a policy's digest): it only makes this index's Name differ from any other index defined at the same
/// handle, since the Name covers the policy but not the auth. A conversation of its own (eleven light commands),
/// so the one that defines the index fits its deadline on a slow chip.
uint32_t pattern_tpm_pin_write_policy(pattern_tpm *tpm, const uint8_t tag[PATTERN_TPM_AUTH_SIZE],
                                      uint8_t branch[PATTERN_TPM_AUTH_SIZE], uint8_t digest[PATTERN_TPM_AUTH_SIZE]);

/// Defines a PIN Fail index at `handle` (authread|ownerread|no_da|policywrite, SHA-256) with auth
/// `auth` and write policy `policy` (pattern_tpm_pin_write_policy of `tag`, whose write-once branch is
/// `branch`), then writes its only write: pinCount 0, pinLimit `pin_limit`. The auth travels in a salted
/// session with parameter encryption. Writes the index's Name (after the write) to `name`. On a failed write
/// the index is undefined again.
uint32_t pattern_tpm_define_pin_index(pattern_tpm *tpm, uint32_t handle,
                                      const uint8_t auth[PATTERN_TPM_AUTH_SIZE],
                                      const uint8_t tag[PATTERN_TPM_AUTH_SIZE],
                                      const uint8_t branch[PATTERN_TPM_AUTH_SIZE],
                                      const uint8_t policy[PATTERN_TPM_AUTH_SIZE], uint32_t pin_limit,
                                      uint8_t name[PATTERN_TPM_NAME_SIZE]);

/// Checks `auth` against the index at `handle` whose Name must be `name` (else NAME_MISMATCH,
/// the TPM's counter untouched): a read of the index in an HMAC session with response encryption (only
/// an HMAC over the auth crosses the bus). The session is bound to the session-key index at `key_handle`
/// whose auth value is `key_secret` (32 bytes) when given and when it proves itself on that index;
/// otherwise it is salted by an ECC key made for it. 0 = right (the TPM reset its count); a TPM error
/// otherwise; PATTERN_TPM_RC_UNANSWERED when the read went out but no answer came back (the deadline, a
/// dead connection): the TPM may have judged and counted the guess.
uint32_t pattern_tpm_check_pin(pattern_tpm *tpm, uint32_t handle,
                               const uint8_t name[PATTERN_TPM_NAME_SIZE],
                               const uint8_t auth[PATTERN_TPM_AUTH_SIZE], uint32_t key_handle,
                               const uint8_t *key_secret);

/// (Re)defines the session-key index at `handle` (authread|ownerwrite|no_da, one byte, written once)
/// with auth value `secret`, sent in a salted session with parameter encryption; an index already at
/// the handle is deleted first. Owner authorization (empty).
uint32_t pattern_tpm_define_session_key(pattern_tpm *tpm, uint32_t handle,
                                        const uint8_t secret[PATTERN_TPM_AUTH_SIZE]);

/// 0 when `secret` is the auth value of the session-key index at `handle` (a bound session proves it).
uint32_t pattern_tpm_prove_session_key(pattern_tpm *tpm, uint32_t handle,
                                       const uint8_t secret[PATTERN_TPM_AUTH_SIZE]);

/// Deletes whatever index is at `handle` (owner authorization).
uint32_t pattern_tpm_undefine_any(pattern_tpm *tpm, uint32_t handle);

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
