// tpm2-tss, loaded with dlopen on the first TPM conversation (pattern_tss.c): a helper that checks a
// yescrypt record never maps libtss2 or the libcrypto it pulls in (4.7 MB), as systemd's tpm2-util.c does.
// Included by pattern_tpm.c after the tss2 headers: each name below then calls through the loaded pointer.
#ifndef PATTERN_TSS_H
#define PATTERN_TSS_H

#include <tss2/tss2_esys.h>
#include <tss2/tss2_rc.h>
#include <tss2/tss2_sys.h>

// library (esys, sys, rc), name
#define PATTERN_TSS_FUNCTIONS(X) \
    X(esys, Esys_Initialize) \
    X(esys, Esys_Finalize) \
    X(esys, Esys_GetSysContext) \
    X(esys, Esys_Free) \
    X(esys, Esys_GetCapability) \
    X(esys, Esys_FlushContext) \
    X(esys, Esys_TR_Close) \
    X(esys, Esys_TR_FromTPMPublic) \
    X(esys, Esys_TR_GetName) \
    X(esys, Esys_TR_SetAuth) \
    X(esys, Esys_TRSess_SetAttributes) \
    X(esys, Esys_CreatePrimary) \
    X(esys, Esys_StartAuthSession) \
    X(esys, Esys_PolicyCommandCode) \
    X(esys, Esys_PolicyNvWritten) \
    X(esys, Esys_PolicyOR) \
    X(esys, Esys_PolicyGetDigest) \
    X(esys, Esys_NV_DefineSpace) \
    X(esys, Esys_NV_UndefineSpace) \
    X(esys, Esys_NV_Write) \
    X(esys, Esys_NV_Read) \
    X(sys, Tss2_Sys_GetCapability) \
    X(sys, Tss2_Sys_FlushContext) \
    X(rc, Tss2_RC_Decode)

struct pattern_tss {
#define PATTERN_TSS_POINTER(library, name) __typeof__(name) *name;
    PATTERN_TSS_FUNCTIONS(PATTERN_TSS_POINTER)
#undef PATTERN_TSS_POINTER
};

extern struct pattern_tss pattern_tss;

/// Loads the libraries once; 0 when every function is there (later calls answer the first result).
int pattern_tss_load(void);
/// Whether anything of tpm2-tss is loaded (for the tests of a hash check: nothing).
int pattern_tss_loaded(void);

#ifndef PATTERN_TSS_LOADER
#define Esys_Initialize pattern_tss.Esys_Initialize
#define Esys_Finalize pattern_tss.Esys_Finalize
#define Esys_GetSysContext pattern_tss.Esys_GetSysContext
#define Esys_Free pattern_tss.Esys_Free
#define Esys_GetCapability pattern_tss.Esys_GetCapability
#define Esys_FlushContext pattern_tss.Esys_FlushContext
#define Esys_TR_Close pattern_tss.Esys_TR_Close
#define Esys_TR_FromTPMPublic pattern_tss.Esys_TR_FromTPMPublic
#define Esys_TR_GetName pattern_tss.Esys_TR_GetName
#define Esys_TR_SetAuth pattern_tss.Esys_TR_SetAuth
#define Esys_TRSess_SetAttributes pattern_tss.Esys_TRSess_SetAttributes
#define Esys_CreatePrimary pattern_tss.Esys_CreatePrimary
#define Esys_StartAuthSession pattern_tss.Esys_StartAuthSession
#define Esys_PolicyCommandCode pattern_tss.Esys_PolicyCommandCode
#define Esys_PolicyNvWritten pattern_tss.Esys_PolicyNvWritten
#define Esys_PolicyOR pattern_tss.Esys_PolicyOR
#define Esys_PolicyGetDigest pattern_tss.Esys_PolicyGetDigest
#define Esys_NV_DefineSpace pattern_tss.Esys_NV_DefineSpace
#define Esys_NV_UndefineSpace pattern_tss.Esys_NV_UndefineSpace
#define Esys_NV_Write pattern_tss.Esys_NV_Write
#define Esys_NV_Read pattern_tss.Esys_NV_Read
#define Tss2_Sys_GetCapability pattern_tss.Tss2_Sys_GetCapability
#define Tss2_Sys_FlushContext pattern_tss.Tss2_Sys_FlushContext
#define Tss2_RC_Decode pattern_tss.Tss2_RC_Decode
#endif

#endif
