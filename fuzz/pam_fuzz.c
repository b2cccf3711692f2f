/*
 * pam_fuzz.c - libFuzzer harness for a whole pam_sm_authenticate of the built module.
 *
 * Once per process: a private directory under /dev/shm with a root-only store (alice enrolled with
 * 1235789 at yescrypt cost 1), a state directory, and a PAM config directory with a dummy service.
 * The module (PAM_PATTERN_MODULE, default build/pam_pattern.so) is dlopen'ed and its
 * pam_sm_authenticate is called directly with:
 *   - fuzzed flags, user (enrolled, not enrolled, fuzzed bytes, or none so pam_get_user prompts),
 *     PAM_RHOST, and an optional pre-lock of alice;
 *   - fuzzed module arguments, with any store=/state= dropped and fixed ones appended last, so the
 *     module never touches anything outside the private directory;
 *   - a conversation whose every answer comes from the input: fuzzed bytes, PAM_CONV_ERR, success
 *     with a NULL response array, a NULL response string, a 1 MiB answer, the right pattern, ...
 * The throttle state is wiped before every run.
 *
 * Properties checked (a violation aborts, libFuzzer keeps the input):
 *   - PAM_SUCCESS only for alice, not pre-locked, after an answer that is 1235789 by Android's rules
 *     (phone or numpad keys);
 *   - PAM_IGNORE only with nullok or forward_pass in the arguments, or after an empty answer;
 *   - the return code is one a PAM module may return here;
 *   - at most one failure is recorded per call, none after a success;
 *   - every message the module shows is a NUL-terminated string of sane length.
 * Crashes, ASan reports (in the harness and libpam's use of what the module returns) and traps
 * (SIGILL from a Swift precondition) are caught by libFuzzer itself.
 *
 * Input layout (missing bytes read as 0):
 *   byte 0  flags: bit0 PAM_SILENT, bit1 PAM_DISALLOW_NULL_AUTHTOK, bits2-3 user (alice, bob,
 *           fuzzed string, none), bit4 set PAM_RHOST (bit5: "localhost", else a remote name),
 *           bit6 pre-lock alice, bit7 set PAM_TTY
 *   byte 1  number of module arguments (low 4 bits: 0..15)
 *   then    that many length-prefixed strings (1 length byte), then the user string if fuzzed,
 *   then    the conversation script: per message one action byte (+ a string for some actions).
 */
#define _GNU_SOURCE
#include <crypt.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <security/pam_appl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef int (*pam_sm_fn)(pam_handle_t *, int, int, const char **);

static pam_sm_fn module_authenticate;
static pam_sm_fn module_setcred;
static char base_dir[PATH_MAX];
static char store_arg[PATH_MAX + 16];
static char state_arg[PATH_MAX + 16];
static char state_dir[PATH_MAX];
static char alice_state[PATH_MAX];
static char conf_dir[PATH_MAX];

#define SERVICE "pattern-fuzz"
#define RIGHT "1235789"
#define LONG_ANSWER (1 << 20)
#define MAX_ARGS 15

static void remove_tree(void);

/* abort() skips atexit: remove the private directory first. */
static void die(const char *what) {
    fprintf(stderr, "pam_fuzz: %s: %s\n", what, strerror(errno));
    if (base_dir[0]) remove_tree();
    abort();
}

static void broken(const char *what) {
    fprintf(stderr, "pam_fuzz: property broken: %s\n", what);
    if (base_dir[0]) remove_tree();
    abort();
}

/* --- the input, consumed front to back ------------------------------------------------------- */

struct input {
    const uint8_t *data;
    size_t size, offset;
};

static uint8_t take_byte(struct input *in) {
    return in->offset < in->size ? in->data[in->offset++] : 0;
}

/* A length-prefixed string as a fresh NUL-terminated copy (a NUL inside ends it, as in C). */
static char *take_string(struct input *in) {
    size_t length = take_byte(in);
    if (length > in->size - in->offset) length = in->size - in->offset;
    char *copy = malloc(length + 1);
    if (copy == NULL) die("malloc");
    memcpy(copy, in->data + in->offset, length);
    copy[length] = 0;
    in->offset += length;
    return copy;
}

/* --- what the conversation saw ------------------------------------------------------------------ */

struct session {
    struct input *in;
    int right_answer_given;  /* an echo-off answer that is 1235789 by Android's rules */
    int empty_answer_given;  /* an answer of zero bytes */
    int prompts;
};

/* Canonical dots of typed keys by Android's rules (a line over an unvisited dot picks it up), or
   -1 if the input is not a pattern. `numpad`: 7 8 9 is the top row. */
static int canonical(const char *typed, int numpad, char *out) {
    static const int numpad_dot[10] = {0, 7, 8, 9, 4, 5, 6, 1, 2, 3};
    int visited[10] = {0}, count = 0, previous = 0;
    size_t length = strlen(typed);
    if (length > 64) return -1;
    for (size_t i = 0; i < length; i++) {
        char c = typed[i];
        if (c == ' ' || c == '-') continue;
        if (c < '1' || c > '9') return -1;
        int dot = numpad ? numpad_dot[c - '0'] : c - '0';
        if (previous) {
            int r = (previous - 1) / 3 + (dot - 1) / 3, k = (previous - 1) % 3 + (dot - 1) % 3;
            if (r % 2 == 0 && k % 2 == 0 && previous != dot) {
                int middle = (r / 2) * 3 + k / 2 + 1;
                if (!visited[middle]) { visited[middle] = 1; out[count++] = (char)('0' + middle); }
            }
        }
        if (visited[dot]) return -1;
        visited[dot] = 1;
        out[count++] = (char)('0' + dot);
        previous = dot;
    }
    out[count] = 0;
    return count;
}

static int is_right(const char *answer) {
    char dots[16];
    return (canonical(answer, 0, dots) > 0 && strcmp(dots, RIGHT) == 0)
        || (canonical(answer, 1, dots) > 0 && strcmp(dots, RIGHT) == 0);
}

static char *answer_for(struct session *s, int style, uint8_t action, int *code) {
    char *answer = NULL;
    *code = PAM_SUCCESS;
    switch (action % 10) {
    case 0: case 1: case 2:  /* fuzzed bytes (the common case) */
        answer = take_string(s->in);
        break;
    case 3:
        answer = strdup(RIGHT);
        break;
    case 4: {  /* a 1 MiB answer of one fuzzed byte */
        uint8_t fill = take_byte(s->in);
        answer = malloc(LONG_ANSWER + 1);
        if (answer == NULL) die("malloc");
        memset(answer, fill ? fill : '1', LONG_ANSWER);
        answer[LONG_ANSWER] = 0;
        break;
    }
    case 5: {  /* the view limit's edges: 64, 65 or 66 digits/separators */
        size_t length = 64 + take_byte(s->in) % 3;
        answer = malloc(length + 1);
        if (answer == NULL) die("malloc");
        memset(answer, '-', length);
        memcpy(answer, "1-3-7-9", 7);
        answer[length] = 0;
        break;
    }
    case 6: answer = strdup(""); break;
    default: break;  /* 7, 8, 9: see converse */
    }
    if (answer == NULL && action % 10 <= 6) die("strdup");
    if (answer != NULL && (style == PAM_PROMPT_ECHO_OFF || style == PAM_PROMPT_ECHO_ON)) {
        if (style == PAM_PROMPT_ECHO_OFF && is_right(answer)) s->right_answer_given = 1;
        if (answer[0] == 0) s->empty_answer_given = 1;
    }
    return answer;
}

static int converse(int count, const struct pam_message **messages, struct pam_response **responses,
                    void *data) {
    struct session *s = data;
    if (count <= 0 || count > PAM_MAX_NUM_MSG || messages == NULL || responses == NULL) broken("bad conv call");
    struct pam_response *reply = calloc((size_t)count, sizeof *reply);
    if (reply == NULL) die("calloc");
    for (int i = 0; i < count; i++) {
        const struct pam_message *m = messages[i];
        if (m == NULL || m->msg == NULL) broken("NULL message");
        if (strnlen(m->msg, 65536) >= 65536) broken("message longer than 64 KiB");
        if (m->msg_style == PAM_PROMPT_ECHO_OFF || m->msg_style == PAM_PROMPT_ECHO_ON) s->prompts++;
        uint8_t action = take_byte(s->in);
        switch (action % 10) {
        case 7:  /* the application fails */
            for (int j = 0; j < i; j++) free(reply[j].resp);
            free(reply);
            return PAM_CONV_ERR;
        case 8:  /* "success" without a response array */
            for (int j = 0; j < i; j++) free(reply[j].resp);
            free(reply);
            *responses = NULL;
            return PAM_SUCCESS;
        case 9:  /* a response with a NULL string */
            reply[i].resp = NULL;
            break;
        default: {
            int code;
            reply[i].resp = answer_for(s, m->msg_style, action, &code);
        }
        }
    }
    *responses = reply;
    return PAM_SUCCESS;
}

/* --- interposed logging: no syslog flood, and every format is really formatted ---------------- */

void pam_vsyslog(const pam_handle_t *pamh, int priority, const char *fmt, va_list args) {
    (void)pamh; (void)priority;
    char line[4096];
    vsnprintf(line, sizeof line, fmt, args);
}

void pam_syslog(const pam_handle_t *pamh, int priority, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    pam_vsyslog(pamh, priority, fmt, args);
    va_end(args);
}

/* --- set-up ----------------------------------------------------------------------------------- */

static void write_file(const char *path, const char *content, mode_t mode) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
    if (fd < 0) die(path);
    size_t length = strlen(content);
    if (write(fd, content, length) != (ssize_t)length) die("write");
    if (fchmod(fd, mode) != 0) die("fchmod");
    close(fd);
}

static void remove_tree(void) {
    char path[PATH_MAX * 2];
    const char *dirs[] = {state_dir, NULL, NULL};
    char store_dir[PATH_MAX];
    snprintf(store_dir, sizeof store_dir, "%s/store", base_dir);
    dirs[1] = store_dir;
    for (int i = 0; i < 2; i++) {
        DIR *d = opendir(dirs[i]);
        if (d == NULL) continue;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            snprintf(path, sizeof path, "%s/%s", dirs[i], e->d_name);
            unlink(path);
        }
        closedir(d);
        rmdir(dirs[i]);
    }
    snprintf(path, sizeof path, "%s/%s", conf_dir, SERVICE);
    unlink(path);
    rmdir(conf_dir);
    rmdir(base_dir);
}

/* Removes every state file: each run starts with no failures. */
static void reset_state(void) {
    DIR *d = opendir(state_dir);
    if (d == NULL) return;
    struct dirent *e;
    char path[PATH_MAX * 2];
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' && (e->d_name[1] == 0 || (e->d_name[1] == '.' && e->d_name[2] == 0))) continue;
        snprintf(path, sizeof path, "%s/%s", state_dir, e->d_name);
        unlink(path);
    }
    closedir(d);
}

/* Failures recorded for alice (0 if no file). */
static long alice_failures(void) {
    char buffer[64] = {0};
    int fd = open(alice_state, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (n <= 0) return 0;
    return strtol(buffer, NULL, 10);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc; (void)argv;
    if (geteuid() != 0) {
        fprintf(stderr, "pam_fuzz: needs root (the module refuses a store not owned by root)\n");
        exit(2);
    }
    const char *module = getenv("PAM_PATTERN_MODULE");
    if (module == NULL) module = "build/pam_pattern.so";
    void *handle = dlopen(module, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        fprintf(stderr, "pam_fuzz: dlopen %s: %s\n", module, dlerror());
        exit(2);
    }
    module_authenticate = (pam_sm_fn)dlsym(handle, "pam_sm_authenticate");
    module_setcred = (pam_sm_fn)dlsym(handle, "pam_sm_setcred");
    if (module_authenticate == NULL || module_setcred == NULL) {
        fprintf(stderr, "pam_fuzz: %s has no pam_sm_authenticate/pam_sm_setcred\n", module);
        exit(2);
    }

    snprintf(base_dir, sizeof base_dir, "/dev/shm/pam-fuzz.XXXXXX");
    if (mkdtemp(base_dir) == NULL) {
        snprintf(base_dir, sizeof base_dir, "/tmp/pam-fuzz.XXXXXX");  /* no /dev/shm (some containers) */
        if (mkdtemp(base_dir) == NULL) die("mkdtemp");
    }
    atexit(remove_tree);
    char store_dir[PATH_MAX], store[PATH_MAX * 2], service[PATH_MAX * 2];
    snprintf(store_dir, sizeof store_dir, "%s/store", base_dir);
    snprintf(state_dir, sizeof state_dir, "%s/state", base_dir);
    snprintf(conf_dir, sizeof conf_dir, "%s/pam.d", base_dir);
    if (mkdir(store_dir, 0700) != 0 || mkdir(state_dir, 0700) != 0 || mkdir(conf_dir, 0700) != 0) die("mkdir");
    snprintf(store, sizeof store, "%s/patterns", store_dir);
    snprintf(alice_state, sizeof alice_state, "%s/616c696365", state_dir);  /* hex of "alice" */
    snprintf(store_arg, sizeof store_arg, "store=%s", store);
    snprintf(state_arg, sizeof state_arg, "state=%s", state_dir);

    /* alice: 1235789 at cost 1, hashed by libxcrypt itself. */
    char setting[CRYPT_GENSALT_OUTPUT_SIZE];
    struct crypt_data data;
    memset(&data, 0, sizeof data);
    if (crypt_gensalt_rn("$y$", 1, NULL, 0, setting, sizeof setting) == NULL) die("crypt_gensalt_rn");
    const char *hash = crypt_rn(RIGHT, setting, &data, sizeof data);
    if (hash == NULL || hash[0] == '*') die("crypt_rn");
    char line[512];
    snprintf(line, sizeof line, "alice:%s:1764460000\n", hash);
    write_file(store, line, 0600);
    snprintf(service, sizeof service, "%s/%s", conf_dir, SERVICE);
    write_file(service, "auth required pam_deny.so\n", 0644);
    return 0;
}

/* --- one run ---------------------------------------------------------------------------------- */

static int contains_word(char **args, int count, const char *word) {
    for (int i = 0; i < count; i++) if (strcmp(args[i], word) == 0) return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct input in = {data, size, 0};
    uint8_t flags_byte = take_byte(&in);
    int flags = ((flags_byte & 1) ? PAM_SILENT : 0) | ((flags_byte & 2) ? PAM_DISALLOW_NULL_AUTHTOK : 0);
    int user_choice = (flags_byte >> 2) & 3;
    int prelock = (flags_byte & 0x40) != 0;

    /* Arguments: fuzzed ones (store=/state= dropped), then the fixed paths, last so they win. */
    int fuzzed_count = take_byte(&in) & MAX_ARGS;
    char *args[MAX_ARGS + 2];
    const char *argv[MAX_ARGS + 2];
    int argc = 0;
    for (int i = 0; i < fuzzed_count; i++) {
        char *arg = take_string(&in);
        if (strstr(arg, "store") != NULL || strstr(arg, "state") != NULL) { free(arg); continue; }
        args[argc++] = arg;
    }
    int nullok_or_forward = contains_word(args, argc, "nullok") || contains_word(args, argc, "forward_pass");
    args[argc] = store_arg;
    args[argc + 1] = state_arg;
    for (int i = 0; i < argc + 2; i++) argv[i] = args[i];

    char *fuzzed_user = user_choice == 2 ? take_string(&in) : NULL;
    const char *user = user_choice == 0 ? "alice" : user_choice == 1 ? "bob" : fuzzed_user;

    reset_state();
    if (prelock) {
        /* Disabled for any lock_after (<= 100000), or a fresh wait when lock_after=0: never allowed. */
        char record[64];
        snprintf(record, sizeof record, "%010d %019lld\n", 100000, (long long)time(NULL) + 1000);
        write_file(alice_state, record, 0600);
    }

    struct session session = {&in, 0, 0, 0};
    struct pam_conv conv = {converse, &session};
    pam_handle_t *pamh = NULL;
    if (pam_start_confdir(SERVICE, user, &conv, conf_dir, &pamh) != PAM_SUCCESS) die("pam_start_confdir");
    if (flags_byte & 0x10) pam_set_item(pamh, PAM_RHOST, (flags_byte & 0x20) ? "localhost" : "attacker.example");
    if (flags_byte & 0x80) pam_set_item(pamh, PAM_TTY, "/dev/pts/9");

    int rc = module_authenticate(pamh, flags, argc + 2, argv);

    const void *final_user = NULL;
    pam_get_item(pamh, PAM_USER, &final_user);
    long failures = prelock ? -1 : alice_failures();
    switch (rc) {
    case PAM_SUCCESS:
        if (final_user == NULL || strcmp(final_user, "alice") != 0) broken("success for a user other than alice");
        if (!session.right_answer_given) broken("success without the right pattern");
        if (prelock) broken("success while locked");
        if (failures != 0) broken("failures left after a success");
        break;
    case PAM_IGNORE:
        if (!nullok_or_forward && !session.empty_answer_given) broken("PAM_IGNORE without nullok/forward_pass/empty answer");
        break;
    case PAM_AUTH_ERR: case PAM_USER_UNKNOWN: case PAM_AUTHINFO_UNAVAIL: case PAM_CONV_ERR:
    case PAM_INCOMPLETE: case PAM_BUF_ERR: case PAM_SYSTEM_ERR: case PAM_ABORT:
        break;
    default:
        fprintf(stderr, "pam_fuzz: return code %d\n", rc);
        broken("unexpected return code");
    }
    if (failures > 1) broken("more than one failure recorded by one call");
    if (module_setcred(pamh, 0, argc + 2, argv) != PAM_SUCCESS) broken("pam_sm_setcred failed");

    pam_end(pamh, rc);
    for (int i = 0; i < argc; i++) free(args[i]);
    free(fuzzed_user);
    return 0;
}
