/*
 * pam_shim.h - the whole contract between the C shim and the Swift module.
 *
 * Why a shim: PAM looks up pam_sm_* by C name, and libpam's logging and
 * prompting functions are variadic, which Swift cannot call. The shim holds
 * only trampolines and those calls; every decision is made in Swift.
 * Every symbol here carries the pam_pattern_ prefix; the version script
 * (pam_pattern.map) keeps all of them local to the module.
 */
#ifndef PAM_PATTERN_SHIM_H
#define PAM_PATTERN_SHIM_H

#define PAM_SM_AUTH
#include <security/pam_modules.h>
#include <security/pam_ext.h>
#include <security/_pam_types.h>
#include <stddef.h>
#include <syslog.h>
#include <time.h>

/* Implemented in Swift (PamPattern/Entry.swift). */
int pam_pattern_swift_authenticate(pam_handle_t *pamh, int flags, int argc, const char **argv);

/* Logs one already formatted line through pam_syslog (never a secret). */
void pam_pattern_log(pam_handle_t *pamh, int priority, const char *message);

/*
 * One conversation turn. style is PAM_PROMPT_ECHO_OFF, PAM_TEXT_INFO or
 * PAM_ERROR_MSG. On PAM_SUCCESS with a prompt style, *answer is a malloc'd
 * string the caller must zero and free (it may be NULL if the application
 * returned no answer). Calls the application's conversation function
 * directly so that a NULL conversation or NULL response array is reported
 * as PAM_CONV_ERR instead of dereferenced.
 */
int pam_pattern_converse(pam_handle_t *pamh, int style, const char *message, char **answer);

/* Reads a string item (PAM_USER, PAM_RHOST, ...); NULL when unset. */
const char *pam_pattern_get_item_string(pam_handle_t *pamh, int item);

/* pam_get_user with no prompt override. */
int pam_pattern_get_user(pam_handle_t *pamh, const char **user);

/* Sets PAM_AUTHTOK (forward_pass). */
int pam_pattern_set_authtok(pam_handle_t *pamh, const char *token);

/* Zeroes and frees a string returned by pam_pattern_converse. */
void pam_pattern_free_answer(char *answer);

/*
 * pam_set_data with a copy of `length` bytes (at most 4096) under `name`,
 * freed by libpam at pam_end or when replaced. Returns a PAM code.
 */
int pam_pattern_keep_bytes(pam_handle_t *pamh, const char *name, const unsigned char *bytes, size_t length);

/* The bytes kept under `name` (valid until they are replaced), NULL when none; *length is their count. */
const unsigned char *pam_pattern_kept_bytes(pam_handle_t *pamh, const char *name, size_t *length);

/* Advisory delay on failure, in microseconds (pam_fail_delay). */
void pam_pattern_fail_delay(pam_handle_t *pamh, unsigned int micros);

/* Binds the module's text domain "pam_pattern" to the installed locale directory. */
void pam_pattern_bind_text_domain(void);

/* The host program's name (glibc's program_invocation_short_name: "sudo", "authproto_pam"), which a PAM
   service name such as "common-auth" does not tell; may be empty, never NULL in glibc. */
const char *pam_pattern_program_name(void);

/* Formats a time as "2026-11-30 14:25 UTC" in the host's time zone. Returns 0, or -1. */
int pam_pattern_format_time(long long seconds, char *out, int out_size);

#endif
