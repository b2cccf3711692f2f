/*
 * libbsd's readpassphrase(3), for patternctl's prompts only (never linked into
 * the PAM module). Why not our own termios code: readpassphrase turns echo off
 * again after Ctrl-Z and fg (SIGTSTP/SIGCONT), restores the terminal before
 * re-raising SIGINT, SIGTERM, SIGHUP, SIGQUIT, and is the implementation
 * OpenBSD, sudo and ssh have kept for decades. Debian: libbsd-dev.
 */
#ifndef READPASSPHRASE_SHIM_H
#define READPASSPHRASE_SHIM_H
#include <bsd/readpassphrase.h>
#endif
