// dlopen of tpm2-tss for the TPM layer (see pattern_tss.h). By soname only: the helper has no RUNPATH,
// and in a setuid process the loader ignores LD_LIBRARY_PATH (and the helper clears its environment).
#define PATTERN_TSS_LOADER
#include "pattern_tss.h"

#include <dlfcn.h>
#include <stddef.h>

#include "pattern_tpm.h"

struct pattern_tss pattern_tss;

static int state; // 0 not tried, 1 loaded, -1 failed

int pattern_tss_load(void) {
    if (state != 0) return state == 1 ? 0 : -1;
    state = -1;
    // RTLD_NODELETE: ESAPI's and libcrypto's own state outlives any handle we drop.
    void *esys = dlopen("libtss2-esys.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    void *sys = dlopen("libtss2-sys.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    void *rc = dlopen("libtss2-rc.so.0", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (esys == NULL || sys == NULL || rc == NULL) return -1;
#define PATTERN_TSS_RESOLVE(library, name) \
    pattern_tss.name = (__typeof__(name) *)dlsym(library, #name); \
    if (pattern_tss.name == NULL) return -1;
    PATTERN_TSS_FUNCTIONS(PATTERN_TSS_RESOLVE)
#undef PATTERN_TSS_RESOLVE
    state = 1;
    return 0;
}

int pattern_tss_loaded(void) { return state == 1; }

int pattern_tpm_library_loaded(void) { return pattern_tss_loaded(); }
