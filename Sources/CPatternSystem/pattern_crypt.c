/*
 * pattern_crypt.c - libxcrypt's yescrypt calls (crypt_gensalt_rn, crypt_rn)
 * with their buffer rules, for both builds of the core.
 *
 * Why the references are weak: the module, patternctl and the tests link
 * libcrypt (Package.swift), and there these are plain calls. The setuid
 * helper does not: most of its runs (the check before every prompt, a TPM
 * record's guess, status) never hash, and mapping libcrypt was a sixth of
 * what such a run cost above /bin/true. Its symbols are then NULL, and the
 * first hash dlopens libcrypt by soname (a setuid process's loader ignores
 * LD_LIBRARY_PATH; the helper has cleared its environment by then anyway).
 */
#include <dlfcn.h>
#include <pthread.h>
#include "pattern_system.h"

#pragma weak crypt_rn
#pragma weak crypt_gensalt_rn

struct crypt_library {
    __typeof__(crypt_rn) *crypt;
    __typeof__(crypt_gensalt_rn) *gensalt;
};

static struct crypt_library loaded;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load_crypt(void) {
    /* RTLD_NODELETE: the functions are kept for the life of the process. */
    void *library = dlopen("libcrypt.so.1", RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (library == NULL) return;
    __typeof__(crypt_rn) *crypt = (__typeof__(crypt_rn) *)dlsym(library, "crypt_rn");
    __typeof__(crypt_gensalt_rn) *gensalt = (__typeof__(crypt_gensalt_rn) *)dlsym(library, "crypt_gensalt_rn");
    if (crypt != NULL && gensalt != NULL) {
        loaded.crypt = crypt;
        loaded.gensalt = gensalt;
    }
}

/* The linked functions, or the dlopened ones; 0 with both set, or -1 with errno ELIBACC. */
static int crypt_library(struct crypt_library *library) {
    if (crypt_rn != NULL && crypt_gensalt_rn != NULL) {
        library->crypt = crypt_rn;
        library->gensalt = crypt_gensalt_rn;
        return 0;
    }
    pthread_once(&load_once, load_crypt);
    if (loaded.crypt == NULL) {
        errno = ELIBACC;
        return -1;
    }
    *library = loaded;
    return 0;
}

int pattern_yescrypt_setting(unsigned long cost, char *out, int out_size) {
    /* cost 0 would silently mean "library default": refuse it here. */
    if (cost < 1 || cost > 11 || out == NULL || out_size < CRYPT_GENSALT_OUTPUT_SIZE) {
        errno = EINVAL;
        return -1;
    }
    struct crypt_library library;
    if (crypt_library(&library) != 0) return -1;
    errno = 0;
    if (library.gensalt("$y$", cost, NULL, 0, out, out_size) == NULL) {
        if (errno == 0) errno = EINVAL;
        return -1;
    }
    return 0;
}

int pattern_crypt(const char *phrase, const char *setting, char *out, size_t out_size) {
    if (phrase == NULL || setting == NULL || out == NULL || out_size == 0) {
        errno = EINVAL;
        return -1;
    }
    struct crypt_library library;
    if (crypt_library(&library) != 0) return -1;
    struct crypt_data *data = calloc(1, sizeof *data);
    if (data == NULL) return -1;
    int result = -1;
    errno = 0;
    const char *hashed = library.crypt(phrase, setting, data, (int)sizeof *data);
    /* crypt_rn returns NULL on failure; some failure modes write a "*" string. */
    if (hashed != NULL && hashed[0] != '*') {
        size_t length = strnlen(hashed, sizeof data->output);
        if (length < out_size) {
            memcpy(out, hashed, length);
            out[length] = '\0';
            result = 0;
        } else {
            errno = ERANGE;
        }
    } else if (errno == 0) {
        errno = EINVAL;
    }
    int saved = errno;
    explicit_bzero(data, sizeof *data);
    free(data);
    errno = saved;
    return result;
}

void pattern_crypt_preload(void) {
    struct crypt_library library;
    (void)crypt_library(&library);
}
