/*
 * heap_scan: authenticates once through the real libpam with a typed answer, wipes its own copy of the
 * answer, calls pam_end, then searches its own heap ([heap] and anonymous read-write mappings of
 * /proc/self/maps) for the canonical pattern: as raw dot bytes (1..9) and as ASCII digits.
 * The answer should be typed differently from the canonical form (e.g. "1379" for 1235789), so a hit is
 * what the module made, not the harness's input.
 *
 * usage: heap_scan CONFDIR SERVICE USER ANSWER CANONICAL_DIGITS
 * Prints "rc=<code>" and one "found: <kind> at <address>" line per hit; exit 0 when nothing was found,
 * 1 when something was, 2 on usage or setup errors.
 */
#include <security/pam_appl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char answer[128];

static int converse(int count, const struct pam_message **messages, struct pam_response **responses, void *data) {
    (void)data;
    struct pam_response *reply = calloc((size_t)count, sizeof *reply);
    if (reply == NULL) return PAM_BUF_ERR;
    for (int i = 0; i < count; i++) {
        if (messages[i]->msg_style == PAM_PROMPT_ECHO_OFF || messages[i]->msg_style == PAM_PROMPT_ECHO_ON) {
            reply[i].resp = strdup(answer);
        }
    }
    *responses = reply;
    return PAM_SUCCESS;
}

static void no_delay(int status, unsigned int usec, void *data) { (void)status; (void)usec; (void)data; }

static int scan(const unsigned char *needle, size_t length, const char *kind) {
    FILE *maps = fopen("/proc/self/maps", "r");
    if (maps == NULL) return -1;
    /* Unbuffered: a stdio buffer would sit in the heap being searched, holding the maps' own text, whose hex
     * addresses contain digit runs like the needle (a false hit, seen once in a full run). `line` is on the stack. */
    setvbuf(maps, NULL, _IONBF, 0);
    char line[512];
    int hits = 0;
    while (fgets(line, sizeof line, maps) != NULL) {
        unsigned long start, end;
        char perms[5] = {0};
        char path[256] = {0};
        if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %255s", &start, &end, perms, path) < 3) continue;
        if (perms[0] != 'r' || perms[1] != 'w') continue;
        if (path[0] != '\0' && strcmp(path, "[heap]") != 0) continue;  /* [heap] and anonymous only */
        const unsigned char *base = (const unsigned char *)start;
        for (unsigned long offset = 0; offset + length <= end - start; offset++) {
            if (base[offset] == needle[0] && memcmp(base + offset, needle, length) == 0) {
                /* Not the needle itself (on this program's stack or in its data, but be safe). */
                if (base + offset == needle) continue;
                printf("found: %s at %p\n", kind, (const void *)(base + offset));
                hits++;
            }
        }
    }
    fclose(maps);
    return hits;
}

int main(int argc, char **argv) {
    if (argc != 6 || strlen(argv[4]) >= sizeof answer || strlen(argv[5]) > 9) {
        fprintf(stderr, "usage: heap_scan CONFDIR SERVICE USER ANSWER CANONICAL_DIGITS\n");
        return 2;
    }
    strcpy(answer, argv[4]);
    setvbuf(stdout, NULL, _IONBF, 0);  /* the "found" lines print addresses: not into a heap buffer */
    /* The needles live on the stack, not in the heap being searched. */
    unsigned char digits[10] = {0}, dots[10] = {0};
    size_t length = strlen(argv[5]);
    for (size_t i = 0; i < length; i++) {
        digits[i] = (unsigned char)argv[5][i];
        dots[i] = (unsigned char)(argv[5][i] - '0');
    }
    /* The argument strings are the harness's own copies: wiped like the answer. */
    memset(argv[4], 0, strlen(argv[4]));
    memset(argv[5], 0, length);

    struct pam_conv conv = {converse, NULL};
    pam_handle_t *pamh = NULL;
    if (pam_start_confdir(argv[2], argv[3], &conv, argv[1], &pamh) != PAM_SUCCESS) return 2;
    pam_set_item(pamh, PAM_FAIL_DELAY, (const void *)no_delay);
    int rc = pam_authenticate(pamh, 0);
    pam_end(pamh, rc);
    memset(answer, 0, sizeof answer);
    printf("rc=%d\n", rc);
    int hits = scan(dots, length, "canonical dots as bytes");
    int more = scan(digits, length, "canonical dots as ASCII digits");
    if (hits < 0 || more < 0) return 2;
    return hits + more == 0 ? 0 : 1;
}
