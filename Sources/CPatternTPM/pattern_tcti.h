// The layer's own TCTI (pattern_tcti.c): internal to CPatternTPM.
#ifndef PATTERN_TCTI_H
#define PATTERN_TCTI_H

#include <stdint.h>
#include <tss2/tss2_tcti.h>

/// Opens "device:PATH" or "swtpm:path=PATH"; every wait of the connection, this open included, ends at
/// `deadline_ms` from now (then TSS2_TCTI_RC_IO_ERROR).
TSS2_RC pattern_tcti_open(const char *spec, uint32_t deadline_ms, TSS2_TCTI_CONTEXT **out);
void pattern_tcti_close(TSS2_TCTI_CONTEXT *tcti);
/// Commands sent so far.
uint32_t pattern_tcti_commands(TSS2_TCTI_CONTEXT *tcti);
/// Whether the connection failed because its deadline passed (a wait ran out, or a command was held back):
/// the TPM answered too slowly, as opposed to a TPM that is absent or a connection that broke.
int pattern_tcti_timed_out(TSS2_TCTI_CONTEXT *tcti);
/// Whether a TPM reached through `spec` sits behind the kernel's resource manager (/dev/tpmrm*), which
/// flushes what a process leaves loaded when it ends.
int pattern_tcti_has_resource_manager(const char *spec);

#endif
