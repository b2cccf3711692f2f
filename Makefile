# pam_pattern - see README.md (docs/reference.md for everything else). `make demo` tries it, `make test` proves it.
SHELL        := /bin/bash
BUILD        := build
# The drawing surfaces, a folder each with the same parts (ARCHITECTURE.md, "The drawing surfaces").
SURFACES     := Sources/Surfaces
COMMA        := ,
SPACE        := $(subst ,, )
# Debian 13's root for Tests/PackageTests/test_debian13.py (debootstrap, cached; Tests/support/debian13.py names it too).
DEBIAN13_CACHE := $(BUILD)/debian13
# Debian unstable's root for Tests/DebianSourceTests and `make reproducible` (Tests/support/sid.py), cached the same way.
SID_CACHE    := $(BUILD)/sid
SCRATCH      ?= .build
PYTHON       ?= /usr/bin/python3
MULTIARCH    := $(shell gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
PREFIX       ?= /usr/local
DESTDIR      ?=
# PAM looks for modules in the multiarch security directory, not under PREFIX. /usr/lib's spelling: Debian 13
# keeps its modules there (its lintian refuses /lib as an aliased location), and on Debian 12's merged /usr
# /lib/<multiarch>/security is the same directory.
PAMDIR       ?= /usr/lib/$(MULTIARCH)/security
# patternctl is for every person (their own pattern) as well as root: bin, as passwd and chsh.
BINDIR       ?= $(PREFIX)/bin
MANDIR       ?= $(PREFIX)/share/man
# The setuid helper's path is compiled into the module (HelperRequest.installedPath), so it is not under PREFIX.
HELPER       := /usr/sbin/pam_pattern_helper
# The store's and the state's directories are compiled in too (PatternStore.defaultPath,
# ThrottleStore.defaultDirectory); made root-only on install so a first pattern finds them.
STOREDIR     := /etc/security/pam_pattern
STATEDIR     := /var/lib/pam_pattern
# xsecurelock wants its auth module named by an absolute path (XSECURELOCK_AUTH); the man page and docs/reference.md name this one.
PAD          := /usr/libexec/pam-pattern/auth_pattern
# The window of `patternctl set --draw`, whose path is compiled into patternctl (DrawWindow.installedPath).
DRAW         := /usr/libexec/pam-pattern/pattern-draw
# The Wayland lock screen's PAM child, whose path is compiled into pattern-lock (LockMain.swift).
LOCK_PAM     := /usr/libexec/pam-pattern/pattern-lock-pam
# The LightDM greeter, where LightDM's own greeters are, and the directory LightDM reads greeters' entries from.
GREETER      := /usr/sbin/pam-pattern-greeter
XGREETERSDIR := /usr/share/xgreeters
# Where desktop menus find the entry that starts it.
APPLICATIONSDIR ?= $(PREFIX)/share/applications
PAMCONFIGDIR ?= /usr/share/pam-configs
# bash-completion loads completions on demand from here (also under /usr/local/share).
BASHCOMPDIR  ?= $(PREFIX)/share/bash-completion/completions
SECURITYDIR  ?= /etc/security
PAMDDIR      ?= /etc/pam.d
DOCDIR       ?= $(PREFIX)/share/doc/pam_pattern
# gettext catalogues: where glibc looks by default (the module has no other way to find them).
LOCALEDIR    ?= /usr/share/locale
# Debian's places (make deb).
ifeq ($(LAYOUT),debian)
override PREFIX := /usr
override BINDIR := /usr/bin
override MANDIR := /usr/share/man
override DOCDIR := /usr/share/doc/pam-pattern
override SECURITYDIR := /etc/security
endif

# The Swift 6 toolchain: SWIFT=..., else swift on PATH, else SWIFT_FALLBACK
# (sudo's secure_path does not include /opt/swift).
SWIFT_FALLBACK ?= /opt/swift/usr/bin/swift
ifeq ($(origin SWIFT),undefined)
SWIFT := $(or $(shell command -v swift 2>/dev/null),$(wildcard $(SWIFT_FALLBACK)))
endif

# Debian packages the build (and so `make demo`) needs, and those the tests, the package and the benchmarks add.
# The Wayland lock screen (pattern-lock): its compositor side's headers, and wayland-scanner for the protocols' glue
# (make wayland-protocols) and the tests' virtual pointer (build/wayland-pointer).
DEB_WAYLAND_BUILD_PACKAGES := libwayland-dev libcairo2-dev libxkbcommon-dev wayland-protocols
# The LightDM greeter (pam-pattern-greeter) links liblightdm-gobject.
DEB_LIGHTDM_BUILD_PACKAGES := liblightdm-gobject-dev
DEB_BUILD_PACKAGES := g++ dpkg-dev libpam0g-dev libcrypt-dev libtss2-dev libbsd-dev gettext libx11-dev libxrandr-dev libxft-dev \
                      $(DEB_WAYLAND_BUILD_PACKAGES) $(DEB_LIGHTDM_BUILD_PACKAGES)
# The Wayland lock screen's tests (Tests/WaylandTests): headless sway as a user, grim's screenshots, wtype's keys; without the desktop
# sway recommends.
DEB_WAYLAND_PACKAGES := sway grim wtype
DEB_PACKAGES := $(DEB_BUILD_PACKAGES) sudo expect tmux strace pamtester \
                groff-base util-linux login passwd python3 libpam-runtime \
                swtpm swtpm-tools tpm2-tools \
                xvfb i3lock xdotool dpkg-dev lintian apt python3-venv locales debootstrap \
                fonts-wqy-microhei xsecurelock x11-apps x11-utils \
                qmlscene qml-module-qtquick2 qml-module-qttest \
                qtdeclarative5-dev-tools
# The KDE lock screen's tests: the greeter and the Plasma package structure, without the desktop they recommend.
DEB_KDE_PACKAGES := libkscreenlocker5 plasma-workspace qml-module-qtquick-controls2
# The GNOME lock screen's and GDM login's tests (Tests/GNOMETests): the shell itself under Xvfb, without the desktop
# it recommends, the D-Bus daemon of its private buses, gjs for the hit rules, libgdm's typelib and python3-gi for the
# stand-in for GDM and logind, dconf-cli for the greeter's on and off commands.
DEB_GNOME_PACKAGES := gnome-shell mutter dbus-x11 gnome-settings-daemon at-spi2-core gjs gir1.2-gdm-1.0 python3-gi dconf-cli
# The SDDM login screen's tests: the daemon and its greeter (Tests/SDDMTests), without the desktop it recommends,
# and what pam-pattern-sddm depends on (the QML its theme imports, for SDDM 0.19's Qt 5 greeter and 0.21's Qt 6
# one), so PackageTests install it without a download; the QML module of Qt's on-screen keyboard (the theme's
# InputPanel) and SDDM's stock Breeze theme, beside which `make screenshots-sddm` shows ours. Not the keyboard's
# input method plugin, qtvirtualkeyboard-plugin: installed, it changes every SDDM greeter of the machine; the test
# that needs it unpacks its .deb into its own namespace (Tests/support/sddm.py).
DEB_SDDM_PACKAGES := sddm dbus qml-module-qtquick2 qml-module-qtquick-window2 qml-module-qtquick-controls2 \
                     qml-module-qtqml-models2 qml6-module-qtquick qml6-module-qtquick-window \
                     qml6-module-qtquick-controls qml6-module-qtqml-models \
                     qml-module-qtquick-virtualkeyboard sddm-theme-breeze

# The LightDM greeter: the daemon its tests run (Tests/LightDMTests) and the library its C main links, without the
# greeter and desktop lightdm recommends; python3-gi for the tests' logind stand-in (Tests/support/login1_stub.py).
DEB_LIGHTDM_PACKAGES := lightdm python3-gi

# SwiftPM takes lock files (<scratch path>.lock, ..._workspace-state.json.lock) and makes temporary
# directories in TMPDIR, named after the scratch path. Left in /tmp by `sudo make`, they are root's, and the
# user's next build of the tree fails ("invalid access"). In the scratch path they go back with it (GIVE_BACK).
SWIFT_TMP      = $(abspath $(SCRATCH))/tmp
IN_SWIFT_TMP   = mkdir -p $(SWIFT_TMP) && TMPDIR=$(SWIFT_TMP)
# SwiftPM runs `git status` in the tree, which rewrites a stale .git/index: under `sudo make` that left the
# person's index owned by root. Optional locks off, git only reads it.
export GIT_OPTIONAL_LOCKS := 0

# SwiftPM colours diagnostics only on a terminal, and the colour flag is part of every compile command: a build
# from a terminal (`make demo` typed, or under expect) after one from a pipe, or the other way round, compiled
# everything again. One setting whatever the output is, so only a changed input rebuilds.
SWIFT_BUILD   = $(IN_SWIFT_TMP) $(SWIFT) build --no-color-diagnostics --scratch-path $(SCRATCH)
# The Embedded chain's target triple: Debian's swiftlang defaults to x86_64-pc-linux-gnu, for which it has no
# Embedded stdlib (debian/rules names x86_64-unknown-linux-gnu). SwiftPM then builds into SCRATCH/TRIPLE/release.
SWIFT_TRIPLE ?=
EMBEDDED_BIN  = $(SCRATCH)/$(if $(SWIFT_TRIPLE),$(SWIFT_TRIPLE)/)release
# no $$ORIGIN runpath: the module and the CLI load nothing from beside themselves
SWIFT_RELEASE := $(SWIFT_BUILD) -c release --disable-local-rpath $(if $(SWIFT_TRIPLE),--triple $(SWIFT_TRIPLE))
# patternctl's normal-Swift chain (PatternCore, static stdlib) has a scratch path of its own inside $(SCRATCH), so
# `make build` compiles it beside the Embedded chain (module, helper, pad, TPM driver): each chain is mostly one
# long compile after another, and SwiftPM lets one build at a time into a scratch path.
CLI_SCRATCH   := $(SCRATCH)/cli
SWIFT_RELEASE_CLI := $(IN_SWIFT_TMP) $(SWIFT) build --no-color-diagnostics --scratch-path $(CLI_SCRATCH) -c release --disable-local-rpath

.PHONY: wayland-protocols all screenshots screenshots-sddm build build-embedded build-cli deps build-deps check-deps pot words toolchain print-swift build-owner test test-swift test-integration test-fuzz demo install uninstall \
        print-installed-files print-installed-directories print-install-list print-deb-lists deb reproducible bench fuzz lint format clean \
        strength-tool strength-figures strength-table install-kde uninstall-kde install-rows uninstall-rows install-sddm uninstall-sddm install-gnome uninstall-gnome \
        screenshots

all: build

# The Debian packages of the list $(1) that are not installed, in $$missing.
FIND_MISSING = missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done

# Installs the missing packages of the list $(1) when run as root; otherwise says what is missing.
INSTALL_MISSING = $(call FIND_MISSING,$(1)); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) $$missing >/dev/null; \
	  else \
	    echo "missing Debian packages:$$missing (run as root, or: sudo apt-get install$$missing)"; exit 1; \
	  fi; \
	fi

# The whole set, for the targets that need it (test, deb, bench), never run by `make build` on its own.
deps:
	@$(call INSTALL_MISSING,$(DEB_PACKAGES))
	@$(call INSTALL_MISSING,$(DEB_KDE_PACKAGES),--no-install-recommends)
	@$(call INSTALL_MISSING,$(DEB_SDDM_PACKAGES),--no-install-recommends)
	@$(call INSTALL_MISSING,$(DEB_WAYLAND_PACKAGES),--no-install-recommends)
	@$(call INSTALL_MISSING,$(DEB_LIGHTDM_PACKAGES),--no-install-recommends)
	@$(call INSTALL_MISSING,$(DEB_GNOME_PACKAGES),--no-install-recommends)

# What the build needs, for `make demo`: after the toolchain check, so a machine without Swift is told
# so before anything is installed.
build-deps: toolchain
	@$(call INSTALL_MISSING,$(DEB_BUILD_PACKAGES))

# `make build` installs nothing: it names what is missing (a failing compile then has its reason) and goes on.
check-deps:
	@$(call FIND_MISSING,$(DEB_BUILD_PACKAGES)); \
	if [ -n "$$missing" ]; then echo "note: missing Debian packages:$$missing (make deps installs them)"; fi

# Says exactly what is missing instead of "swift: command not found".
toolchain:
	@if [ -z "$(SWIFT)" ]; then \
	  echo "swift not found: building pam_pattern needs a Swift 6 toolchain."; \
	  echo "  looked on PATH ($$PATH) and at $(SWIFT_FALLBACK)."; \
	  echo "  Get it from https://www.swift.org/install/linux/ (the Debian 12 tarball) and unpack it"; \
	  echo "  so that /opt/swift/usr/bin/swift exists, or name it: make SWIFT=/path/to/usr/bin/swift ..."; \
	  exit 1; \
	fi
	@# the driver leaves an empty temporary directory behind even for --version: a private one, removed
	@tmp=$$(mktemp -d); version=$$(TMPDIR=$$tmp "$(SWIFT)" --version 2>/dev/null | grep -o 'Swift version [0-9][0-9.]*' | head -1); \
	rm -rf "$$tmp"; \
	major=$${version#Swift version }; major=$${major%%.*}; \
	if [ -z "$$major" ] || [ "$$major" -lt 6 ]; then \
	  echo "$(SWIFT) is not a Swift 6 toolchain ($${version:-it printed no Swift version})."; \
	  echo "  Get Swift 6 from https://www.swift.org/install/linux/, or name it: make SWIFT=/path/to/usr/bin/swift ..."; \
	  exit 1; \
	fi; \
	case "$${version#Swift version }" in 6.0|6.0.*) \
	  echo "$(SWIFT) is $$version: its Embedded Swift has no String (swiftlang/swift#75281), which the module,"; \
	  echo "  the helper and the pad are written with. (Debian 13's swiftlang is 6.0.3.) Get a newer one from"; \
	  echo "  https://www.swift.org/install/linux/ (the Debian 12 tarball works on Debian 13 too) and name it:"; \
	  echo "  make SWIFT=/path/to/usr/bin/swift ..."; \
	  exit 1;; \
	esac

print-swift:
	@echo "$(SWIFT)"

# A tree built as root (a plain `sudo make ...` before this check existed, or
# a root shell) cannot be written by the user: say so and how to fix it,
# instead of failing deep inside swift build.
build-owner:
	@if [ "$$(id -u)" != 0 ]; then \
	  for d in $(BUILD) $(SCRATCH); do \
	    other=$$(find "$$d" \( -path $(DEBIAN13_CACHE) -o -path $(SID_CACHE) \) -prune -o ! -user "$$(id -u)" -print -quit 2>/dev/null); \
	    if [ -n "$$other" ]; then \
	      echo "$(CURDIR)/$$d holds files owned by $$(stat -c %U "$$other") (e.g. $$other), left by a build as root;"; \
	      echo "this build runs as uid $$(id -u) and cannot write there. Give them back with"; \
	      echo "  sudo chown -R $$(id -u):$$(id -g) $(CURDIR)/$(BUILD) $(CURDIR)/$(SCRATCH)"; \
	      echo "or start over with: sudo make clean"; \
	      exit 1; \
	    fi; \
	  done; \
	fi

# After `sudo make ...` in a tree its invoking user owns, the build trees go
# back to that user (SUDO_UID), so their own `make build` keeps working. Not the Debian 13 system the tests
# cache (Tests/support/debian13.py) and the unstable one (sid.py): their files are root's and must stay so (sudo, the setuid helper).
GIVE_BACK = if [ "$$(id -u)" = 0 ] && [ -n "$${SUDO_UID:-}" ] && [ "$$SUDO_UID" != 0 ] \
              && [ "$$(stat -c %u .)" = "$$SUDO_UID" ]; then \
              for d in $(BUILD) $(SCRATCH) $(FUZZ_SCRATCH); do \
                [ ! -e "$$d" ] || find "$$d" \( -path $(DEBIAN13_CACHE) -o -path $(SID_CACHE) \) -prune -o -exec chown -h "$$SUDO_UID:$$SUDO_GID" {} +; \
              done; \
            fi

# PUT,STRIP,SOURCE,NAME: STRIP (writing to the file after it) SOURCE into $(BUILD)/NAME by way of a new file and
# a rename, never over the old file's bytes: a sudo or a test still holding the old module keeps a whole one,
# and a running helper, pad or patternctl does not make the build fail with "Text file busy"
# (Tests/BuildTests/test_rebuild_in_use.py).
PUT = $(1) $(BUILD)/$(3).new $(2) && mv -f $(BUILD)/$(3).new $(BUILD)/$(3)

build: check-deps toolchain build-owner
	@$(MAKE) --no-print-directory -f $(firstword $(MAKEFILE_LIST)) -j2 build-embedded build-cli
	@mkdir -p $(BUILD)
	$(call PUT,strip --strip-unneeded -o,$(EMBEDDED_BIN)/libpam_pattern.so,pam_pattern.so)
	$(call PUT,strip -o,$(EMBEDDED_BIN)/pam_pattern_helper,pam_pattern_helper)
	$(call PUT,strip -o,$(EMBEDDED_BIN)/auth_pattern,auth_pattern)
	$(call PUT,strip -o,$(EMBEDDED_BIN)/pattern-draw,pattern-draw)
	$(call PUT,strip -o,$(EMBEDDED_BIN)/pattern-lock,pattern-lock)
	# pattern-lock's PAM child: plain C (no Swift at all), hardened as Debian builds C
	gcc -Wall -Wextra $$(dpkg-buildflags --get CPPFLAGS) $$(dpkg-buildflags --get CFLAGS) $$(dpkg-buildflags --get LDFLAGS) -Wl,-z,now \
	  -o $(BUILD)/pattern-lock-pam.new $(SURFACES)/wayland/pam/pattern_lock_pam.c -lpam \
	  && strip $(BUILD)/pattern-lock-pam.new && mv -f $(BUILD)/pattern-lock-pam.new $(BUILD)/pattern-lock-pam
	# the Wayland tests' virtual pointer (Tests/WaylandTests), never installed: its protocol's glue made here
	wayland-scanner client-header Tools/wayland-pointer/wlr-virtual-pointer-unstable-v1.xml $(BUILD)/wlr-virtual-pointer-client-protocol.h
	wayland-scanner private-code Tools/wayland-pointer/wlr-virtual-pointer-unstable-v1.xml $(BUILD)/wlr-virtual-pointer-protocol.c
	gcc -Wall -Wextra -O2 -I$(BUILD) -o $(BUILD)/wayland-pointer Tools/wayland-pointer/wayland_pointer.c \
	  $(BUILD)/wlr-virtual-pointer-protocol.c -lwayland-client
	# and their touch screen: a minimal compositor sway runs nested in (Tools/wayland-touch)
	wayland-scanner private-code $(SURFACES)/wayland/protocol/xdg-shell.xml $(BUILD)/xdg-shell-server-glue.c
	gcc -Wall -Wextra -O2 -o $(BUILD)/wayland-touch-host Tools/wayland-touch/wayland_touch_host.c \
	  $(BUILD)/xdg-shell-server-glue.c -lwayland-server
	$(call PUT,strip -o,$(EMBEDDED_BIN)/pam-pattern-greeter,pam-pattern-greeter)
	$(call PUT,strip -o,$(CLI_SCRATCH)/release/patternctl,patternctl)
	gcc -Wall -Wextra -O2 -o $(BUILD)/pam-try demo/pam_try.c -lpam -lpam_misc
	install -m 0755 $(EMBEDDED_BIN)/tpm-driver $(BUILD)/tpm-driver  # install: a new file, as PUT
	install -m 0755 $(CLI_SCRATCH)/release/core-vectors $(BUILD)/core-vectors
	install -m 0755 $(EMBEDDED_BIN)/core-vectors-embedded $(BUILD)/core-vectors-embedded
	# the KDE Plasma lock screens, a look-and-feel package (5.27) and a shell package (6): each version's
	# LockScreen.qml, the shared screen and grid, and the words it recognises, generated from the message catalogue
	for v in plasma5 plasma6; do \
	  rm -rf $(BUILD)/kde/$$v.new && mkdir -p $(BUILD)/kde && cp -r $(SURFACES)/kde/ui/$$v $(BUILD)/kde/$$v.new \
	  && cp $(SURFACES)/kde/ui/PatternLockScreen.qml $(SURFACES)/shared/qml/PatternGrid.qml $(SURFACES)/shared/qml/PatternTrace.js \
	    $(BUILD)/kde/$$v.new/contents/lockscreen/ \
	  && $(PYTHON) po/module-words.py > $(BUILD)/kde/$$v.new/contents/lockscreen/ModuleWords.js \
	  && rm -rf $(BUILD)/kde/$$v && mv $(BUILD)/kde/$$v.new $(BUILD)/kde/$$v || exit 1; \
	done
	# the SDDM login screen, a greeter theme: its QML, the same shared grid and words
	rm -rf $(BUILD)/sddm/pam-pattern.new && mkdir -p $(BUILD)/sddm && cp -r $(SURFACES)/sddm/ui $(BUILD)/sddm/pam-pattern.new \
	  && cp $(SURFACES)/shared/qml/PatternGrid.qml $(SURFACES)/shared/qml/PatternTrace.js $(BUILD)/sddm/pam-pattern.new/ \
	  && $(PYTHON) po/module-words.py > $(BUILD)/sddm/pam-pattern.new/ModuleWords.js \
	  && rm -rf $(BUILD)/sddm/pam-pattern && mv $(BUILD)/sddm/pam-pattern.new $(BUILD)/sddm/pam-pattern
	# the GNOME Shell extension (lock screen and GDM greeter), one directory per shell it runs on: 43's (legacy GJS
	# modules, the shared files as written) and 48's (ES modules, es_module.py's translation of the same files); each
	# its entry point and metadata, and the same hit rules and words as the QML surfaces', without QML's `.pragma
	# library` line; GDM's keyfile (both uuids) once, in 43's
	for flavour in 43:$(GNOME_UUID) 48:$(GNOME_UUID_48); do \
	  shell=$${flavour%%:*}; d=$(BUILD)/gnome/$${flavour#*:}; \
	  rm -rf $$d.new && mkdir -p $$d.new && cp $(SURFACES)/gnome/ui/*.* $(SURFACES)/gnome/ui/shell-$$shell/* $$d.new/ \
	  && sed '/^\.pragma library$$/d' $(SURFACES)/shared/qml/PatternTrace.js > $$d.new/patternTrace.js \
	  && $(PYTHON) po/module-words.py > $$d.new/moduleWords.js && sed -i '/^\.pragma library$$/d' $$d.new/moduleWords.js \
	  && { [ $$shell != 43 ] || cp $(SURFACES)/gnome/ui/gdm-login-screen $$d.new/; } || exit 1; \
	  if [ $$shell != 43 ]; then \
	    for js in patternGrid patternPrompt promptHooks patternTrace moduleWords; do \
	      $(PYTHON) $(SURFACES)/gnome/es_module.py $$d.new/$$js.js > $$d.new/$$js.mjs && mv $$d.new/$$js.mjs $$d.new/$$js.js || exit 1; \
	    done; \
	  fi; \
	  rm -rf $$d && mv $$d.new $$d || exit 1; \
	done
	# the desktop entry of `patternctl set --draw`, its words translated from the catalogues
	cp $(SURFACES)/draw/ui/pam-pattern-draw.desktop.in $(BUILD)/pam-pattern-draw.desktop.new
	for po in $(wildcard po/*.po); do \
	  msgfmt --desktop --template=$(BUILD)/pam-pattern-draw.desktop.new -l $$(basename $$po .po) \
	    -o $(BUILD)/pam-pattern-draw.desktop.next $$po && mv $(BUILD)/pam-pattern-draw.desktop.next $(BUILD)/pam-pattern-draw.desktop.new || exit 1; \
	done
	mv $(BUILD)/pam-pattern-draw.desktop.new $(BUILD)/pam-pattern-draw.desktop
	# message catalogues (po/LL.po -> build/locale/LL/...): msgfmt -c checks each translation's %s
	for po in $(wildcard po/*.po); do \
	  lang=$$(basename $$po .po); mkdir -p $(BUILD)/locale/$$lang/LC_MESSAGES && \
	  msgfmt -c -o $(BUILD)/locale/$$lang/LC_MESSAGES/pam_pattern.mo $$po || exit 1; \
	done
	@$(GIVE_BACK)

# The two chains of `make build`, run side by side by it.
build-embedded:
	$(SWIFT_RELEASE) --product pam_pattern
	$(SWIFT_RELEASE) --product pam_pattern_helper
	$(SWIFT_RELEASE) --product auth_pattern
	$(SWIFT_RELEASE) --product pattern-draw
	$(SWIFT_RELEASE) --product pattern-lock
	$(SWIFT_RELEASE) --product pam-pattern-greeter
	# the TPM layer's test driver (Tests/TPMTests), never installed
	$(SWIFT_RELEASE) --product tpm-driver
	# the core's pure functions as Embedded Swift, for Tests/CoreVectorsTests and Tests/QMLTests, never installed
	$(SWIFT_RELEASE) --product core-vectors-embedded

build-cli:
	# static Swift stdlib: the installed CLI must not need the toolchain at /opt/swift
	$(SWIFT_RELEASE_CLI) --product patternctl --static-swift-stdlib
	# the core's pure functions as normal Swift, for Tests/CoreVectorsTests, never installed
	$(SWIFT_RELEASE_CLI) --product core-vectors --static-swift-stdlib

# The Wayland protocols' C glue for pattern-lock, made again from the XMLs in $(SURFACES)/wayland/protocol (committed:
# SwiftPM compiles it as found; ARCHITECTURE.md, "The drawing surfaces").
wayland-protocols:
	for xml in $(SURFACES)/wayland/protocol/*.xml; do \
	  name=$$(basename $$xml .xml); \
	  wayland-scanner client-header $$xml $(SURFACES)/wayland/wayland-c/protocol/$$name-client-protocol.h && \
	  wayland-scanner private-code $$xml $(SURFACES)/wayland/wayland-c/protocol/$$name-protocol.c || exit 1; \
	done

# Regenerates po/pam_pattern.pot from the sources (Tests/LocaleTests checks it is current).
pot:
	$(PYTHON) po/extract-messages.py . > po/pam_pattern.pot

# Regenerates the table of the module's words the core reads back (Tests/CoreVectorsTests checks it is current):
# after `make pot` or a change to po/*.po.
words:
	$(PYTHON) po/module-words.py --swift . > Sources/PatternCore/Text/ModuleWordsTable.swift

test: deps build lint test-swift test-integration test-fuzz

# The unit tests' product alone (PatternCore and its tests, debug): a bare `swift test` would first build every
# target in debug too, minutes of compiling that `make build` already does in release.
SWIFT_TESTS_PRODUCT := pam_patternPackageTests

test-swift: toolchain build-owner
	$(SWIFT_BUILD) --product $(SWIFT_TESTS_PRODUCT) \
	  && $(IN_SWIFT_TMP) $(SWIFT) test --scratch-path $(SCRATCH) --skip-build; status=$$?; $(GIVE_BACK); exit $$status
	# every pattern's drawing read back; optimised (a debug build takes minutes). Beside patternctl, with its flags,
	# so the release PatternCore they share is not compiled again for one and then again for the other.
	$(SWIFT_RELEASE_CLI) --product drawing-roundtrip --static-swift-stdlib; status=$$?; $(GIVE_BACK); exit $$status
	$(CLI_SCRATCH)/release/drawing-roundtrip

# Every suite, or one: `make test-integration SUITE=PadTests`. Each suite's time is printed (CI's budget is read off it).
SUITE ?=
INTEGRATION_SUITES = $(if $(SUITE),$(addprefix Tests/,$(addsuffix /,$(SUITE))),$(wildcard Tests/*/))

test-integration: build
	@failed=""; total_start=$$(date +%s); for d in $(INTEGRATION_SUITES); do \
	  [ -d "$$d" ] || { echo "no suite $$d"; failed="$$failed $$d"; continue; }; \
	  if ls $$d/test_*.py >/dev/null 2>&1; then \
	    echo "== $$d"; start=$$(date +%s); \
	    PAM_PATTERN_BUILD=$(CURDIR)/$(BUILD) PAM_PATTERN_ROOT=$(CURDIR) PYTHONPATH=$(CURDIR)/Tests \
	      $(PYTHON) -m unittest discover -s $$d -p 'test_*.py' -v || failed="$$failed $$d"; \
	    echo "== $$d took $$(( $$(date +%s) - start )) s"; \
	  fi; \
	done; \
	echo "== integration suites took $$(( $$(date +%s) - total_start )) s"; \
	if [ -n "$$failed" ]; then echo "FAILED integration suites:$$failed"; exit 1; fi

# TPMTests with swtpm answering at the slowest real chips' speed (Tests/support/tpm_latency.py), every test of
# test_tpm_patternctl included: too slow for `make test`, which runs test_tpm_slow_chips.py's own tests only.
.PHONY: test-tpm-slow
test-tpm-slow: build
	PAM_PATTERN_TPM_MODEL=1 PAM_PATTERN_TPM_SLOW_ALL=1 $(MAKE) --no-print-directory test-integration SUITE=TPMTests

# Try it: a demo pattern in a private temporary store, a real PAM prompt.
demo: toolchain build-deps build
	@demo/run-demo.sh $(CURDIR)/$(BUILD)

# Every installed file, one "source destination mode" row each, in lists: packaging/install.list (pam-pattern's
# own files) and one package.list per drawing surface (Sources/Surfaces/*/); a binary package is one or more
# lists: pam-pattern (`make install`) is PAM_PATTERN_LISTS, pam-pattern-kde (`make install-kde`) the KDE
# surface's, pam-pattern-sddm (`make install-sddm`) the SDDM surface's. `make deb` packages each.
# INSTALL_LIST names the list, or the lists, the row targets below read.
PAM_PATTERN_LISTS := packaging/install.list $(SURFACES)/pad/package.list $(SURFACES)/draw/package.list
INSTALL_LIST ?= $(PAM_PATTERN_LISTS)
$(eval INSTALL_ROWS = $(shell sed -e 's/\#.*//' $(INSTALL_LIST)))
FOR_EACH_ROW = set -- $(INSTALL_ROWS); while [ $$\# -ge 3 ]; do src=$$1 dst=$$2 mode=$$3; shift 3;
# The binary packages `make deb` builds, each "package:list[,list...]"; only pam-pattern-kde depends on KDE,
# only pam-pattern-sddm on SDDM (LXQt and others log in with SDDM without Plasma).
DEB_LISTS := pam-pattern:$(subst $(SPACE),$(COMMA),$(PAM_PATTERN_LISTS)) pam-pattern-kde:$(SURFACES)/kde/package.list \
             pam-pattern-sddm:$(SURFACES)/sddm/package.list \
             pam-pattern-wayland:$(SURFACES)/wayland/package.list \
             pam-pattern-lightdm:$(SURFACES)/lightdm/package.list \
             pam-pattern-gnome:$(SURFACES)/gnome/package.list

# DEB_LISTS, an entry a line (Tests/support/debs.py reads which lists make each package).
print-deb-lists:
	@for entry in $(DEB_LISTS); do echo "$$entry"; done

install:
	@test -f $(BUILD)/pam_pattern.so || { echo "run 'make build' first"; exit 1; }
	@$(MAKE) -s --no-print-directory install-rows INSTALL_LIST="$(PAM_PATTERN_LISTS)"
	@echo "installed; nothing is enabled. See docs/reference.md, 'Enabling it for sudo, safely'."

uninstall:
	@$(MAKE) -s --no-print-directory uninstall-rows INSTALL_LIST="$(PAM_PATTERN_LISTS)"
	-rmdir $(DESTDIR)$(DOCDIR)/examples $(DESTDIR)$(DOCDIR) $(DESTDIR)$(dir $(PAD)) 2>/dev/null
	@echo "removed; the patterns in $(STOREDIR) and the state in $(STATEDIR) are kept (delete them by hand)."

# The rows of INSTALL_LIST into DESTDIR.
install-rows:
	@$(FOR_EACH_ROW) \
	  if [ "$$src" = - ]; then \
	    [ -e "$(DESTDIR)$$dst" ] || [ -L "$(DESTDIR)$$dst" ] || { echo "install -d -m $$mode $(DESTDIR)$$dst"; \
	      install -d -m "$$mode" "$(DESTDIR)$$dst" || exit 1; }; continue; \
	  fi; \
	  case "$$dst" in /etc/*|$(SECURITYDIR)/*) \
	    if [ -e "$(DESTDIR)$$dst" ] || [ -L "$(DESTDIR)$$dst" ]; then echo "kept the existing $$dst (the default is in $(DOCDIR)/examples)"; continue; fi;; \
	  esac; \
	  echo "install -D -m $$mode $$src $(DESTDIR)$$dst"; \
	  install -D -m "$$mode" "$$src" "$(DESTDIR)$$dst" || exit 1; \
	done

uninstall-rows:
	@# configuration goes only while it is still the shipped default
	@$(FOR_EACH_ROW) \
	  if [ "$$src" = - ]; then rmdir "$(DESTDIR)$$dst" 2>/dev/null || true; continue; fi; \
	  case "$$dst" in /etc/*|$(SECURITYDIR)/*) \
	    if ! cmp -s "$$src" "$(DESTDIR)$$dst" && [ -e "$(DESTDIR)$$dst" ]; then echo "kept $$dst: it was changed (delete it by hand)"; continue; fi;; \
	  esac; \
	  rm -f "$(DESTDIR)$$dst"; \
	done

# The KDE Plasma lock screens (README, "KDE Plasma"; the package pam-pattern-kde): for 5.27 the look-and-feel
# package Plasma finds by its id.
KDE_LOCKSCREEN := /usr/share/plasma/look-and-feel/org.pam-pattern.lockscreen
# The Plasma 6 lock screen: a shell package that has only contents/lockscreen (org.kde.plasma.desktop, its
# fallback, supplies everything else).
KDE_SHELL := /usr/share/plasma/shells/org.pam-pattern.desktop
# Plasma 6's on/off command, as root: a copy of the stock desktop shell with that lock screen, in /usr/local/share
# (the package's dpkg trigger refreshes it); the paths it knows are KDE_SHELL's and Plasma's.
KDE_PLASMA6_COMMAND := /usr/libexec/pam-pattern/plasma6-lock-screen
# Plasma 5.27's on/off command, for a person or (--everyone, as root) /etc/xdg: kscreenlockerrc's [Greeter] Theme,
# and off puts the file back exactly as it was.
KDE_PLASMA5_COMMAND := /usr/libexec/pam-pattern/plasma5-lock-screen

install-kde:
	@test -f $(BUILD)/kde/plasma5/contents/lockscreen/LockScreen.qml || { echo "run 'make build' first"; exit 1; }
	@$(MAKE) -s --no-print-directory install-rows INSTALL_LIST=$(SURFACES)/kde/package.list
	@echo "installed; turn it on for yourself with: $(KDE_PLASMA5_COMMAND) on (Plasma 5.27)"
	@echo "(on Plasma 6, for everyone: sudo $(KDE_PLASMA6_COMMAND) on)"

uninstall-kde:
	@$(MAKE) -s --no-print-directory uninstall-rows INSTALL_LIST=$(SURFACES)/kde/package.list

# The GNOME Shell extension (docs/reference.md, "GNOME"; the package pam-pattern-gnome): its uuid, and where
# GNOME Shell finds extensions installed for everyone.
GNOME_UUID := pam-pattern@pam-pattern.org
GNOME_UUID_48 := pam-pattern-48@pam-pattern.org
GNOME_EXTENSION := /usr/share/gnome-shell/extensions/$(GNOME_UUID)
GNOME_EXTENSION_48 := /usr/share/gnome-shell/extensions/$(GNOME_UUID_48)

install-gnome:
	@test -f $(BUILD)/gnome/$(GNOME_UUID)/extension.js || { echo "run 'make build' first"; exit 1; }
	@$(MAKE) -s --no-print-directory install-rows INSTALL_LIST=$(SURFACES)/gnome/package.list
	@echo "installed; turn it on for yourself with: gnome-extensions enable $(GNOME_UUID) (GNOME 43)"
	@echo "(GNOME 48: gnome-extensions enable $(GNOME_UUID_48))"

uninstall-gnome:
	@$(MAKE) -s --no-print-directory uninstall-rows INSTALL_LIST=$(SURFACES)/gnome/package.list

# The SDDM login screen (README, "SDDM"; the package pam-pattern-sddm): the greeter theme SDDM finds by its
# directory's name. Installing turns nothing on: the README's command copies the drop-in beside it to
# /etc/sddm.conf.d.
SDDM_THEME := /usr/share/sddm/themes/pam-pattern

install-sddm:
	@test -f $(BUILD)/sddm/pam-pattern/Main.qml || { echo "run 'make build' first"; exit 1; }
	@$(MAKE) -s --no-print-directory install-rows INSTALL_LIST=$(SURFACES)/sddm/package.list
	@echo "installed; turn it on with: sudo install -D -m 644 $(SDDM_THEME)/pam-pattern.conf /etc/sddm.conf.d/pam-pattern.conf"

uninstall-sddm:
	@$(MAKE) -s --no-print-directory uninstall-rows INSTALL_LIST=$(SURFACES)/sddm/package.list

# The installed files of INSTALL_LIST (docs/reference.md, "Files"; the install tests compare against it); the
# directories apart.
print-installed-files:
	@$(FOR_EACH_ROW) [ "$$src" = - ] || echo "$$dst"; done

print-installed-directories:
	@$(FOR_EACH_ROW) [ "$$src" != - ] || echo "$$dst $$mode"; done

# The rows with every directory filled in (LAYOUT=debian for the package's).
print-install-list:
	@$(FOR_EACH_ROW) echo "$$src $$dst $$mode"; done

# The Debian packages, from the same build and the same file lists (docs/reference.md, "Install the package"):
# one .deb per DEB_LISTS entry, their paths printed in that order.
DEB_STAGE   := $(BUILD)/deb-root
# The packages' version (packaging/version.sh): debian/changelog's at the commit its release tag names, one of
# its own at every other commit; DEB_VERSION=... names another.
DEB_VERSION ?= $(shell packaging/version.sh)
deb: deps build
	@for entry in $(DEB_LISTS); do \
	  package=$${entry%%:*} list=$${entry#*:}; list=$${list//,/ }; \
	  rm -rf $(DEB_STAGE); \
	  $(MAKE) -s --no-print-directory install-rows LAYOUT=debian INSTALL_LIST="$$list" DESTDIR=$(CURDIR)/$(DEB_STAGE) >/dev/null \
	  && DIRECTORY_MODES="$$($(MAKE) -s --no-print-directory print-installed-directories LAYOUT=debian INSTALL_LIST="$$list")" \
	    SHARED_DIRECTORIES="$(PAMDIR)" packaging/build-deb.sh $$package $(DEB_STAGE) $(BUILD) $(DEB_VERSION) || exit 1; \
	done
	@rm -rf $(DEB_STAGE)
	@$(GIVE_BACK)

# The Debian source package built twice in unstable (time, path, umask and time zone varied), each .deb's hashes
# printed and every differing file named (packaging/reproducible.py); root. Not in `make test`: two full builds.
reproducible: deps
	PAM_PATTERN_BUILD=$(CURDIR)/$(BUILD) PAM_PATTERN_ROOT=$(CURDIR) $(PYTHON) packaging/reproducible.py

# The screenshots in docs/ made anew from the real programs (root; Xvfb and the greeters, make deps): the KDE
# lock screen beside the stock Breeze one on Plasma 5.27 (docs/kde-lock-screen-5.27.png, docs/kde-breeze-5.27.png)
# and on Plasma 6 in the Debian 13 chroot (-6.png), and the README's drawing in progress (docs/kde-lock-screen.png).
SCREENSHOT_TESTS := test_lock_screen_look.ScreenshotsTest test_lock_screen.ScreenshotTest \
	test_debian13.Debian13KdePackage.test_plasma_6_screenshots_beside_the_stock_lock_screen
screenshots: build
	PAM_PATTERN_UPDATE_SCREENSHOT=1 PAM_PATTERN_BUILD=$(CURDIR)/$(BUILD) PAM_PATTERN_ROOT=$(CURDIR) \
	  PYTHONPATH=$(CURDIR)/Tests:$(CURDIR)/Tests/KDETests:$(CURDIR)/Tests/PackageTests \
	  $(PYTHON) -m unittest $(SCREENSHOT_TESTS)

# Benchmarks against pam_unix in the same run (docs/reference.md, "Benchmarks").
# The screenshots in docs/, made anew from the real programs (each surface adds its part).
screenshots: screenshots-sddm

# The SDDM login screen and SDDM's own Breeze beside it, from the real daemon and greeter (Tests/SDDMTests/
# test_look.py's ScreenshotsTest): docs/sddm-login-screen.png and docs/sddm-breeze.png.
screenshots-sddm: build
	PAM_PATTERN_UPDATE_SCREENSHOT=1 PAM_PATTERN_BUILD=$(CURDIR)/$(BUILD) PAM_PATTERN_ROOT=$(CURDIR) \
	  PYTHONPATH=$(CURDIR)/Tests $(PYTHON) -m unittest -v Tests/SDDMTests/test_look.py -k ScreenshotsTest

bench: deps build strength-figures
	@bench/run-bench.sh $(CURDIR)/$(BUILD)

# People's patterns from published user studies (not part of the project: no licence came with them).
HUMAN_PATTERNS ?= /work/shared/data/human-patterns-train.txt
# How many random 5-fold splits the strength figures average over.
STRENGTH_SHUFFLES ?= 5

strength-tool: toolchain build-owner
	$(SWIFT_RELEASE_CLI) --product strength-table --static-swift-stdlib; status=$$?; $(GIVE_BACK); exit $$status

# The strength rules' figures, cross-validated on HUMAN_PATTERNS (FILEFORMAT.md, "Refused patterns").
strength-figures: strength-tool
	@if [ -r $(HUMAN_PATTERNS) ]; then \
	  $(CLI_SCRATCH)/release/strength-table figures $(STRENGTH_SHUFFLES) < $(HUMAN_PATTERNS); \
	else echo "strength figures skipped: no $(HUMAN_PATTERNS) (HUMAN_PATTERNS=FILE; the data is not part of pam_pattern)"; fi

# Learns the shipped table (Sources/PatternCore/Pattern/HumanChoiceTable.swift) from HUMAN_PATTERNS again.
strength-table: strength-tool
	$(CLI_SCRATCH)/release/strength-table derive < $(HUMAN_PATTERNS) > Sources/PatternCore/Pattern/HumanChoiceTable.swift.new
	mv Sources/PatternCore/Pattern/HumanChoiceTable.swift.new Sources/PatternCore/Pattern/HumanChoiceTable.swift

# libFuzzer + ASan (fuzz/run.sh, fuzz/README.md), in their own scratch path: FUZZ_SECONDS per target,
# FUZZ_JOBS targets at a time (a fuzzer is one process: one per core, each target keeps a whole core).
FUZZ_SECONDS      ?= 300
FUZZ_TEST_SECONDS ?= 25
FUZZ_SCRATCH      ?= .build-fuzz
FUZZ_JOBS         ?= $(shell nproc 2>/dev/null || echo 1)

fuzz: build
	mkdir -p $(abspath $(FUZZ_SCRATCH))/tmp && TMPDIR=$(abspath $(FUZZ_SCRATCH))/tmp SWIFT=$(SWIFT) fuzz/run.sh --seconds $(FUZZ_SECONDS) --jobs $(FUZZ_JOBS) --scratch $(FUZZ_SCRATCH) --module $(CURDIR)/$(BUILD)/pam_pattern.so; \
	  status=$$?; $(GIVE_BACK); exit $$status

# The bounded pass of `make test`: replays the committed corpus, then fuzzes each target briefly.
test-fuzz: build
	mkdir -p $(abspath $(FUZZ_SCRATCH))/tmp && TMPDIR=$(abspath $(FUZZ_SCRATCH))/tmp SWIFT=$(SWIFT) fuzz/run.sh --seconds $(FUZZ_TEST_SECONDS) --jobs $(FUZZ_JOBS) --scratch $(FUZZ_SCRATCH) --module $(CURDIR)/$(BUILD)/pam_pattern.so; \
	  status=$$?; $(GIVE_BACK); exit $$status

# Style of what the project writes, checked and applied the same way everywhere: swift format (ships with
# the toolchain; rules in .swift-format) and ruff (PyPI, pinned, in a venv under the scratch path; ruff.toml).
RUFF_VERSION  := 0.17.5
LINT_VENV     := $(SCRATCH)/lint-venv
RUFF          := $(LINT_VENV)/bin/ruff
# PatternCoreEmbedded is a link to PatternCore: named once.
SWIFT_SOURCES := Package.swift $(filter-out Sources/PatternCoreEmbedded,$(wildcard Sources/*)) Tools fuzz/PatternFuzz Tests

$(RUFF):
	$(PYTHON) -m venv $(LINT_VENV)
	$(LINT_VENV)/bin/pip install -q ruff==$(RUFF_VERSION)

lint: toolchain $(RUFF)
	$(SWIFT) format lint --strict --recursive $(SWIFT_SOURCES)
	$(RUFF) check .
	$(RUFF) format --check .

format: toolchain $(RUFF)
	$(SWIFT) format --in-place --recursive $(SWIFT_SOURCES)
	$(RUFF) check --fix .
	$(RUFF) format .

clean:
	rm -rf $(BUILD) $(SCRATCH) $(FUZZ_SCRATCH)
