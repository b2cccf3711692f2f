/*
 * pattern_helper.h - what pam_pattern_helper (setuid root) needs from C.
 *
 * Why C: prctl, clearenv, sigaction, close_range, syslog and getpwuid_r are
 * variadic, macros or structs Embedded Swift cannot use well, and the process
 * must be made safe before any Swift code reads input. Every symbol carries
 * the pattern_helper_ prefix. Policy stays in Swift.
 */
#ifndef PATTERN_HELPER_H
#define PATTERN_HELPER_H

#include <stddef.h>
#include <sys/types.h>
#include <syslog.h>

/*
 * Makes the process safe to run for an untrusted caller, before anything
 * else: not dumpable (no core, no ptrace by the caller); fds 0-2 open (on
 * /dev/null when the caller closed them) and every other fd closed; an
 * empty environment; job-control signals (SIGTSTP, SIGTTIN, SIGTTOU) and
 * SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGXFSZ ignored, every signal unblocked;
 * soft RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_AS, RLIMIT_DATA and RLIMIT_CPU
 * raised to their hard limits; umask 077.
 * Returns 0, or -1 if a step failed (the caller must then refuse to work).
 */
int pattern_helper_harden(void);

/* Real, effective and saved gid 0 and no supplementary groups (checked after),
 * so every file the helper creates is root:root, never the caller's group.
 * Returns 0, or -1 (the caller must then refuse to work). */
int pattern_helper_root_group(void);

/* 1 when stdin is a terminal. */
int pattern_helper_stdin_is_tty(void);

/* The real uid (getuid). */
uid_t pattern_helper_real_uid(void);

/* One line to syslog, facility LOG_AUTHPRIV, ident "pam_pattern_helper". */
void pattern_helper_log(int priority, const char *message);

/* Runs PAM service "patternctl" (auth, then account) for user, answering its
 * one echo-off prompt with password. Returns the PAM code (PAM_SUCCESS = 0). */
int pattern_helper_check_password(const char *user, const char *password);

/* Implemented in Swift (PatternHelper/HelperMain.swift): serves one call
 * after pattern_helper_harden; returns the exit status (HelperExit). */
int pattern_helper_serve(int argc, const char *const *argv);

#endif
