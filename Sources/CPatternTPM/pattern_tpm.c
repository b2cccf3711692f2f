// ESAPI conversations for the TPM pattern mode. See include/pattern_tpm.h for the contract.
#define _GNU_SOURCE /* explicit_bzero, timer_create */
#include "pattern_tpm.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pattern_tcti.h"
#include "pattern_tss.h"

static int has_prefix(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

struct pattern_tpm {
    TSS2_TCTI_CONTEXT *tcti;
    ESYS_CONTEXT *esys;
};

// Without a resource manager (swtpm, /dev/tpm0) what a killed process had loaded stays in the TPM until
// someone flushes it, and a TPM has room for only a few (swtpm: 3 objects, 3 sessions); the callers hold a
// lock that every pam_pattern conversation with this TPM takes, so anything loaded now was left by a
// conversation that is over. Behind the kernel's resource manager the list is this process's own: empty.
static void flush_leftovers(pattern_tpm *tpm) {
    TSS2_SYS_CONTEXT *sys = NULL;
    if (Esys_GetSysContext(tpm->esys, &sys) != TSS2_RC_SUCCESS || sys == NULL) return;
    // (Saved sessions need no look: without a resource manager nothing context-saves ours.)
    const TPM2_HANDLE ranges[] = {TPM2_TRANSIENT_FIRST, TPM2_LOADED_SESSION_FIRST};
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        TPMS_CAPABILITY_DATA data = {0};
        TPMI_YES_NO more = TPM2_NO;
        if (Tss2_Sys_GetCapability(sys, NULL, TPM2_CAP_HANDLES, ranges[r], TPM2_MAX_CAP_HANDLES, &more, &data, NULL) !=
            TSS2_RC_SUCCESS) {
            continue;
        }
        for (UINT32 i = 0; i < data.data.handles.count && i < TPM2_MAX_CAP_HANDLES; i++) {
            TPM2_HANDLE handle = data.data.handles.handle[i];
            uint32_t type = handle >> 24;
            if (type != TPM2_HT_TRANSIENT && type != TPM2_HT_HMAC_SESSION && type != TPM2_HT_POLICY_SESSION) break;
            (void)Tss2_Sys_FlushContext(sys, handle);
        }
    }
}

uint32_t pattern_tpm_open(const char *tcti, uint32_t deadline_ms, pattern_tpm **out) {
    *out = NULL;
    // Only the two TCTIs we mean (pattern_tcti.c checks the prefix again).
    if (tcti == NULL || !(has_prefix(tcti, "device:/") || has_prefix(tcti, "swtpm:path=/"))) {
        return PATTERN_TPM_RC_BAD_ARGUMENT;
    }
    // tpm2-tss reads these on its first log line; a setuid caller's TSS2_LOGFILE would be opened as root.
    unsetenv("TSS2_LOGFILE");
    setenv("TSS2_LOG", "all+none", 1);
    // Only now, for a TPM record: a check of a hash never maps tpm2-tss nor libcrypto.
    if (pattern_tss_load() != 0) return PATTERN_TPM_RC_NO_LIBRARY;
    pattern_tpm *tpm = calloc(1, sizeof *tpm);
    if (tpm == NULL) return PATTERN_TPM_RC_NO_MEMORY;
    TSS2_RC rc = pattern_tcti_open(tcti, deadline_ms, &tpm->tcti);
    if (rc != TSS2_RC_SUCCESS) {
        free(tpm);
        return rc;
    }
    rc = Esys_Initialize(&tpm->esys, tpm->tcti, NULL);
    if (rc != TSS2_RC_SUCCESS) {
        pattern_tcti_close(tpm->tcti);
        free(tpm);
        return rc;
    }
    if (!pattern_tcti_has_resource_manager(tcti)) flush_leftovers(tpm);
    *out = tpm;
    return TSS2_RC_SUCCESS;
}

void pattern_tpm_close(pattern_tpm *tpm) {
    if (tpm == NULL) return;
    Esys_Finalize(&tpm->esys);
    pattern_tcti_close(tpm->tcti);
    free(tpm);
}

uint32_t pattern_tpm_commands(pattern_tpm *tpm) { return tpm == NULL ? 0 : pattern_tcti_commands(tpm->tcti); }

// A public result of the layer: after the connection's deadline passed, whatever failed (the TCTI's I/O error,
// or ESAPI's complaint about the state that left) is the TPM answering too slowly. A check's read that went out
// unanswered stays PATTERN_TPM_RC_UNANSWERED (the TPM may have counted it).
static uint32_t result(pattern_tpm *tpm, TSS2_RC rc) {
    if (rc == TSS2_RC_SUCCESS || rc == PATTERN_TPM_RC_UNANSWERED) return rc;
    return pattern_tcti_timed_out(tpm->tcti) ? PATTERN_TPM_RC_TOO_SLOW : rc;
}

uint32_t pattern_tpm_timed_out(pattern_tpm *tpm) { return tpm != NULL && pattern_tcti_timed_out(tpm->tcti); }

// One timer per process: SIGKILL is delivered to a stopped process too, so no stop can keep the TPM lock
// (and a swtpm connection) past the bound. Two deadlines share it, a conversation's and the TPM index lock's
// hold (one may run inside the other): the timer fires at the earlier of those set.
static timer_t watchdog;
static int watchdog_made;
static struct timespec deadlines[2];
static int deadline_set[2];

static int earlier(const struct timespec *a, const struct timespec *b) {
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static int watchdog_apply(void) {
    struct itimerspec when = {0};
    int any = 0;
    for (int i = 0; i < 2; i++) {
        if (deadline_set[i] && (!any || earlier(&deadlines[i], &when.it_value))) {
            when.it_value = deadlines[i];
            any = 1;
        }
    }
    return timer_settime(watchdog, TIMER_ABSTIME, &when, NULL);
}

static int watchdog_set(int slot, uint32_t milliseconds) {
    if (!watchdog_made) {
        struct sigevent event = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGKILL};
        if (timer_create(CLOCK_MONOTONIC, &event, &watchdog) != 0) return -1;
        watchdog_made = 1;
    }
    struct timespec now;
    if (clock_gettime(CLOCK_MONOTONIC, &now) != 0) return -1;
    now.tv_sec += milliseconds / 1000;
    now.tv_nsec += (long)(milliseconds % 1000) * 1000000 + 1; // +1 ns: 0 would disarm it
    if (now.tv_nsec >= 1000000000L) {
        now.tv_sec += 1;
        now.tv_nsec -= 1000000000L;
    }
    deadlines[slot] = now;
    deadline_set[slot] = 1;
    return watchdog_apply();
}

static void watchdog_clear(int slot) {
    deadline_set[slot] = 0;
    if (watchdog_made) (void)watchdog_apply();
}

int pattern_tpm_watchdog_arm(uint32_t milliseconds) { return watchdog_set(0, milliseconds); }

void pattern_tpm_watchdog_disarm(void) { watchdog_clear(0); }

int pattern_tpm_hold_watchdog_arm(uint32_t milliseconds) { return watchdog_set(1, milliseconds); }

void pattern_tpm_hold_watchdog_disarm(void) { watchdog_clear(1); }

static void flush(pattern_tpm *tpm, ESYS_TR *handle) {
    if (*handle != ESYS_TR_NONE) {
        Esys_FlushContext(tpm->esys, *handle);
        *handle = ESYS_TR_NONE;
    }
}

static void forget(pattern_tpm *tpm, ESYS_TR *handle) {
    if (*handle != ESYS_TR_NONE) {
        Esys_TR_Close(tpm->esys, handle);
        *handle = ESYS_TR_NONE;
    }
}

uint32_t pattern_tpm_list_indexes(pattern_tpm *tpm, uint32_t first, uint32_t last,
                                  uint32_t *handles, size_t *count) {
    size_t found = 0;
    uint32_t next = first;
    TPMI_YES_NO more = TPM2_YES;
    while (more == TPM2_YES && next <= last && found < PATTERN_TPM_MAX_LISTED) {
        TPMS_CAPABILITY_DATA *data = NULL;
        TSS2_RC rc = Esys_GetCapability(tpm->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
                                        TPM2_CAP_HANDLES, next, TPM2_MAX_CAP_HANDLES, &more, &data);
        if (rc != TSS2_RC_SUCCESS) return result(tpm, rc);
        TPML_HANDLE *list = &data->data.handles;
        if (list->count == 0) more = TPM2_NO;
        for (UINT32 i = 0; i < list->count; i++) {
            uint32_t h = list->handle[i];
            if (h < first) continue;
            if (h > last || found >= PATTERN_TPM_MAX_LISTED) { more = TPM2_NO; break; }
            handles[found++] = h;
            next = h + 1;
        }
        Esys_Free(data);
    }
    *count = found;
    return result(tpm, TSS2_RC_SUCCESS);
}

// The storage root key template of the TCG provisioning guidance (ECC P-256), under the null hierarchy:
// its authorization is always empty, so a check works even when the owner hierarchy has a password (a
// key under the owner would then fail with TPM_RC_BAD_AUTH, which must never read as a wrong pattern).
// It only salts sessions and is flushed at once, so the null seed changing at each reset costs nothing.
static TSS2_RC create_salt_key(pattern_tpm *tpm, ESYS_TR *key) {
    TPM2B_SENSITIVE_CREATE sensitive = {0};
    TPM2B_PUBLIC template = {
        .publicArea = {
            .type = TPM2_ALG_ECC,
            .nameAlg = TPM2_ALG_SHA256,
            .objectAttributes = TPMA_OBJECT_FIXEDTPM | TPMA_OBJECT_FIXEDPARENT |
                                TPMA_OBJECT_SENSITIVEDATAORIGIN | TPMA_OBJECT_USERWITHAUTH |
                                TPMA_OBJECT_NODA | TPMA_OBJECT_RESTRICTED | TPMA_OBJECT_DECRYPT,
            .parameters.eccDetail = {
                .symmetric = {.algorithm = TPM2_ALG_AES, .keyBits.aes = 128, .mode.aes = TPM2_ALG_CFB},
                .scheme = {.scheme = TPM2_ALG_NULL},
                .curveID = TPM2_ECC_NIST_P256,
                .kdf = {.scheme = TPM2_ALG_NULL},
            },
            .unique.ecc = {.x = {.size = 32}, .y = {.size = 32}},
        },
    };
    TPM2B_DATA outside = {0};
    TPML_PCR_SELECTION pcrs = {0};
    return Esys_CreatePrimary(tpm->esys, ESYS_TR_RH_NULL, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE,
                              &sensitive, &template, &outside, &pcrs, key, NULL, NULL, NULL, NULL);
}

// A salted, unbound HMAC session (AES-128-CFB parameter encryption). The salt key is flushed at once:
// the session keeps what it derived from the salt.
static TSS2_RC start_salted_session(pattern_tpm *tpm, TPMA_SESSION attributes, ESYS_TR *session) {
    ESYS_TR key = ESYS_TR_NONE;
    TSS2_RC rc = create_salt_key(tpm, &key);
    if (rc != TSS2_RC_SUCCESS) return rc;
    TPMT_SYM_DEF aes = {.algorithm = TPM2_ALG_AES, .keyBits.aes = 128, .mode.aes = TPM2_ALG_CFB};
    rc = Esys_StartAuthSession(tpm->esys, key, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
                               NULL, TPM2_SE_HMAC, &aes, TPM2_ALG_SHA256, session);
    flush(tpm, &key);
    if (rc != TSS2_RC_SUCCESS) return rc;
    rc = Esys_TRSess_SetAttributes(tpm->esys, *session, attributes, 0xff);
    if (rc != TSS2_RC_SUCCESS) flush(tpm, session);
    return rc;
}

// PolicyCommandCode(NV_Write) + PolicyNvWritten(NO) on `session` (a trial or a policy session).
static TSS2_RC write_once_policy(pattern_tpm *tpm, ESYS_TR session) {
    TSS2_RC rc = Esys_PolicyCommandCode(tpm->esys, session, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
                                        TPM2_CC_NV_Write);
    if (rc != TSS2_RC_SUCCESS) return rc;
    return Esys_PolicyNvWritten(tpm->esys, session, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, TPM2_NO);
}

static TSS2_RC start_session(pattern_tpm *tpm, TPM2_SE type, ESYS_TR *session) {
    TPMT_SYM_DEF none = {.algorithm = TPM2_ALG_NULL};
    return Esys_StartAuthSession(tpm->esys, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE,
                                 ESYS_TR_NONE, NULL, type, &none, TPM2_ALG_SHA256, session);
}

// The write-once branch's digest, from a trial session.
static TSS2_RC write_once_digest(pattern_tpm *tpm, TPM2B_DIGEST *out) {
    ESYS_TR trial = ESYS_TR_NONE;
    TSS2_RC rc = start_session(tpm, TPM2_SE_TRIAL, &trial);
    if (rc != TSS2_RC_SUCCESS) return rc;
    TPM2B_DIGEST *digest = NULL;
    rc = write_once_policy(tpm, trial);
    if (rc == TSS2_RC_SUCCESS) {
        rc = Esys_PolicyGetDigest(tpm->esys, trial, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &digest);
    }
    if (rc == TSS2_RC_SUCCESS) *out = *digest;
    Esys_Free(digest);
    flush(tpm, &trial);
    return rc;
}

// A session of `type` that has run the whole write policy: the write-once branch, then
// PolicyOR(write-once, tag).
static TSS2_RC start_write_policy(pattern_tpm *tpm, TPM2_SE type, const TPM2B_DIGEST *branch,
                                  const uint8_t tag[PATTERN_TPM_AUTH_SIZE], ESYS_TR *session) {
    TSS2_RC rc = start_session(tpm, type, session);
    if (rc != TSS2_RC_SUCCESS) return rc;
    rc = write_once_policy(tpm, *session);
    if (rc == TSS2_RC_SUCCESS) {
        TPML_DIGEST branches = {.count = 2};
        branches.digests[0] = *branch;
        branches.digests[1].size = PATTERN_TPM_AUTH_SIZE;
        memcpy(branches.digests[1].buffer, tag, PATTERN_TPM_AUTH_SIZE);
        rc = Esys_PolicyOR(tpm->esys, *session, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &branches);
    }
    if (rc != TSS2_RC_SUCCESS) flush(tpm, session);
    return rc;
}

// The index at `handle` as an ESYS_TR, if its Name (read from the TPM) is `name`.
static TSS2_RC open_index(pattern_tpm *tpm, uint32_t handle, const uint8_t name[PATTERN_TPM_NAME_SIZE],
                          ESYS_TR *index) {
    TSS2_RC rc = Esys_TR_FromTPMPublic(tpm->esys, handle, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, index);
    if (rc != TSS2_RC_SUCCESS) return rc;
    TPM2B_NAME *actual = NULL;
    rc = Esys_TR_GetName(tpm->esys, *index, &actual);
    if (rc != TSS2_RC_SUCCESS) {
        forget(tpm, index);
        return rc;
    }
    int same = actual->size == PATTERN_TPM_NAME_SIZE && memcmp(actual->name, name, PATTERN_TPM_NAME_SIZE) == 0;
    Esys_Free(actual);
    if (!same) {
        forget(tpm, index);
        return PATTERN_TPM_RC_NAME_MISMATCH;
    }
    return TSS2_RC_SUCCESS;
}

static TSS2_RC read_name(pattern_tpm *tpm, uint32_t handle, uint8_t name[PATTERN_TPM_NAME_SIZE]) {
    ESYS_TR index = ESYS_TR_NONE;
    TSS2_RC rc = Esys_TR_FromTPMPublic(tpm->esys, handle, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &index);
    if (rc != TSS2_RC_SUCCESS) return rc;
    TPM2B_NAME *actual = NULL;
    rc = Esys_TR_GetName(tpm->esys, index, &actual);
    forget(tpm, &index);
    if (rc != TSS2_RC_SUCCESS) return rc;
    if (actual->size != PATTERN_TPM_NAME_SIZE) rc = PATTERN_TPM_RC_NAME_MISMATCH;
    else memcpy(name, actual->name, PATTERN_TPM_NAME_SIZE);
    Esys_Free(actual);
    return rc;
}

static TSS2_RC undefine(pattern_tpm *tpm, ESYS_TR *index) {
    TSS2_RC rc = Esys_NV_UndefineSpace(tpm->esys, ESYS_TR_RH_OWNER, *index, ESYS_TR_PASSWORD, ESYS_TR_NONE,
                                       ESYS_TR_NONE);
    if (rc == TSS2_RC_SUCCESS) *index = ESYS_TR_NONE; // ESAPI dropped it
    else forget(tpm, index);
    return rc;
}


uint32_t pattern_tpm_pin_write_policy(pattern_tpm *tpm, const uint8_t tag[PATTERN_TPM_AUTH_SIZE],
                                      uint8_t branch[PATTERN_TPM_AUTH_SIZE], uint8_t digest[PATTERN_TPM_AUTH_SIZE]) {
    ESYS_TR trial = ESYS_TR_NONE;
    TPM2B_DIGEST *whole = NULL;
    TPM2B_DIGEST once = {0};
    TSS2_RC rc = write_once_digest(tpm, &once);
    if (rc == TSS2_RC_SUCCESS) rc = start_write_policy(tpm, TPM2_SE_TRIAL, &once, tag, &trial);
    if (rc == TSS2_RC_SUCCESS) {
        rc = Esys_PolicyGetDigest(tpm->esys, trial, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &whole);
    }
    if (rc == TSS2_RC_SUCCESS && (once.size != PATTERN_TPM_AUTH_SIZE || whole->size != PATTERN_TPM_AUTH_SIZE)) {
        rc = PATTERN_TPM_RC_BAD_ARGUMENT;
    }
    if (rc == TSS2_RC_SUCCESS) {
        memcpy(branch, once.buffer, PATTERN_TPM_AUTH_SIZE);
        memcpy(digest, whole->buffer, PATTERN_TPM_AUTH_SIZE);
    }
    Esys_Free(whole);
    flush(tpm, &trial);
    return result(tpm, rc);
}

uint32_t pattern_tpm_define_pin_index(pattern_tpm *tpm, uint32_t handle,
                                      const uint8_t auth[PATTERN_TPM_AUTH_SIZE],
                                      const uint8_t tag[PATTERN_TPM_AUTH_SIZE],
                                      const uint8_t branch_digest[PATTERN_TPM_AUTH_SIZE],
                                      const uint8_t policy_digest[PATTERN_TPM_AUTH_SIZE], uint32_t pin_limit,
                                      uint8_t name[PATTERN_TPM_NAME_SIZE]) {
    ESYS_TR salted = ESYS_TR_NONE, policy = ESYS_TR_NONE, index = ESYS_TR_NONE;
    TPM2B_DIGEST branch = {.size = PATTERN_TPM_AUTH_SIZE};
    memcpy(branch.buffer, branch_digest, PATTERN_TPM_AUTH_SIZE);
    TSS2_RC rc;
    TPM2B_NV_PUBLIC info = {
        .nvPublic = {
            .nvIndex = handle,
            .nameAlg = TPM2_ALG_SHA256,
            .attributes = (TPM2_NT_PIN_FAIL << TPMA_NV_TPM2_NT_SHIFT) | TPMA_NV_POLICYWRITE |
                          TPMA_NV_AUTHREAD | TPMA_NV_OWNERREAD | TPMA_NV_NO_DA,
            .authPolicy = {.size = PATTERN_TPM_AUTH_SIZE},
            .dataSize = 8, // TPMS_NV_PIN_COUNTER_PARAMETERS
        },
    };
    memcpy(info.nvPublic.authPolicy.buffer, policy_digest, PATTERN_TPM_AUTH_SIZE);
    TPM2B_AUTH value = {.size = PATTERN_TPM_AUTH_SIZE};
    memcpy(value.buffer, auth, PATTERN_TPM_AUTH_SIZE);
    // DECRYPT: the first command parameter (the new auth value) is encrypted on the bus.
    rc = start_salted_session(tpm, TPMA_SESSION_DECRYPT | TPMA_SESSION_CONTINUESESSION, &salted);
    if (rc != TSS2_RC_SUCCESS) goto done;
    rc = Esys_NV_DefineSpace(tpm->esys, ESYS_TR_RH_OWNER, salted, ESYS_TR_NONE, ESYS_TR_NONE, &value, &info,
                             &index);
    explicit_bzero(&value, sizeof value);
    flush(tpm, &salted);
    if (rc != TSS2_RC_SUCCESS) goto done;

    // The only write the policy allows: pinCount 0, pinLimit (big-endian UINT32s).
    rc = start_write_policy(tpm, TPM2_SE_POLICY, &branch, tag, &policy);
    if (rc == TSS2_RC_SUCCESS) {
        TPM2B_MAX_NV_BUFFER data = {.size = 8,
                                    .buffer = {0, 0, 0, 0, (uint8_t)(pin_limit >> 24), (uint8_t)(pin_limit >> 16),
                                               (uint8_t)(pin_limit >> 8), (uint8_t)pin_limit}};
        rc = Esys_NV_Write(tpm->esys, index, index, policy, ESYS_TR_NONE, ESYS_TR_NONE, &data, 0);
        flush(tpm, &policy);
    }
    if (rc != TSS2_RC_SUCCESS) {
        undefine(tpm, &index);
        goto done;
    }
    forget(tpm, &index);
    // Read back from the TPM: the Name now carries TPMA_NV_WRITTEN.
    rc = read_name(tpm, handle, name);
done:
    explicit_bzero(&value, sizeof value);
    flush(tpm, &salted);
    flush(tpm, &policy);
    forget(tpm, &index);
    return result(tpm, rc);
}

// A session bound to the session-key index (auth value `secret`): its key is KDFa(secret, nonces), one
// HMAC in the TPM. Proved on the index itself (a one-byte read, no_da) before it is used anywhere else:
// a wrong secret must fail here, not on a user's index, where it would count as a wrong pattern.
static TSS2_RC start_bound_session(pattern_tpm *tpm, uint32_t key_handle, const uint8_t secret[PATTERN_TPM_AUTH_SIZE],
                                   TPMA_SESSION attributes, ESYS_TR *session) {
    ESYS_TR key = ESYS_TR_NONE;
    TSS2_RC rc = Esys_TR_FromTPMPublic(tpm->esys, key_handle, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &key);
    if (rc != TSS2_RC_SUCCESS) return rc;
    TPM2B_AUTH value = {.size = PATTERN_TPM_AUTH_SIZE};
    memcpy(value.buffer, secret, PATTERN_TPM_AUTH_SIZE);
    rc = Esys_TR_SetAuth(tpm->esys, key, &value);
    explicit_bzero(&value, sizeof value);
    TPMT_SYM_DEF aes = {.algorithm = TPM2_ALG_AES, .keyBits.aes = 128, .mode.aes = TPM2_ALG_CFB};
    if (rc == TSS2_RC_SUCCESS) {
        rc = Esys_StartAuthSession(tpm->esys, ESYS_TR_NONE, key, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, NULL,
                                   TPM2_SE_HMAC, &aes, TPM2_ALG_SHA256, session);
    }
    if (rc == TSS2_RC_SUCCESS) {
        rc = Esys_TRSess_SetAttributes(tpm->esys, *session, TPMA_SESSION_CONTINUESESSION, 0xff);
    }
    if (rc == TSS2_RC_SUCCESS) {
        TPM2B_MAX_NV_BUFFER *data = NULL;
        rc = Esys_NV_Read(tpm->esys, key, key, *session, ESYS_TR_NONE, ESYS_TR_NONE, 1, 0, &data);
        Esys_Free(data);
    }
    if (rc == TSS2_RC_SUCCESS) rc = Esys_TRSess_SetAttributes(tpm->esys, *session, attributes, 0xff);
    if (rc != TSS2_RC_SUCCESS) flush(tpm, session);
    forget(tpm, &key);
    return rc;
}

uint32_t pattern_tpm_check_pin(pattern_tpm *tpm, uint32_t handle, const uint8_t name[PATTERN_TPM_NAME_SIZE],
                               const uint8_t auth[PATTERN_TPM_AUTH_SIZE], uint32_t key_handle,
                               const uint8_t *key_secret) {
    ESYS_TR index = ESYS_TR_NONE, session = ESYS_TR_NONE;
    TSS2_RC rc = open_index(tpm, handle, name, &index);
    if (rc != TSS2_RC_SUCCESS) return result(tpm, rc);
    TPM2B_AUTH value = {.size = PATTERN_TPM_AUTH_SIZE};
    memcpy(value.buffer, auth, PATTERN_TPM_AUTH_SIZE);
    rc = Esys_TR_SetAuth(tpm->esys, index, &value);
    explicit_bzero(&value, sizeof value);
    if (rc != TSS2_RC_SUCCESS) goto done;
    // ENCRYPT: the response (the counter) comes back encrypted; the auth itself only enters the HMAC. No
    // CONTINUESESSION: after a right read the TPM ends the session itself (one flush fewer).
    TPMA_SESSION attributes = TPMA_SESSION_ENCRYPT;
    // The bound session, or (no session key, or it does not prove itself) a salted one.
    rc = key_secret == NULL ? PATTERN_TPM_RC_NO_SESSION
                            : start_bound_session(tpm, key_handle, key_secret, attributes, &session);
    if (rc != TSS2_RC_SUCCESS) rc = start_salted_session(tpm, attributes, &session);
    // Only the read itself can say "wrong": an authorization error here is about the session, not the guess.
    if (rc != TSS2_RC_SUCCESS) {
        rc = PATTERN_TPM_RC_NO_SESSION;
        goto done;
    }
    TPM2B_MAX_NV_BUFFER *data = NULL;
    uint32_t sent_before = pattern_tcti_commands(tpm->tcti);
    rc = Esys_NV_Read(tpm->esys, index, index, session, ESYS_TR_NONE, ESYS_TR_NONE, 8, 0, &data);
    Esys_Free(data);
    // The read went out and no TPM answer came back (a TCTI or ESAPI error, not the TPM's own result: the
    // deadline, a dead connection): the TPM may have judged the guess and counted it, so the caller must not
    // take its count back.
    if (pattern_tcti_commands(tpm->tcti) != sent_before && (rc & TSS2_RC_LAYER_MASK) != TSS2_TPM_RC_LAYER) {
        rc = PATTERN_TPM_RC_UNANSWERED;
    }
    if (rc == TSS2_RC_SUCCESS) forget(tpm, &session); // the TPM flushed it
done:
    flush(tpm, &session);
    forget(tpm, &index);
    return result(tpm, rc);
}

uint32_t pattern_tpm_define_session_key(pattern_tpm *tpm, uint32_t handle, const uint8_t secret[PATTERN_TPM_AUTH_SIZE]) {
    ESYS_TR old = ESYS_TR_NONE, salted = ESYS_TR_NONE, index = ESYS_TR_NONE;
    // An index already there (its secret lost, or another's): deleted first, with owner authorization.
    if (Esys_TR_FromTPMPublic(tpm->esys, handle, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &old) == TSS2_RC_SUCCESS) {
        TSS2_RC rc = undefine(tpm, &old);
        if (rc != TSS2_RC_SUCCESS) return result(tpm, rc);
    }
    TPM2B_NV_PUBLIC info = {
        .nvPublic = {
            .nvIndex = handle,
            .nameAlg = TPM2_ALG_SHA256,
            .attributes = (TPM2_NT_ORDINARY << TPMA_NV_TPM2_NT_SHIFT) | TPMA_NV_AUTHREAD | TPMA_NV_OWNERWRITE |
                          TPMA_NV_NO_DA,
            .dataSize = 1,
        },
    };
    TPM2B_AUTH value = {.size = PATTERN_TPM_AUTH_SIZE};
    memcpy(value.buffer, secret, PATTERN_TPM_AUTH_SIZE);
    // The secret crosses the bus once, here, encrypted (DECRYPT on a salted session).
    TSS2_RC rc = start_salted_session(tpm, TPMA_SESSION_DECRYPT | TPMA_SESSION_CONTINUESESSION, &salted);
    if (rc == TSS2_RC_SUCCESS) {
        rc = Esys_NV_DefineSpace(tpm->esys, ESYS_TR_RH_OWNER, salted, ESYS_TR_NONE, ESYS_TR_NONE, &value, &info,
                                 &index);
    }
    explicit_bzero(&value, sizeof value);
    flush(tpm, &salted);
    if (rc != TSS2_RC_SUCCESS) return result(tpm, rc);
    // Readable only once written; the byte itself means nothing.
    TPM2B_MAX_NV_BUFFER data = {.size = 1, .buffer = {0}};
    rc = Esys_NV_Write(tpm->esys, ESYS_TR_RH_OWNER, index, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, &data, 0);
    if (rc != TSS2_RC_SUCCESS) undefine(tpm, &index);
    forget(tpm, &index);
    return result(tpm, rc);
}

uint32_t pattern_tpm_prove_session_key(pattern_tpm *tpm, uint32_t handle, const uint8_t secret[PATTERN_TPM_AUTH_SIZE]) {
    ESYS_TR session = ESYS_TR_NONE;
    TSS2_RC rc = start_bound_session(tpm, handle, secret, TPMA_SESSION_CONTINUESESSION, &session);
    flush(tpm, &session);
    return result(tpm, rc);
}

uint32_t pattern_tpm_undefine_any(pattern_tpm *tpm, uint32_t handle) {
    ESYS_TR index = ESYS_TR_NONE;
    TSS2_RC rc = Esys_TR_FromTPMPublic(tpm->esys, handle, ESYS_TR_NONE, ESYS_TR_NONE, ESYS_TR_NONE, &index);
    if (rc != TSS2_RC_SUCCESS) return result(tpm, rc);
    return result(tpm, undefine(tpm, &index));
}

uint32_t pattern_tpm_read_counter(pattern_tpm *tpm, uint32_t handle, const uint8_t name[PATTERN_TPM_NAME_SIZE],
                                  uint32_t *pin_count, uint32_t *pin_limit) {
    ESYS_TR index = ESYS_TR_NONE;
    TSS2_RC rc = open_index(tpm, handle, name, &index);
    if (rc != TSS2_RC_SUCCESS) return result(tpm, rc);
    TPM2B_MAX_NV_BUFFER *data = NULL;
    rc = Esys_NV_Read(tpm->esys, ESYS_TR_RH_OWNER, index, ESYS_TR_PASSWORD, ESYS_TR_NONE, ESYS_TR_NONE, 8, 0,
                      &data);
    if (rc == TSS2_RC_SUCCESS) {
        if (data->size != 8) {
            rc = PATTERN_TPM_RC_BAD_ARGUMENT;
        } else {
            const uint8_t *b = data->buffer;
            *pin_count = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
            *pin_limit = (uint32_t)b[4] << 24 | (uint32_t)b[5] << 16 | (uint32_t)b[6] << 8 | b[7];
        }
    }
    Esys_Free(data);
    forget(tpm, &index);
    return result(tpm, rc);
}

uint32_t pattern_tpm_undefine(pattern_tpm *tpm, uint32_t handle, const uint8_t name[PATTERN_TPM_NAME_SIZE]) {
    ESYS_TR index = ESYS_TR_NONE;
    TSS2_RC rc = open_index(tpm, handle, name, &index);
    if (rc != TSS2_RC_SUCCESS) return result(tpm, rc);
    return result(tpm, undefine(tpm, &index));
}

uint32_t pattern_tpm_index_name(pattern_tpm *tpm, uint32_t handle, uint8_t name[PATTERN_TPM_NAME_SIZE]) {
    return result(tpm, read_name(tpm, handle, name));
}

const char *pattern_tpm_describe(uint32_t rc) {
    switch (rc) {
    case PATTERN_TPM_RC_BAD_ARGUMENT: return "pattern_tpm: unsupported TCTI or bad argument";
    case PATTERN_TPM_RC_NAME_MISMATCH: return "pattern_tpm: the index at the handle is not the recorded one";
    case PATTERN_TPM_RC_NO_MEMORY: return "pattern_tpm: out of memory";
    case PATTERN_TPM_RC_NO_SESSION: return "pattern_tpm: the salted session could not be started";
    case PATTERN_TPM_RC_BUSY: return "pattern_tpm: another process held the TPM past the wait";
    case PATTERN_TPM_RC_LOCK_UNUSABLE: return "pattern_tpm: the TPM conversation lock could not be taken";
    case PATTERN_TPM_RC_NO_LIBRARY: return "pattern_tpm: tpm2-tss (libtss2-esys.so.0) could not be loaded";
    case PATTERN_TPM_RC_UNANSWERED: return "pattern_tpm: the check went out and its answer never came back";
    case PATTERN_TPM_RC_TOO_SLOW: return "pattern_tpm: the TPM answered too slowly (the conversation's deadline passed)";
    // tpm2-tss's decoder when it is loaded (every TPM result comes from a conversation, which loaded it).
    default: return pattern_tss_loaded() ? Tss2_RC_Decode(rc) : "pattern_tpm: a TPM result";
    }
}
