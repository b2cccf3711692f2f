/* liblightdm-gobject's headers for the LightDM greeter's C main (Sources/Surfaces/lightdm/main), found by
 * pkg-config (liblightdm-gobject-1: its include directories and GLib's). The main links liblightdm-gobject-1,
 * gobject-2.0 and glib-2.0 itself (liblightdm-gobject-1 alone leaves g_signal_connect_data unresolved). */
#include <glib.h>
#include <lightdm.h>
